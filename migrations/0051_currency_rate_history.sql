CREATE TABLE `currency_rate_history` (
	`code` text NOT NULL,
	`exchanged_on` text NOT NULL,
	`rate` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`code`, `exchanged_on`)
);
--> statement-breakpoint
-- The rates kept so far are each currency's rate on the day it was stored: a day recorded later for an earlier
-- date goes into the history without replacing them.
INSERT INTO `currency_rate_history` (`code`, `exchanged_on`, `rate`, `updated_at`) SELECT `code`, substr(`updated_at`, 1, 10), `rate`, `updated_at` FROM `currency_rates`;
