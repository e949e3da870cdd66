CREATE TABLE `client_ids` (
	`table_name` text NOT NULL,
	`id` text NOT NULL,
	`anchor` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`table_name`, `id`)
);
