CREATE TABLE `mail_chimp_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`api_key` text NOT NULL,
	`primary_list_id` text,
	`auto_log_campaigns` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_chimp_accounts_account_list_id_unique` ON `mail_chimp_accounts` (`account_list_id`);--> statement-breakpoint
CREATE TABLE `prayer_letters_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL,
	`oauth2_token` text NOT NULL,
	`valid_token` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prayer_letters_accounts_account_list_id_unique` ON `prayer_letters_accounts` (`account_list_id`);--> statement-breakpoint
-- A list's integrations move with it like its other rows (src/db/list-tables.ts).
CREATE TRIGGER list_moves_mail_chimp_accounts_insert BEFORE INSERT ON mail_chimp_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'mail_chimp_accounts', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_mail_chimp_accounts_update BEFORE UPDATE ON mail_chimp_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'mail_chimp_accounts', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'mail_chimp_accounts', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_mail_chimp_accounts_delete BEFORE DELETE ON mail_chimp_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'mail_chimp_accounts', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_prayer_letters_accounts_insert BEFORE INSERT ON prayer_letters_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'prayer_letters_accounts', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_prayer_letters_accounts_update BEFORE UPDATE ON prayer_letters_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'prayer_letters_accounts', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'prayer_letters_accounts', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_prayer_letters_accounts_delete BEFORE DELETE ON prayer_letters_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'prayer_letters_accounts', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
