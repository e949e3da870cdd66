ALTER TABLE `contacts` ADD `gift_months` text;--> statement-breakpoint
DROP TRIGGER donations_last_gift_insert;
--> statement-breakpoint
DROP TRIGGER donations_last_gift_delete;
--> statement-breakpoint
DROP TRIGGER donations_last_gift_update;
--> statement-breakpoint
DROP TRIGGER contact_donor_accounts_last_gift_insert;
--> statement-breakpoint
DROP TRIGGER contact_donor_accounts_last_gift_delete;
--> statement-breakpoint
DROP TRIGGER contact_donor_accounts_last_gift_update;
--> statement-breakpoint
DROP TRIGGER contacts_last_gift_move;
--> statement-breakpoint
DROP TRIGGER webhooks_contacts_created;
--> statement-breakpoint
DROP TRIGGER webhooks_contacts_updated;
--> statement-breakpoint
DROP TRIGGER webhooks_contacts_deleted;
--> statement-breakpoint
CREATE TRIGGER donations_last_gift_insert AFTER INSERT ON donations BEGIN
  UPDATE contacts SET last_gift_on = NEW.donation_date WHERE id IN (SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = NEW.donor_account_id) AND +account_list_id = NEW.account_list_id
    AND (last_gift_on IS NULL OR last_gift_on < NEW.donation_date);
  UPDATE contacts SET gift_months = json_set(COALESCE(gift_months, '{}'), '$."' || substr(NEW.donation_date, 1, 7) || '"', COALESCE(json_extract(gift_months, '$."' || substr(NEW.donation_date, 1, 7) || '"'), 0) + COALESCE(NEW.tendered_amount, NEW.amount))
    WHERE id IN (SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = NEW.donor_account_id) AND +account_list_id = NEW.account_list_id;
END;
--> statement-breakpoint
CREATE TRIGGER donations_last_gift_delete AFTER DELETE ON donations BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id),
    gift_months = (SELECT json_group_object(month, units) FROM (SELECT substr(g.donation_date, 1, 7) AS month, SUM(COALESCE(g.tendered_amount, g.amount)) AS units
      FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id GROUP BY 1))
    WHERE id IN (SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = OLD.donor_account_id);
END;
--> statement-breakpoint
CREATE TRIGGER donations_last_gift_update AFTER UPDATE OF donation_date, donor_account_id, account_list_id, amount, tendered_amount ON donations BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id),
    gift_months = (SELECT json_group_object(month, units) FROM (SELECT substr(g.donation_date, 1, 7) AS month, SUM(COALESCE(g.tendered_amount, g.amount)) AS units
      FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id GROUP BY 1))
    WHERE id IN (SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = OLD.donor_account_id);
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id),
    gift_months = (SELECT json_group_object(month, units) FROM (SELECT substr(g.donation_date, 1, 7) AS month, SUM(COALESCE(g.tendered_amount, g.amount)) AS units
      FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id GROUP BY 1))
    WHERE id IN (SELECT contact_id FROM contact_donor_accounts WHERE donor_account_id = NEW.donor_account_id);
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_last_gift_insert AFTER INSERT ON contact_donor_accounts BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id),
    gift_months = (SELECT json_group_object(month, units) FROM (SELECT substr(g.donation_date, 1, 7) AS month, SUM(COALESCE(g.tendered_amount, g.amount)) AS units
      FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id GROUP BY 1))
    WHERE id IN (NEW.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_last_gift_delete AFTER DELETE ON contact_donor_accounts BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id),
    gift_months = (SELECT json_group_object(month, units) FROM (SELECT substr(g.donation_date, 1, 7) AS month, SUM(COALESCE(g.tendered_amount, g.amount)) AS units
      FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id GROUP BY 1))
    WHERE id IN (OLD.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER contact_donor_accounts_last_gift_update AFTER UPDATE OF contact_id, donor_account_id ON contact_donor_accounts BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id),
    gift_months = (SELECT json_group_object(month, units) FROM (SELECT substr(g.donation_date, 1, 7) AS month, SUM(COALESCE(g.tendered_amount, g.amount)) AS units
      FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id GROUP BY 1))
    WHERE id IN (OLD.contact_id);
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id),
    gift_months = (SELECT json_group_object(month, units) FROM (SELECT substr(g.donation_date, 1, 7) AS month, SUM(COALESCE(g.tendered_amount, g.amount)) AS units
      FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id GROUP BY 1))
    WHERE id IN (NEW.contact_id);
END;
--> statement-breakpoint
CREATE TRIGGER contacts_last_gift_move AFTER UPDATE OF account_list_id ON contacts BEGIN
  UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id),
    gift_months = (SELECT json_group_object(month, units) FROM (SELECT substr(g.donation_date, 1, 7) AS month, SUM(COALESCE(g.tendered_amount, g.amount)) AS units
      FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id GROUP BY 1))
    WHERE id IN (NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER webhooks_contacts_created AFTER INSERT ON contacts WHEN EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = NEW.account_list_id AND w.enabled = 1 AND s.value IN ('contact.created', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = NEW.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), NEW.account_list_id, 'contact.created', 'contacts', NEW.id, json_patch(json_patch(json_object('id', NEW.id, 'account_list_id', NEW.account_list_id, 'user_id', NEW.user_id, 'name', NEW.name, 'status', NEW.status, 'likely_to_give', NEW.likely_to_give, 'send_newsletter', NEW.send_newsletter, 'church_name', NEW.church_name, 'deceased', NEW.deceased, 'direct_deposit', NEW.direct_deposit, 'magazine', NEW.magazine, 'missionary_pages_banner', NEW.missionary_pages_banner, 'no_appeals', NEW.no_appeals, 'no_gift_aid', NEW.no_gift_aid, 'pledge_received', NEW.pledge_received, 'status_valid', NEW.status_valid), json_object('is_organization', NEW.is_organization, 'envelope_greeting', NEW.envelope_greeting, 'greeting', NEW.greeting, 'late_at', NEW.late_at, 'last_gift_on', NEW.last_gift_on, 'gift_months', NEW.gift_months, 'gift_due_on', NEW.gift_due_on, 'referrals_to_me', NEW.referrals_to_me, 'locale', NEW.locale, 'next_ask', NEW.next_ask, 'notes', NEW.notes, 'notes_saved_at', NEW.notes_saved_at, 'pledge_amount', NEW.pledge_amount, 'pledge_currency', NEW.pledge_currency, 'pledge_frequency', NEW.pledge_frequency, 'pledge_start_date', NEW.pledge_start_date)), json_object('preferred_contact_method', NEW.preferred_contact_method, 'relationship_code', NEW.relationship_code, 'source', NEW.source, 'starred_at', NEW.starred_at, 'timezone', NEW.timezone, 'website', NEW.website, 'avatar', NEW.avatar, 'suggested_changes', NEW.suggested_changes, 'name_key', NEW.name_key, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)), NEW.created_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
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
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), NEW.account_list_id, 'contact.updated', 'contacts', NEW.id, json_patch(json_patch(json_object('id', NEW.id, 'account_list_id', NEW.account_list_id, 'user_id', NEW.user_id, 'name', NEW.name, 'status', NEW.status, 'likely_to_give', NEW.likely_to_give, 'send_newsletter', NEW.send_newsletter, 'church_name', NEW.church_name, 'deceased', NEW.deceased, 'direct_deposit', NEW.direct_deposit, 'magazine', NEW.magazine, 'missionary_pages_banner', NEW.missionary_pages_banner, 'no_appeals', NEW.no_appeals, 'no_gift_aid', NEW.no_gift_aid, 'pledge_received', NEW.pledge_received, 'status_valid', NEW.status_valid), json_object('is_organization', NEW.is_organization, 'envelope_greeting', NEW.envelope_greeting, 'greeting', NEW.greeting, 'late_at', NEW.late_at, 'last_gift_on', NEW.last_gift_on, 'gift_months', NEW.gift_months, 'gift_due_on', NEW.gift_due_on, 'referrals_to_me', NEW.referrals_to_me, 'locale', NEW.locale, 'next_ask', NEW.next_ask, 'notes', NEW.notes, 'notes_saved_at', NEW.notes_saved_at, 'pledge_amount', NEW.pledge_amount, 'pledge_currency', NEW.pledge_currency, 'pledge_frequency', NEW.pledge_frequency, 'pledge_start_date', NEW.pledge_start_date)), json_object('preferred_contact_method', NEW.preferred_contact_method, 'relationship_code', NEW.relationship_code, 'source', NEW.source, 'starred_at', NEW.starred_at, 'timezone', NEW.timezone, 'website', NEW.website, 'avatar', NEW.avatar, 'suggested_changes', NEW.suggested_changes, 'name_key', NEW.name_key, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)), NEW.updated_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
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
--> statement-breakpoint
UPDATE contacts SET last_gift_on = (SELECT MAX(g.donation_date) FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id),
    gift_months = (SELECT json_group_object(month, units) FROM (SELECT substr(g.donation_date, 1, 7) AS month, SUM(COALESCE(g.tendered_amount, g.amount)) AS units
      FROM contact_donor_accounts x CROSS JOIN donations g
    ON g.donor_account_id = x.donor_account_id AND +g.account_list_id = contacts.account_list_id WHERE x.contact_id = contacts.id GROUP BY 1))
    WHERE id IN (SELECT contact_id FROM contact_donor_accounts);
