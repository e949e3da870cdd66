DROP INDEX `tasks_account_list_id_activity_type_idx`;--> statement-breakpoint
CREATE INDEX `tasks_account_list_id_activity_type_completed_idx` ON `tasks` (`account_list_id`,`activity_type`,`completed`,`completed_at`);--> statement-breakpoint
CREATE INDEX `donations_account_list_id_amount_idx` ON `donations` (`account_list_id`,`amount`);