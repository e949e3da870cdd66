CREATE TABLE `currency_rate_history` (
	`code` text NOT NULL,
	`exchanged_on` text NOT NULL,
	`rate` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`code`, `exchanged_on`)
);
