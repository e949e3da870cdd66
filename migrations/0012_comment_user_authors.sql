ALTER TABLE `comments` ADD `user_id` text REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `comments_user_id_idx` ON `comments` (`user_id`);