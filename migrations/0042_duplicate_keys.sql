-- Duplicates: the pairs move with their list like its other rows (src/db/list-tables.ts); contacts keep the name the
-- finder compares, and a pair goes with its records (drizzle/duplicates.ts); kept rows count repeated names and donor numbers (drizzle/kept-sums.ts),
-- built from the rows already there; a contact's webhook snapshot holds its new column (drizzle/webhook-triggers.ts).
CREATE TRIGGER list_moves_duplicate_record_pairs_insert BEFORE INSERT ON duplicate_record_pairs WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'duplicate_record_pairs', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_duplicate_record_pairs_update BEFORE UPDATE ON duplicate_record_pairs WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'duplicate_record_pairs', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'duplicate_record_pairs', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_duplicate_record_pairs_delete BEFORE DELETE ON duplicate_record_pairs WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'duplicate_record_pairs', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER contacts_duplicate_pairs_delete AFTER DELETE ON contacts BEGIN
  DELETE FROM duplicate_record_pairs WHERE record_type = 'Contact' AND record_one_id = OLD.id;
  DELETE FROM duplicate_record_pairs WHERE record_two_id = OLD.id AND record_type = 'Contact';
END;
--> statement-breakpoint
CREATE TRIGGER contacts_duplicate_pairs_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  DELETE FROM duplicate_record_pairs WHERE record_type = 'Contact' AND record_one_id = OLD.id;
  DELETE FROM duplicate_record_pairs WHERE record_two_id = OLD.id AND record_type = 'Contact';
END;
--> statement-breakpoint
CREATE TRIGGER people_duplicate_pairs_delete AFTER DELETE ON people BEGIN
  DELETE FROM duplicate_record_pairs WHERE record_type = 'Person' AND record_one_id = OLD.id;
  DELETE FROM duplicate_record_pairs WHERE record_two_id = OLD.id AND record_type = 'Person';
END;
--> statement-breakpoint
CREATE TRIGGER people_duplicate_pairs_move AFTER UPDATE OF contact_id ON people WHEN OLD.contact_id IS NOT NEW.contact_id BEGIN
  DELETE FROM duplicate_record_pairs WHERE record_type = 'Person' AND record_one_id = OLD.id;
  DELETE FROM duplicate_record_pairs WHERE record_two_id = OLD.id AND record_type = 'Person';
END;
--> statement-breakpoint
UPDATE contacts SET name_key = (SELECT CASE
    WHEN n = '' OR n = ',' THEN NULL
    WHEN instr(' ' || n || ' ', ' church ') > 0 OR instr(' ' || n || ' ', ' inc ') > 0 OR instr(' ' || n || ' ', ' ministry ') > 0 OR instr(' ' || n || ' ', ' ministries ') > 0 OR instr(' ' || n || ' ', ' foundation ') > 0 OR instr(' ' || n || ' ', ' university ') > 0 OR instr(' ' || n || ' ', ' college ') > 0 OR instr(' ' || n || ' ', ' school ') > 0 OR instr(' ' || n || ' ', ' company ') > 0 OR instr(' ' || n || ' ', ' corporation ') > 0 OR instr(' ' || n || ' ', ' llc ') > 0 OR instr(' ' || n || ' ', ' fellowship ') > 0 OR instr(' ' || n || ' ', ' association ') > 0 OR instr(' ' || n || ' ', ' society ') > 0 OR instr(' ' || n || ' ', ' mission ') > 0 OR instr(' ' || n || ' ', ' missions ') > 0 OR instr(' ' || n || ' ', ' trust ') > 0 OR instr(' ' || n || ' ', ' fund ') > 0 OR instr(' ' || n || ' ', ' bank ') > 0 OR instr(' ' || n || ' ', ' chapel ') > 0 THEN replace(n, ' ,', '')
    WHEN instr(p, ',') > 0 THEN trim(substr(p, 1, instr(p, ',') - 1)) || ' ' || substr(trim(substr(p, instr(p, ',') + 1)) || ' ', 1, instr(trim(substr(p, instr(p, ',') + 1)) || ' ', ' ') - 1)
    WHEN instr(p, ' ') = 0 THEN p
    ELSE substr(p, length(rtrim(p, replace(p, ' ', ''))) + 1) || ' ' || substr(p || ' ', 1, instr(p || ' ', ' ') - 1)
  END FROM (SELECT n, trim(CASE WHEN instr(n, ' and ') > 0 THEN substr(n, 1, instr(n, ' and ') - 1) ELSE n END) AS p FROM (SELECT trim(replace(replace(replace(' ' || replace(replace(replace(replace(replace(lower(contacts.name), '.', ' '), '&', ' and '), '/', ' '), '-', ' '), ',', ' , ') || ' ', '   ', ' '), '  ', ' '), '  ', ' ')) AS n)));
--> statement-breakpoint
CREATE TRIGGER contacts_name_key_insert AFTER INSERT ON contacts BEGIN
  UPDATE contacts SET name_key = (SELECT CASE
    WHEN n = '' OR n = ',' THEN NULL
    WHEN instr(' ' || n || ' ', ' church ') > 0 OR instr(' ' || n || ' ', ' inc ') > 0 OR instr(' ' || n || ' ', ' ministry ') > 0 OR instr(' ' || n || ' ', ' ministries ') > 0 OR instr(' ' || n || ' ', ' foundation ') > 0 OR instr(' ' || n || ' ', ' university ') > 0 OR instr(' ' || n || ' ', ' college ') > 0 OR instr(' ' || n || ' ', ' school ') > 0 OR instr(' ' || n || ' ', ' company ') > 0 OR instr(' ' || n || ' ', ' corporation ') > 0 OR instr(' ' || n || ' ', ' llc ') > 0 OR instr(' ' || n || ' ', ' fellowship ') > 0 OR instr(' ' || n || ' ', ' association ') > 0 OR instr(' ' || n || ' ', ' society ') > 0 OR instr(' ' || n || ' ', ' mission ') > 0 OR instr(' ' || n || ' ', ' missions ') > 0 OR instr(' ' || n || ' ', ' trust ') > 0 OR instr(' ' || n || ' ', ' fund ') > 0 OR instr(' ' || n || ' ', ' bank ') > 0 OR instr(' ' || n || ' ', ' chapel ') > 0 THEN replace(n, ' ,', '')
    WHEN instr(p, ',') > 0 THEN trim(substr(p, 1, instr(p, ',') - 1)) || ' ' || substr(trim(substr(p, instr(p, ',') + 1)) || ' ', 1, instr(trim(substr(p, instr(p, ',') + 1)) || ' ', ' ') - 1)
    WHEN instr(p, ' ') = 0 THEN p
    ELSE substr(p, length(rtrim(p, replace(p, ' ', ''))) + 1) || ' ' || substr(p || ' ', 1, instr(p || ' ', ' ') - 1)
  END FROM (SELECT n, trim(CASE WHEN instr(n, ' and ') > 0 THEN substr(n, 1, instr(n, ' and ') - 1) ELSE n END) AS p FROM (SELECT trim(replace(replace(replace(' ' || replace(replace(replace(replace(replace(lower(NEW.name), '.', ' '), '&', ' and '), '/', ' '), '-', ' '), ',', ' , ') || ' ', '   ', ' '), '  ', ' '), '  ', ' ')) AS n))) WHERE id = NEW.id AND name_key IS NOT (SELECT CASE
    WHEN n = '' OR n = ',' THEN NULL
    WHEN instr(' ' || n || ' ', ' church ') > 0 OR instr(' ' || n || ' ', ' inc ') > 0 OR instr(' ' || n || ' ', ' ministry ') > 0 OR instr(' ' || n || ' ', ' ministries ') > 0 OR instr(' ' || n || ' ', ' foundation ') > 0 OR instr(' ' || n || ' ', ' university ') > 0 OR instr(' ' || n || ' ', ' college ') > 0 OR instr(' ' || n || ' ', ' school ') > 0 OR instr(' ' || n || ' ', ' company ') > 0 OR instr(' ' || n || ' ', ' corporation ') > 0 OR instr(' ' || n || ' ', ' llc ') > 0 OR instr(' ' || n || ' ', ' fellowship ') > 0 OR instr(' ' || n || ' ', ' association ') > 0 OR instr(' ' || n || ' ', ' society ') > 0 OR instr(' ' || n || ' ', ' mission ') > 0 OR instr(' ' || n || ' ', ' missions ') > 0 OR instr(' ' || n || ' ', ' trust ') > 0 OR instr(' ' || n || ' ', ' fund ') > 0 OR instr(' ' || n || ' ', ' bank ') > 0 OR instr(' ' || n || ' ', ' chapel ') > 0 THEN replace(n, ' ,', '')
    WHEN instr(p, ',') > 0 THEN trim(substr(p, 1, instr(p, ',') - 1)) || ' ' || substr(trim(substr(p, instr(p, ',') + 1)) || ' ', 1, instr(trim(substr(p, instr(p, ',') + 1)) || ' ', ' ') - 1)
    WHEN instr(p, ' ') = 0 THEN p
    ELSE substr(p, length(rtrim(p, replace(p, ' ', ''))) + 1) || ' ' || substr(p || ' ', 1, instr(p || ' ', ' ') - 1)
  END FROM (SELECT n, trim(CASE WHEN instr(n, ' and ') > 0 THEN substr(n, 1, instr(n, ' and ') - 1) ELSE n END) AS p FROM (SELECT trim(replace(replace(replace(' ' || replace(replace(replace(replace(replace(lower(NEW.name), '.', ' '), '&', ' and '), '/', ' '), '-', ' '), ',', ' , ') || ' ', '   ', ' '), '  ', ' '), '  ', ' ')) AS n)));
END;
--> statement-breakpoint
CREATE TRIGGER contacts_name_key_update AFTER UPDATE OF name, name_key ON contacts BEGIN
  UPDATE contacts SET name_key = (SELECT CASE
    WHEN n = '' OR n = ',' THEN NULL
    WHEN instr(' ' || n || ' ', ' church ') > 0 OR instr(' ' || n || ' ', ' inc ') > 0 OR instr(' ' || n || ' ', ' ministry ') > 0 OR instr(' ' || n || ' ', ' ministries ') > 0 OR instr(' ' || n || ' ', ' foundation ') > 0 OR instr(' ' || n || ' ', ' university ') > 0 OR instr(' ' || n || ' ', ' college ') > 0 OR instr(' ' || n || ' ', ' school ') > 0 OR instr(' ' || n || ' ', ' company ') > 0 OR instr(' ' || n || ' ', ' corporation ') > 0 OR instr(' ' || n || ' ', ' llc ') > 0 OR instr(' ' || n || ' ', ' fellowship ') > 0 OR instr(' ' || n || ' ', ' association ') > 0 OR instr(' ' || n || ' ', ' society ') > 0 OR instr(' ' || n || ' ', ' mission ') > 0 OR instr(' ' || n || ' ', ' missions ') > 0 OR instr(' ' || n || ' ', ' trust ') > 0 OR instr(' ' || n || ' ', ' fund ') > 0 OR instr(' ' || n || ' ', ' bank ') > 0 OR instr(' ' || n || ' ', ' chapel ') > 0 THEN replace(n, ' ,', '')
    WHEN instr(p, ',') > 0 THEN trim(substr(p, 1, instr(p, ',') - 1)) || ' ' || substr(trim(substr(p, instr(p, ',') + 1)) || ' ', 1, instr(trim(substr(p, instr(p, ',') + 1)) || ' ', ' ') - 1)
    WHEN instr(p, ' ') = 0 THEN p
    ELSE substr(p, length(rtrim(p, replace(p, ' ', ''))) + 1) || ' ' || substr(p || ' ', 1, instr(p || ' ', ' ') - 1)
  END FROM (SELECT n, trim(CASE WHEN instr(n, ' and ') > 0 THEN substr(n, 1, instr(n, ' and ') - 1) ELSE n END) AS p FROM (SELECT trim(replace(replace(replace(' ' || replace(replace(replace(replace(replace(lower(NEW.name), '.', ' '), '&', ' and '), '/', ' '), '-', ' '), ',', ' , ') || ' ', '   ', ' '), '  ', ' '), '  ', ' ')) AS n))) WHERE id = NEW.id AND name_key IS NOT (SELECT CASE
    WHEN n = '' OR n = ',' THEN NULL
    WHEN instr(' ' || n || ' ', ' church ') > 0 OR instr(' ' || n || ' ', ' inc ') > 0 OR instr(' ' || n || ' ', ' ministry ') > 0 OR instr(' ' || n || ' ', ' ministries ') > 0 OR instr(' ' || n || ' ', ' foundation ') > 0 OR instr(' ' || n || ' ', ' university ') > 0 OR instr(' ' || n || ' ', ' college ') > 0 OR instr(' ' || n || ' ', ' school ') > 0 OR instr(' ' || n || ' ', ' company ') > 0 OR instr(' ' || n || ' ', ' corporation ') > 0 OR instr(' ' || n || ' ', ' llc ') > 0 OR instr(' ' || n || ' ', ' fellowship ') > 0 OR instr(' ' || n || ' ', ' association ') > 0 OR instr(' ' || n || ' ', ' society ') > 0 OR instr(' ' || n || ' ', ' mission ') > 0 OR instr(' ' || n || ' ', ' missions ') > 0 OR instr(' ' || n || ' ', ' trust ') > 0 OR instr(' ' || n || ' ', ' fund ') > 0 OR instr(' ' || n || ' ', ' bank ') > 0 OR instr(' ' || n || ' ', ' chapel ') > 0 THEN replace(n, ' ,', '')
    WHEN instr(p, ',') > 0 THEN trim(substr(p, 1, instr(p, ',') - 1)) || ' ' || substr(trim(substr(p, instr(p, ',') + 1)) || ' ', 1, instr(trim(substr(p, instr(p, ',') + 1)) || ' ', ' ') - 1)
    WHEN instr(p, ' ') = 0 THEN p
    ELSE substr(p, length(rtrim(p, replace(p, ' ', ''))) + 1) || ' ' || substr(p || ' ', 1, instr(p || ' ', ' ') - 1)
  END FROM (SELECT n, trim(CASE WHEN instr(n, ' and ') > 0 THEN substr(n, 1, instr(n, ' and ') - 1) ELSE n END) AS p FROM (SELECT trim(replace(replace(replace(' ' || replace(replace(replace(replace(replace(lower(NEW.name), '.', ' '), '&', ' and '), '/', ' '), '-', ' '), ',', ' , ') || ' ', '   ', ' '), '  ', ' '), '  ', ' ')) AS n)));
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'contact_name_keys', account_list_id, name_key, '', '', SUM(0), count(*)
  FROM contacts WHERE name_key IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER contacts_contact_name_keys_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'contact_name_keys', NEW.account_list_id, NEW.name_key, '', '', 0, 1 WHERE NEW.name_key IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_contact_name_keys_delete AFTER DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'contact_name_keys' AND owner_id = OLD.account_list_id AND key1 = OLD.name_key AND key2 = '' AND key3 = '' AND (OLD.name_key IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'contact_name_keys' AND owner_id = OLD.account_list_id AND key1 = OLD.name_key AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_contact_name_keys_update AFTER UPDATE OF name_key, account_list_id ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'contact_name_keys' AND owner_id = OLD.account_list_id AND key1 = OLD.name_key AND key2 = '' AND key3 = '' AND (OLD.name_key IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'contact_name_keys' AND owner_id = OLD.account_list_id AND key1 = OLD.name_key AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'contact_name_keys', NEW.account_list_id, NEW.name_key, '', '', 0, 1 WHERE NEW.name_key IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'donor_numbers', C.account_list_id, (SELECT account_number FROM donor_accounts WHERE id = R.donor_account_id), '', '', SUM(0), count(*)
  FROM contact_donor_accounts AS R JOIN contacts AS C ON C.id = R.contact_id WHERE 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_donor_numbers_insert AFTER INSERT ON contact_donor_accounts BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'donor_numbers', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), (SELECT account_number FROM donor_accounts WHERE id = NEW.donor_account_id), '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_donor_numbers_delete AFTER DELETE ON contact_donor_accounts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'donor_numbers' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = (SELECT account_number FROM donor_accounts WHERE id = OLD.donor_account_id) AND key2 = '' AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'donor_numbers' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = (SELECT account_number FROM donor_accounts WHERE id = OLD.donor_account_id) AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_donor_numbers_update AFTER UPDATE OF donor_account_id, contact_id ON contact_donor_accounts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'donor_numbers' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = (SELECT account_number FROM donor_accounts WHERE id = OLD.donor_account_id) AND key2 = '' AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'donor_numbers' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = (SELECT account_number FROM donor_accounts WHERE id = OLD.donor_account_id) AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'donor_numbers', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), (SELECT account_number FROM donor_accounts WHERE id = NEW.donor_account_id), '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_donor_numbers_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM contact_donor_accounts AS R WHERE R.contact_id = OLD.id AND (1) AND (SELECT account_number FROM donor_accounts WHERE id = R.donor_account_id) = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM contact_donor_accounts AS R WHERE R.contact_id = OLD.id AND (1) AND (SELECT account_number FROM donor_accounts WHERE id = R.donor_account_id) = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'donor_numbers' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT (SELECT account_number FROM donor_accounts WHERE id = R.donor_account_id), '', '' FROM contact_donor_accounts AS R WHERE R.contact_id = OLD.id AND (1));
  DELETE FROM kept_sums WHERE kind = 'donor_numbers' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT (SELECT account_number FROM donor_accounts WHERE id = R.donor_account_id), '', '' FROM contact_donor_accounts AS R WHERE R.contact_id = OLD.id AND (1)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'donor_numbers', NEW.account_list_id, (SELECT account_number FROM donor_accounts WHERE id = R.donor_account_id), '', '', SUM(0), count(*)
    FROM contact_donor_accounts AS R WHERE R.contact_id = NEW.id AND (1) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_donor_numbers_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM contact_donor_accounts AS R WHERE R.contact_id = OLD.id AND (1) AND (SELECT account_number FROM donor_accounts WHERE id = R.donor_account_id) = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM contact_donor_accounts AS R WHERE R.contact_id = OLD.id AND (1) AND (SELECT account_number FROM donor_accounts WHERE id = R.donor_account_id) = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'donor_numbers' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT (SELECT account_number FROM donor_accounts WHERE id = R.donor_account_id), '', '' FROM contact_donor_accounts AS R WHERE R.contact_id = OLD.id AND (1));
  DELETE FROM kept_sums WHERE kind = 'donor_numbers' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT (SELECT account_number FROM donor_accounts WHERE id = R.donor_account_id), '', '' FROM contact_donor_accounts AS R WHERE R.contact_id = OLD.id AND (1)) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'person_names', C.account_list_id, R.contact_id, CASE WHEN lower(trim(COALESCE(R.last_name, ''))) = '' THEN lower(trim(R.first_name)) WHEN lower(trim(R.first_name)) <= lower(trim(COALESCE(R.last_name, ''))) THEN lower(trim(R.first_name)) || ' ' || lower(trim(COALESCE(R.last_name, ''))) ELSE lower(trim(COALESCE(R.last_name, ''))) || ' ' || lower(trim(R.first_name)) END, '', SUM(0), count(*)
  FROM people AS R JOIN contacts AS C ON C.id = R.contact_id WHERE 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER people_person_names_insert AFTER INSERT ON people BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'person_names', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.contact_id, CASE WHEN lower(trim(COALESCE(NEW.last_name, ''))) = '' THEN lower(trim(NEW.first_name)) WHEN lower(trim(NEW.first_name)) <= lower(trim(COALESCE(NEW.last_name, ''))) THEN lower(trim(NEW.first_name)) || ' ' || lower(trim(COALESCE(NEW.last_name, ''))) ELSE lower(trim(COALESCE(NEW.last_name, ''))) || ' ' || lower(trim(NEW.first_name)) END, '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER people_person_names_delete AFTER DELETE ON people BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'person_names' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = CASE WHEN lower(trim(COALESCE(OLD.last_name, ''))) = '' THEN lower(trim(OLD.first_name)) WHEN lower(trim(OLD.first_name)) <= lower(trim(COALESCE(OLD.last_name, ''))) THEN lower(trim(OLD.first_name)) || ' ' || lower(trim(COALESCE(OLD.last_name, ''))) ELSE lower(trim(COALESCE(OLD.last_name, ''))) || ' ' || lower(trim(OLD.first_name)) END AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'person_names' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = CASE WHEN lower(trim(COALESCE(OLD.last_name, ''))) = '' THEN lower(trim(OLD.first_name)) WHEN lower(trim(OLD.first_name)) <= lower(trim(COALESCE(OLD.last_name, ''))) THEN lower(trim(OLD.first_name)) || ' ' || lower(trim(COALESCE(OLD.last_name, ''))) ELSE lower(trim(COALESCE(OLD.last_name, ''))) || ' ' || lower(trim(OLD.first_name)) END AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER people_person_names_update AFTER UPDATE OF contact_id, first_name, last_name ON people BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'person_names' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = CASE WHEN lower(trim(COALESCE(OLD.last_name, ''))) = '' THEN lower(trim(OLD.first_name)) WHEN lower(trim(OLD.first_name)) <= lower(trim(COALESCE(OLD.last_name, ''))) THEN lower(trim(OLD.first_name)) || ' ' || lower(trim(COALESCE(OLD.last_name, ''))) ELSE lower(trim(COALESCE(OLD.last_name, ''))) || ' ' || lower(trim(OLD.first_name)) END AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'person_names' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = CASE WHEN lower(trim(COALESCE(OLD.last_name, ''))) = '' THEN lower(trim(OLD.first_name)) WHEN lower(trim(OLD.first_name)) <= lower(trim(COALESCE(OLD.last_name, ''))) THEN lower(trim(OLD.first_name)) || ' ' || lower(trim(COALESCE(OLD.last_name, ''))) ELSE lower(trim(COALESCE(OLD.last_name, ''))) || ' ' || lower(trim(OLD.first_name)) END AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'person_names', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.contact_id, CASE WHEN lower(trim(COALESCE(NEW.last_name, ''))) = '' THEN lower(trim(NEW.first_name)) WHEN lower(trim(NEW.first_name)) <= lower(trim(COALESCE(NEW.last_name, ''))) THEN lower(trim(NEW.first_name)) || ' ' || lower(trim(COALESCE(NEW.last_name, ''))) ELSE lower(trim(COALESCE(NEW.last_name, ''))) || ' ' || lower(trim(NEW.first_name)) END, '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_person_names_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM people AS R WHERE R.contact_id = OLD.id AND (1) AND R.contact_id = kept_sums.key1 AND CASE WHEN lower(trim(COALESCE(R.last_name, ''))) = '' THEN lower(trim(R.first_name)) WHEN lower(trim(R.first_name)) <= lower(trim(COALESCE(R.last_name, ''))) THEN lower(trim(R.first_name)) || ' ' || lower(trim(COALESCE(R.last_name, ''))) ELSE lower(trim(COALESCE(R.last_name, ''))) || ' ' || lower(trim(R.first_name)) END = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM people AS R WHERE R.contact_id = OLD.id AND (1) AND R.contact_id = kept_sums.key1 AND CASE WHEN lower(trim(COALESCE(R.last_name, ''))) = '' THEN lower(trim(R.first_name)) WHEN lower(trim(R.first_name)) <= lower(trim(COALESCE(R.last_name, ''))) THEN lower(trim(R.first_name)) || ' ' || lower(trim(COALESCE(R.last_name, ''))) ELSE lower(trim(COALESCE(R.last_name, ''))) || ' ' || lower(trim(R.first_name)) END = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'person_names' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, CASE WHEN lower(trim(COALESCE(R.last_name, ''))) = '' THEN lower(trim(R.first_name)) WHEN lower(trim(R.first_name)) <= lower(trim(COALESCE(R.last_name, ''))) THEN lower(trim(R.first_name)) || ' ' || lower(trim(COALESCE(R.last_name, ''))) ELSE lower(trim(COALESCE(R.last_name, ''))) || ' ' || lower(trim(R.first_name)) END, '' FROM people AS R WHERE R.contact_id = OLD.id AND (1));
  DELETE FROM kept_sums WHERE kind = 'person_names' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, CASE WHEN lower(trim(COALESCE(R.last_name, ''))) = '' THEN lower(trim(R.first_name)) WHEN lower(trim(R.first_name)) <= lower(trim(COALESCE(R.last_name, ''))) THEN lower(trim(R.first_name)) || ' ' || lower(trim(COALESCE(R.last_name, ''))) ELSE lower(trim(COALESCE(R.last_name, ''))) || ' ' || lower(trim(R.first_name)) END, '' FROM people AS R WHERE R.contact_id = OLD.id AND (1)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'person_names', NEW.account_list_id, R.contact_id, CASE WHEN lower(trim(COALESCE(R.last_name, ''))) = '' THEN lower(trim(R.first_name)) WHEN lower(trim(R.first_name)) <= lower(trim(COALESCE(R.last_name, ''))) THEN lower(trim(R.first_name)) || ' ' || lower(trim(COALESCE(R.last_name, ''))) ELSE lower(trim(COALESCE(R.last_name, ''))) || ' ' || lower(trim(R.first_name)) END, '', SUM(0), count(*)
    FROM people AS R WHERE R.contact_id = NEW.id AND (1) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_person_names_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM people AS R WHERE R.contact_id = OLD.id AND (1) AND R.contact_id = kept_sums.key1 AND CASE WHEN lower(trim(COALESCE(R.last_name, ''))) = '' THEN lower(trim(R.first_name)) WHEN lower(trim(R.first_name)) <= lower(trim(COALESCE(R.last_name, ''))) THEN lower(trim(R.first_name)) || ' ' || lower(trim(COALESCE(R.last_name, ''))) ELSE lower(trim(COALESCE(R.last_name, ''))) || ' ' || lower(trim(R.first_name)) END = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM people AS R WHERE R.contact_id = OLD.id AND (1) AND R.contact_id = kept_sums.key1 AND CASE WHEN lower(trim(COALESCE(R.last_name, ''))) = '' THEN lower(trim(R.first_name)) WHEN lower(trim(R.first_name)) <= lower(trim(COALESCE(R.last_name, ''))) THEN lower(trim(R.first_name)) || ' ' || lower(trim(COALESCE(R.last_name, ''))) ELSE lower(trim(COALESCE(R.last_name, ''))) || ' ' || lower(trim(R.first_name)) END = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'person_names' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, CASE WHEN lower(trim(COALESCE(R.last_name, ''))) = '' THEN lower(trim(R.first_name)) WHEN lower(trim(R.first_name)) <= lower(trim(COALESCE(R.last_name, ''))) THEN lower(trim(R.first_name)) || ' ' || lower(trim(COALESCE(R.last_name, ''))) ELSE lower(trim(COALESCE(R.last_name, ''))) || ' ' || lower(trim(R.first_name)) END, '' FROM people AS R WHERE R.contact_id = OLD.id AND (1));
  DELETE FROM kept_sums WHERE kind = 'person_names' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, CASE WHEN lower(trim(COALESCE(R.last_name, ''))) = '' THEN lower(trim(R.first_name)) WHEN lower(trim(R.first_name)) <= lower(trim(COALESCE(R.last_name, ''))) THEN lower(trim(R.first_name)) || ' ' || lower(trim(COALESCE(R.last_name, ''))) ELSE lower(trim(COALESCE(R.last_name, ''))) || ' ' || lower(trim(R.first_name)) END, '' FROM people AS R WHERE R.contact_id = OLD.id AND (1)) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'person_first_names', C.account_list_id, R.contact_id, lower(trim(R.first_name)), '', SUM(0), count(*)
  FROM people AS R JOIN contacts AS C ON C.id = R.contact_id WHERE 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER people_person_first_names_insert AFTER INSERT ON people BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'person_first_names', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.contact_id, lower(trim(NEW.first_name)), '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER people_person_first_names_delete AFTER DELETE ON people BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'person_first_names' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = lower(trim(OLD.first_name)) AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'person_first_names' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = lower(trim(OLD.first_name)) AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER people_person_first_names_update AFTER UPDATE OF contact_id, first_name ON people BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'person_first_names' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = lower(trim(OLD.first_name)) AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'person_first_names' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.contact_id AND key2 = lower(trim(OLD.first_name)) AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'person_first_names', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.contact_id, lower(trim(NEW.first_name)), '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_person_first_names_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM people AS R WHERE R.contact_id = OLD.id AND (1) AND R.contact_id = kept_sums.key1 AND lower(trim(R.first_name)) = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM people AS R WHERE R.contact_id = OLD.id AND (1) AND R.contact_id = kept_sums.key1 AND lower(trim(R.first_name)) = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'person_first_names' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, lower(trim(R.first_name)), '' FROM people AS R WHERE R.contact_id = OLD.id AND (1));
  DELETE FROM kept_sums WHERE kind = 'person_first_names' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, lower(trim(R.first_name)), '' FROM people AS R WHERE R.contact_id = OLD.id AND (1)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'person_first_names', NEW.account_list_id, R.contact_id, lower(trim(R.first_name)), '', SUM(0), count(*)
    FROM people AS R WHERE R.contact_id = NEW.id AND (1) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_person_first_names_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM people AS R WHERE R.contact_id = OLD.id AND (1) AND R.contact_id = kept_sums.key1 AND lower(trim(R.first_name)) = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM people AS R WHERE R.contact_id = OLD.id AND (1) AND R.contact_id = kept_sums.key1 AND lower(trim(R.first_name)) = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'person_first_names' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, lower(trim(R.first_name)), '' FROM people AS R WHERE R.contact_id = OLD.id AND (1));
  DELETE FROM kept_sums WHERE kind = 'person_first_names' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.contact_id, lower(trim(R.first_name)), '' FROM people AS R WHERE R.contact_id = OLD.id AND (1)) AND rows = 0;
END;
--> statement-breakpoint
DROP TRIGGER webhooks_contacts_created;
--> statement-breakpoint
DROP TRIGGER webhooks_contacts_updated;
--> statement-breakpoint
DROP TRIGGER webhooks_contacts_deleted;
--> statement-breakpoint
CREATE TRIGGER webhooks_contacts_created AFTER INSERT ON contacts WHEN EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = NEW.account_list_id AND w.enabled = 1 AND s.value IN ('contact.created', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = NEW.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), NEW.account_list_id, 'contact.created', 'contacts', NEW.id, json_patch(json_patch(json_object('id', NEW.id, 'account_list_id', NEW.account_list_id, 'user_id', NEW.user_id, 'name', NEW.name, 'status', NEW.status, 'likely_to_give', NEW.likely_to_give, 'send_newsletter', NEW.send_newsletter, 'church_name', NEW.church_name, 'deceased', NEW.deceased, 'direct_deposit', NEW.direct_deposit, 'magazine', NEW.magazine, 'missionary_pages_banner', NEW.missionary_pages_banner, 'no_appeals', NEW.no_appeals, 'no_gift_aid', NEW.no_gift_aid, 'pledge_received', NEW.pledge_received, 'status_valid', NEW.status_valid), json_object('is_organization', NEW.is_organization, 'envelope_greeting', NEW.envelope_greeting, 'greeting', NEW.greeting, 'late_at', NEW.late_at, 'last_gift_on', NEW.last_gift_on, 'gift_due_on', NEW.gift_due_on, 'referrals_to_me', NEW.referrals_to_me, 'locale', NEW.locale, 'next_ask', NEW.next_ask, 'notes', NEW.notes, 'notes_saved_at', NEW.notes_saved_at, 'pledge_amount', NEW.pledge_amount, 'pledge_currency', NEW.pledge_currency, 'pledge_frequency', NEW.pledge_frequency, 'pledge_start_date', NEW.pledge_start_date, 'preferred_contact_method', NEW.preferred_contact_method)), json_object('relationship_code', NEW.relationship_code, 'source', NEW.source, 'starred_at', NEW.starred_at, 'timezone', NEW.timezone, 'website', NEW.website, 'avatar', NEW.avatar, 'suggested_changes', NEW.suggested_changes, 'name_key', NEW.name_key, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)), NEW.created_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
  INSERT OR IGNORE INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), e.account_list_id, w.id, e.id, e.event_type, e.created_at, e.created_at, e.created_at
    FROM webhook_events e JOIN webhooks w ON w.account_list_id = e.account_list_id
    WHERE e.rowid = last_insert_rowid() AND e.resource_id = NEW.id AND e.event_type = 'contact.created' AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_each(w.event_types) s WHERE s.value IN ('contact.created', '*'));
END;
--> statement-breakpoint
CREATE TRIGGER webhooks_contacts_updated AFTER UPDATE ON contacts WHEN NEW.updated_at IS NOT OLD.updated_at AND EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = NEW.account_list_id AND w.enabled = 1 AND s.value IN ('contact.updated', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = NEW.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), NEW.account_list_id, 'contact.updated', 'contacts', NEW.id, json_patch(json_patch(json_object('id', NEW.id, 'account_list_id', NEW.account_list_id, 'user_id', NEW.user_id, 'name', NEW.name, 'status', NEW.status, 'likely_to_give', NEW.likely_to_give, 'send_newsletter', NEW.send_newsletter, 'church_name', NEW.church_name, 'deceased', NEW.deceased, 'direct_deposit', NEW.direct_deposit, 'magazine', NEW.magazine, 'missionary_pages_banner', NEW.missionary_pages_banner, 'no_appeals', NEW.no_appeals, 'no_gift_aid', NEW.no_gift_aid, 'pledge_received', NEW.pledge_received, 'status_valid', NEW.status_valid), json_object('is_organization', NEW.is_organization, 'envelope_greeting', NEW.envelope_greeting, 'greeting', NEW.greeting, 'late_at', NEW.late_at, 'last_gift_on', NEW.last_gift_on, 'gift_due_on', NEW.gift_due_on, 'referrals_to_me', NEW.referrals_to_me, 'locale', NEW.locale, 'next_ask', NEW.next_ask, 'notes', NEW.notes, 'notes_saved_at', NEW.notes_saved_at, 'pledge_amount', NEW.pledge_amount, 'pledge_currency', NEW.pledge_currency, 'pledge_frequency', NEW.pledge_frequency, 'pledge_start_date', NEW.pledge_start_date, 'preferred_contact_method', NEW.preferred_contact_method)), json_object('relationship_code', NEW.relationship_code, 'source', NEW.source, 'starred_at', NEW.starred_at, 'timezone', NEW.timezone, 'website', NEW.website, 'avatar', NEW.avatar, 'suggested_changes', NEW.suggested_changes, 'name_key', NEW.name_key, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)), NEW.updated_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
  INSERT OR IGNORE INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), e.account_list_id, w.id, e.id, e.event_type, e.created_at, e.created_at, e.created_at
    FROM webhook_events e JOIN webhooks w ON w.account_list_id = e.account_list_id
    WHERE e.rowid = last_insert_rowid() AND e.resource_id = NEW.id AND e.event_type = 'contact.updated' AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_each(w.event_types) s WHERE s.value IN ('contact.updated', '*'));
END;
--> statement-breakpoint
CREATE TRIGGER webhooks_contacts_deleted AFTER DELETE ON contacts WHEN EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = OLD.account_list_id AND w.enabled = 1 AND s.value IN ('contact.deleted', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = OLD.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), OLD.account_list_id, 'contact.deleted', 'contacts', OLD.id, NULL, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
  INSERT OR IGNORE INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), e.account_list_id, w.id, e.id, e.event_type, e.created_at, e.created_at, e.created_at
    FROM webhook_events e JOIN webhooks w ON w.account_list_id = e.account_list_id
    WHERE e.rowid = last_insert_rowid() AND e.resource_id = OLD.id AND e.event_type = 'contact.deleted' AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_each(w.event_types) s WHERE s.value IN ('contact.deleted', '*'));
END;
