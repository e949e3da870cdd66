ALTER TABLE `donations` ADD `channel` text;--> statement-breakpoint
ALTER TABLE `donations` ADD `payment_type` text;--> statement-breakpoint
ALTER TABLE `donations` ADD `tendered_amount` integer;--> statement-breakpoint
ALTER TABLE `donations` ADD `tendered_currency` text;