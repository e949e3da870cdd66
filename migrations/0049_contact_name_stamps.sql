CREATE TABLE `contact_name_stamps` (
	`account_list_id` text PRIMARY KEY NOT NULL,
	`stamp` text NOT NULL
);--> statement-breakpoint
INSERT INTO contact_name_stamps (account_list_id, stamp) SELECT account_list_id, lower(hex(randomblob(8))) FROM contacts GROUP BY account_list_id;--> statement-breakpoint
CREATE TRIGGER contacts_name_stamp_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO contact_name_stamps (account_list_id, stamp) VALUES (NEW.account_list_id, lower(hex(randomblob(8)))) ON CONFLICT (account_list_id) DO UPDATE SET stamp = excluded.stamp;
END;--> statement-breakpoint
CREATE TRIGGER contacts_name_stamp_update AFTER UPDATE OF id, name, account_list_id ON contacts WHEN OLD.id IS NOT NEW.id OR OLD.name IS NOT NEW.name OR OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  INSERT INTO contact_name_stamps (account_list_id, stamp) VALUES (OLD.account_list_id, lower(hex(randomblob(8)))) ON CONFLICT (account_list_id) DO UPDATE SET stamp = excluded.stamp;
  INSERT INTO contact_name_stamps (account_list_id, stamp) VALUES (NEW.account_list_id, lower(hex(randomblob(8)))) ON CONFLICT (account_list_id) DO UPDATE SET stamp = excluded.stamp;
END;--> statement-breakpoint
CREATE TRIGGER contacts_name_stamp_delete AFTER DELETE ON contacts BEGIN
  INSERT INTO contact_name_stamps (account_list_id, stamp) VALUES (OLD.account_list_id, lower(hex(randomblob(8)))) ON CONFLICT (account_list_id) DO UPDATE SET stamp = excluded.stamp;
END;
