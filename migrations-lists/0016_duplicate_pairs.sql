CREATE TABLE `duplicate_record_pairs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`record_type` text NOT NULL,
	`record_one_id` text NOT NULL,
	`record_two_id` text NOT NULL,
	`reason` text NOT NULL,
	`ignore` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `duplicate_record_pairs_records_unique` ON `duplicate_record_pairs` (`record_type`,`record_one_id`,`record_two_id`);--> statement-breakpoint
CREATE INDEX `duplicate_record_pairs_record_two_id_idx` ON `duplicate_record_pairs` (`record_two_id`);--> statement-breakpoint
CREATE INDEX `duplicate_record_pairs_account_list_id_created_at_idx` ON `duplicate_record_pairs` (`account_list_id`,`record_type`,`ignore`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `contacts` ADD `name_key` text;--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_name_key_idx` ON `contacts` (`account_list_id`,`name_key`) WHERE name_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX `kept_sums_repeated_idx` ON `kept_sums` (`kind`,`owner_id`,`key1`,`key2`) WHERE rows > 1;