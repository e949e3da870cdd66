-- The kept rows the period reports sum over time (drizzle/kept-sums.ts): built from the rows already there, then kept by triggers.
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'created_tasks_by_month', account_list_id, substr(created_at, 1, 7), COALESCE(activity_type, ''), CAST(completed AS TEXT), SUM(0), count(*)
  FROM tasks WHERE 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER tasks_created_tasks_by_month_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'created_tasks_by_month', NEW.account_list_id, substr(NEW.created_at, 1, 7), COALESCE(NEW.activity_type, ''), CAST(NEW.completed AS TEXT), 0, 1 WHERE 1
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_created_tasks_by_month_delete AFTER DELETE ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'created_tasks_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 7) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = CAST(OLD.completed AS TEXT) AND (1);
  DELETE FROM kept_sums WHERE kind = 'created_tasks_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 7) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = CAST(OLD.completed AS TEXT) AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_created_tasks_by_month_update AFTER UPDATE OF created_at, activity_type, completed, account_list_id ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'created_tasks_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 7) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = CAST(OLD.completed AS TEXT) AND (1);
  DELETE FROM kept_sums WHERE kind = 'created_tasks_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 7) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = CAST(OLD.completed AS TEXT) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'created_tasks_by_month', NEW.account_list_id, substr(NEW.created_at, 1, 7), COALESCE(NEW.activity_type, ''), CAST(NEW.completed AS TEXT), 0, 1 WHERE 1
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'created_tasks_by_day', account_list_id, substr(created_at, 1, 10), COALESCE(activity_type, ''), CAST(completed AS TEXT), SUM(0), count(*)
  FROM tasks WHERE 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER tasks_created_tasks_by_day_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'created_tasks_by_day', NEW.account_list_id, substr(NEW.created_at, 1, 10), COALESCE(NEW.activity_type, ''), CAST(NEW.completed AS TEXT), 0, 1 WHERE 1
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_created_tasks_by_day_delete AFTER DELETE ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'created_tasks_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 10) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = CAST(OLD.completed AS TEXT) AND (1);
  DELETE FROM kept_sums WHERE kind = 'created_tasks_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 10) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = CAST(OLD.completed AS TEXT) AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_created_tasks_by_day_update AFTER UPDATE OF created_at, activity_type, completed, account_list_id ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'created_tasks_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 10) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = CAST(OLD.completed AS TEXT) AND (1);
  DELETE FROM kept_sums WHERE kind = 'created_tasks_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 10) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = CAST(OLD.completed AS TEXT) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'created_tasks_by_day', NEW.account_list_id, substr(NEW.created_at, 1, 10), COALESCE(NEW.activity_type, ''), CAST(NEW.completed AS TEXT), 0, 1 WHERE 1
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'created_tasks_by_hour', account_list_id, substr(created_at, 1, 13), COALESCE(activity_type, ''), CAST(completed AS TEXT), SUM(0), count(*)
  FROM tasks WHERE 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER tasks_created_tasks_by_hour_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'created_tasks_by_hour', NEW.account_list_id, substr(NEW.created_at, 1, 13), COALESCE(NEW.activity_type, ''), CAST(NEW.completed AS TEXT), 0, 1 WHERE 1
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_created_tasks_by_hour_delete AFTER DELETE ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'created_tasks_by_hour' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 13) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = CAST(OLD.completed AS TEXT) AND (1);
  DELETE FROM kept_sums WHERE kind = 'created_tasks_by_hour' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 13) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = CAST(OLD.completed AS TEXT) AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_created_tasks_by_hour_update AFTER UPDATE OF created_at, activity_type, completed, account_list_id ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'created_tasks_by_hour' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 13) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = CAST(OLD.completed AS TEXT) AND (1);
  DELETE FROM kept_sums WHERE kind = 'created_tasks_by_hour' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 13) AND key2 = COALESCE(OLD.activity_type, '') AND key3 = CAST(OLD.completed AS TEXT) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'created_tasks_by_hour', NEW.account_list_id, substr(NEW.created_at, 1, 13), COALESCE(NEW.activity_type, ''), CAST(NEW.completed AS TEXT), 0, 1 WHERE 1
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'appointments_by_month', account_list_id, substr(start_at, 1, 7), CASE WHEN completed = 1 AND result IN ('Completed', 'Done') THEN 'held' ELSE '' END, '', SUM(0), count(*)
  FROM tasks WHERE activity_type = 'Appointment' AND start_at IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER tasks_appointments_by_month_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'appointments_by_month', NEW.account_list_id, substr(NEW.start_at, 1, 7), CASE WHEN NEW.completed = 1 AND NEW.result IN ('Completed', 'Done') THEN 'held' ELSE '' END, '', 0, 1 WHERE NEW.activity_type = 'Appointment' AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_appointments_by_month_delete AFTER DELETE ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'appointments_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 7) AND key2 = CASE WHEN OLD.completed = 1 AND OLD.result IN ('Completed', 'Done') THEN 'held' ELSE '' END AND key3 = '' AND (OLD.activity_type = 'Appointment' AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'appointments_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 7) AND key2 = CASE WHEN OLD.completed = 1 AND OLD.result IN ('Completed', 'Done') THEN 'held' ELSE '' END AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_appointments_by_month_update AFTER UPDATE OF start_at, activity_type, completed, result, account_list_id ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'appointments_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 7) AND key2 = CASE WHEN OLD.completed = 1 AND OLD.result IN ('Completed', 'Done') THEN 'held' ELSE '' END AND key3 = '' AND (OLD.activity_type = 'Appointment' AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'appointments_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 7) AND key2 = CASE WHEN OLD.completed = 1 AND OLD.result IN ('Completed', 'Done') THEN 'held' ELSE '' END AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'appointments_by_month', NEW.account_list_id, substr(NEW.start_at, 1, 7), CASE WHEN NEW.completed = 1 AND NEW.result IN ('Completed', 'Done') THEN 'held' ELSE '' END, '', 0, 1 WHERE NEW.activity_type = 'Appointment' AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'appointments_by_day', account_list_id, substr(start_at, 1, 10), CASE WHEN completed = 1 AND result IN ('Completed', 'Done') THEN 'held' ELSE '' END, '', SUM(0), count(*)
  FROM tasks WHERE activity_type = 'Appointment' AND start_at IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER tasks_appointments_by_day_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'appointments_by_day', NEW.account_list_id, substr(NEW.start_at, 1, 10), CASE WHEN NEW.completed = 1 AND NEW.result IN ('Completed', 'Done') THEN 'held' ELSE '' END, '', 0, 1 WHERE NEW.activity_type = 'Appointment' AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_appointments_by_day_delete AFTER DELETE ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'appointments_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 10) AND key2 = CASE WHEN OLD.completed = 1 AND OLD.result IN ('Completed', 'Done') THEN 'held' ELSE '' END AND key3 = '' AND (OLD.activity_type = 'Appointment' AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'appointments_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 10) AND key2 = CASE WHEN OLD.completed = 1 AND OLD.result IN ('Completed', 'Done') THEN 'held' ELSE '' END AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_appointments_by_day_update AFTER UPDATE OF start_at, activity_type, completed, result, account_list_id ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'appointments_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 10) AND key2 = CASE WHEN OLD.completed = 1 AND OLD.result IN ('Completed', 'Done') THEN 'held' ELSE '' END AND key3 = '' AND (OLD.activity_type = 'Appointment' AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'appointments_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 10) AND key2 = CASE WHEN OLD.completed = 1 AND OLD.result IN ('Completed', 'Done') THEN 'held' ELSE '' END AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'appointments_by_day', NEW.account_list_id, substr(NEW.start_at, 1, 10), CASE WHEN NEW.completed = 1 AND NEW.result IN ('Completed', 'Done') THEN 'held' ELSE '' END, '', 0, 1 WHERE NEW.activity_type = 'Appointment' AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'appointments_by_hour', account_list_id, substr(start_at, 1, 13), CASE WHEN completed = 1 AND result IN ('Completed', 'Done') THEN 'held' ELSE '' END, '', SUM(0), count(*)
  FROM tasks WHERE activity_type = 'Appointment' AND start_at IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER tasks_appointments_by_hour_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'appointments_by_hour', NEW.account_list_id, substr(NEW.start_at, 1, 13), CASE WHEN NEW.completed = 1 AND NEW.result IN ('Completed', 'Done') THEN 'held' ELSE '' END, '', 0, 1 WHERE NEW.activity_type = 'Appointment' AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_appointments_by_hour_delete AFTER DELETE ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'appointments_by_hour' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 13) AND key2 = CASE WHEN OLD.completed = 1 AND OLD.result IN ('Completed', 'Done') THEN 'held' ELSE '' END AND key3 = '' AND (OLD.activity_type = 'Appointment' AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'appointments_by_hour' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 13) AND key2 = CASE WHEN OLD.completed = 1 AND OLD.result IN ('Completed', 'Done') THEN 'held' ELSE '' END AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_appointments_by_hour_update AFTER UPDATE OF start_at, activity_type, completed, result, account_list_id ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'appointments_by_hour' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 13) AND key2 = CASE WHEN OLD.completed = 1 AND OLD.result IN ('Completed', 'Done') THEN 'held' ELSE '' END AND key3 = '' AND (OLD.activity_type = 'Appointment' AND OLD.start_at IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'appointments_by_hour' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.start_at, 1, 13) AND key2 = CASE WHEN OLD.completed = 1 AND OLD.result IN ('Completed', 'Done') THEN 'held' ELSE '' END AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'appointments_by_hour', NEW.account_list_id, substr(NEW.start_at, 1, 13), CASE WHEN NEW.completed = 1 AND NEW.result IN ('Completed', 'Done') THEN 'held' ELSE '' END, '', 0, 1 WHERE NEW.activity_type = 'Appointment' AND NEW.start_at IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'appeal_pledges_made_by_month', appeal_id, substr(created_at, 1, 7), '', '', SUM(COALESCE(amount, 0)), count(*)
  FROM pledges WHERE appeal_id IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER pledges_appeal_pledges_made_by_month_insert AFTER INSERT ON pledges BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'appeal_pledges_made_by_month', NEW.appeal_id, substr(NEW.created_at, 1, 7), '', '', COALESCE(NEW.amount, 0), 1 WHERE NEW.appeal_id IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER pledges_appeal_pledges_made_by_month_delete AFTER DELETE ON pledges BEGIN
  UPDATE kept_sums SET units = units - COALESCE(OLD.amount, 0), rows = rows - 1 WHERE kind = 'appeal_pledges_made_by_month' AND owner_id = OLD.appeal_id AND key1 = substr(OLD.created_at, 1, 7) AND key2 = '' AND key3 = '' AND (OLD.appeal_id IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'appeal_pledges_made_by_month' AND owner_id = OLD.appeal_id AND key1 = substr(OLD.created_at, 1, 7) AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER pledges_appeal_pledges_made_by_month_update AFTER UPDATE OF created_at, appeal_id, amount ON pledges BEGIN
  UPDATE kept_sums SET units = units - COALESCE(OLD.amount, 0), rows = rows - 1 WHERE kind = 'appeal_pledges_made_by_month' AND owner_id = OLD.appeal_id AND key1 = substr(OLD.created_at, 1, 7) AND key2 = '' AND key3 = '' AND (OLD.appeal_id IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'appeal_pledges_made_by_month' AND owner_id = OLD.appeal_id AND key1 = substr(OLD.created_at, 1, 7) AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'appeal_pledges_made_by_month', NEW.appeal_id, substr(NEW.created_at, 1, 7), '', '', COALESCE(NEW.amount, 0), 1 WHERE NEW.appeal_id IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'appeal_pledges_made_by_day', appeal_id, substr(created_at, 1, 10), '', '', SUM(COALESCE(amount, 0)), count(*)
  FROM pledges WHERE appeal_id IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER pledges_appeal_pledges_made_by_day_insert AFTER INSERT ON pledges BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'appeal_pledges_made_by_day', NEW.appeal_id, substr(NEW.created_at, 1, 10), '', '', COALESCE(NEW.amount, 0), 1 WHERE NEW.appeal_id IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER pledges_appeal_pledges_made_by_day_delete AFTER DELETE ON pledges BEGIN
  UPDATE kept_sums SET units = units - COALESCE(OLD.amount, 0), rows = rows - 1 WHERE kind = 'appeal_pledges_made_by_day' AND owner_id = OLD.appeal_id AND key1 = substr(OLD.created_at, 1, 10) AND key2 = '' AND key3 = '' AND (OLD.appeal_id IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'appeal_pledges_made_by_day' AND owner_id = OLD.appeal_id AND key1 = substr(OLD.created_at, 1, 10) AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER pledges_appeal_pledges_made_by_day_update AFTER UPDATE OF created_at, appeal_id, amount ON pledges BEGIN
  UPDATE kept_sums SET units = units - COALESCE(OLD.amount, 0), rows = rows - 1 WHERE kind = 'appeal_pledges_made_by_day' AND owner_id = OLD.appeal_id AND key1 = substr(OLD.created_at, 1, 10) AND key2 = '' AND key3 = '' AND (OLD.appeal_id IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'appeal_pledges_made_by_day' AND owner_id = OLD.appeal_id AND key1 = substr(OLD.created_at, 1, 10) AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'appeal_pledges_made_by_day', NEW.appeal_id, substr(NEW.created_at, 1, 10), '', '', COALESCE(NEW.amount, 0), 1 WHERE NEW.appeal_id IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'contact_pledges_created_by_month', account_list_id, substr(created_at, 1, 7), upper(COALESCE(NULLIF(pledge_currency, ''), '')), COALESCE(pledge_frequency, '') || '|' || CAST(pledge_received AS TEXT), SUM(pledge_amount), count(*)
  FROM contacts WHERE pledge_amount > 0 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER contacts_contact_pledges_created_by_month_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'contact_pledges_created_by_month', NEW.account_list_id, substr(NEW.created_at, 1, 7), upper(COALESCE(NULLIF(NEW.pledge_currency, ''), '')), COALESCE(NEW.pledge_frequency, '') || '|' || CAST(NEW.pledge_received AS TEXT), NEW.pledge_amount, 1 WHERE NEW.pledge_amount > 0
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_contact_pledges_created_by_month_delete AFTER DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - OLD.pledge_amount, rows = rows - 1 WHERE kind = 'contact_pledges_created_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 7) AND key2 = upper(COALESCE(NULLIF(OLD.pledge_currency, ''), '')) AND key3 = COALESCE(OLD.pledge_frequency, '') || '|' || CAST(OLD.pledge_received AS TEXT) AND (OLD.pledge_amount > 0);
  DELETE FROM kept_sums WHERE kind = 'contact_pledges_created_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 7) AND key2 = upper(COALESCE(NULLIF(OLD.pledge_currency, ''), '')) AND key3 = COALESCE(OLD.pledge_frequency, '') || '|' || CAST(OLD.pledge_received AS TEXT) AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_contact_pledges_created_by_month_update AFTER UPDATE OF created_at, pledge_amount, account_list_id, pledge_currency, pledge_frequency, pledge_received ON contacts BEGIN
  UPDATE kept_sums SET units = units - OLD.pledge_amount, rows = rows - 1 WHERE kind = 'contact_pledges_created_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 7) AND key2 = upper(COALESCE(NULLIF(OLD.pledge_currency, ''), '')) AND key3 = COALESCE(OLD.pledge_frequency, '') || '|' || CAST(OLD.pledge_received AS TEXT) AND (OLD.pledge_amount > 0);
  DELETE FROM kept_sums WHERE kind = 'contact_pledges_created_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.created_at, 1, 7) AND key2 = upper(COALESCE(NULLIF(OLD.pledge_currency, ''), '')) AND key3 = COALESCE(OLD.pledge_frequency, '') || '|' || CAST(OLD.pledge_received AS TEXT) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'contact_pledges_created_by_month', NEW.account_list_id, substr(NEW.created_at, 1, 7), upper(COALESCE(NULLIF(NEW.pledge_currency, ''), '')), COALESCE(NEW.pledge_frequency, '') || '|' || CAST(NEW.pledge_received AS TEXT), NEW.pledge_amount, 1 WHERE NEW.pledge_amount > 0
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
