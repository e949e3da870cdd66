ALTER TABLE `background_batch_requests` ADD `enqueued_at` text;--> statement-breakpoint
CREATE INDEX `background_batch_requests_state_enqueued_at_idx` ON `background_batch_requests` (`state`,`enqueued_at`);--> statement-breakpoint
UPDATE `background_batch_requests` SET `enqueued_at` = `updated_at` WHERE `state` IN ('pending', 'running');
