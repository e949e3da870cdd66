CREATE TABLE `identity_links` (
	`id` text PRIMARY KEY NOT NULL,
	`issuer` text NOT NULL,
	`subject` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `identity_links_issuer_subject_unique` ON `identity_links` (`issuer`,`subject`);--> statement-breakpoint
CREATE INDEX `identity_links_user_id_idx` ON `identity_links` (`user_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `tokens_revoked_through` integer;