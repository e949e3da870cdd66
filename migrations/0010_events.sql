CREATE TABLE `notification_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`dedupe_key` text NOT NULL,
	`kind` text NOT NULL,
	`channel` text NOT NULL,
	`account_list_id` text NOT NULL,
	`user_id` text NOT NULL,
	`digest_key` text,
	`task_id` text,
	`due_at` text NOT NULL,
	`attempted_at` text,
	`sent_at` text,
	`message_id` text,
	`error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_outbox_dedupe_key_unique` ON `notification_outbox` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `notification_outbox_pending_idx` ON `notification_outbox` (`due_at`) WHERE attempted_at IS NULL AND channel = 'email';--> statement-breakpoint
CREATE INDEX `notification_outbox_account_list_id_idx` ON `notification_outbox` (`account_list_id`);--> statement-breakpoint
CREATE INDEX `notification_outbox_user_id_idx` ON `notification_outbox` (`user_id`);--> statement-breakpoint
CREATE TABLE `notification_run_failures` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`run_at` text NOT NULL,
	`attempts` integer NOT NULL,
	`error` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_run_failures_list_run_unique` ON `notification_run_failures` (`account_list_id`,`run_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`notification_type_id` text NOT NULL,
	`donation_id` text,
	`event_date` text NOT NULL,
	`event_key` text NOT NULL,
	`cleared` integer DEFAULT false NOT NULL,
	`app` integer DEFAULT false NOT NULL,
	`wants_task` integer DEFAULT false NOT NULL,
	`wants_email` integer DEFAULT false NOT NULL,
	`task_created_at` text,
	`digest_key` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`notification_type_id`) REFERENCES `notification_types`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`donation_id`) REFERENCES `donations`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_notifications`("id", "account_list_id", "contact_id", "notification_type_id", "donation_id", "event_date", "event_key", "cleared", "app", "created_at", "updated_at") SELECT n."id", c."account_list_id", n."contact_id", n."notification_type_id", n."donation_id", COALESCE(n."event_date", substr(n."created_at", 1, 10)), 'stored:' || n."id", n."cleared", 1, n."created_at", n."updated_at" FROM `notifications` n JOIN `contacts` c ON c."id" = n."contact_id";--> statement-breakpoint
DROP TABLE `notifications`;--> statement-breakpoint
ALTER TABLE `__new_notifications` RENAME TO `notifications`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_event_key_unique` ON `notifications` (`event_key`);--> statement-breakpoint
CREATE INDEX `notifications_account_list_id_created_at_idx` ON `notifications` (`account_list_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notifications_account_list_id_event_date_idx` ON `notifications` (`account_list_id`,`event_date`);--> statement-breakpoint
CREATE INDEX `notifications_contact_id_type_idx` ON `notifications` (`contact_id`,`notification_type_id`,`event_date`);--> statement-breakpoint
CREATE INDEX `notifications_notification_type_id_idx` ON `notifications` (`notification_type_id`);--> statement-breakpoint
CREATE INDEX `notifications_donation_id_idx` ON `notifications` (`donation_id`);--> statement-breakpoint
CREATE INDEX `notifications_digest_key_idx` ON `notifications` (`digest_key`);--> statement-breakpoint
ALTER TABLE `tasks` ADD `notification_id` text REFERENCES notifications(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `tasks` ADD `remind_at` text GENERATED ALWAYS AS (CASE WHEN notification_type IS NOT NULL AND notification_time_before IS NOT NULL AND start_at IS NOT NULL THEN strftime('%Y-%m-%dT%H:%M:%SZ', start_at, '-' || notification_time_before || ' ' || COALESCE(notification_time_unit, 'minutes')) END) VIRTUAL;--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_notification_id_unique` ON `tasks` (`notification_id`);--> statement-breakpoint
CREATE INDEX `tasks_remind_at_idx` ON `tasks` (`remind_at`) WHERE remind_at IS NOT NULL AND completed = 0;--> statement-breakpoint
-- The twenty notification types under their stable ids (src/constants/notifications.ts). Rows a database already
-- holds under other ids take the stable id, and the preferences and notifications linked to them follow.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `stable_notification_types` (`key` text PRIMARY KEY, `id` text NOT NULL, `description` text NOT NULL);--> statement-breakpoint
INSERT INTO `stable_notification_types` (`key`, `id`, `description`) VALUES
	('call_partner_once_per_year', '0e952d6f-6fa3-4c3a-acd4-2ac13782eed6', 'Partner have not had an attempted call logged in the past year'),
	('larger_gift', '7c9c8ce5-5c38-4d2b-a4bf-0f89b600966a', 'Partner gave a larger gift than commitment'),
	('long_time_frame_gift', '284ab57b-d33a-40ab-8915-70a32c3d0332', 'Partner gave with a commitment of semi-annual or longer'),
	('missing_address_in_newsletter', '14dc3f90-0f5c-41fa-b699-1e3e528c60e9', 'Contact is on the physical newsletter but has no mailing address'),
	('missing_email_in_newsletter', 'e39c212c-bbbb-4fef-800d-06a651ad1cab', 'Contact is on the email newsletter but has no people with a valid email address'),
	('new_form_subscriber', 'ff4dbad9-7136-41be-a087-0027c1e3a1dc', 'New contact added from a subscription form'),
	('new_form_subscriber_existing_contact', '9cc17612-960a-46f0-9a0b-f90d87d75e10', 'Existing contact signed up through a subscription form'),
	('new_partner_duplicate_merged', '0af09878-8bc9-4325-8495-f7397d5c233e', 'New partner added and merged with a duplicate contact'),
	('new_partner_duplicate_not_merged', 'd61b7881-0f38-45f9-940d-82e659d593e1', 'New partner added but a possible duplicate was not merged'),
	('new_partner_no_duplicate', 'ce74eaaf-6258-42ab-ae98-2807b5251175', 'New partner added with no duplicate found'),
	('recontinuing_gift', '54e07cac-65c1-4ae4-a856-2b61b62c4262', 'Partner recontinued giving'),
	('remind_partner_in_advance', '971ffd97-9b91-443d-9a20-fe96d5527bd7', 'Partner''s expected donation is one month away'),
	('smaller_gift', '3f99d982-8ac1-44bc-b729-636d5fc75da4', 'Partner gave less than commitment'),
	('special_gift', 'bb280f24-4061-4374-b067-cc56e177e81a', 'Partner gave a special gift'),
	('started_giving', 'cfac89fa-20d8-410a-9910-213433528637', 'Partner started giving'),
	('stopped_giving', '284ca201-922a-4c31-91f8-f3662e06482c', 'Partner missed a gift'),
	('thank_partner_once_per_year', '54c951d3-d758-487b-be20-335935a45890', 'Partner have not had a thank you note logged in the past year'),
	('upcoming_anniversary', 'f30bba40-0be8-48f3-a917-173b82e21e4b', 'There is an anniversary coming up'),
	('upcoming_birthday', '620827e0-4709-4d55-90a4-67e720be84d3', 'There is a birthday coming up'),
	('new_donation_system_address', '665440d0-4e7e-4bb7-8a37-e0cf9845d12e', 'New address received from the donation system');--> statement-breakpoint
UPDATE `notification_preferences` SET `notification_type_id` = (SELECT s.`id` FROM `notification_types` t JOIN `stable_notification_types` s ON s.`key` = t.`key` WHERE t.`id` = `notification_preferences`.`notification_type_id`) WHERE `notification_type_id` IN (SELECT t.`id` FROM `notification_types` t JOIN `stable_notification_types` s ON s.`key` = t.`key` AND s.`id` <> t.`id`);--> statement-breakpoint
UPDATE `notifications` SET `notification_type_id` = (SELECT s.`id` FROM `notification_types` t JOIN `stable_notification_types` s ON s.`key` = t.`key` WHERE t.`id` = `notifications`.`notification_type_id`) WHERE `notification_type_id` IN (SELECT t.`id` FROM `notification_types` t JOIN `stable_notification_types` s ON s.`key` = t.`key` AND s.`id` <> t.`id`);--> statement-breakpoint
UPDATE `notification_types` SET `id` = (SELECT s.`id` FROM `stable_notification_types` s WHERE s.`key` = `notification_types`.`key`), `description` = (SELECT s.`description` FROM `stable_notification_types` s WHERE s.`key` = `notification_types`.`key`) WHERE `key` IN (SELECT `key` FROM `stable_notification_types`);--> statement-breakpoint
INSERT OR IGNORE INTO `notification_types` (`id`, `key`, `description`, `created_at`, `updated_at`) SELECT `id`, `key`, `description`, '2026-11-25T00:00:00Z', '2026-11-25T00:00:00Z' FROM `stable_notification_types`;--> statement-breakpoint
DROP TABLE `stable_notification_types`;