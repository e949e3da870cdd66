CREATE TABLE `import_row_failures` (
	`import_id` text NOT NULL,
	`row_number` integer NOT NULL,
	`message` text NOT NULL,
	`cells` text NOT NULL,
	PRIMARY KEY(`import_id`, `row_number`),
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `imports` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`user_id` text NOT NULL,
	`source` text DEFAULT 'csv' NOT NULL,
	`in_preview` integer DEFAULT true NOT NULL,
	`file_key` text,
	`file_name` text,
	`file_size_in_bytes` integer DEFAULT 0 NOT NULL,
	`file_encoding` text DEFAULT 'utf-8' NOT NULL,
	`file_headers` text NOT NULL,
	`file_constants` text NOT NULL,
	`sample_rows` text NOT NULL,
	`file_headers_mappings` text NOT NULL,
	`file_constants_mappings` text NOT NULL,
	`tag_list` text DEFAULT '' NOT NULL,
	`rows_total` integer DEFAULT 0 NOT NULL,
	`next_row` integer DEFAULT 0 NOT NULL,
	`rows_imported` integer DEFAULT 0 NOT NULL,
	`rows_failed` integer DEFAULT 0 NOT NULL,
	`queued_for_import_at` text,
	`import_started_at` text,
	`import_completed_at` text,
	`claimed_at` text,
	`error` text,
	`mail_attempted_at` text,
	`mail_sent_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `imports_account_list_id_created_at_idx` ON `imports` (`account_list_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `imports_user_id_idx` ON `imports` (`user_id`);--> statement-breakpoint
CREATE INDEX `imports_running_idx` ON `imports` (`queued_for_import_at`) WHERE queued_for_import_at IS NOT NULL AND import_completed_at IS NULL;