CREATE TABLE `duplicate_checks` (
	`account_list_id` text PRIMARY KEY NOT NULL,
	`inputs` integer DEFAULT 0 NOT NULL,
	`checked` integer DEFAULT -1 NOT NULL
);
--> statement-breakpoint
-- Changes to what the duplicate finder reads, counted by list (drizzle/duplicates.ts).
CREATE TRIGGER kept_sums_duplicate_inputs_insert AFTER INSERT ON kept_sums WHEN NEW.kind IN ('contact_name_keys', 'donor_numbers', 'person_names', 'person_first_names', 'person_emails', 'person_phones') AND NEW.rows > 1 BEGIN
  INSERT INTO duplicate_checks (account_list_id, inputs, checked) SELECT NEW.owner_id, 1, -1 WHERE NEW.owner_id IS NOT NULL
    ON CONFLICT (account_list_id) DO UPDATE SET inputs = inputs + 1;
END;
--> statement-breakpoint
CREATE TRIGGER kept_sums_duplicate_inputs_update AFTER UPDATE ON kept_sums WHEN (NEW.kind IN ('contact_name_keys', 'donor_numbers', 'person_names', 'person_first_names', 'person_emails', 'person_phones') AND NEW.rows > 1) OR (OLD.kind IN ('contact_name_keys', 'donor_numbers', 'person_names', 'person_first_names', 'person_emails', 'person_phones') AND OLD.rows > 1) BEGIN
  INSERT INTO duplicate_checks (account_list_id, inputs, checked) SELECT NEW.owner_id, 1, -1 WHERE NEW.owner_id IS NOT NULL
    ON CONFLICT (account_list_id) DO UPDATE SET inputs = inputs + 1;
END;
--> statement-breakpoint
CREATE TRIGGER kept_sums_duplicate_inputs_delete AFTER DELETE ON kept_sums WHEN OLD.kind IN ('contact_name_keys', 'donor_numbers', 'person_names', 'person_first_names', 'person_emails', 'person_phones') AND OLD.rows > 1 BEGIN
  INSERT INTO duplicate_checks (account_list_id, inputs, checked) SELECT OLD.owner_id, 1, -1 WHERE OLD.owner_id IS NOT NULL
    ON CONFLICT (account_list_id) DO UPDATE SET inputs = inputs + 1;
END;
--> statement-breakpoint
CREATE TRIGGER people_duplicate_inputs_update AFTER UPDATE OF gender, created_at, last_name ON people WHEN OLD.gender IS NOT NEW.gender OR OLD.created_at IS NOT NEW.created_at OR (COALESCE(trim(OLD.last_name), '') = '') IS NOT (COALESCE(trim(NEW.last_name), '') = '') BEGIN
  INSERT INTO duplicate_checks (account_list_id, inputs, checked) SELECT (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), 1, -1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL
    ON CONFLICT (account_list_id) DO UPDATE SET inputs = inputs + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_duplicate_inputs_update AFTER UPDATE OF created_at ON contacts WHEN OLD.created_at IS NOT NEW.created_at BEGIN
  INSERT INTO duplicate_checks (account_list_id, inputs, checked) SELECT NEW.account_list_id, 1, -1 WHERE NEW.account_list_id IS NOT NULL
    ON CONFLICT (account_list_id) DO UPDATE SET inputs = inputs + 1;
END;
--> statement-breakpoint
CREATE TRIGGER duplicate_record_pairs_duplicate_inputs_update AFTER UPDATE ON duplicate_record_pairs WHEN 1 BEGIN
  INSERT INTO duplicate_checks (account_list_id, inputs, checked) SELECT NEW.account_list_id, 1, -1 WHERE NEW.account_list_id IS NOT NULL
    ON CONFLICT (account_list_id) DO UPDATE SET inputs = inputs + 1;
END;
--> statement-breakpoint
CREATE TRIGGER duplicate_record_pairs_duplicate_inputs_delete AFTER DELETE ON duplicate_record_pairs WHEN 1 BEGIN
  INSERT INTO duplicate_checks (account_list_id, inputs, checked) SELECT OLD.account_list_id, 1, -1 WHERE OLD.account_list_id IS NOT NULL
    ON CONFLICT (account_list_id) DO UPDATE SET inputs = inputs + 1;
END;
