DROP INDEX `donations_appeal_id_idx`;--> statement-breakpoint
CREATE INDEX `donations_appeal_id_currency_idx` ON `donations` (`appeal_id`,`currency`);