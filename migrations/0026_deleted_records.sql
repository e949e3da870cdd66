CREATE TABLE `deleted_records` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`deletable_id` text NOT NULL,
	`deletable_type` text NOT NULL,
	`deleted_from_id` text NOT NULL,
	`deleted_from_type` text NOT NULL,
	`deleted_by_id` text,
	`deleted_at` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`deleted_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `deleted_records_account_list_id_deleted_at_idx` ON `deleted_records` (`account_list_id`,`deleted_at`,`id`);--> statement-breakpoint
CREATE INDEX `deleted_records_account_list_id_created_at_idx` ON `deleted_records` (`account_list_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `deleted_records_account_list_id_updated_at_idx` ON `deleted_records` (`account_list_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `deleted_records_deleted_at_idx` ON `deleted_records` (`deleted_at`);--> statement-breakpoint
DROP INDEX `tasks_account_list_id_activity_type_idx`;--> statement-breakpoint
CREATE INDEX `tasks_account_list_id_activity_type_completed_idx` ON `tasks` (`account_list_id`,`activity_type`,`completed`,`completed_at`);--> statement-breakpoint
CREATE INDEX `donations_account_list_id_amount_idx` ON `donations` (`account_list_id`,`amount`);