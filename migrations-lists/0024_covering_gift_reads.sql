DROP INDEX `donations_account_list_id_donation_date_idx`;--> statement-breakpoint
DROP INDEX `donations_donor_account_id_donation_date_idx`;--> statement-breakpoint
CREATE INDEX `donations_account_list_id_donation_date_idx` ON `donations` (`account_list_id`,`donation_date`,`id`,`amount`,`currency`,`donor_account_id`,`payment_method`,`tendered_amount`,`tendered_currency`);--> statement-breakpoint
CREATE INDEX `donations_donor_account_id_donation_date_idx` ON `donations` (`donor_account_id`,`donation_date`,`created_at`,`id`,`account_list_id`,`amount`,`tendered_amount`);--> statement-breakpoint
DROP INDEX `contact_donor_accounts_donor_account_id_idx`;--> statement-breakpoint
CREATE INDEX `contact_donor_accounts_donor_account_id_idx` ON `contact_donor_accounts` (`donor_account_id`,`contact_id`);