-- Merges: the pairs of a request, the people merged by name and the details they move, judged and set down by the
-- merge's own atomic batch, which empties the table before it ends (drizzle/merge-steps.ts).
CREATE TABLE `merge_steps` (
	`kind` text NOT NULL,
	`position` integer NOT NULL,
	`id` text NOT NULL,
	`target` text,
	`rank` integer,
	`ord` integer,
	`state` integer,
	PRIMARY KEY(`kind`, `position`, `id`)
);
