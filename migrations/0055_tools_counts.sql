-- The kept rows the Tools menu counts (drizzle/kept-sums.ts): built from the rows already there, then kept by triggers.
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'contacts_status_invalid', account_list_id, COALESCE(status, ''), '', '', SUM(0), count(*)
  FROM contacts WHERE status_valid = 0 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER contacts_contacts_status_invalid_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'contacts_status_invalid', NEW.account_list_id, COALESCE(NEW.status, ''), '', '', 0, 1 WHERE NEW.status_valid = 0
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_contacts_status_invalid_delete AFTER DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'contacts_status_invalid' AND owner_id = OLD.account_list_id AND key1 = COALESCE(OLD.status, '') AND key2 = '' AND key3 = '' AND (OLD.status_valid = 0);
  DELETE FROM kept_sums WHERE kind = 'contacts_status_invalid' AND owner_id = OLD.account_list_id AND key1 = COALESCE(OLD.status, '') AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_contacts_status_invalid_update AFTER UPDATE OF status_valid, status, account_list_id ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'contacts_status_invalid' AND owner_id = OLD.account_list_id AND key1 = COALESCE(OLD.status, '') AND key2 = '' AND key3 = '' AND (OLD.status_valid = 0);
  DELETE FROM kept_sums WHERE kind = 'contacts_status_invalid' AND owner_id = OLD.account_list_id AND key1 = COALESCE(OLD.status, '') AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'contacts_status_invalid', NEW.account_list_id, COALESCE(NEW.status, ''), '', '', 0, 1 WHERE NEW.status_valid = 0
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'contacts_newsletter_blank', account_list_id, COALESCE(status, ''), '', '', SUM(0), count(*)
  FROM contacts WHERE COALESCE(send_newsletter, '') = '' GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER contacts_contacts_newsletter_blank_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'contacts_newsletter_blank', NEW.account_list_id, COALESCE(NEW.status, ''), '', '', 0, 1 WHERE COALESCE(NEW.send_newsletter, '') = ''
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_contacts_newsletter_blank_delete AFTER DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'contacts_newsletter_blank' AND owner_id = OLD.account_list_id AND key1 = COALESCE(OLD.status, '') AND key2 = '' AND key3 = '' AND (COALESCE(OLD.send_newsletter, '') = '');
  DELETE FROM kept_sums WHERE kind = 'contacts_newsletter_blank' AND owner_id = OLD.account_list_id AND key1 = COALESCE(OLD.status, '') AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_contacts_newsletter_blank_update AFTER UPDATE OF send_newsletter, status, account_list_id ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'contacts_newsletter_blank' AND owner_id = OLD.account_list_id AND key1 = COALESCE(OLD.status, '') AND key2 = '' AND key3 = '' AND (COALESCE(OLD.send_newsletter, '') = '');
  DELETE FROM kept_sums WHERE kind = 'contacts_newsletter_blank' AND owner_id = OLD.account_list_id AND key1 = COALESCE(OLD.status, '') AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'contacts_newsletter_blank', NEW.account_list_id, COALESCE(NEW.status, ''), '', '', 0, 1 WHERE COALESCE(NEW.send_newsletter, '') = ''
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'addresses_invalid', C.account_list_id, R.contact_id, '', '', SUM(0), count(*)
  FROM addresses AS R JOIN contacts AS C ON C.id = R.contact_id WHERE R.valid = 0 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER addresses_addresses_invalid_insert AFTER INSERT ON addresses BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'addresses_invalid', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.contact_id, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.valid = 0)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_addresses_invalid_delete AFTER DELETE ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'addresses_invalid' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = '' AND key3 = '' AND (OLD.valid = 0);
  DELETE FROM kept_sums WHERE kind = 'addresses_invalid' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_addresses_invalid_update AFTER UPDATE OF valid, contact_id ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'addresses_invalid' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = '' AND key3 = '' AND (OLD.valid = 0);
  DELETE FROM kept_sums WHERE kind = 'addresses_invalid' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'addresses_invalid', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.contact_id, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.valid = 0)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_addresses_invalid_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.valid = 0) AND R.contact_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.valid = 0) AND R.contact_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'addresses_invalid' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.valid = 0));
  DELETE FROM kept_sums WHERE kind = 'addresses_invalid' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.valid = 0)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'addresses_invalid', NEW.account_list_id, R.contact_id, '', '', SUM(0), count(*)
    FROM addresses AS R WHERE R.contact_id = NEW.id AND (R.valid = 0) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_addresses_invalid_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.valid = 0) AND R.contact_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.valid = 0) AND R.contact_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'addresses_invalid' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.valid = 0));
  DELETE FROM kept_sums WHERE kind = 'addresses_invalid' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.valid = 0)) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'addresses_primary', C.account_list_id, R.contact_id, '', '', SUM(0), count(*)
  FROM addresses AS R JOIN contacts AS C ON C.id = R.contact_id WHERE R.historic = 0 AND R.primary_mailing_address = 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER addresses_addresses_primary_insert AFTER INSERT ON addresses BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'addresses_primary', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.contact_id, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.historic = 0 AND NEW.primary_mailing_address = 1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_addresses_primary_delete AFTER DELETE ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'addresses_primary' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = '' AND key3 = '' AND (OLD.historic = 0 AND OLD.primary_mailing_address = 1);
  DELETE FROM kept_sums WHERE kind = 'addresses_primary' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_addresses_primary_update AFTER UPDATE OF historic, primary_mailing_address, contact_id ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'addresses_primary' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = '' AND key3 = '' AND (OLD.historic = 0 AND OLD.primary_mailing_address = 1);
  DELETE FROM kept_sums WHERE kind = 'addresses_primary' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'addresses_primary', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.contact_id, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.historic = 0 AND NEW.primary_mailing_address = 1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_addresses_primary_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.historic = 0 AND R.primary_mailing_address = 1) AND R.contact_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.historic = 0 AND R.primary_mailing_address = 1) AND R.contact_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'addresses_primary' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.historic = 0 AND R.primary_mailing_address = 1));
  DELETE FROM kept_sums WHERE kind = 'addresses_primary' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.historic = 0 AND R.primary_mailing_address = 1)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'addresses_primary', NEW.account_list_id, R.contact_id, '', '', SUM(0), count(*)
    FROM addresses AS R WHERE R.contact_id = NEW.id AND (R.historic = 0 AND R.primary_mailing_address = 1) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_addresses_primary_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.historic = 0 AND R.primary_mailing_address = 1) AND R.contact_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.historic = 0 AND R.primary_mailing_address = 1) AND R.contact_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'addresses_primary' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.historic = 0 AND R.primary_mailing_address = 1));
  DELETE FROM kept_sums WHERE kind = 'addresses_primary' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.historic = 0 AND R.primary_mailing_address = 1)) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'emails_invalid', C.account_list_id, R.person_id, '', '', SUM(0), count(*)
  FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id JOIN contacts AS C ON C.id = P.contact_id WHERE R.valid = 0 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER email_addresses_emails_invalid_insert AFTER INSERT ON email_addresses BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'emails_invalid', (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id), NEW.person_id, '', '', 0, 1 WHERE (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id) IS NOT NULL AND (NEW.valid = 0)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER email_addresses_emails_invalid_delete AFTER DELETE ON email_addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'emails_invalid' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND (OLD.valid = 0);
  DELETE FROM kept_sums WHERE kind = 'emails_invalid' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER email_addresses_emails_invalid_update AFTER UPDATE OF valid, person_id ON email_addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'emails_invalid' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND (OLD.valid = 0);
  DELETE FROM kept_sums WHERE kind = 'emails_invalid' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'emails_invalid', (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id), NEW.person_id, '', '', 0, 1 WHERE (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id) IS NOT NULL AND (NEW.valid = 0)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER people_emails_invalid_move AFTER UPDATE OF contact_id ON people WHEN OLD.contact_id IS NOT NEW.contact_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'emails_invalid' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R.valid = 0));
  DELETE FROM kept_sums WHERE kind = 'emails_invalid' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R.valid = 0)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'emails_invalid', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), R.person_id, '', '', SUM(0), count(*)
    FROM email_addresses AS R WHERE R.person_id = NEW.id AND (R.valid = 0) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER people_emails_invalid_remove BEFORE DELETE ON people BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'emails_invalid' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R.valid = 0));
  DELETE FROM kept_sums WHERE kind = 'emails_invalid' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R.valid = 0)) AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_emails_invalid_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'emails_invalid' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0));
  DELETE FROM kept_sums WHERE kind = 'emails_invalid' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'emails_invalid', NEW.account_list_id, R.person_id, '', '', SUM(0), count(*)
    FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = NEW.id AND (R.valid = 0) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_emails_invalid_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'emails_invalid' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0));
  DELETE FROM kept_sums WHERE kind = 'emails_invalid' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0)) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'emails_primary', C.account_list_id, R.person_id, '', '', SUM(0), count(*)
  FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id JOIN contacts AS C ON C.id = P.contact_id WHERE R."primary" = 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER email_addresses_emails_primary_insert AFTER INSERT ON email_addresses BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'emails_primary', (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id), NEW.person_id, '', '', 0, 1 WHERE (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id) IS NOT NULL AND (NEW."primary" = 1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER email_addresses_emails_primary_delete AFTER DELETE ON email_addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'emails_primary' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND (OLD."primary" = 1);
  DELETE FROM kept_sums WHERE kind = 'emails_primary' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER email_addresses_emails_primary_update AFTER UPDATE OF "primary", person_id ON email_addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'emails_primary' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND (OLD."primary" = 1);
  DELETE FROM kept_sums WHERE kind = 'emails_primary' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'emails_primary', (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id), NEW.person_id, '', '', 0, 1 WHERE (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id) IS NOT NULL AND (NEW."primary" = 1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER people_emails_primary_move AFTER UPDATE OF contact_id ON people WHEN OLD.contact_id IS NOT NEW.contact_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'emails_primary' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R."primary" = 1));
  DELETE FROM kept_sums WHERE kind = 'emails_primary' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R."primary" = 1)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'emails_primary', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), R.person_id, '', '', SUM(0), count(*)
    FROM email_addresses AS R WHERE R.person_id = NEW.id AND (R."primary" = 1) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER people_emails_primary_remove BEFORE DELETE ON people BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'emails_primary' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R."primary" = 1));
  DELETE FROM kept_sums WHERE kind = 'emails_primary' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R WHERE R.person_id = OLD.id AND (R."primary" = 1)) AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_emails_primary_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'emails_primary' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1));
  DELETE FROM kept_sums WHERE kind = 'emails_primary' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'emails_primary', NEW.account_list_id, R.person_id, '', '', SUM(0), count(*)
    FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = NEW.id AND (R."primary" = 1) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_emails_primary_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'emails_primary' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1));
  DELETE FROM kept_sums WHERE kind = 'emails_primary' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM email_addresses AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1)) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'phones_invalid', C.account_list_id, R.person_id, '', '', SUM(0), count(*)
  FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id JOIN contacts AS C ON C.id = P.contact_id WHERE R.valid = 0 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER phone_numbers_phones_invalid_insert AFTER INSERT ON phone_numbers BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'phones_invalid', (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id), NEW.person_id, '', '', 0, 1 WHERE (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id) IS NOT NULL AND (NEW.valid = 0)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER phone_numbers_phones_invalid_delete AFTER DELETE ON phone_numbers BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'phones_invalid' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND (OLD.valid = 0);
  DELETE FROM kept_sums WHERE kind = 'phones_invalid' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER phone_numbers_phones_invalid_update AFTER UPDATE OF valid, person_id ON phone_numbers BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'phones_invalid' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND (OLD.valid = 0);
  DELETE FROM kept_sums WHERE kind = 'phones_invalid' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'phones_invalid', (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id), NEW.person_id, '', '', 0, 1 WHERE (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id) IS NOT NULL AND (NEW.valid = 0)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER people_phones_invalid_move AFTER UPDATE OF contact_id ON people WHEN OLD.contact_id IS NOT NEW.contact_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'phones_invalid' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R.valid = 0));
  DELETE FROM kept_sums WHERE kind = 'phones_invalid' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R.valid = 0)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'phones_invalid', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), R.person_id, '', '', SUM(0), count(*)
    FROM phone_numbers AS R WHERE R.person_id = NEW.id AND (R.valid = 0) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER people_phones_invalid_remove BEFORE DELETE ON people BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'phones_invalid' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R.valid = 0));
  DELETE FROM kept_sums WHERE kind = 'phones_invalid' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R.valid = 0)) AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_phones_invalid_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'phones_invalid' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0));
  DELETE FROM kept_sums WHERE kind = 'phones_invalid' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'phones_invalid', NEW.account_list_id, R.person_id, '', '', SUM(0), count(*)
    FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = NEW.id AND (R.valid = 0) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_phones_invalid_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'phones_invalid' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0));
  DELETE FROM kept_sums WHERE kind = 'phones_invalid' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R.valid = 0)) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'phones_primary', C.account_list_id, R.person_id, '', '', SUM(0), count(*)
  FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id JOIN contacts AS C ON C.id = P.contact_id WHERE R."primary" = 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER phone_numbers_phones_primary_insert AFTER INSERT ON phone_numbers BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'phones_primary', (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id), NEW.person_id, '', '', 0, 1 WHERE (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id) IS NOT NULL AND (NEW."primary" = 1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER phone_numbers_phones_primary_delete AFTER DELETE ON phone_numbers BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'phones_primary' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND (OLD."primary" = 1);
  DELETE FROM kept_sums WHERE kind = 'phones_primary' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER phone_numbers_phones_primary_update AFTER UPDATE OF "primary", person_id ON phone_numbers BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'phones_primary' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND (OLD."primary" = 1);
  DELETE FROM kept_sums WHERE kind = 'phones_primary' AND owner_id = (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = OLD.person_id) AND key1 = OLD.person_id AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'phones_primary', (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id), NEW.person_id, '', '', 0, 1 WHERE (SELECT c.account_list_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = NEW.person_id) IS NOT NULL AND (NEW."primary" = 1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER people_phones_primary_move AFTER UPDATE OF contact_id ON people WHEN OLD.contact_id IS NOT NEW.contact_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'phones_primary' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R."primary" = 1));
  DELETE FROM kept_sums WHERE kind = 'phones_primary' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R."primary" = 1)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'phones_primary', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), R.person_id, '', '', SUM(0), count(*)
    FROM phone_numbers AS R WHERE R.person_id = NEW.id AND (R."primary" = 1) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER people_phones_primary_remove BEFORE DELETE ON people BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'phones_primary' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R."primary" = 1));
  DELETE FROM kept_sums WHERE kind = 'phones_primary' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R WHERE R.person_id = OLD.id AND (R."primary" = 1)) AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_phones_primary_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'phones_primary' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1));
  DELETE FROM kept_sums WHERE kind = 'phones_primary' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'phones_primary', NEW.account_list_id, R.person_id, '', '', SUM(0), count(*)
    FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = NEW.id AND (R."primary" = 1) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_phones_primary_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1) AND R.person_id = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'phones_primary' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1));
  DELETE FROM kept_sums WHERE kind = 'phones_primary' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.person_id, '', '' FROM phone_numbers AS R JOIN people AS P ON P.id = R.person_id WHERE P.contact_id = OLD.id AND (R."primary" = 1)) AND rows = 0;
END;
