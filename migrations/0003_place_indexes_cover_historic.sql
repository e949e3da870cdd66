DROP INDEX `addresses_city_idx`;--> statement-breakpoint
DROP INDEX `addresses_state_idx`;--> statement-breakpoint
DROP INDEX `addresses_region_idx`;--> statement-breakpoint
DROP INDEX `addresses_metro_area_idx`;--> statement-breakpoint
DROP INDEX `addresses_country_idx`;--> statement-breakpoint
CREATE INDEX `addresses_city_idx` ON `addresses` (`city`,`historic`,`contact_id`);--> statement-breakpoint
CREATE INDEX `addresses_state_idx` ON `addresses` (`state`,`historic`,`contact_id`);--> statement-breakpoint
CREATE INDEX `addresses_region_idx` ON `addresses` (`region`,`historic`,`contact_id`);--> statement-breakpoint
CREATE INDEX `addresses_metro_area_idx` ON `addresses` (`metro_area`,`historic`,`contact_id`);--> statement-breakpoint
CREATE INDEX `addresses_country_idx` ON `addresses` (`country`,`historic`,`contact_id`);