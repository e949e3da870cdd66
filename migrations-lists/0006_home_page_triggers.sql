-- A deleted record moves with its list: its writes are recorded and refused like the list's other rows' (src/db/list-tables.ts).
CREATE TRIGGER list_moves_deleted_records_insert BEFORE INSERT ON deleted_records WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'deleted_records', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_deleted_records_update BEFORE UPDATE ON deleted_records WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'deleted_records', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'deleted_records', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_deleted_records_delete BEFORE DELETE ON deleted_records WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'deleted_records', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
-- The kept rows the home pages read (drizzle/kept-sums.ts): built from the rows already there, then kept by triggers.
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'open_tasks_by_type_year', account_list_id, substr(start_at, 1, 4), COALESCE(activity_type, ''), '', SUM(0), count(*)
  FROM tasks WHERE completed = 0 AND start_at IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_type_year_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'open_tasks_by_type_year', NEW.account_list_id, substr(NEW.start_at, 1, 4), COALESCE(NEW.activity_type, ''), '', 0, 1 WHERE NEW.completed = 0 AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_type_year_delete AFTER DELETE ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'open_tasks_by_type_year' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 4) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = '' AND (OLD.completed = 0 AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'open_tasks_by_type_year' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 4) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_type_year_update AFTER UPDATE OF completed, start_at, account_list_id, activity_type ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'open_tasks_by_type_year' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 4) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = '' AND (OLD.completed = 0 AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'open_tasks_by_type_year' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 4) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'open_tasks_by_type_year', NEW.account_list_id, substr(NEW.start_at, 1, 4), COALESCE(NEW.activity_type, ''), '', 0, 1 WHERE NEW.completed = 0 AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'open_tasks_by_type_month', account_list_id, substr(start_at, 1, 7), COALESCE(activity_type, ''), '', SUM(0), count(*)
  FROM tasks WHERE completed = 0 AND start_at IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_type_month_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'open_tasks_by_type_month', NEW.account_list_id, substr(NEW.start_at, 1, 7), COALESCE(NEW.activity_type, ''), '', 0, 1 WHERE NEW.completed = 0 AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_type_month_delete AFTER DELETE ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'open_tasks_by_type_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 7) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = '' AND (OLD.completed = 0 AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'open_tasks_by_type_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 7) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_type_month_update AFTER UPDATE OF completed, start_at, account_list_id, activity_type ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'open_tasks_by_type_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 7) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = '' AND (OLD.completed = 0 AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'open_tasks_by_type_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 7) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'open_tasks_by_type_month', NEW.account_list_id, substr(NEW.start_at, 1, 7), COALESCE(NEW.activity_type, ''), '', 0, 1 WHERE NEW.completed = 0 AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'open_tasks_by_type_day', account_list_id, substr(start_at, 1, 10), COALESCE(activity_type, ''), '', SUM(0), count(*)
  FROM tasks WHERE completed = 0 AND start_at IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_type_day_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'open_tasks_by_type_day', NEW.account_list_id, substr(NEW.start_at, 1, 10), COALESCE(NEW.activity_type, ''), '', 0, 1 WHERE NEW.completed = 0 AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_type_day_delete AFTER DELETE ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'open_tasks_by_type_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 10) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = '' AND (OLD.completed = 0 AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'open_tasks_by_type_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 10) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_type_day_update AFTER UPDATE OF completed, start_at, account_list_id, activity_type ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'open_tasks_by_type_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 10) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = '' AND (OLD.completed = 0 AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'open_tasks_by_type_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 10) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'open_tasks_by_type_day', NEW.account_list_id, substr(NEW.start_at, 1, 10), COALESCE(NEW.activity_type, ''), '', 0, 1 WHERE NEW.completed = 0 AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'awaiting_first_gift', account_list_id, '', '', '', SUM(0), count(*)
  FROM contacts WHERE status = 'Partner - Financial' AND pledge_received = 0 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER contacts_awaiting_first_gift_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'awaiting_first_gift', NEW.account_list_id, '', '', '', 0, 1 WHERE NEW.status = 'Partner - Financial' AND NEW.pledge_received = 0
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_awaiting_first_gift_delete AFTER DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'awaiting_first_gift' AND owner_id = OLD.account_list_id AND key1 = '' AND key2 = '' AND key3 = '' AND (OLD.status = 'Partner - Financial' AND OLD.pledge_received = 0);
  DELETE FROM kept_sums WHERE kind = 'awaiting_first_gift' AND owner_id = OLD.account_list_id AND key1 = '' AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_awaiting_first_gift_update AFTER UPDATE OF status, pledge_received, account_list_id ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'awaiting_first_gift' AND owner_id = OLD.account_list_id AND key1 = '' AND key2 = '' AND key3 = '' AND (OLD.status = 'Partner - Financial' AND OLD.pledge_received = 0);
  DELETE FROM kept_sums WHERE kind = 'awaiting_first_gift' AND owner_id = OLD.account_list_id AND key1 = '' AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'awaiting_first_gift', NEW.account_list_id, '', '', '', 0, 1 WHERE NEW.status = 'Partner - Financial' AND NEW.pledge_received = 0
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'partners_due_by_month', account_list_id, substr(gift_due_on, 1, 7), COALESCE(pledge_start_date, ''), '', SUM(0), count(*)
  FROM contacts WHERE status = 'Partner - Financial' AND pledge_received = 1 AND gift_due_on IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER contacts_partners_due_by_month_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'partners_due_by_month', NEW.account_list_id, substr(NEW.gift_due_on, 1, 7), COALESCE(NEW.pledge_start_date, ''), '', 0, 1 WHERE NEW.status = 'Partner - Financial' AND NEW.pledge_received = 1 AND NEW.gift_due_on IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_partners_due_by_month_delete AFTER DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'partners_due_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.gift_due_on, 1, 7) AND key2 = COALESCE(OLD.pledge_start_date, '') AND key3 = '' AND (OLD.status = 'Partner - Financial' AND OLD.pledge_received = 1 AND OLD.gift_due_on IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'partners_due_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.gift_due_on, 1, 7) AND key2 = COALESCE(OLD.pledge_start_date, '') AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_partners_due_by_month_update AFTER UPDATE OF status, pledge_received, last_gift_on, pledge_frequency, pledge_start_date, account_list_id ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'partners_due_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.gift_due_on, 1, 7) AND key2 = COALESCE(OLD.pledge_start_date, '') AND key3 = '' AND (OLD.status = 'Partner - Financial' AND OLD.pledge_received = 1 AND OLD.gift_due_on IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'partners_due_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.gift_due_on, 1, 7) AND key2 = COALESCE(OLD.pledge_start_date, '') AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'partners_due_by_month', NEW.account_list_id, substr(NEW.gift_due_on, 1, 7), COALESCE(NEW.pledge_start_date, ''), '', 0, 1 WHERE NEW.status = 'Partner - Financial' AND NEW.pledge_received = 1 AND NEW.gift_due_on IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'partners_due_by_day', account_list_id, substr(gift_due_on, 1, 10), COALESCE(pledge_start_date, ''), '', SUM(0), count(*)
  FROM contacts WHERE status = 'Partner - Financial' AND pledge_received = 1 AND gift_due_on IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER contacts_partners_due_by_day_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'partners_due_by_day', NEW.account_list_id, substr(NEW.gift_due_on, 1, 10), COALESCE(NEW.pledge_start_date, ''), '', 0, 1 WHERE NEW.status = 'Partner - Financial' AND NEW.pledge_received = 1 AND NEW.gift_due_on IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_partners_due_by_day_delete AFTER DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'partners_due_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.gift_due_on, 1, 10) AND key2 = COALESCE(OLD.pledge_start_date, '') AND key3 = '' AND (OLD.status = 'Partner - Financial' AND OLD.pledge_received = 1 AND OLD.gift_due_on IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'partners_due_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.gift_due_on, 1, 10) AND key2 = COALESCE(OLD.pledge_start_date, '') AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_partners_due_by_day_update AFTER UPDATE OF status, pledge_received, last_gift_on, pledge_frequency, pledge_start_date, account_list_id ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'partners_due_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.gift_due_on, 1, 10) AND key2 = COALESCE(OLD.pledge_start_date, '') AND key3 = '' AND (OLD.status = 'Partner - Financial' AND OLD.pledge_received = 1 AND OLD.gift_due_on IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'partners_due_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.gift_due_on, 1, 10) AND key2 = COALESCE(OLD.pledge_start_date, '') AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'partners_due_by_day', NEW.account_list_id, substr(NEW.gift_due_on, 1, 10), COALESCE(NEW.pledge_start_date, ''), '', 0, 1 WHERE NEW.status = 'Partner - Financial' AND NEW.pledge_received = 1 AND NEW.gift_due_on IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
