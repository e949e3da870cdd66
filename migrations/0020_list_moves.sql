CREATE TABLE `list_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_list_id` text NOT NULL,
	`table_name` text NOT NULL,
	`row_key` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `list_changes_account_list_id_seq_idx` ON `list_changes` (`account_list_id`,`seq`);--> statement-breakpoint
CREATE TABLE `moving_lists` (
	`account_list_id` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `list_placements` ADD `state` text DEFAULT 'placed' NOT NULL;--> statement-breakpoint
ALTER TABLE `list_placements` ADD `other` text;--> statement-breakpoint
ALTER TABLE `list_placements` ADD `cursor_table` text;--> statement-breakpoint
ALTER TABLE `list_placements` ADD `cursor_key` text;--> statement-breakpoint
ALTER TABLE `list_placements` ADD `rows_copied` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `list_placements` ADD `started_at` text;--> statement-breakpoint
ALTER TABLE `list_placements` ADD `switched_at` text;--> statement-breakpoint
ALTER TABLE `list_placements` ADD `switch_ms` integer;--> statement-breakpoint
ALTER TABLE `list_placements` ADD `failure` text;--> statement-breakpoint
ALTER TABLE `list_placements` ADD `lease_until` text;--> statement-breakpoint
CREATE TRIGGER list_moves_appeals_insert BEFORE INSERT ON appeals WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'appeals', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_appeals_update BEFORE UPDATE ON appeals WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'appeals', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'appeals', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_appeals_delete BEFORE DELETE ON appeals WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'appeals', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_contacts_insert BEFORE INSERT ON contacts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contacts', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_contacts_update BEFORE UPDATE ON contacts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contacts', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contacts', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_contacts_delete BEFORE DELETE ON contacts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contacts', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_designation_accounts_insert BEFORE INSERT ON designation_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'designation_accounts', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_designation_accounts_update BEFORE UPDATE ON designation_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'designation_accounts', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'designation_accounts', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_designation_accounts_delete BEFORE DELETE ON designation_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'designation_accounts', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_donations_insert BEFORE INSERT ON donations WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'donations', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_donations_update BEFORE UPDATE ON donations WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'donations', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'donations', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_donations_delete BEFORE DELETE ON donations WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'donations', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_imports_insert BEFORE INSERT ON imports WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'imports', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_imports_update BEFORE UPDATE ON imports WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'imports', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'imports', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_imports_delete BEFORE DELETE ON imports WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'imports', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notification_list_runs_insert BEFORE INSERT ON notification_list_runs WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_list_runs', NEW.account_list_id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notification_list_runs_update BEFORE UPDATE ON notification_list_runs WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_list_runs', NEW.account_list_id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_list_runs', OLD.account_list_id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notification_list_runs_delete BEFORE DELETE ON notification_list_runs WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_list_runs', OLD.account_list_id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notification_outbox_insert BEFORE INSERT ON notification_outbox WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_outbox', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notification_outbox_update BEFORE UPDATE ON notification_outbox WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_outbox', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_outbox', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notification_outbox_delete BEFORE DELETE ON notification_outbox WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_outbox', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notification_preferences_insert BEFORE INSERT ON notification_preferences WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_preferences', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notification_preferences_update BEFORE UPDATE ON notification_preferences WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_preferences', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_preferences', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notification_preferences_delete BEFORE DELETE ON notification_preferences WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_preferences', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notification_run_failures_insert BEFORE INSERT ON notification_run_failures WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_run_failures', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notification_run_failures_update BEFORE UPDATE ON notification_run_failures WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_run_failures', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_run_failures', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notification_run_failures_delete BEFORE DELETE ON notification_run_failures WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notification_run_failures', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notifications_insert BEFORE INSERT ON notifications WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notifications', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notifications_update BEFORE UPDATE ON notifications WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notifications', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notifications', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_notifications_delete BEFORE DELETE ON notifications WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'notifications', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_pledges_insert BEFORE INSERT ON pledges WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'pledges', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_pledges_update BEFORE UPDATE ON pledges WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'pledges', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'pledges', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_pledges_delete BEFORE DELETE ON pledges WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'pledges', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_tasks_insert BEFORE INSERT ON tasks WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'tasks', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_tasks_update BEFORE UPDATE ON tasks WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'tasks', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'tasks', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_tasks_delete BEFORE DELETE ON tasks WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'tasks', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_activity_contacts_insert BEFORE INSERT ON activity_contacts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = NEW.task_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'activity_contacts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = NEW.task_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_activity_contacts_update BEFORE UPDATE ON activity_contacts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = NEW.task_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = OLD.task_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'activity_contacts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = NEW.task_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'activity_contacts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = OLD.task_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_activity_contacts_delete BEFORE DELETE ON activity_contacts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = OLD.task_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'activity_contacts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = OLD.task_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_addresses_insert BEFORE INSERT ON addresses WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'addresses', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_addresses_update BEFORE UPDATE ON addresses WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'addresses', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'addresses', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_addresses_delete BEFORE DELETE ON addresses WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'addresses', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_appeal_contacts_insert BEFORE INSERT ON appeal_contacts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = NEW.appeal_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'appeal_contacts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = NEW.appeal_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_appeal_contacts_update BEFORE UPDATE ON appeal_contacts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = NEW.appeal_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = OLD.appeal_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'appeal_contacts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = NEW.appeal_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'appeal_contacts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = OLD.appeal_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_appeal_contacts_delete BEFORE DELETE ON appeal_contacts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = OLD.appeal_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'appeal_contacts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = OLD.appeal_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_appeal_excluded_contacts_insert BEFORE INSERT ON appeal_excluded_contacts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = NEW.appeal_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'appeal_excluded_contacts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = NEW.appeal_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_appeal_excluded_contacts_update BEFORE UPDATE ON appeal_excluded_contacts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = NEW.appeal_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = OLD.appeal_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'appeal_excluded_contacts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = NEW.appeal_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'appeal_excluded_contacts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = OLD.appeal_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_appeal_excluded_contacts_delete BEFORE DELETE ON appeal_excluded_contacts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = OLD.appeal_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'appeal_excluded_contacts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM appeals AS P WHERE P.id = OLD.appeal_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_balances_insert BEFORE INSERT ON balances WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM designation_accounts AS P WHERE P.id = NEW.designation_account_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'balances', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM designation_accounts AS P WHERE P.id = NEW.designation_account_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_balances_update BEFORE UPDATE ON balances WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM designation_accounts AS P WHERE P.id = NEW.designation_account_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM designation_accounts AS P WHERE P.id = OLD.designation_account_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'balances', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM designation_accounts AS P WHERE P.id = NEW.designation_account_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'balances', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM designation_accounts AS P WHERE P.id = OLD.designation_account_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_balances_delete BEFORE DELETE ON balances WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM designation_accounts AS P WHERE P.id = OLD.designation_account_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'balances', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM designation_accounts AS P WHERE P.id = OLD.designation_account_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_people_insert BEFORE INSERT ON people WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'people', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_people_update BEFORE UPDATE ON people WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'people', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'people', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_people_delete BEFORE DELETE ON people WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'people', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_comments_insert BEFORE INSERT ON comments WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = NEW.task_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'comments', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = NEW.task_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_comments_update BEFORE UPDATE ON comments WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = NEW.task_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = OLD.task_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'comments', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = NEW.task_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'comments', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = OLD.task_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_comments_delete BEFORE DELETE ON comments WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = OLD.task_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'comments', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = OLD.task_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_contact_donor_accounts_insert BEFORE INSERT ON contact_donor_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contact_donor_accounts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_contact_donor_accounts_update BEFORE UPDATE ON contact_donor_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contact_donor_accounts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contact_donor_accounts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_contact_donor_accounts_delete BEFORE DELETE ON contact_donor_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contact_donor_accounts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_contact_referrals_insert BEFORE INSERT ON contact_referrals WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.referred_by_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contact_referrals', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.referred_by_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_contact_referrals_update BEFORE UPDATE ON contact_referrals WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.referred_by_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.referred_by_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contact_referrals', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.referred_by_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contact_referrals', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.referred_by_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_contact_referrals_delete BEFORE DELETE ON contact_referrals WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.referred_by_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contact_referrals', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.referred_by_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_contact_tags_insert BEFORE INSERT ON contact_tags WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contact_tags', json_array(NEW.contact_id, NEW.name) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_contact_tags_update BEFORE UPDATE ON contact_tags WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contact_tags', json_array(NEW.contact_id, NEW.name) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contact_tags', json_array(OLD.contact_id, OLD.name) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_contact_tags_delete BEFORE DELETE ON contact_tags WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'contact_tags', json_array(OLD.contact_id, OLD.name) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_import_row_failures_insert BEFORE INSERT ON import_row_failures WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM imports AS P WHERE P.id = NEW.import_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'import_row_failures', json_array(NEW.import_id, NEW.row_number) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM imports AS P WHERE P.id = NEW.import_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_import_row_failures_update BEFORE UPDATE ON import_row_failures WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM imports AS P WHERE P.id = NEW.import_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM imports AS P WHERE P.id = OLD.import_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'import_row_failures', json_array(NEW.import_id, NEW.row_number) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM imports AS P WHERE P.id = NEW.import_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'import_row_failures', json_array(OLD.import_id, OLD.row_number) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM imports AS P WHERE P.id = OLD.import_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_import_row_failures_delete BEFORE DELETE ON import_row_failures WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM imports AS P WHERE P.id = OLD.import_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'import_row_failures', json_array(OLD.import_id, OLD.row_number) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM imports AS P WHERE P.id = OLD.import_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_partner_status_logs_insert BEFORE INSERT ON partner_status_logs WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'partner_status_logs', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_partner_status_logs_update BEFORE UPDATE ON partner_status_logs WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'partner_status_logs', NEW.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = NEW.contact_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'partner_status_logs', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_partner_status_logs_delete BEFORE DELETE ON partner_status_logs WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'partner_status_logs', OLD.id FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM contacts AS P WHERE P.id = OLD.contact_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_phone_numbers_insert BEFORE INSERT ON phone_numbers WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'phone_numbers', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_phone_numbers_update BEFORE UPDATE ON phone_numbers WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'phone_numbers', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'phone_numbers', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_phone_numbers_delete BEFORE DELETE ON phone_numbers WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'phone_numbers', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_pledge_donations_insert BEFORE INSERT ON pledge_donations WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM pledges AS P WHERE P.id = NEW.pledge_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'pledge_donations', json_array(NEW.pledge_id, NEW.donation_id) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM pledges AS P WHERE P.id = NEW.pledge_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_pledge_donations_update BEFORE UPDATE ON pledge_donations WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM pledges AS P WHERE P.id = NEW.pledge_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM pledges AS P WHERE P.id = OLD.pledge_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'pledge_donations', json_array(NEW.pledge_id, NEW.donation_id) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM pledges AS P WHERE P.id = NEW.pledge_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'pledge_donations', json_array(OLD.pledge_id, OLD.donation_id) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM pledges AS P WHERE P.id = OLD.pledge_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_pledge_donations_delete BEFORE DELETE ON pledge_donations WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM pledges AS P WHERE P.id = OLD.pledge_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'pledge_donations', json_array(OLD.pledge_id, OLD.donation_id) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM pledges AS P WHERE P.id = OLD.pledge_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_task_tags_insert BEFORE INSERT ON task_tags WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = NEW.task_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'task_tags', json_array(NEW.task_id, NEW.name) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = NEW.task_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_task_tags_update BEFORE UPDATE ON task_tags WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = NEW.task_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = OLD.task_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'task_tags', json_array(NEW.task_id, NEW.name) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = NEW.task_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'task_tags', json_array(OLD.task_id, OLD.name) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = OLD.task_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_task_tags_delete BEFORE DELETE ON task_tags WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = OLD.task_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'task_tags', json_array(OLD.task_id, OLD.name) FROM moving_lists WHERE account_list_id = (SELECT P.account_list_id FROM tasks AS P WHERE P.id = OLD.task_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_twitter_accounts_insert BEFORE INSERT ON twitter_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'twitter_accounts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_twitter_accounts_update BEFORE UPDATE ON twitter_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'twitter_accounts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'twitter_accounts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_twitter_accounts_delete BEFORE DELETE ON twitter_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'twitter_accounts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_websites_insert BEFORE INSERT ON websites WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'websites', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_websites_update BEFORE UPDATE ON websites WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'websites', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'websites', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_websites_delete BEFORE DELETE ON websites WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'websites', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_email_addresses_insert BEFORE INSERT ON email_addresses WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'email_addresses', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_email_addresses_update BEFORE UPDATE ON email_addresses WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'email_addresses', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'email_addresses', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_email_addresses_delete BEFORE DELETE ON email_addresses WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'email_addresses', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_facebook_accounts_insert BEFORE INSERT ON facebook_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'facebook_accounts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_facebook_accounts_update BEFORE UPDATE ON facebook_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'facebook_accounts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'facebook_accounts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_facebook_accounts_delete BEFORE DELETE ON facebook_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'facebook_accounts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_family_relationships_insert BEFORE INSERT ON family_relationships WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'family_relationships', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_family_relationships_update BEFORE UPDATE ON family_relationships WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'family_relationships', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'family_relationships', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_family_relationships_delete BEFORE DELETE ON family_relationships WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'family_relationships', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_linkedin_accounts_insert BEFORE INSERT ON linkedin_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'linkedin_accounts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_linkedin_accounts_update BEFORE UPDATE ON linkedin_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'linkedin_accounts', NEW.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = NEW.person_id) AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'linkedin_accounts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_linkedin_accounts_delete BEFORE DELETE ON linkedin_accounts WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'linkedin_accounts', OLD.id FROM moving_lists WHERE account_list_id = (SELECT (SELECT P.account_list_id FROM contacts AS P WHERE P.id = P.contact_id) FROM people AS P WHERE P.id = OLD.person_id) AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_account_lists_update BEFORE UPDATE ON account_lists WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.id AND state IN ('switching', 'moved'));
END;
