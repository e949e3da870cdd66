-- Test events and redeliveries asked for move with their list like its other rows (src/db/list-tables.ts).
CREATE TRIGGER list_moves_webhook_manual_sends_insert BEFORE INSERT ON webhook_manual_sends WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhook_manual_sends', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_webhook_manual_sends_update BEFORE UPDATE ON webhook_manual_sends WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhook_manual_sends', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhook_manual_sends', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_webhook_manual_sends_delete BEFORE DELETE ON webhook_manual_sends WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhook_manual_sends', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
