CREATE TABLE `account_list_coaches` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `account_list_coaches_account_list_id_user_id_unique` ON `account_list_coaches` (`account_list_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `account_list_coaches_user_id_account_list_id_idx` ON `account_list_coaches` (`user_id`,`account_list_id`);--> statement-breakpoint
CREATE TABLE `account_list_users` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `account_list_users_account_list_id_user_id_unique` ON `account_list_users` (`account_list_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `account_list_users_user_id_account_list_id_idx` ON `account_list_users` (`user_id`,`account_list_id`);--> statement-breakpoint
CREATE TABLE `account_lists` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`home_country` text,
	`monthly_goal` integer,
	`active_mpd_start_at` text,
	`active_mpd_finish_at` text,
	`active_mpd_monthly_goal` integer,
	`last_prayer_letter_at` text,
	`salary_organization_id` text,
	`tester` integer DEFAULT false NOT NULL,
	`primary_appeal_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`salary_organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`primary_appeal_id`) REFERENCES `appeals`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `account_lists_salary_organization_id_idx` ON `account_lists` (`salary_organization_id`);--> statement-breakpoint
CREATE INDEX `account_lists_primary_appeal_id_idx` ON `account_lists` (`primary_appeal_id`);--> statement-breakpoint
CREATE TABLE `appeal_contacts` (
	`id` text PRIMARY KEY NOT NULL,
	`appeal_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`appeal_id`) REFERENCES `appeals`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `appeal_contacts_appeal_id_contact_id_unique` ON `appeal_contacts` (`appeal_id`,`contact_id`);--> statement-breakpoint
CREATE INDEX `appeal_contacts_contact_id_idx` ON `appeal_contacts` (`contact_id`);--> statement-breakpoint
CREATE TABLE `appeal_excluded_contacts` (
	`id` text PRIMARY KEY NOT NULL,
	`appeal_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`reasons` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`appeal_id`) REFERENCES `appeals`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `appeal_excluded_contacts_appeal_id_contact_id_unique` ON `appeal_excluded_contacts` (`appeal_id`,`contact_id`);--> statement-breakpoint
CREATE INDEX `appeal_excluded_contacts_contact_id_idx` ON `appeal_excluded_contacts` (`contact_id`);--> statement-breakpoint
CREATE TABLE `appeals` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`name` text NOT NULL,
	`amount` integer,
	`description` text,
	`end_date` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `appeals_account_list_id_created_at_idx` ON `appeals` (`account_list_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `appeals_account_list_id_updated_at_idx` ON `appeals` (`account_list_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `appeals_account_list_id_name_idx` ON `appeals` (`account_list_id`,`name`);--> statement-breakpoint
CREATE TABLE `addresses` (
	`id` text PRIMARY KEY NOT NULL,
	`contact_id` text NOT NULL,
	`street` text,
	`city` text,
	`state` text,
	`region` text,
	`metro_area` text,
	`country` text,
	`postal_code` text,
	`location` text,
	`primary_mailing_address` integer DEFAULT false NOT NULL,
	`historic` integer DEFAULT false NOT NULL,
	`valid` integer DEFAULT true NOT NULL,
	`source` text,
	`latitude` real,
	`longitude` real,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `addresses_contact_id_idx` ON `addresses` (`contact_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `addresses_city_idx` ON `addresses` (`city`,`historic`,`contact_id`);--> statement-breakpoint
CREATE INDEX `addresses_state_idx` ON `addresses` (`state`,`historic`,`contact_id`);--> statement-breakpoint
CREATE INDEX `addresses_region_idx` ON `addresses` (`region`,`historic`,`contact_id`);--> statement-breakpoint
CREATE INDEX `addresses_metro_area_idx` ON `addresses` (`metro_area`,`historic`,`contact_id`);--> statement-breakpoint
CREATE INDEX `addresses_country_idx` ON `addresses` (`country`,`historic`,`contact_id`);--> statement-breakpoint
CREATE INDEX `addresses_lat_lng_idx` ON `addresses` (`latitude`,`longitude`);--> statement-breakpoint
CREATE TABLE `contact_referrals` (
	`id` text PRIMARY KEY NOT NULL,
	`referred_by_id` text NOT NULL,
	`referred_to_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`referred_by_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`referred_to_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_referrals_referred_by_id_referred_to_id_unique` ON `contact_referrals` (`referred_by_id`,`referred_to_id`);--> statement-breakpoint
CREATE INDEX `contact_referrals_referred_to_id_idx` ON `contact_referrals` (`referred_to_id`);--> statement-breakpoint
CREATE TABLE `contact_tags` (
	`contact_id` text NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`contact_id`, `name`),
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_tags_name_idx` ON `contact_tags` (`name`,`contact_id`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`user_id` text,
	`name` text NOT NULL,
	`status` text,
	`likely_to_give` text,
	`send_newsletter` text,
	`church_name` text,
	`deceased` integer DEFAULT false NOT NULL,
	`direct_deposit` integer DEFAULT false NOT NULL,
	`magazine` integer DEFAULT false NOT NULL,
	`missionary_pages_banner` integer DEFAULT false NOT NULL,
	`no_appeals` integer DEFAULT false NOT NULL,
	`no_gift_aid` integer DEFAULT false NOT NULL,
	`pledge_received` integer DEFAULT false NOT NULL,
	`status_valid` integer DEFAULT true NOT NULL,
	`is_organization` integer DEFAULT false NOT NULL,
	`envelope_greeting` text,
	`greeting` text,
	`late_at` text,
	`last_gift_on` text,
	`gift_due_on` text GENERATED ALWAYS AS (date(last_gift_on, CASE pledge_frequency WHEN '0.23076923076923' THEN '+7 days' WHEN '0.46153846153846' THEN '+14 days' ELSE '+' || CAST(CAST(pledge_frequency AS REAL) AS INTEGER) || ' months' END)) VIRTUAL,
	`locale` text,
	`next_ask` text,
	`notes` text,
	`notes_saved_at` text,
	`pledge_amount` integer,
	`pledge_currency` text,
	`pledge_frequency` text,
	`pledge_start_date` text,
	`preferred_contact_method` text,
	`relationship_code` text,
	`source` text,
	`starred_at` text,
	`timezone` text,
	`website` text,
	`avatar` text,
	`suggested_changes` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_name_idx` ON `contacts` (`account_list_id`,`name`,`id`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_created_at_idx` ON `contacts` (`account_list_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_updated_at_idx` ON `contacts` (`account_list_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_status_idx` ON `contacts` (`account_list_id`,`status`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_likely_to_give_idx` ON `contacts` (`account_list_id`,`likely_to_give`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_send_newsletter_idx` ON `contacts` (`account_list_id`,`send_newsletter`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_church_name_idx` ON `contacts` (`account_list_id`,`church_name`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_pledge_amount_idx` ON `contacts` (`account_list_id`,`pledge_amount`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_pledge_currency_idx` ON `contacts` (`account_list_id`,`pledge_currency`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_pledge_frequency_idx` ON `contacts` (`account_list_id`,`pledge_frequency`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_late_at_idx` ON `contacts` (`account_list_id`,`late_at`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_gift_due_on_idx` ON `contacts` (`account_list_id`,`gift_due_on`) WHERE gift_due_on IS NOT NULL;--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_pledge_start_date_idx` ON `contacts` (`account_list_id`,`pledge_start_date`) WHERE pledge_start_date IS NOT NULL;--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_next_ask_idx` ON `contacts` (`account_list_id`,`next_ask`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_locale_idx` ON `contacts` (`account_list_id`,`locale`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_source_idx` ON `contacts` (`account_list_id`,`source`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_timezone_idx` ON `contacts` (`account_list_id`,`timezone`);--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_starred_at_idx` ON `contacts` (`account_list_id`,`starred_at`);--> statement-breakpoint
CREATE INDEX `contacts_user_id_idx` ON `contacts` (`user_id`);--> statement-breakpoint
CREATE TABLE `partner_status_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`contact_id` text NOT NULL,
	`recorded_on` text NOT NULL,
	`status` text,
	`pledge_amount` integer,
	`pledge_currency` text,
	`pledge_frequency` text,
	`pledge_received` integer DEFAULT false NOT NULL,
	`pledge_start_date` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `partner_status_logs_contact_id_recorded_on_idx` ON `partner_status_logs` (`contact_id`,`recorded_on`);--> statement-breakpoint
CREATE TABLE `currency_rates` (
	`code` text PRIMARY KEY NOT NULL,
	`rate` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `balances` (
	`id` text PRIMARY KEY NOT NULL,
	`designation_account_id` text NOT NULL,
	`balance` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`designation_account_id`) REFERENCES `designation_accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `balances_designation_account_id_created_at_idx` ON `balances` (`designation_account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `designation_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`organization_id` text,
	`designation_number` text,
	`legacy_designation_number` text,
	`name` text,
	`balance` integer,
	`balance_updated_at` text,
	`currency` text,
	`active` integer DEFAULT true NOT NULL,
	`staff_account_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `designation_accounts_account_list_id_created_at_idx` ON `designation_accounts` (`account_list_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `designation_accounts_organization_id_idx` ON `designation_accounts` (`organization_id`);--> statement-breakpoint
CREATE INDEX `designation_accounts_designation_number_idx` ON `designation_accounts` (`designation_number`);--> statement-breakpoint
CREATE TABLE `donations` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`designation_account_id` text NOT NULL,
	`donor_account_id` text NOT NULL,
	`appeal_id` text,
	`appeal_amount` integer,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`donation_date` text NOT NULL,
	`motivation` text,
	`payment_method` text,
	`memo` text,
	`remote_id` text,
	`channel` text,
	`payment_type` text,
	`tendered_amount` integer,
	`tendered_currency` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`designation_account_id`) REFERENCES `designation_accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`donor_account_id`) REFERENCES `donor_accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`appeal_id`) REFERENCES `appeals`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `donations_account_list_id_donation_date_idx` ON `donations` (`account_list_id`,`donation_date`,`id`);--> statement-breakpoint
CREATE INDEX `donations_account_list_id_created_at_idx` ON `donations` (`account_list_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `donations_account_list_id_updated_at_idx` ON `donations` (`account_list_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `donations_donor_account_id_donation_date_idx` ON `donations` (`donor_account_id`,`donation_date`,`created_at`,`id`,`account_list_id`);--> statement-breakpoint
CREATE INDEX `donations_designation_account_id_idx` ON `donations` (`designation_account_id`);--> statement-breakpoint
CREATE INDEX `donations_appeal_id_currency_idx` ON `donations` (`appeal_id`,`currency`);--> statement-breakpoint
CREATE TABLE `contact_donor_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`contact_id` text NOT NULL,
	`donor_account_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`donor_account_id`) REFERENCES `donor_accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_donor_accounts_contact_id_donor_account_id_unique` ON `contact_donor_accounts` (`contact_id`,`donor_account_id`);--> statement-breakpoint
CREATE INDEX `contact_donor_accounts_donor_account_id_idx` ON `contact_donor_accounts` (`donor_account_id`);--> statement-breakpoint
CREATE TABLE `donor_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`account_number` text NOT NULL,
	`name` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `donor_accounts_organization_id_account_number_unique` ON `donor_accounts` (`organization_id`,`account_number`);--> statement-breakpoint
CREATE INDEX `donor_accounts_account_number_idx` ON `donor_accounts` (`account_number`);--> statement-breakpoint
CREATE TABLE `import_row_failures` (
	`import_id` text NOT NULL,
	`row_number` integer NOT NULL,
	`message` text NOT NULL,
	`cells` text NOT NULL,
	PRIMARY KEY(`import_id`, `row_number`),
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `imports` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`user_id` text NOT NULL,
	`source` text DEFAULT 'csv' NOT NULL,
	`in_preview` integer DEFAULT true NOT NULL,
	`file_key` text,
	`file_name` text,
	`file_size_in_bytes` integer DEFAULT 0 NOT NULL,
	`file_encoding` text DEFAULT 'utf-8' NOT NULL,
	`file_headers` text NOT NULL,
	`file_header_row` text DEFAULT '[]' NOT NULL,
	`file_constants` text NOT NULL,
	`sample_rows` text NOT NULL,
	`file_headers_mappings` text NOT NULL,
	`file_constants_mappings` text NOT NULL,
	`tag_list` text DEFAULT '' NOT NULL,
	`rows_total` integer DEFAULT 0 NOT NULL,
	`next_row` integer DEFAULT 0 NOT NULL,
	`rows_imported` integer DEFAULT 0 NOT NULL,
	`rows_failed` integer DEFAULT 0 NOT NULL,
	`queued_for_import_at` text,
	`import_started_at` text,
	`import_completed_at` text,
	`claimed_at` text,
	`error` text,
	`mail_attempted_at` text,
	`mail_sent_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `imports_account_list_id_created_at_idx` ON `imports` (`account_list_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `imports_user_id_idx` ON `imports` (`user_id`);--> statement-breakpoint
CREATE INDEX `imports_running_idx` ON `imports` (`queued_for_import_at`) WHERE queued_for_import_at IS NOT NULL AND import_completed_at IS NULL;--> statement-breakpoint
CREATE TABLE `kept_sums` (
	`kind` text NOT NULL,
	`owner_id` text NOT NULL,
	`key1` text NOT NULL,
	`key2` text NOT NULL,
	`key3` text NOT NULL,
	`units` integer NOT NULL,
	`rows` integer NOT NULL,
	PRIMARY KEY(`kind`, `owner_id`, `key1`, `key2`, `key3`)
);
--> statement-breakpoint
CREATE TABLE `list_row_counts` (
	`table_name` text NOT NULL,
	`account_list_id` text NOT NULL,
	`bucket` text NOT NULL,
	`rows` integer NOT NULL,
	PRIMARY KEY(`table_name`, `account_list_id`, `bucket`)
);
--> statement-breakpoint
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
CREATE TABLE `notification_preferences` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`user_id` text,
	`notification_type_id` text NOT NULL,
	`app` integer DEFAULT false NOT NULL,
	`email` integer DEFAULT false NOT NULL,
	`task` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`notification_type_id`) REFERENCES `notification_types`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_preferences_account_list_id_notification_type_id_unique` ON `notification_preferences` (`account_list_id`,`notification_type_id`);--> statement-breakpoint
CREATE INDEX `notification_preferences_account_list_id_created_at_idx` ON `notification_preferences` (`account_list_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notification_preferences_notification_type_id_idx` ON `notification_preferences` (`notification_type_id`);--> statement-breakpoint
CREATE INDEX `notification_preferences_user_id_idx` ON `notification_preferences` (`user_id`);--> statement-breakpoint
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
CREATE TABLE `notification_types` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`description` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_types_key_unique` ON `notification_types` (`key`);--> statement-breakpoint
CREATE TABLE `notifications` (
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
CREATE UNIQUE INDEX `notifications_event_key_unique` ON `notifications` (`event_key`);--> statement-breakpoint
CREATE INDEX `notifications_account_list_id_created_at_idx` ON `notifications` (`account_list_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notifications_account_list_id_event_date_idx` ON `notifications` (`account_list_id`,`event_date`);--> statement-breakpoint
CREATE INDEX `notifications_contact_id_type_idx` ON `notifications` (`contact_id`,`notification_type_id`,`event_date`);--> statement-breakpoint
CREATE INDEX `notifications_notification_type_id_idx` ON `notifications` (`notification_type_id`);--> statement-breakpoint
CREATE INDEX `notifications_donation_id_idx` ON `notifications` (`donation_id`);--> statement-breakpoint
CREATE INDEX `notifications_digest_key_idx` ON `notifications` (`digest_key`);--> statement-breakpoint
CREATE INDEX `notifications_pending_task_idx` ON `notifications` (`account_list_id`) WHERE wants_task = 1 AND task_created_at IS NULL AND cleared = 0;--> statement-breakpoint
CREATE INDEX `notifications_pending_email_idx` ON `notifications` (`account_list_id`) WHERE wants_email = 1 AND digest_key IS NULL AND cleared = 0;--> statement-breakpoint
CREATE TABLE `organization_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`username` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `organization_accounts_user_id_idx` ON `organization_accounts` (`user_id`);--> statement-breakpoint
CREATE INDEX `organization_accounts_organization_id_idx` ON `organization_accounts` (`organization_id`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`api_class` text,
	`help_email` text,
	`oauth` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `email_addresses` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`email` text NOT NULL,
	`primary` integer DEFAULT false NOT NULL,
	`historic` integer DEFAULT false NOT NULL,
	`valid` integer DEFAULT true NOT NULL,
	`location` text,
	`source` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_addresses_person_id_idx` ON `email_addresses` (`person_id`);--> statement-breakpoint
CREATE INDEX `email_addresses_email_idx` ON `email_addresses` (`email`);--> statement-breakpoint
CREATE TABLE `facebook_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`username` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `facebook_accounts_person_id_idx` ON `facebook_accounts` (`person_id`);--> statement-breakpoint
CREATE TABLE `family_relationships` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`related_person_id` text NOT NULL,
	`relationship` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`related_person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `family_relationships_person_id_idx` ON `family_relationships` (`person_id`);--> statement-breakpoint
CREATE INDEX `family_relationships_related_person_id_idx` ON `family_relationships` (`related_person_id`);--> statement-breakpoint
CREATE TABLE `linkedin_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`public_url` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `linkedin_accounts_person_id_idx` ON `linkedin_accounts` (`person_id`);--> statement-breakpoint
CREATE TABLE `people` (
	`id` text PRIMARY KEY NOT NULL,
	`contact_id` text,
	`first_name` text NOT NULL,
	`last_name` text,
	`middle_name` text,
	`title` text,
	`suffix` text,
	`gender` text,
	`marital_status` text,
	`birthday_day` integer,
	`birthday_month` integer,
	`birthday_year` integer,
	`anniversary_day` integer,
	`anniversary_month` integer,
	`anniversary_year` integer,
	`deceased` integer DEFAULT false NOT NULL,
	`optout_enewsletter` integer DEFAULT false NOT NULL,
	`alma_mater` text,
	`employer` text,
	`occupation` text,
	`is_primary` integer DEFAULT false NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `people_contact_id_position_idx` ON `people` (`contact_id`,`position`,`created_at`,`id`,`is_primary`);--> statement-breakpoint
CREATE INDEX `people_birthday_idx` ON `people` (`birthday_month`,`birthday_day`);--> statement-breakpoint
CREATE INDEX `people_anniversary_idx` ON `people` (`anniversary_month`,`anniversary_day`);--> statement-breakpoint
CREATE INDEX `people_alma_mater_idx` ON `people` (`alma_mater`);--> statement-breakpoint
CREATE TABLE `phone_numbers` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`number` text NOT NULL,
	`location` text,
	`primary` integer DEFAULT false NOT NULL,
	`historic` integer DEFAULT false NOT NULL,
	`valid` integer DEFAULT true NOT NULL,
	`source` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `phone_numbers_person_id_idx` ON `phone_numbers` (`person_id`);--> statement-breakpoint
CREATE TABLE `twitter_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`screen_name` text,
	`primary` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `twitter_accounts_person_id_idx` ON `twitter_accounts` (`person_id`);--> statement-breakpoint
CREATE TABLE `websites` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`url` text NOT NULL,
	`primary` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `websites_person_id_idx` ON `websites` (`person_id`);--> statement-breakpoint
CREATE TABLE `pledge_donations` (
	`pledge_id` text NOT NULL,
	`donation_id` text NOT NULL,
	PRIMARY KEY(`pledge_id`, `donation_id`),
	FOREIGN KEY (`pledge_id`) REFERENCES `pledges`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`donation_id`) REFERENCES `donations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `pledge_donations_donation_id_idx` ON `pledge_donations` (`donation_id`);--> statement-breakpoint
CREATE TABLE `pledges` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`appeal_id` text,
	`amount` integer NOT NULL,
	`amount_currency` text,
	`expected_date` text,
	`status` text DEFAULT 'not_received' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`appeal_id`) REFERENCES `appeals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pledges_appeal_id_contact_id_unique` ON `pledges` (`appeal_id`,`contact_id`);--> statement-breakpoint
CREATE INDEX `pledges_contact_id_idx` ON `pledges` (`contact_id`);--> statement-breakpoint
CREATE INDEX `pledges_appeal_id_status_idx` ON `pledges` (`appeal_id`,`status`);--> statement-breakpoint
CREATE INDEX `pledges_account_list_id_created_at_idx` ON `pledges` (`account_list_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `changed_contacts` (
	`contact_id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `changed_contacts_account_list_id_idx` ON `changed_contacts` (`account_list_id`);--> statement-breakpoint
CREATE TABLE `notification_list_runs` (
	`account_list_id` text PRIMARY KEY NOT NULL,
	`ran_on` text NOT NULL,
	`type_ids` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `person_days` (
	`person_id` text NOT NULL,
	`kind` text NOT NULL,
	`account_list_id` text NOT NULL,
	`month_day` text NOT NULL,
	PRIMARY KEY(`person_id`, `kind`)
);
--> statement-breakpoint
CREATE INDEX `person_days_account_list_id_month_day_idx` ON `person_days` (`account_list_id`,`kind`,`month_day`);--> statement-breakpoint
CREATE TABLE `activity_contacts` (
	`id` text PRIMARY KEY NOT NULL,
	`task_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`task_completed` integer DEFAULT false NOT NULL,
	`task_activity_type` text,
	`task_completed_at` text,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `activity_contacts_task_id_contact_id_unique` ON `activity_contacts` (`task_id`,`contact_id`);--> statement-breakpoint
CREATE INDEX `activity_contacts_contact_id_task_state_idx` ON `activity_contacts` (`contact_id`,`task_id`,`task_completed`,`task_activity_type`,`task_completed_at`);--> statement-breakpoint
CREATE TABLE `comments` (
	`id` text PRIMARY KEY NOT NULL,
	`task_id` text NOT NULL,
	`person_id` text,
	`user_id` text,
	`body` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `comments_task_id_idx` ON `comments` (`task_id`);--> statement-breakpoint
CREATE INDEX `comments_person_id_idx` ON `comments` (`person_id`);--> statement-breakpoint
CREATE INDEX `comments_user_id_idx` ON `comments` (`user_id`);--> statement-breakpoint
CREATE TABLE `task_tags` (
	`task_id` text NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`task_id`, `name`),
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `task_tags_name_idx` ON `task_tags` (`name`,`task_id`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`user_id` text,
	`activity_type` text,
	`subject` text,
	`subject_hidden` integer DEFAULT false NOT NULL,
	`start_at` text,
	`completed` integer DEFAULT false NOT NULL,
	`completed_at` text,
	`result` text,
	`next_action` text,
	`location` text,
	`starred` integer DEFAULT false NOT NULL,
	`notification_time_before` integer,
	`notification_time_unit` text,
	`notification_type` text,
	`notification_id` text,
	`remind_at` text GENERATED ALWAYS AS (CASE WHEN notification_type IS NOT NULL AND notification_time_before IS NOT NULL AND start_at IS NOT NULL THEN strftime('%Y-%m-%dT%H:%M:%SZ', start_at, '-' || notification_time_before || ' ' || COALESCE(notification_time_unit, 'minutes')) END) VIRTUAL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`notification_id`) REFERENCES `notifications`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `tasks_account_list_id_start_at_idx` ON `tasks` (`account_list_id`,`start_at`);--> statement-breakpoint
CREATE INDEX `tasks_account_list_id_completed_start_at_idx` ON `tasks` (`account_list_id`,`completed`,`start_at`,`completed_at`,`id`);--> statement-breakpoint
CREATE INDEX `tasks_account_list_id_completed_at_idx` ON `tasks` (`account_list_id`,`completed_at`);--> statement-breakpoint
CREATE INDEX `tasks_account_list_id_created_at_idx` ON `tasks` (`account_list_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tasks_account_list_id_updated_at_idx` ON `tasks` (`account_list_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `tasks_account_list_id_activity_type_idx` ON `tasks` (`account_list_id`,`activity_type`);--> statement-breakpoint
CREATE INDEX `tasks_account_list_id_result_idx` ON `tasks` (`account_list_id`,`result`);--> statement-breakpoint
CREATE INDEX `tasks_account_list_id_next_action_idx` ON `tasks` (`account_list_id`,`next_action`);--> statement-breakpoint
CREATE INDEX `tasks_user_id_idx` ON `tasks` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_notification_id_unique` ON `tasks` (`notification_id`);--> statement-breakpoint
CREATE INDEX `tasks_remind_at_idx` ON `tasks` (`remind_at`) WHERE remind_at IS NOT NULL AND completed = 0;--> statement-breakpoint
CREATE TABLE `master_people` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text,
	`legal_first_name` text,
	`middle_name` text,
	`suffix` text,
	`title` text,
	`alma_mater` text,
	`employer` text,
	`gender` text,
	`marital_status` text,
	`occupation` text,
	`avatar` text,
	`anniversary_day` integer,
	`anniversary_month` integer,
	`anniversary_year` integer,
	`birthday_day` integer,
	`birthday_month` integer,
	`birthday_year` integer,
	`deceased` integer DEFAULT false NOT NULL,
	`optout_enewsletter` integer DEFAULT false NOT NULL,
	`contacts_filter` text,
	`contacts_view_options` text,
	`default_account_list_id` text,
	`locale` text,
	`setup` integer DEFAULT false NOT NULL,
	`tab_orders` text,
	`tasks_filter` text,
	`time_zone` text DEFAULT 'UTC' NOT NULL,
	`hour_to_send_notifications` integer,
	`master_person_id` text,
	`person_id` text,
	`disabled_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`default_account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_lower_unique` ON `users` (lower("email"));--> statement-breakpoint
CREATE INDEX `users_default_account_list_id_idx` ON `users` (`default_account_list_id`);--> statement-breakpoint
CREATE INDEX `users_person_id_idx` ON `users` (`person_id`);--> statement-breakpoint
CREATE TABLE `list_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_list_id` text NOT NULL,
	`table_name` text NOT NULL,
	`row_key` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `list_changes_account_list_id_seq_idx` ON `list_changes` (`account_list_id`,`seq`);--> statement-breakpoint
CREATE TABLE `moving_lists` (
	`account_list_id` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL
);
