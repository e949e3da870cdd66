-- How many referrals name each contact as referred (contacts.referrals_to_me): counted from the referrals already there, then kept by triggers.
UPDATE contacts SET referrals_to_me = (SELECT count(*) FROM contact_referrals WHERE referred_to_id = contacts.id) WHERE id IN (SELECT referred_to_id FROM contact_referrals);
--> statement-breakpoint
CREATE TRIGGER contact_referrals_referrals_to_me_insert AFTER INSERT ON contact_referrals BEGIN
  UPDATE contacts SET referrals_to_me = (SELECT count(*) FROM contact_referrals WHERE referred_to_id = NEW.referred_to_id) WHERE id = NEW.referred_to_id;
END;
--> statement-breakpoint
CREATE TRIGGER contact_referrals_referrals_to_me_delete AFTER DELETE ON contact_referrals BEGIN
  UPDATE contacts SET referrals_to_me = (SELECT count(*) FROM contact_referrals WHERE referred_to_id = OLD.referred_to_id) WHERE id = OLD.referred_to_id;
END;
--> statement-breakpoint
CREATE TRIGGER contact_referrals_referrals_to_me_update AFTER UPDATE OF referred_to_id ON contact_referrals BEGIN
  UPDATE contacts SET referrals_to_me = (SELECT count(*) FROM contact_referrals WHERE referred_to_id = OLD.referred_to_id) WHERE id = OLD.referred_to_id;
  UPDATE contacts SET referrals_to_me = (SELECT count(*) FROM contact_referrals WHERE referred_to_id = NEW.referred_to_id) WHERE id = NEW.referred_to_id;
END;
--> statement-breakpoint
-- The kept rows the filter panels and the list's analytics read (drizzle/kept-sums.ts): built from the rows already there, then kept by triggers.
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'address_city', C.account_list_id, R.city, '', '', SUM(0), count(*)
  FROM addresses AS R JOIN contacts AS C ON C.id = R.contact_id WHERE R.city > '' GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER addresses_address_city_insert AFTER INSERT ON addresses BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_city', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.city, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.city > '')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_address_city_delete AFTER DELETE ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'address_city' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.city AND key2 = '' AND key3 = '' AND (OLD.city > '');
  DELETE FROM kept_sums WHERE kind = 'address_city' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.city AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_address_city_update AFTER UPDATE OF city, contact_id ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'address_city' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.city AND key2 = '' AND key3 = '' AND (OLD.city > '');
  DELETE FROM kept_sums WHERE kind = 'address_city' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.city AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_city', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.city, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.city > '')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_address_city_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.city > '') AND R.city = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.city > '') AND R.city = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'address_city' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.city, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.city > ''));
  DELETE FROM kept_sums WHERE kind = 'address_city' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.city, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.city > '')) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_city', NEW.account_list_id, R.city, '', '', SUM(0), count(*)
    FROM addresses AS R WHERE R.contact_id = NEW.id AND (R.city > '') GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_address_city_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.city > '') AND R.city = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.city > '') AND R.city = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'address_city' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.city, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.city > ''));
  DELETE FROM kept_sums WHERE kind = 'address_city' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.city, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.city > '')) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'address_state', C.account_list_id, R.state, '', '', SUM(0), count(*)
  FROM addresses AS R JOIN contacts AS C ON C.id = R.contact_id WHERE R.state > '' GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER addresses_address_state_insert AFTER INSERT ON addresses BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_state', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.state, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.state > '')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_address_state_delete AFTER DELETE ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'address_state' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.state AND key2 = '' AND key3 = '' AND (OLD.state > '');
  DELETE FROM kept_sums WHERE kind = 'address_state' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.state AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_address_state_update AFTER UPDATE OF state, contact_id ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'address_state' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.state AND key2 = '' AND key3 = '' AND (OLD.state > '');
  DELETE FROM kept_sums WHERE kind = 'address_state' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.state AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_state', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.state, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.state > '')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_address_state_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.state > '') AND R.state = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.state > '') AND R.state = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'address_state' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.state, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.state > ''));
  DELETE FROM kept_sums WHERE kind = 'address_state' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.state, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.state > '')) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_state', NEW.account_list_id, R.state, '', '', SUM(0), count(*)
    FROM addresses AS R WHERE R.contact_id = NEW.id AND (R.state > '') GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_address_state_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.state > '') AND R.state = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.state > '') AND R.state = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'address_state' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.state, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.state > ''));
  DELETE FROM kept_sums WHERE kind = 'address_state' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.state, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.state > '')) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'address_country', C.account_list_id, R.country, '', '', SUM(0), count(*)
  FROM addresses AS R JOIN contacts AS C ON C.id = R.contact_id WHERE R.country > '' GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER addresses_address_country_insert AFTER INSERT ON addresses BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_country', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.country, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.country > '')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_address_country_delete AFTER DELETE ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'address_country' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.country AND key2 = '' AND key3 = '' AND (OLD.country > '');
  DELETE FROM kept_sums WHERE kind = 'address_country' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.country AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_address_country_update AFTER UPDATE OF country, contact_id ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'address_country' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.country AND key2 = '' AND key3 = '' AND (OLD.country > '');
  DELETE FROM kept_sums WHERE kind = 'address_country' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.country AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_country', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.country, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.country > '')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_address_country_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.country > '') AND R.country = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.country > '') AND R.country = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'address_country' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.country, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.country > ''));
  DELETE FROM kept_sums WHERE kind = 'address_country' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.country, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.country > '')) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_country', NEW.account_list_id, R.country, '', '', SUM(0), count(*)
    FROM addresses AS R WHERE R.contact_id = NEW.id AND (R.country > '') GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_address_country_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.country > '') AND R.country = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.country > '') AND R.country = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'address_country' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.country, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.country > ''));
  DELETE FROM kept_sums WHERE kind = 'address_country' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.country, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.country > '')) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'address_region', C.account_list_id, R.region, '', '', SUM(0), count(*)
  FROM addresses AS R JOIN contacts AS C ON C.id = R.contact_id WHERE R.region > '' GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER addresses_address_region_insert AFTER INSERT ON addresses BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_region', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.region, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.region > '')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_address_region_delete AFTER DELETE ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'address_region' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.region AND key2 = '' AND key3 = '' AND (OLD.region > '');
  DELETE FROM kept_sums WHERE kind = 'address_region' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.region AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_address_region_update AFTER UPDATE OF region, contact_id ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'address_region' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.region AND key2 = '' AND key3 = '' AND (OLD.region > '');
  DELETE FROM kept_sums WHERE kind = 'address_region' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.region AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_region', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.region, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.region > '')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_address_region_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.region > '') AND R.region = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.region > '') AND R.region = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'address_region' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.region, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.region > ''));
  DELETE FROM kept_sums WHERE kind = 'address_region' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.region, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.region > '')) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_region', NEW.account_list_id, R.region, '', '', SUM(0), count(*)
    FROM addresses AS R WHERE R.contact_id = NEW.id AND (R.region > '') GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_address_region_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.region > '') AND R.region = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.region > '') AND R.region = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'address_region' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.region, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.region > ''));
  DELETE FROM kept_sums WHERE kind = 'address_region' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.region, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.region > '')) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'address_metro_area', C.account_list_id, R.metro_area, '', '', SUM(0), count(*)
  FROM addresses AS R JOIN contacts AS C ON C.id = R.contact_id WHERE R.metro_area > '' GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER addresses_address_metro_area_insert AFTER INSERT ON addresses BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_metro_area', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.metro_area, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.metro_area > '')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_address_metro_area_delete AFTER DELETE ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'address_metro_area' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.metro_area AND key2 = '' AND key3 = '' AND (OLD.metro_area > '');
  DELETE FROM kept_sums WHERE kind = 'address_metro_area' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.metro_area AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER addresses_address_metro_area_update AFTER UPDATE OF metro_area, contact_id ON addresses BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'address_metro_area' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.metro_area AND key2 = '' AND key3 = '' AND (OLD.metro_area > '');
  DELETE FROM kept_sums WHERE kind = 'address_metro_area' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.contact_id) AND key1 = OLD.metro_area AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_metro_area', (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id), NEW.metro_area, '', '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.contact_id) IS NOT NULL AND (NEW.metro_area > '')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_address_metro_area_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.metro_area > '') AND R.metro_area = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.metro_area > '') AND R.metro_area = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'address_metro_area' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.metro_area, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.metro_area > ''));
  DELETE FROM kept_sums WHERE kind = 'address_metro_area' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.metro_area, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.metro_area > '')) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'address_metro_area', NEW.account_list_id, R.metro_area, '', '', SUM(0), count(*)
    FROM addresses AS R WHERE R.contact_id = NEW.id AND (R.metro_area > '') GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_address_metro_area_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.metro_area > '') AND R.metro_area = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.metro_area > '') AND R.metro_area = kept_sums.key1 AND '' = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'address_metro_area' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.metro_area, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.metro_area > ''));
  DELETE FROM kept_sums WHERE kind = 'address_metro_area' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.metro_area, '', '' FROM addresses AS R WHERE R.contact_id = OLD.id AND (R.metro_area > '')) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'referrers', C.account_list_id, R.referred_by_id, C.name, '', SUM(0), count(*)
  FROM contact_referrals AS R JOIN contacts AS C ON C.id = R.referred_by_id WHERE 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER contact_referrals_referrers_insert AFTER INSERT ON contact_referrals BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'referrers', (SELECT account_list_id FROM contacts WHERE id = NEW.referred_by_id), NEW.referred_by_id, (SELECT name FROM contacts WHERE id = NEW.referred_by_id), '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.referred_by_id) IS NOT NULL AND (1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contact_referrals_referrers_delete AFTER DELETE ON contact_referrals BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'referrers' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.referred_by_id) AND key1 = OLD.referred_by_id AND key2 = (SELECT name FROM contacts WHERE id = OLD.referred_by_id) AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'referrers' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.referred_by_id) AND key1 = OLD.referred_by_id AND key2 = (SELECT name FROM contacts WHERE id = OLD.referred_by_id) AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contact_referrals_referrers_update AFTER UPDATE OF referred_by_id ON contact_referrals BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'referrers' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.referred_by_id) AND key1 = OLD.referred_by_id AND key2 = (SELECT name FROM contacts WHERE id = OLD.referred_by_id) AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'referrers' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.referred_by_id) AND key1 = OLD.referred_by_id AND key2 = (SELECT name FROM contacts WHERE id = OLD.referred_by_id) AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'referrers', (SELECT account_list_id FROM contacts WHERE id = NEW.referred_by_id), NEW.referred_by_id, (SELECT name FROM contacts WHERE id = NEW.referred_by_id), '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.referred_by_id) IS NOT NULL AND (1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_referrers_move AFTER UPDATE OF account_list_id, name ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id OR OLD.name IS NOT NEW.name BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM contact_referrals AS R WHERE R.referred_by_id = OLD.id AND (1) AND R.referred_by_id = kept_sums.key1 AND OLD.name = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM contact_referrals AS R WHERE R.referred_by_id = OLD.id AND (1) AND R.referred_by_id = kept_sums.key1 AND OLD.name = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'referrers' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.referred_by_id, OLD.name, '' FROM contact_referrals AS R WHERE R.referred_by_id = OLD.id AND (1));
  DELETE FROM kept_sums WHERE kind = 'referrers' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.referred_by_id, OLD.name, '' FROM contact_referrals AS R WHERE R.referred_by_id = OLD.id AND (1)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'referrers', NEW.account_list_id, R.referred_by_id, NEW.name, '', SUM(0), count(*)
    FROM contact_referrals AS R WHERE R.referred_by_id = NEW.id AND (1) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_referrers_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM contact_referrals AS R WHERE R.referred_by_id = OLD.id AND (1) AND R.referred_by_id = kept_sums.key1 AND OLD.name = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM contact_referrals AS R WHERE R.referred_by_id = OLD.id AND (1) AND R.referred_by_id = kept_sums.key1 AND OLD.name = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'referrers' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.referred_by_id, OLD.name, '' FROM contact_referrals AS R WHERE R.referred_by_id = OLD.id AND (1));
  DELETE FROM kept_sums WHERE kind = 'referrers' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.referred_by_id, OLD.name, '' FROM contact_referrals AS R WHERE R.referred_by_id = OLD.id AND (1)) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'referrals_by_time', C.account_list_id, R.created_at, R.referred_to_id, '', SUM(0), count(*)
  FROM contact_referrals AS R JOIN contacts AS C ON C.id = R.referred_to_id WHERE 1 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER contact_referrals_referrals_by_time_insert AFTER INSERT ON contact_referrals BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'referrals_by_time', (SELECT account_list_id FROM contacts WHERE id = NEW.referred_to_id), NEW.created_at, NEW.referred_to_id, '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.referred_to_id) IS NOT NULL AND (1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contact_referrals_referrals_by_time_delete AFTER DELETE ON contact_referrals BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'referrals_by_time' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.referred_to_id) AND key1 = OLD.created_at AND key2 = OLD.referred_to_id AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'referrals_by_time' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.referred_to_id) AND key1 = OLD.created_at AND key2 = OLD.referred_to_id AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contact_referrals_referrals_by_time_update AFTER UPDATE OF referred_to_id, created_at ON contact_referrals BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'referrals_by_time' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.referred_to_id) AND key1 = OLD.created_at AND key2 = OLD.referred_to_id AND key3 = '' AND (1);
  DELETE FROM kept_sums WHERE kind = 'referrals_by_time' AND owner_id = (SELECT account_list_id FROM contacts WHERE id = OLD.referred_to_id) AND key1 = OLD.created_at AND key2 = OLD.referred_to_id AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'referrals_by_time', (SELECT account_list_id FROM contacts WHERE id = NEW.referred_to_id), NEW.created_at, NEW.referred_to_id, '', 0, 1 WHERE (SELECT account_list_id FROM contacts WHERE id = NEW.referred_to_id) IS NOT NULL AND (1)
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_referrals_by_time_move AFTER UPDATE OF account_list_id ON contacts WHEN OLD.account_list_id IS NOT NEW.account_list_id BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM contact_referrals AS R WHERE R.referred_to_id = OLD.id AND (1) AND R.created_at = kept_sums.key1 AND R.referred_to_id = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM contact_referrals AS R WHERE R.referred_to_id = OLD.id AND (1) AND R.created_at = kept_sums.key1 AND R.referred_to_id = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'referrals_by_time' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.created_at, R.referred_to_id, '' FROM contact_referrals AS R WHERE R.referred_to_id = OLD.id AND (1));
  DELETE FROM kept_sums WHERE kind = 'referrals_by_time' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.created_at, R.referred_to_id, '' FROM contact_referrals AS R WHERE R.referred_to_id = OLD.id AND (1)) AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'referrals_by_time', NEW.account_list_id, R.created_at, R.referred_to_id, '', SUM(0), count(*)
    FROM contact_referrals AS R WHERE R.referred_to_id = NEW.id AND (1) GROUP BY 3, 4, 5
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + excluded.rows;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_referrals_by_time_remove BEFORE DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - (SELECT SUM(0) FROM contact_referrals AS R WHERE R.referred_to_id = OLD.id AND (1) AND R.created_at = kept_sums.key1 AND R.referred_to_id = kept_sums.key2 AND '' = kept_sums.key3), rows = rows - (SELECT count(*) FROM contact_referrals AS R WHERE R.referred_to_id = OLD.id AND (1) AND R.created_at = kept_sums.key1 AND R.referred_to_id = kept_sums.key2 AND '' = kept_sums.key3)
    WHERE kind = 'referrals_by_time' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.created_at, R.referred_to_id, '' FROM contact_referrals AS R WHERE R.referred_to_id = OLD.id AND (1));
  DELETE FROM kept_sums WHERE kind = 'referrals_by_time' AND owner_id = OLD.account_list_id AND (key1, key2, key3) IN (SELECT R.created_at, R.referred_to_id, '' FROM contact_referrals AS R WHERE R.referred_to_id = OLD.id AND (1)) AND rows = 0;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'completed_tasks_by_month', account_list_id, substr(completed_at, 1, 7), activity_type, COALESCE(result, '') || '|' || CASE WHEN next_action = 'Appointment' THEN 'a' ELSE '-' END, SUM(0), count(*)
  FROM tasks WHERE completed = 1 AND completed_at IS NOT NULL AND activity_type IN ('Appointment', 'Pre Call Letter', 'Reminder Letter', 'Support Letter', 'Thank', 'Email', 'Facebook Message', 'Social Message', 'Text Message', 'Call', 'Talk to In Person') GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER tasks_completed_tasks_by_month_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'completed_tasks_by_month', NEW.account_list_id, substr(NEW.completed_at, 1, 7), NEW.activity_type, COALESCE(NEW.result, '') || '|' || CASE WHEN NEW.next_action = 'Appointment' THEN 'a' ELSE '-' END, 0, 1 WHERE NEW.completed = 1 AND NEW.completed_at IS NOT NULL AND NEW.activity_type IN ('Appointment', 'Pre Call Letter', 'Reminder Letter', 'Support Letter', 'Thank', 'Email', 'Facebook Message', 'Social Message', 'Text Message', 'Call', 'Talk to In Person')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_completed_tasks_by_month_delete AFTER DELETE ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'completed_tasks_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.completed_at, 1, 7) AND key2 = OLD.activity_type AND key3 = COALESCE(OLD.result, '') || '|' || CASE WHEN OLD.next_action = 'Appointment' THEN 'a' ELSE '-' END AND (OLD.completed = 1 AND OLD.completed_at IS NOT NULL AND OLD.activity_type IN ('Appointment', 'Pre Call Letter', 'Reminder Letter', 'Support Letter', 'Thank', 'Email', 'Facebook Message', 'Social Message', 'Text Message', 'Call', 'Talk to In Person'));
  DELETE FROM kept_sums WHERE kind = 'completed_tasks_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.completed_at, 1, 7) AND key2 = OLD.activity_type AND key3 = COALESCE(OLD.result, '') || '|' || CASE WHEN OLD.next_action = 'Appointment' THEN 'a' ELSE '-' END AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_completed_tasks_by_month_update AFTER UPDATE OF completed, completed_at, activity_type, result, next_action, account_list_id ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'completed_tasks_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.completed_at, 1, 7) AND key2 = OLD.activity_type AND key3 = COALESCE(OLD.result, '') || '|' || CASE WHEN OLD.next_action = 'Appointment' THEN 'a' ELSE '-' END AND (OLD.completed = 1 AND OLD.completed_at IS NOT NULL AND OLD.activity_type IN ('Appointment', 'Pre Call Letter', 'Reminder Letter', 'Support Letter', 'Thank', 'Email', 'Facebook Message', 'Social Message', 'Text Message', 'Call', 'Talk to In Person'));
  DELETE FROM kept_sums WHERE kind = 'completed_tasks_by_month' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.completed_at, 1, 7) AND key2 = OLD.activity_type AND key3 = COALESCE(OLD.result, '') || '|' || CASE WHEN OLD.next_action = 'Appointment' THEN 'a' ELSE '-' END AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'completed_tasks_by_month', NEW.account_list_id, substr(NEW.completed_at, 1, 7), NEW.activity_type, COALESCE(NEW.result, '') || '|' || CASE WHEN NEW.next_action = 'Appointment' THEN 'a' ELSE '-' END, 0, 1 WHERE NEW.completed = 1 AND NEW.completed_at IS NOT NULL AND NEW.activity_type IN ('Appointment', 'Pre Call Letter', 'Reminder Letter', 'Support Letter', 'Thank', 'Email', 'Facebook Message', 'Social Message', 'Text Message', 'Call', 'Talk to In Person')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'completed_tasks_by_day', account_list_id, substr(completed_at, 1, 10), activity_type, COALESCE(result, '') || '|' || CASE WHEN next_action = 'Appointment' THEN 'a' ELSE '-' END, SUM(0), count(*)
  FROM tasks WHERE completed = 1 AND completed_at IS NOT NULL AND activity_type IN ('Appointment', 'Pre Call Letter', 'Reminder Letter', 'Support Letter', 'Thank', 'Email', 'Facebook Message', 'Social Message', 'Text Message', 'Call', 'Talk to In Person') GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER tasks_completed_tasks_by_day_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'completed_tasks_by_day', NEW.account_list_id, substr(NEW.completed_at, 1, 10), NEW.activity_type, COALESCE(NEW.result, '') || '|' || CASE WHEN NEW.next_action = 'Appointment' THEN 'a' ELSE '-' END, 0, 1 WHERE NEW.completed = 1 AND NEW.completed_at IS NOT NULL AND NEW.activity_type IN ('Appointment', 'Pre Call Letter', 'Reminder Letter', 'Support Letter', 'Thank', 'Email', 'Facebook Message', 'Social Message', 'Text Message', 'Call', 'Talk to In Person')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_completed_tasks_by_day_delete AFTER DELETE ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'completed_tasks_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.completed_at, 1, 10) AND key2 = OLD.activity_type AND key3 = COALESCE(OLD.result, '') || '|' || CASE WHEN OLD.next_action = 'Appointment' THEN 'a' ELSE '-' END AND (OLD.completed = 1 AND OLD.completed_at IS NOT NULL AND OLD.activity_type IN ('Appointment', 'Pre Call Letter', 'Reminder Letter', 'Support Letter', 'Thank', 'Email', 'Facebook Message', 'Social Message', 'Text Message', 'Call', 'Talk to In Person'));
  DELETE FROM kept_sums WHERE kind = 'completed_tasks_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.completed_at, 1, 10) AND key2 = OLD.activity_type AND key3 = COALESCE(OLD.result, '') || '|' || CASE WHEN OLD.next_action = 'Appointment' THEN 'a' ELSE '-' END AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_completed_tasks_by_day_update AFTER UPDATE OF completed, completed_at, activity_type, result, next_action, account_list_id ON tasks BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'completed_tasks_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.completed_at, 1, 10) AND key2 = OLD.activity_type AND key3 = COALESCE(OLD.result, '') || '|' || CASE WHEN OLD.next_action = 'Appointment' THEN 'a' ELSE '-' END AND (OLD.completed = 1 AND OLD.completed_at IS NOT NULL AND OLD.activity_type IN ('Appointment', 'Pre Call Letter', 'Reminder Letter', 'Support Letter', 'Thank', 'Email', 'Facebook Message', 'Social Message', 'Text Message', 'Call', 'Talk to In Person'));
  DELETE FROM kept_sums WHERE kind = 'completed_tasks_by_day' AND owner_id = OLD.account_list_id AND key1 = substr(OLD.completed_at, 1, 10) AND key2 = OLD.activity_type AND key3 = COALESCE(OLD.result, '') || '|' || CASE WHEN OLD.next_action = 'Appointment' THEN 'a' ELSE '-' END AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'completed_tasks_by_day', NEW.account_list_id, substr(NEW.completed_at, 1, 10), NEW.activity_type, COALESCE(NEW.result, '') || '|' || CASE WHEN NEW.next_action = 'Appointment' THEN 'a' ELSE '-' END, 0, 1 WHERE NEW.completed = 1 AND NEW.completed_at IS NOT NULL AND NEW.activity_type IN ('Appointment', 'Pre Call Letter', 'Reminder Letter', 'Support Letter', 'Thank', 'Email', 'Facebook Message', 'Social Message', 'Text Message', 'Call', 'Talk to In Person')
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'donation_amounts', account_list_id, CAST(amount AS TEXT), '', '', SUM(0), count(*)
  FROM donations WHERE amount IS NOT NULL GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER donations_donation_amounts_insert AFTER INSERT ON donations BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'donation_amounts', NEW.account_list_id, CAST(NEW.amount AS TEXT), '', '', 0, 1 WHERE NEW.amount IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER donations_donation_amounts_delete AFTER DELETE ON donations BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'donation_amounts' AND owner_id = OLD.account_list_id AND key1 = CAST(OLD.amount AS TEXT) AND key2 = '' AND key3 = '' AND (OLD.amount IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'donation_amounts' AND owner_id = OLD.account_list_id AND key1 = CAST(OLD.amount AS TEXT) AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER donations_donation_amounts_update AFTER UPDATE OF amount, account_list_id ON donations BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'donation_amounts' AND owner_id = OLD.account_list_id AND key1 = CAST(OLD.amount AS TEXT) AND key2 = '' AND key3 = '' AND (OLD.amount IS NOT NULL);
  DELETE FROM kept_sums WHERE kind = 'donation_amounts' AND owner_id = OLD.account_list_id AND key1 = CAST(OLD.amount AS TEXT) AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'donation_amounts', NEW.account_list_id, CAST(NEW.amount AS TEXT), '', '', 0, 1 WHERE NEW.amount IS NOT NULL
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows)
  SELECT 'referred_contacts', account_list_id, COALESCE(status, ''), '', '', SUM(0), count(*)
  FROM contacts WHERE referrals_to_me > 0 GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER contacts_referred_contacts_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'referred_contacts', NEW.account_list_id, COALESCE(NEW.status, ''), '', '', 0, 1 WHERE NEW.referrals_to_me > 0
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_referred_contacts_delete AFTER DELETE ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'referred_contacts' AND owner_id = OLD.account_list_id AND key1 = COALESCE(OLD.status, '') AND key2 = '' AND key3 = '' AND (OLD.referrals_to_me > 0);
  DELETE FROM kept_sums WHERE kind = 'referred_contacts' AND owner_id = OLD.account_list_id AND key1 = COALESCE(OLD.status, '') AND key2 = '' AND key3 = '' AND rows = 0;
END;
--> statement-breakpoint
CREATE TRIGGER contacts_referred_contacts_update AFTER UPDATE OF status, referrals_to_me, account_list_id ON contacts BEGIN
  UPDATE kept_sums SET units = units - 0, rows = rows - 1 WHERE kind = 'referred_contacts' AND owner_id = OLD.account_list_id AND key1 = COALESCE(OLD.status, '') AND key2 = '' AND key3 = '' AND (OLD.referrals_to_me > 0);
  DELETE FROM kept_sums WHERE kind = 'referred_contacts' AND owner_id = OLD.account_list_id AND key1 = COALESCE(OLD.status, '') AND key2 = '' AND key3 = '' AND rows = 0;
  INSERT INTO kept_sums (kind, owner_id, key1, key2, key3, units, rows) SELECT 'referred_contacts', NEW.account_list_id, COALESCE(NEW.status, ''), '', '', 0, 1 WHERE NEW.referrals_to_me > 0
    ON CONFLICT (kind, owner_id, key1, key2, key3) DO UPDATE SET units = units + excluded.units, rows = rows + 1;
END;
