-- A contact's mark for the daily run, already there for the same list, is left as it is (drizzle/run-marks.ts): the triggers that mark, again.
DROP TRIGGER IF EXISTS contacts_marks_contacts_insert;
--> statement-breakpoint
CREATE TRIGGER contacts_marks_contacts_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT NEW.id, NEW.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS contacts_marks_contacts_update;
--> statement-breakpoint
CREATE TRIGGER contacts_marks_contacts_update AFTER UPDATE ON contacts BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT NEW.id, NEW.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS people_marks_contacts_insert;
--> statement-breakpoint
CREATE TRIGGER people_marks_contacts_insert AFTER INSERT ON people BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS people_marks_contacts_delete;
--> statement-breakpoint
CREATE TRIGGER people_marks_contacts_delete AFTER DELETE ON people BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS people_marks_contacts_update;
--> statement-breakpoint
CREATE TRIGGER people_marks_contacts_update AFTER UPDATE ON people BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS email_addresses_marks_contacts_insert;
--> statement-breakpoint
CREATE TRIGGER email_addresses_marks_contacts_insert AFTER INSERT ON email_addresses BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS email_addresses_marks_contacts_delete;
--> statement-breakpoint
CREATE TRIGGER email_addresses_marks_contacts_delete AFTER DELETE ON email_addresses BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS email_addresses_marks_contacts_update;
--> statement-breakpoint
CREATE TRIGGER email_addresses_marks_contacts_update AFTER UPDATE ON email_addresses BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS addresses_marks_contacts_insert;
--> statement-breakpoint
CREATE TRIGGER addresses_marks_contacts_insert AFTER INSERT ON addresses BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS addresses_marks_contacts_delete;
--> statement-breakpoint
CREATE TRIGGER addresses_marks_contacts_delete AFTER DELETE ON addresses BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS addresses_marks_contacts_update;
--> statement-breakpoint
CREATE TRIGGER addresses_marks_contacts_update AFTER UPDATE ON addresses BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS contact_donor_accounts_marks_contacts_insert;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_marks_contacts_insert AFTER INSERT ON contact_donor_accounts BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS contact_donor_accounts_marks_contacts_delete;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_marks_contacts_delete AFTER DELETE ON contact_donor_accounts BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS contact_donor_accounts_marks_contacts_update;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_marks_contacts_update AFTER UPDATE ON contact_donor_accounts BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS donations_marks_contacts_insert;
--> statement-breakpoint
CREATE TRIGGER donations_marks_contacts_insert AFTER INSERT ON donations BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM contact_donor_accounts x CROSS JOIN contacts c ON c.id = x.contact_id WHERE x.donor_account_id = NEW.donor_account_id AND +c.account_list_id = NEW.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS donations_marks_contacts_delete;
--> statement-breakpoint
CREATE TRIGGER donations_marks_contacts_delete AFTER DELETE ON donations BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM contact_donor_accounts x CROSS JOIN contacts c ON c.id = x.contact_id WHERE x.donor_account_id = OLD.donor_account_id AND +c.account_list_id = OLD.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS donations_marks_contacts_update;
--> statement-breakpoint
CREATE TRIGGER donations_marks_contacts_update AFTER UPDATE ON donations BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM contact_donor_accounts x CROSS JOIN contacts c ON c.id = x.contact_id WHERE x.donor_account_id = OLD.donor_account_id AND +c.account_list_id = OLD.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM contact_donor_accounts x CROSS JOIN contacts c ON c.id = x.contact_id WHERE x.donor_account_id = NEW.donor_account_id AND +c.account_list_id = NEW.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS tasks_marks_contacts_update;
--> statement-breakpoint
CREATE TRIGGER tasks_marks_contacts_update AFTER UPDATE OF activity_type, start_at, completed_at, completed ON tasks BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM activity_contacts x JOIN contacts c ON c.id = x.contact_id WHERE x.task_id = OLD.id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM activity_contacts x JOIN contacts c ON c.id = x.contact_id WHERE x.task_id = NEW.id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS activity_contacts_marks_contacts_insert;
--> statement-breakpoint
CREATE TRIGGER activity_contacts_marks_contacts_insert AFTER INSERT ON activity_contacts WHEN NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = NEW.task_id AND t.notification_id IS NOT NULL) BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS activity_contacts_marks_contacts_delete;
--> statement-breakpoint
CREATE TRIGGER activity_contacts_marks_contacts_delete AFTER DELETE ON activity_contacts WHEN NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = OLD.task_id AND t.notification_id IS NOT NULL) BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS activity_contacts_marks_contacts_update;
--> statement-breakpoint
CREATE TRIGGER activity_contacts_marks_contacts_update AFTER UPDATE OF task_id, contact_id ON activity_contacts WHEN NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = NEW.task_id AND t.notification_id IS NOT NULL) BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS notifications_marks_contacts_update;
--> statement-breakpoint
CREATE TRIGGER notifications_marks_contacts_update AFTER UPDATE OF cleared ON notifications BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS notifications_marks_contacts_delete;
--> statement-breakpoint
CREATE TRIGGER notifications_marks_contacts_delete AFTER DELETE ON notifications BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id WHERE account_list_id IS NOT excluded.account_list_id;
END;
