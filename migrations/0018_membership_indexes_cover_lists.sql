DROP INDEX `account_list_coaches_user_id_idx`;--> statement-breakpoint
CREATE INDEX `account_list_coaches_user_id_account_list_id_idx` ON `account_list_coaches` (`user_id`,`account_list_id`);--> statement-breakpoint
DROP INDEX `account_list_users_user_id_idx`;--> statement-breakpoint
CREATE INDEX `account_list_users_user_id_account_list_id_idx` ON `account_list_users` (`user_id`,`account_list_id`);