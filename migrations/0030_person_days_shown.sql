DROP INDEX `person_days_account_list_id_month_day_idx`;--> statement-breakpoint
ALTER TABLE `person_days` ADD `contact_id` text;--> statement-breakpoint
ALTER TABLE `person_days` ADD `first_name` text;--> statement-breakpoint
ALTER TABLE `person_days` ADD `deceased` integer;--> statement-breakpoint
ALTER TABLE `person_days` ADD `contact_status` text;--> statement-breakpoint
CREATE INDEX `person_days_account_list_id_month_day_idx` ON `person_days` (`account_list_id`,`kind`,`month_day`,`first_name`,`person_id`,`contact_id`,`deceased`,`contact_status`);