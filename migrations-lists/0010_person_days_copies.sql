-- What the week of birthdays and anniversaries shows, copied onto each person's days from the person and its contact (drizzle/run-marks.ts).
UPDATE person_days SET (contact_id, first_name, deceased, contact_status) = (SELECT p.contact_id, p.first_name, p.deceased, c.status FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = person_days.person_id);
--> statement-breakpoint
DROP TRIGGER people_person_days_insert;
--> statement-breakpoint
CREATE TRIGGER people_person_days_insert AFTER INSERT ON people BEGIN
  INSERT INTO person_days (person_id, kind, account_list_id, month_day, contact_id, first_name, deceased, contact_status)
  SELECT NEW.id, 'birthday', c.account_list_id, printf('%02d-%02d', NEW.birthday_month, NEW.birthday_day), c.id, NEW.first_name, NEW.deceased, c.status FROM contacts c WHERE c.id = NEW.contact_id AND NEW.birthday_month BETWEEN 1 AND 12 AND NEW.birthday_day BETWEEN 1 AND 31;
  INSERT INTO person_days (person_id, kind, account_list_id, month_day, contact_id, first_name, deceased, contact_status)
  SELECT NEW.id, 'anniversary', c.account_list_id, printf('%02d-%02d', NEW.anniversary_month, NEW.anniversary_day), c.id, NEW.first_name, NEW.deceased, c.status FROM contacts c WHERE c.id = NEW.contact_id AND NEW.anniversary_month BETWEEN 1 AND 12 AND NEW.anniversary_day BETWEEN 1 AND 31;
END;
--> statement-breakpoint
DROP TRIGGER people_person_days_update;
--> statement-breakpoint
CREATE TRIGGER people_person_days_update AFTER UPDATE OF contact_id, birthday_month, birthday_day, anniversary_month, anniversary_day, first_name, deceased ON people WHEN OLD.contact_id IS NOT NEW.contact_id OR OLD.birthday_month IS NOT NEW.birthday_month OR OLD.birthday_day IS NOT NEW.birthday_day OR OLD.anniversary_month IS NOT NEW.anniversary_month OR OLD.anniversary_day IS NOT NEW.anniversary_day OR OLD.first_name IS NOT NEW.first_name OR OLD.deceased IS NOT NEW.deceased BEGIN
  DELETE FROM person_days WHERE person_id = OLD.id;
  INSERT INTO person_days (person_id, kind, account_list_id, month_day, contact_id, first_name, deceased, contact_status)
  SELECT NEW.id, 'birthday', c.account_list_id, printf('%02d-%02d', NEW.birthday_month, NEW.birthday_day), c.id, NEW.first_name, NEW.deceased, c.status FROM contacts c WHERE c.id = NEW.contact_id AND NEW.birthday_month BETWEEN 1 AND 12 AND NEW.birthday_day BETWEEN 1 AND 31;
  INSERT INTO person_days (person_id, kind, account_list_id, month_day, contact_id, first_name, deceased, contact_status)
  SELECT NEW.id, 'anniversary', c.account_list_id, printf('%02d-%02d', NEW.anniversary_month, NEW.anniversary_day), c.id, NEW.first_name, NEW.deceased, c.status FROM contacts c WHERE c.id = NEW.contact_id AND NEW.anniversary_month BETWEEN 1 AND 12 AND NEW.anniversary_day BETWEEN 1 AND 31;
END;
--> statement-breakpoint
DROP TRIGGER contacts_person_days_move;
--> statement-breakpoint
CREATE TRIGGER contacts_person_days_move AFTER UPDATE OF account_list_id, status ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id OR OLD.status IS NOT NEW.status BEGIN
  UPDATE person_days SET account_list_id = NEW.account_list_id, contact_status = NEW.status WHERE person_id IN (SELECT id FROM people WHERE contact_id = NEW.id);
END;
