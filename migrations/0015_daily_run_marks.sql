CREATE TABLE `changed_contacts` (
	`contact_id` text PRIMARY KEY NOT NULL,
	`account_list_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `changed_contacts_account_list_id_idx` ON `changed_contacts` (`account_list_id`);--> statement-breakpoint
CREATE TABLE `notification_list_runs` (
	`account_list_id` text PRIMARY KEY NOT NULL,
	`ran_on` text NOT NULL,
	`type_ids` text NOT NULL,
	FOREIGN KEY (`account_list_id`) REFERENCES `account_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `person_days` (
	`person_id` text NOT NULL,
	`kind` text NOT NULL,
	`account_list_id` text NOT NULL,
	`month_day` text NOT NULL,
	PRIMARY KEY(`person_id`, `kind`)
);
--> statement-breakpoint
CREATE INDEX `person_days_account_list_id_month_day_idx` ON `person_days` (`account_list_id`,`kind`,`month_day`);--> statement-breakpoint
ALTER TABLE `contacts` ADD `last_gift_on` text;--> statement-breakpoint
ALTER TABLE `contacts` ADD `gift_due_on` text GENERATED ALWAYS AS (date(last_gift_on, CASE pledge_frequency WHEN '0.23076923076923' THEN '+7 days' WHEN '0.46153846153846' THEN '+14 days' ELSE '+' || CAST(CAST(pledge_frequency AS REAL) AS INTEGER) || ' months' END)) VIRTUAL;--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_gift_due_on_idx` ON `contacts` (`account_list_id`,`gift_due_on`) WHERE gift_due_on IS NOT NULL;--> statement-breakpoint
CREATE INDEX `contacts_account_list_id_pledge_start_date_idx` ON `contacts` (`account_list_id`,`pledge_start_date`) WHERE pledge_start_date IS NOT NULL;
--> statement-breakpoint
INSERT INTO person_days (person_id, kind, account_list_id, month_day)
  SELECT p.id, 'birthday', c.account_list_id, printf('%02d-%02d', p.birthday_month, p.birthday_day) FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.birthday_month BETWEEN 1 AND 12 AND p.birthday_day BETWEEN 1 AND 31;
--> statement-breakpoint
INSERT INTO person_days (person_id, kind, account_list_id, month_day)
  SELECT p.id, 'anniversary', c.account_list_id, printf('%02d-%02d', p.anniversary_month, p.anniversary_day) FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.anniversary_month BETWEEN 1 AND 12 AND p.anniversary_day BETWEEN 1 AND 31;
--> statement-breakpoint
UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (SELECT contact_id FROM contact_donor_accounts);
--> statement-breakpoint
CREATE TRIGGER donations_last_gift_insert AFTER INSERT ON donations BEGIN
  UPDATE contacts SET last_gift_on = NEW.donation_date WHERE id IN (SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = NEW.donor_account_id) AND account_list_id = NEW.account_list_id
    AND (last_gift_on IS NULL OR last_gift_on < NEW.donation_date);
END;
--> statement-breakpoint
CREATE TRIGGER donations_last_gift_delete AFTER DELETE ON donations BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = OLD.donor_account_id);
END;
--> statement-breakpoint
CREATE TRIGGER donations_last_gift_update AFTER UPDATE OF donation_date, donor_account_id, account_list_id ON donations BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = OLD.donor_account_id);
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = NEW.donor_account_id);
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_last_gift_insert AFTER INSERT ON contact_donor_accounts BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (NEW.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_last_gift_delete AFTER DELETE ON contact_donor_accounts BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (OLD.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_last_gift_update AFTER UPDATE OF contact_id, donor_account_id ON contact_donor_accounts BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (OLD.contact_id);
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (NEW.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER contacts_last_gift_move AFTER UPDATE OF account_list_id ON contacts BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id)
    WHERE id IN (NEW.id);
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
CREATE TRIGGER donations_marks_contacts_insert AFTER INSERT ON donations BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM contact_donor_accounts x JOIN contacts c ON c.id = x.contact_id WHERE x.donor_account_id = NEW.donor_account_id AND c.account_list_id = NEW.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER donations_marks_contacts_delete AFTER DELETE ON donations BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM contact_donor_accounts x JOIN contacts c ON c.id = x.contact_id WHERE x.donor_account_id = OLD.donor_account_id AND c.account_list_id = OLD.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER donations_marks_contacts_update AFTER UPDATE ON donations BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM contact_donor_accounts x JOIN contacts c ON c.id = x.contact_id WHERE x.donor_account_id = OLD.donor_account_id AND c.account_list_id = OLD.account_list_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT c.id, c.account_list_id FROM contact_donor_accounts x JOIN contacts c ON c.id = x.contact_id WHERE x.donor_account_id = NEW.donor_account_id AND c.account_list_id = NEW.account_list_id
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
CREATE TRIGGER activity_contacts_marks_contacts_update AFTER UPDATE ON activity_contacts WHEN NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = NEW.task_id AND t.notification_id IS NOT NULL) BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
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
