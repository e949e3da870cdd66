-- The triggers that keep counts, sums, marks, task link copies and a moving list's record, as the directory's
-- migrations (migrations/) leave them: a list database's rows are kept the same way.
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
--> statement-breakpoint
CREATE TRIGGER contacts_marks_contacts_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT NEW.id, NEW.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_marks_contacts_update AFTER UPDATE ON contacts BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT NEW.id, NEW.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_marks_contacts_delete AFTER DELETE ON contacts BEGIN
  DELETE FROM changed_contacts WHERE contact_id = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER people_marks_contacts_insert AFTER INSERT ON people BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER people_marks_contacts_delete AFTER DELETE ON people BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER people_marks_contacts_update AFTER UPDATE ON people BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER email_addresses_marks_contacts_insert AFTER INSERT ON email_addresses BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER email_addresses_marks_contacts_delete AFTER DELETE ON email_addresses BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER email_addresses_marks_contacts_update AFTER UPDATE ON email_addresses BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_marks_contacts_insert AFTER INSERT ON addresses BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_marks_contacts_delete AFTER DELETE ON addresses BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_marks_contacts_update AFTER UPDATE ON addresses BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_marks_contacts_insert AFTER INSERT ON contact_donor_accounts BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_marks_contacts_delete AFTER DELETE ON contact_donor_accounts BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_marks_contacts_update AFTER UPDATE ON contact_donor_accounts BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_marks_contacts_update AFTER UPDATE OF activity_type, start_at, completed_at, completed ON tasks BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM activity_contacts x JOIN contacts c ON c.id = x.contact_id WHERE x.task_id = OLD.id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM activity_contacts x JOIN contacts c ON c.id = x.contact_id WHERE x.task_id = NEW.id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER activity_contacts_marks_contacts_insert AFTER INSERT ON activity_contacts WHEN NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = NEW.task_id AND t.notification_id IS NOT NULL) BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER activity_contacts_marks_contacts_delete AFTER DELETE ON activity_contacts WHEN NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = OLD.task_id AND t.notification_id IS NOT NULL) BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER notifications_marks_contacts_update AFTER UPDATE OF cleared ON notifications BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER notifications_marks_contacts_delete AFTER DELETE ON notifications BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER people_person_days_insert AFTER INSERT ON people BEGIN
  INSERT INTO person_days (person_id, kind, account_list_id, month_day)
  SELECT NEW.id, 'birthday', c.account_list_id, printf('%02d-%02d', NEW.birthday_month, NEW.birthday_day) FROM contacts c WHERE c.id = NEW.contact_id AND NEW.birthday_month BETWEEN 1 AND 12 AND NEW.birthday_day BETWEEN 1 AND 31;
  INSERT INTO person_days (person_id, kind, account_list_id, month_day)
  SELECT NEW.id, 'anniversary', c.account_list_id, printf('%02d-%02d', NEW.anniversary_month, NEW.anniversary_day) FROM contacts c WHERE c.id = NEW.contact_id AND NEW.anniversary_month BETWEEN 1 AND 12 AND NEW.anniversary_day BETWEEN 1 AND 31;
END;
--> statement-breakpoint
CREATE TRIGGER people_person_days_update AFTER UPDATE OF contact_id, birthday_month, birthday_day, anniversary_month, anniversary_day ON people BEGIN
  DELETE FROM person_days WHERE person_id = OLD.id;
  INSERT INTO person_days (person_id, kind, account_list_id, month_day)
  SELECT NEW.id, 'birthday', c.account_list_id, printf('%02d-%02d', NEW.birthday_month, NEW.birthday_day) FROM contacts c WHERE c.id = NEW.contact_id AND NEW.birthday_month BETWEEN 1 AND 12 AND NEW.birthday_day BETWEEN 1 AND 31;
  INSERT INTO person_days (person_id, kind, account_list_id, month_day)
  SELECT NEW.id, 'anniversary', c.account_list_id, printf('%02d-%02d', NEW.anniversary_month, NEW.anniversary_day) FROM contacts c WHERE c.id = NEW.contact_id AND NEW.anniversary_month BETWEEN 1 AND 12 AND NEW.anniversary_day BETWEEN 1 AND 31;
END;
--> statement-breakpoint
CREATE TRIGGER people_person_days_delete AFTER DELETE ON people BEGIN
  DELETE FROM person_days WHERE person_id = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_person_days_move AFTER UPDATE OF account_list_id ON contacts BEGIN
  UPDATE person_days SET account_list_id = NEW.account_list_id WHERE person_id IN (SELECT id FROM people WHERE contact_id = NEW.id);
END;
--> statement-breakpoint
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
--> statement-breakpoint
CREATE TRIGGER activity_contacts_task_copy_insert AFTER INSERT ON activity_contacts BEGIN
  UPDATE activity_contacts SET (task_completed, task_activity_type, task_completed_at) = (SELECT completed, activity_type, completed_at FROM tasks WHERE id = NEW.task_id) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER activity_contacts_task_copy_relink AFTER UPDATE OF task_id ON activity_contacts BEGIN
  UPDATE activity_contacts SET (task_completed, task_activity_type, task_completed_at) = (SELECT completed, activity_type, completed_at FROM tasks WHERE id = NEW.task_id) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_task_copy_update AFTER UPDATE OF completed, activity_type, completed_at ON tasks BEGIN
  UPDATE activity_contacts SET task_completed = NEW.completed, task_activity_type = NEW.activity_type, task_completed_at = NEW.completed_at WHERE task_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER activity_contacts_marks_contacts_update AFTER UPDATE OF task_id, contact_id ON activity_contacts WHEN NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = NEW.task_id AND t.notification_id IS NOT NULL) BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER donations_last_gift_insert AFTER INSERT ON donations BEGIN
  UPDATE contacts SET last_gift_on = NEW.donation_date WHERE id IN (SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = NEW.donor_account_id) AND +account_list_id = NEW.account_list_id
    AND (last_gift_on IS NULL OR last_gift_on < NEW.donation_date);
END;
--> statement-breakpoint
CREATE TRIGGER donations_last_gift_delete AFTER DELETE ON donations BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = OLD.donor_account_id);
END;
--> statement-breakpoint
CREATE TRIGGER donations_last_gift_update AFTER UPDATE OF donation_date, donor_account_id, account_list_id ON donations BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = OLD.donor_account_id);
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = NEW.donor_account_id);
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_last_gift_insert AFTER INSERT ON contact_donor_accounts BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (NEW.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_last_gift_delete AFTER DELETE ON contact_donor_accounts BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (OLD.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_last_gift_update AFTER UPDATE OF contact_id, donor_account_id ON contact_donor_accounts BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (OLD.contact_id);
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (NEW.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER contacts_last_gift_move AFTER UPDATE OF account_list_id ON contacts BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER donations_marks_contacts_insert AFTER INSERT ON donations BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM contact_donor_accounts x CROSS JOIN contacts c ON c.id = x.contact_id WHERE x.donor_account_id = NEW.donor_account_id AND +c.account_list_id = NEW.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER donations_marks_contacts_delete AFTER DELETE ON donations BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM contact_donor_accounts x CROSS JOIN contacts c ON c.id = x.contact_id WHERE x.donor_account_id = OLD.donor_account_id AND +c.account_list_id = OLD.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER donations_marks_contacts_update AFTER UPDATE ON donations BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM contact_donor_accounts x CROSS JOIN contacts c ON c.id = x.contact_id WHERE x.donor_account_id = OLD.donor_account_id AND +c.account_list_id = OLD.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM contact_donor_accounts x CROSS JOIN contacts c ON c.id = x.contact_id WHERE x.donor_account_id = NEW.donor_account_id AND +c.account_list_id = NEW.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
