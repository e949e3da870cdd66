-- The kept rows the reports read (drizzle/kept-sums.ts): a list's gifts by month, currency and designation account, its pledges by terms, and its status logs by day; built from the rows already there, then kept by triggers.
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'donations_by_month', account_list_id, substr(donation_date, 1, 7), upper(currency), designation_account_id, SUM(amount), count(*)
  FROM donations WHERE 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER donations_donations_by_month_insert AFTER INSERT ON donations BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'donations_by_month', NEW.account_list_id, substr(NEW.donation_date, 1, 7), upper(NEW.currency), NEW.designation_account_id, NEW.amount, 1 WHERE 1
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER donations_donations_by_month_delete AFTER DELETE ON donations BEGIN
  UPDATE kept_sums SET units = units - OLD.amount, rows = rows - 1 WHERE kind = 'donations_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.donation_date, 1, 7) AND key2 = upper(OLD.currency) AND key3 = OLD.designation_account_id AND (1);
  DELETE FROM kept_sums WHERE kind = 'donations_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.donation_date, 1, 7) AND key2 = upper(OLD.currency) AND key3 = OLD.designation_account_id AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER donations_donations_by_month_update AFTER UPDATE OF donation_date, currency, designation_account_id, amount, account_list_id ON donations BEGIN
  UPDATE kept_sums SET units = units - OLD.amount, rows = rows - 1 WHERE kind = 'donations_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.donation_date, 1, 7) AND key2 = upper(OLD.currency) AND key3 = OLD.designation_account_id AND (1);
  DELETE FROM kept_sums WHERE kind = 'donations_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.donation_date, 1, 7) AND key2 = upper(OLD.currency) AND key3 = OLD.designation_account_id AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'donations_by_month', NEW.account_list_id, substr(NEW.donation_date, 1, 7), upper(NEW.currency), NEW.designation_account_id, NEW.amount, 1 WHERE 1
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'contact_pledges', account_list_id, upper(COALESCE(NULLIF(pledge_currency, ''), '')), COALESCE(pledge_frequency, ''), CAST(pledge_received AS TEXT), SUM(pledge_amount), count(*)
  FROM contacts WHERE pledge_amount > 0 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER contacts_contact_pledges_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'contact_pledges', NEW.account_list_id, upper(COALESCE(NULLIF(NEW.pledge_currency, ''), '')), COALESCE(NEW.pledge_frequency, ''), CAST(NEW.pledge_received AS TEXT), NEW.pledge_amount, 1 WHERE NEW.pledge_amount > 0
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_contact_pledges_delete AFTER DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - OLD.pledge_amount, rows = rows - 1 WHERE kind = 'contact_pledges' AND owner_id = OLD.account_list_id AND key1 = upper(COALESCE(NULLIF(OLD.pledge_currency, ''), '')) AND key2 = COALESCE(OLD.pledge_frequency, '') AND key3 = CAST(OLD.pledge_received AS TEXT) AND (OLD.pledge_amount > 0);
  DELETE FROM kept_sums WHERE kind = 'contact_pledges' AND owner_id = OLD.account_list_id AND key1 = upper(COALESCE(NULLIF(OLD.pledge_currency, ''), '')) AND key2 = COALESCE(OLD.pledge_frequency, '') AND key3 = CAST(OLD.pledge_received AS TEXT) AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_contact_pledges_update AFTER UPDATE OF pledge_amount, account_list_id, pledge_currency, pledge_frequency, pledge_received ON contacts BEGIN
  UPDATE kept_sums SET units = units - OLD.pledge_amount, rows = rows - 1 WHERE kind = 'contact_pledges' AND owner_id = OLD.account_list_id AND key1 = upper(COALESCE(NULLIF(OLD.pledge_currency, ''), '')) AND key2 = COALESCE(OLD.pledge_frequency, '') AND key3 = CAST(OLD.pledge_received AS TEXT) AND (OLD.pledge_amount > 0);
  DELETE FROM kept_sums WHERE kind = 'contact_pledges' AND owner_id = OLD.account_list_id AND key1 = upper(COALESCE(NULLIF(OLD.pledge_currency, ''), '')) AND key2 = COALESCE(OLD.pledge_frequency, '') AND key3 = CAST(OLD.pledge_received AS TEXT) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'contact_pledges', NEW.account_list_id, upper(COALESCE(NULLIF(NEW.pledge_currency, ''), '')), COALESCE(NEW.pledge_frequency, ''), CAST(NEW.pledge_received AS TEXT), NEW.pledge_amount, 1 WHERE NEW.pledge_amount > 0
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'status_logs_by_day', C.account_list_id, R.recorded_on, R.contact_id, '', SUM(0), count(*)
  FROM partner_status_logs AS R JOIN contacts AS C ON C.id = R.contact_id WHERE 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER partner_status_logs_status_logs_by_day_insert AFTER INSERT ON partner_status_logs BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'status_logs_by_day', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.recorded_on, NEW.contact_id, '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER partner_status_logs_status_logs_by_day_delete AFTER DELETE ON partner_status_logs BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'status_logs_by_day' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.recorded_on AND key2 = OLD.contact_id AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'status_logs_by_day' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.recorded_on AND key2 = OLD.contact_id AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER partner_status_logs_status_logs_by_day_update AFTER UPDATE OF recorded_on, contact_id ON partner_status_logs BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'status_logs_by_day' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.recorded_on AND key2 = OLD.contact_id AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'status_logs_by_day' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.recorded_on AND key2 = OLD.contact_id AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'status_logs_by_day', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.recorded_on, NEW.contact_id, '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_status_logs_by_day_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM partner_status_logs AS R WHERE R.contact_id = OLD.id AND (1) AND R.recorded_on = kept_sums.key1 AND R.contact_id = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM partner_status_logs AS R WHERE R.contact_id = OLD.id AND (1) AND R.recorded_on = kept_sums.key1 AND R.contact_id = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'status_logs_by_day' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.recorded_on, R.contact_id, '' FROM partner_status_logs AS R WHERE R.contact_id = OLD.id AND (1));
  DELETE FROM kept_sums WHERE kind = 'status_logs_by_day' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.recorded_on, R.contact_id, '' FROM partner_status_logs AS R WHERE R.contact_id = OLD.id AND (1)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'status_logs_by_day', NEW.account_list_id, R.recorded_on, R.contact_id, '', SUM(0), count(*)
    FROM partner_status_logs AS R WHERE R.contact_id = NEW.id AND (1) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_status_logs_by_day_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM partner_status_logs AS R WHERE R.contact_id = OLD.id AND (1) AND R.recorded_on = kept_sums.key1 AND R.contact_id = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM partner_status_logs AS R WHERE R.contact_id = OLD.id AND (1) AND R.recorded_on = kept_sums.key1 AND R.contact_id = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'status_logs_by_day' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.recorded_on, R.contact_id, '' FROM partner_status_logs AS R WHERE R.contact_id = OLD.id AND (1));
  DELETE FROM kept_sums WHERE kind = 'status_logs_by_day' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.recorded_on, R.contact_id, '' FROM partner_status_logs AS R WHERE R.contact_id = OLD.id AND (1)) AND rows = 0;
END;
