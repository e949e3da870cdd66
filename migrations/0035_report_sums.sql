-- The kept rows the reports read (drizzle/kept-sums.ts): a list's gifts by month, currency and designation account, and by donor account and month; built from the gifts already there, then kept by triggers.
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
  SELECT 'donor_gifts_by_month', account_list_id, donor_account_id, substr(donation_date, 1, 7), '', SUM(COALESCE(tendered_amount, amount)), count(*)
  FROM donations WHERE 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER donations_donor_gifts_by_month_insert AFTER INSERT ON donations BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'donor_gifts_by_month', NEW.account_list_id, NEW.donor_account_id, substr(NEW.donation_date, 1, 7), '', COALESCE(NEW.tendered_amount, NEW.amount), 1 WHERE 1
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER donations_donor_gifts_by_month_delete AFTER DELETE ON donations BEGIN
  UPDATE kept_sums SET units = units - COALESCE(OLD.tendered_amount, OLD.amount), rows = rows - 1 WHERE kind = 'donor_gifts_by_month' AND owner_id = OLD.account_list_id AND key1 = OLD.donor_account_id AND key2 = substr(OLD.donation_date, 1, 7) AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'donor_gifts_by_month' AND owner_id = OLD.account_list_id AND key1 = OLD.donor_account_id AND key2 = substr(OLD.donation_date, 1, 7) AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER donations_donor_gifts_by_month_update AFTER UPDATE OF donor_account_id, donation_date, tendered_amount, amount, account_list_id ON donations BEGIN
  UPDATE kept_sums SET units = units - COALESCE(OLD.tendered_amount, OLD.amount), rows = rows - 1 WHERE kind = 'donor_gifts_by_month' AND owner_id = OLD.account_list_id AND key1 = OLD.donor_account_id AND key2 = substr(OLD.donation_date, 1, 7) AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'donor_gifts_by_month' AND owner_id = OLD.account_list_id AND key1 = OLD.donor_account_id AND key2 = substr(OLD.donation_date, 1, 7) AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'donor_gifts_by_month', NEW.account_list_id, NEW.donor_account_id, substr(NEW.donation_date, 1, 7), '', COALESCE(NEW.tendered_amount, NEW.amount), 1 WHERE 1
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
