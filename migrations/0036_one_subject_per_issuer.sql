DROP INDEX `identity_links_user_id_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `identity_links_user_issuer_unique` ON `identity_links` (`user_id`,`issuer`);