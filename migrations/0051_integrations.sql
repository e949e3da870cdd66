CREATE TABLE `mail_chimp_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`api_key` text NOT NULL,
	`primary_list_id` text,
	`auto_log_campaigns` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_chimp_accounts_account_list_id_unique` ON `mail_chimp_accounts` (`account_list_id`);--> statement-breakpoint
CREATE TABLE `prayer_letters_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`oauth2_token` text NOT NULL,
	`valid_token` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prayer_letters_accounts_account_list_id_unique` ON `prayer_letters_accounts` (`account_list_id`);