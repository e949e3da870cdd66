CREATE TABLE `record_moves` (
	`table_name` text NOT NULL,
	`id` text NOT NULL,
	`from_list` text NOT NULL,
	`to_list` text NOT NULL,
	`from_database` text NOT NULL,
	`to_database` text NOT NULL,
	`started_at` text NOT NULL,
	PRIMARY KEY(`table_name`, `id`)
);
