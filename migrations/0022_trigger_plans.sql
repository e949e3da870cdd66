-- The last-gift and gift-mark triggers reach a contact's rows through its donor accounts whatever the planner's
-- statistics say (drizzle/run-marks.ts): rendered again from their declarations.
DROP TRIGGER IF EXISTS donations_last_gift_insert;
--> statement-breakpoint
DROP TRIGGER IF EXISTS donations_last_gift_delete;
--> statement-breakpoint
DROP TRIGGER IF EXISTS donations_last_gift_update;
--> statement-breakpoint
DROP TRIGGER IF EXISTS contact_donor_accounts_last_gift_insert;
--> statement-breakpoint
DROP TRIGGER IF EXISTS contact_donor_accounts_last_gift_delete;
--> statement-breakpoint
DROP TRIGGER IF EXISTS contact_donor_accounts_last_gift_update;
--> statement-breakpoint
DROP TRIGGER IF EXISTS contacts_last_gift_move;
--> statement-breakpoint
DROP TRIGGER IF EXISTS donations_marks_contacts_insert;
--> statement-breakpoint
DROP TRIGGER IF EXISTS donations_marks_contacts_delete;
--> statement-breakpoint
DROP TRIGGER IF EXISTS donations_marks_contacts_update;
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
