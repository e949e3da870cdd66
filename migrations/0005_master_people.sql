CREATE TABLE `master_people` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
-- Users that already name a master person get its row, dated like the user.
INSERT INTO `master_people` (`id`, `created_at`, `updated_at`)
SELECT `master_person_id`, MIN(`created_at`), MIN(`created_at`) FROM `users` WHERE `master_person_id` IS NOT NULL GROUP BY `master_person_id`;
