CREATE TABLE `kept_sums` (
	`kind` text NOT NULL,
	`owner_id` text NOT NULL,
	`key1` text NOT NULL,
	`key2` text NOT NULL,
	`key3` text NOT NULL,
	`units` integer NOT NULL,
	`rows` integer NOT NULL,
	PRIMARY KEY(`kind`, `owner_id`, `key1`, `key2`, `key3`)
);
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'list_pledges', account_list_id, upper(COALESCE(NULLIF(pledge_currency, ''), '')), COALESCE(pledge_frequency, ''), CAST(pledge_received AS TEXT), SUM(pledge_amount), count(*)
  FROM contacts WHERE status = 'Partner - Financial' AND pledge_amount IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER contacts_list_pledges_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'list_pledges', NEW.account_list_id, upper(COALESCE(NULLIF(NEW.pledge_currency, ''), '')), COALESCE(NEW.pledge_frequency, ''), CAST(NEW.pledge_received AS TEXT), NEW.pledge_amount, 1 WHERE NEW.status = 'Partner - Financial' AND NEW.pledge_amount IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_list_pledges_delete AFTER DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - OLD.pledge_amount, rows = rows - 1 WHERE kind = 'list_pledges' AND owner_id = OLD.account_list_id AND key1 = upper(COALESCE(NULLIF(OLD.pledge_currency, ''), '')) AND key2 = COALESCE(OLD.pledge_frequency, '') AND key3 = CAST(OLD.pledge_received AS TEXT) AND (OLD.status = 'Partner - Financial' AND OLD.pledge_amount IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'list_pledges' AND owner_id = OLD.account_list_id AND key1 = upper(COALESCE(NULLIF(OLD.pledge_currency, ''), '')) AND key2 = COALESCE(OLD.pledge_frequency, '') AND key3 = CAST(OLD.pledge_received AS TEXT) AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_list_pledges_update AFTER UPDATE OF status, pledge_amount, account_list_id, pledge_currency, pledge_frequency, pledge_received ON contacts BEGIN
  UPDATE kept_sums SET units = units - OLD.pledge_amount, rows = rows - 1 WHERE kind = 'list_pledges' AND owner_id = OLD.account_list_id AND key1 = upper(COALESCE(NULLIF(OLD.pledge_currency, ''), '')) AND key2 = COALESCE(OLD.pledge_frequency, '') AND key3 = CAST(OLD.pledge_received AS TEXT) AND (OLD.status = 'Partner - Financial' AND OLD.pledge_amount IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'list_pledges' AND owner_id = OLD.account_list_id AND key1 = upper(COALESCE(NULLIF(OLD.pledge_currency, ''), '')) AND key2 = COALESCE(OLD.pledge_frequency, '') AND key3 = CAST(OLD.pledge_received AS TEXT) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'list_pledges', NEW.account_list_id, upper(COALESCE(NULLIF(NEW.pledge_currency, ''), '')), COALESCE(NEW.pledge_frequency, ''), CAST(NEW.pledge_received AS TEXT), NEW.pledge_amount, 1 WHERE NEW.status = 'Partner - Financial' AND NEW.pledge_amount IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'list_balances', account_list_id, upper(COALESCE(NULLIF(currency, ''), '')), COALESCE(organization_id, ''), '', SUM(balance), count(*)
  FROM designation_accounts WHERE active = 1 AND balance IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER designation_accounts_list_balances_insert AFTER INSERT ON designation_accounts BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'list_balances', NEW.account_list_id, upper(COALESCE(NULLIF(NEW.currency, ''), '')), COALESCE(NEW.organization_id, ''), '', NEW.balance, 1 WHERE NEW.active = 1 AND NEW.balance IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER designation_accounts_list_balances_delete AFTER DELETE ON designation_accounts BEGIN
  UPDATE kept_sums SET units = units - OLD.balance, rows = rows - 1 WHERE kind = 'list_balances' AND owner_id = OLD.account_list_id AND key1 = upper(COALESCE(NULLIF(OLD.currency, ''), '')) AND key2 = COALESCE(OLD.organization_id, '') AND key3 = '' AND (OLD.active = 1 AND OLD.balance IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'list_balances' AND owner_id = OLD.account_list_id AND key1 = upper(COALESCE(NULLIF(OLD.currency, ''), '')) AND key2 = COALESCE(OLD.organization_id, '') AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER designation_accounts_list_balances_update AFTER UPDATE OF active, balance, account_list_id, currency, organization_id ON designation_accounts BEGIN
  UPDATE kept_sums SET units = units - OLD.balance, rows = rows - 1 WHERE kind = 'list_balances' AND owner_id = OLD.account_list_id AND key1 = upper(COALESCE(NULLIF(OLD.currency, ''), '')) AND key2 = COALESCE(OLD.organization_id, '') AND key3 = '' AND (OLD.active = 1 AND OLD.balance IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'list_balances' AND owner_id = OLD.account_list_id AND key1 = upper(COALESCE(NULLIF(OLD.currency, ''), '')) AND key2 = COALESCE(OLD.organization_id, '') AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'list_balances', NEW.account_list_id, upper(COALESCE(NULLIF(NEW.currency, ''), '')), COALESCE(NEW.organization_id, ''), '', NEW.balance, 1 WHERE NEW.active = 1 AND NEW.balance IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'appeal_pledges', appeal_id, status, upper(COALESCE(NULLIF(amount_currency, ''), '')), '', SUM(amount), count(*)
  FROM pledges WHERE appeal_id IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER pledges_appeal_pledges_insert AFTER INSERT ON pledges BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'appeal_pledges', NEW.appeal_id, NEW.status, upper(COALESCE(NULLIF(NEW.amount_currency, ''), '')), '', NEW.amount, 1 WHERE NEW.appeal_id IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER pledges_appeal_pledges_delete AFTER DELETE ON pledges BEGIN
  UPDATE kept_sums SET units = units - OLD.amount, rows = rows - 1 WHERE kind = 'appeal_pledges' AND owner_id = OLD.appeal_id AND key1 = OLD.status AND key2 = upper(COALESCE(NULLIF(OLD.amount_currency, ''), '')) AND key3 = '' AND (OLD.appeal_id IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'appeal_pledges' AND owner_id = OLD.appeal_id AND key1 = OLD.status AND key2 = upper(COALESCE(NULLIF(OLD.amount_currency, ''), '')) AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER pledges_appeal_pledges_update AFTER UPDATE OF appeal_id, status, amount_currency, amount ON pledges BEGIN
  UPDATE kept_sums SET units = units - OLD.amount, rows = rows - 1 WHERE kind = 'appeal_pledges' AND owner_id = OLD.appeal_id AND key1 = OLD.status AND key2 = upper(COALESCE(NULLIF(OLD.amount_currency, ''), '')) AND key3 = '' AND (OLD.appeal_id IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'appeal_pledges' AND owner_id = OLD.appeal_id AND key1 = OLD.status AND key2 = upper(COALESCE(NULLIF(OLD.amount_currency, ''), '')) AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'appeal_pledges', NEW.appeal_id, NEW.status, upper(COALESCE(NULLIF(NEW.amount_currency, ''), '')), '', NEW.amount, 1 WHERE NEW.appeal_id IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'open_tasks_by_month', account_list_id, substr(start_at, 1, 7), '', '', SUM(0), count(*)
  FROM tasks WHERE completed = 0 AND start_at IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_month_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'open_tasks_by_month', NEW.account_list_id, substr(NEW.start_at, 1, 7), '', '', 0, 1 WHERE NEW.completed = 0 AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_month_delete AFTER DELETE ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'open_tasks_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 7) AND key2 = '' AND key3 = '' AND (OLD.completed = 0 AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'open_tasks_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 7) AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_month_update AFTER UPDATE OF completed, start_at, account_list_id ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'open_tasks_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 7) AND key2 = '' AND key3 = '' AND (OLD.completed = 0 AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'open_tasks_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 7) AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'open_tasks_by_month', NEW.account_list_id, substr(NEW.start_at, 1, 7), '', '', 0, 1 WHERE NEW.completed = 0 AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'open_tasks_by_day', account_list_id, substr(start_at, 1, 10), '', '', SUM(0), count(*)
  FROM tasks WHERE completed = 0 AND start_at IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_day_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'open_tasks_by_day', NEW.account_list_id, substr(NEW.start_at, 1, 10), '', '', 0, 1 WHERE NEW.completed = 0 AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_day_delete AFTER DELETE ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'open_tasks_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 10) AND key2 = '' AND key3 = '' AND (OLD.completed = 0 AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'open_tasks_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 10) AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_open_tasks_by_day_update AFTER UPDATE OF completed, start_at, account_list_id ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'open_tasks_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 10) AND key2 = '' AND key3 = '' AND (OLD.completed = 0 AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'open_tasks_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 10) AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'open_tasks_by_day', NEW.account_list_id, substr(NEW.start_at, 1, 10), '', '', 0, 1 WHERE NEW.completed = 0 AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
