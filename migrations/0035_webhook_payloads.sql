DROP INDEX `webhook_events_account_list_id_idx`;--> statement-breakpoint
ALTER TABLE `webhook_events` ADD `payload` text;--> statement-breakpoint
CREATE INDEX `webhook_events_account_list_id_event_type_created_at_idx` ON `webhook_events` (`account_list_id`,`event_type`,`created_at`);