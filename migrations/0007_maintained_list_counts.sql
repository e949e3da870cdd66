CREATE TABLE `list_row_counts` (
	`table_name` text NOT NULL,
	`account_list_id` text NOT NULL,
	`bucket` text NOT NULL,
	`rows` integer NOT NULL,
	PRIMARY KEY(`table_name`, `account_list_id`, `bucket`)
);
--> statement-breakpoint
DROP INDEX `addresses_contact_id_idx`;--> statement-breakpoint
CREATE INDEX `addresses_contact_id_idx` ON `addresses` (`contact_id`,`created_at`,`id`);--> statement-breakpoint
DROP INDEX `donations_donor_account_id_donation_date_idx`;--> statement-breakpoint
CREATE INDEX `donations_donor_account_id_donation_date_idx` ON `donations` (`donor_account_id`,`donation_date`,`created_at`,`id`,`account_list_id`);--> statement-breakpoint
DROP INDEX `people_contact_id_position_idx`;--> statement-breakpoint
CREATE INDEX `people_contact_id_position_idx` ON `people` (`contact_id`,`position`,`created_at`,`id`,`is_primary`);--> statement-breakpoint
DROP INDEX `activity_contacts_contact_id_idx`;--> statement-breakpoint
CREATE INDEX `activity_contacts_contact_id_idx` ON `activity_contacts` (`contact_id`,`task_id`);--> statement-breakpoint
INSERT INTO `list_row_counts` (`table_name`, `account_list_id`, `bucket`, `rows`)
  SELECT 'contacts', `account_list_id`, COALESCE(`status`, ''), count(*) FROM `contacts` GROUP BY 2, 3;
--> statement-breakpoint
CREATE TRIGGER `contacts_count_insert` AFTER INSERT ON `contacts` BEGIN
  INSERT INTO `list_row_counts` (`table_name`, `account_list_id`, `bucket`, `rows`) VALUES ('contacts', NEW.`account_list_id`, COALESCE(NEW.`status`, ''), 1)
    ON CONFLICT (`table_name`, `account_list_id`, `bucket`) DO UPDATE SET `rows` = `rows` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_count_delete` AFTER DELETE ON `contacts` BEGIN
  UPDATE `list_row_counts` SET `rows` = `rows` - 1
    WHERE `table_name` = 'contacts' AND `account_list_id` = OLD.`account_list_id` AND `bucket` = COALESCE(OLD.`status`, '');
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_count_update` AFTER UPDATE OF `status`, `account_list_id` ON `contacts`
  WHEN COALESCE(OLD.`status`, '') IS NOT COALESCE(NEW.`status`, '') OR OLD.`account_list_id` IS NOT NEW.`account_list_id` BEGIN
  UPDATE `list_row_counts` SET `rows` = `rows` - 1
    WHERE `table_name` = 'contacts' AND `account_list_id` = OLD.`account_list_id` AND `bucket` = COALESCE(OLD.`status`, '');
  INSERT INTO `list_row_counts` (`table_name`, `account_list_id`, `bucket`, `rows`) VALUES ('contacts', NEW.`account_list_id`, COALESCE(NEW.`status`, ''), 1)
    ON CONFLICT (`table_name`, `account_list_id`, `bucket`) DO UPDATE SET `rows` = `rows` + 1;
END;
--> statement-breakpoint
INSERT INTO `list_row_counts` (`table_name`, `account_list_id`, `bucket`, `rows`)
  SELECT 'tasks', `account_list_id`, CAST(`completed` AS TEXT), count(*) FROM `tasks` GROUP BY 2, 3;
--> statement-breakpoint
CREATE TRIGGER `tasks_count_insert` AFTER INSERT ON `tasks` BEGIN
  INSERT INTO `list_row_counts` (`table_name`, `account_list_id`, `bucket`, `rows`) VALUES ('tasks', NEW.`account_list_id`, CAST(NEW.`completed` AS TEXT), 1)
    ON CONFLICT (`table_name`, `account_list_id`, `bucket`) DO UPDATE SET `rows` = `rows` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `tasks_count_delete` AFTER DELETE ON `tasks` BEGIN
  UPDATE `list_row_counts` SET `rows` = `rows` - 1
    WHERE `table_name` = 'tasks' AND `account_list_id` = OLD.`account_list_id` AND `bucket` = CAST(OLD.`completed` AS TEXT);
END;
--> statement-breakpoint
CREATE TRIGGER `tasks_count_update` AFTER UPDATE OF `completed`, `account_list_id` ON `tasks`
  WHEN CAST(OLD.`completed` AS TEXT) IS NOT CAST(NEW.`completed` AS TEXT) OR OLD.`account_list_id` IS NOT NEW.`account_list_id` BEGIN
  UPDATE `list_row_counts` SET `rows` = `rows` - 1
    WHERE `table_name` = 'tasks' AND `account_list_id` = OLD.`account_list_id` AND `bucket` = CAST(OLD.`completed` AS TEXT);
  INSERT INTO `list_row_counts` (`table_name`, `account_list_id`, `bucket`, `rows`) VALUES ('tasks', NEW.`account_list_id`, CAST(NEW.`completed` AS TEXT), 1)
    ON CONFLICT (`table_name`, `account_list_id`, `bucket`) DO UPDATE SET `rows` = `rows` + 1;
END;
