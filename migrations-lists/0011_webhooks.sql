CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`round_start` integer DEFAULT 0 NOT NULL,
	`last_attempt_at` text,
	`next_attempt_at` text NOT NULL,
	`response_status` integer,
	`response_ms` integer,
	`response_body` text,
	`claimed_until` text,
	`queued_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `webhook_events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_event_id_webhook_id_unique` ON `webhook_deliveries` (`event_id`,`webhook_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_id_created_at_idx` ON `webhook_deliveries` (`webhook_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_account_list_id_idx` ON `webhook_deliveries` (`account_list_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_pending_idx` ON `webhook_deliveries` (`queued_at`,`next_attempt_at`) WHERE status = 'pending';--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`event_type` text NOT NULL,
	`resource_type` text NOT NULL,
	`resource_id` text NOT NULL,
	`snapshot` text,
	`data` text,
	`occurred_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_events_account_list_id_idx` ON `webhook_events` (`account_list_id`);--> statement-breakpoint
CREATE INDEX `webhook_events_created_at_idx` ON `webhook_events` (`created_at`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`event_types` text DEFAULT '[]' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`secret` text DEFAULT '' NOT NULL,
	`previous_secret` text,
	`previous_secret_until` text,
	`disabled_reason` text,
	`failing_since` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhooks_account_list_id_created_at_idx` ON `webhooks` (`account_list_id`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `notification_outbox` ADD `webhook_id` text;