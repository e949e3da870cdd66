CREATE TABLE `webhook_manual_sends` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_manual_sends_account_list_id_created_at_idx` ON `webhook_manual_sends` (`account_list_id`,`created_at`);