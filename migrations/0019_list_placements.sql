CREATE TABLE `list_placements` (
	`account_list_id` text PRIMARY KEY NOT NULL,
	`database` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `list_placements_database_idx` ON `list_placements` (`database`);