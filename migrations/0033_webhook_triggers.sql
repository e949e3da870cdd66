-- Webhooks: the new list tables move with their list like its other rows (src/db/list-tables.ts), and the outbox's
-- triggers record the events endpoints subscribe to (drizzle/webhook-triggers.ts).
CREATE TRIGGER list_moves_webhooks_insert BEFORE INSERT ON webhooks WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhooks', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_webhooks_update BEFORE UPDATE ON webhooks WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhooks', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhooks', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_webhooks_delete BEFORE DELETE ON webhooks WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhooks', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_webhook_events_insert BEFORE INSERT ON webhook_events WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhook_events', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_webhook_events_update BEFORE UPDATE ON webhook_events WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhook_events', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhook_events', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_webhook_events_delete BEFORE DELETE ON webhook_events WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhook_events', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_webhook_deliveries_insert BEFORE INSERT ON webhook_deliveries WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved', 'deleting'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhook_deliveries', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_webhook_deliveries_update BEFORE UPDATE ON webhook_deliveries WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE NEW.account_list_id IS NOT OLD.account_list_id AND EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id IN (NEW.account_list_id, OLD.account_list_id));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhook_deliveries', NEW.id FROM moving_lists WHERE account_list_id = NEW.account_list_id AND state = 'copying';
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhook_deliveries', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER list_moves_webhook_deliveries_delete BEFORE DELETE ON webhook_deliveries WHEN EXISTS (SELECT 1 FROM moving_lists) BEGIN
  SELECT RAISE(ABORT, 'LIST_MOVING') WHERE EXISTS (SELECT 1 FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state IN ('switching', 'moved'));
  INSERT INTO list_changes (account_list_id, table_name, row_key) SELECT account_list_id, 'webhook_deliveries', OLD.id FROM moving_lists WHERE account_list_id = OLD.account_list_id AND state = 'copying';
END;
--> statement-breakpoint
CREATE TRIGGER webhooks_contacts_created AFTER INSERT ON contacts WHEN EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = NEW.account_list_id AND w.enabled = 1 AND s.value IN ('contact.created', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = NEW.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), NEW.account_list_id, 'contact.created', 'contacts', NEW.id, json_patch(json_patch(json_object('id', NEW.id, 'account_list_id', NEW.account_list_id, 'user_id', NEW.user_id, 'name', NEW.name, 'status', NEW.status, 'likely_to_give', NEW.likely_to_give, 'send_newsletter', NEW.send_newsletter, 'church_name', NEW.church_name, 'deceased', NEW.deceased, 'direct_deposit', NEW.direct_deposit, 'magazine', NEW.magazine, 'missionary_pages_banner', NEW.missionary_pages_banner, 'no_appeals', NEW.no_appeals, 'no_gift_aid', NEW.no_gift_aid, 'pledge_received', NEW.pledge_received, 'status_valid', NEW.status_valid), json_object('is_organization', NEW.is_organization, 'envelope_greeting', NEW.envelope_greeting, 'greeting', NEW.greeting, 'late_at', NEW.late_at, 'last_gift_on', NEW.last_gift_on, 'gift_due_on', NEW.gift_due_on, 'referrals_to_me', NEW.referrals_to_me, 'locale', NEW.locale, 'next_ask', NEW.next_ask, 'notes', NEW.notes, 'notes_saved_at', NEW.notes_saved_at, 'pledge_amount', NEW.pledge_amount, 'pledge_currency', NEW.pledge_currency, 'pledge_frequency', NEW.pledge_frequency, 'pledge_start_date', NEW.pledge_start_date, 'preferred_contact_method', NEW.preferred_contact_method)), json_object('relationship_code', NEW.relationship_code, 'source', NEW.source, 'starred_at', NEW.starred_at, 'timezone', NEW.timezone, 'website', NEW.website, 'avatar', NEW.avatar, 'suggested_changes', NEW.suggested_changes, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)), NEW.created_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
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
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), NEW.account_list_id, 'contact.updated', 'contacts', NEW.id, json_patch(json_patch(json_object('id', NEW.id, 'account_list_id', NEW.account_list_id, 'user_id', NEW.user_id, 'name', NEW.name, 'status', NEW.status, 'likely_to_give', NEW.likely_to_give, 'send_newsletter', NEW.send_newsletter, 'church_name', NEW.church_name, 'deceased', NEW.deceased, 'direct_deposit', NEW.direct_deposit, 'magazine', NEW.magazine, 'missionary_pages_banner', NEW.missionary_pages_banner, 'no_appeals', NEW.no_appeals, 'no_gift_aid', NEW.no_gift_aid, 'pledge_received', NEW.pledge_received, 'status_valid', NEW.status_valid), json_object('is_organization', NEW.is_organization, 'envelope_greeting', NEW.envelope_greeting, 'greeting', NEW.greeting, 'late_at', NEW.late_at, 'last_gift_on', NEW.last_gift_on, 'gift_due_on', NEW.gift_due_on, 'referrals_to_me', NEW.referrals_to_me, 'locale', NEW.locale, 'next_ask', NEW.next_ask, 'notes', NEW.notes, 'notes_saved_at', NEW.notes_saved_at, 'pledge_amount', NEW.pledge_amount, 'pledge_currency', NEW.pledge_currency, 'pledge_frequency', NEW.pledge_frequency, 'pledge_start_date', NEW.pledge_start_date, 'preferred_contact_method', NEW.preferred_contact_method)), json_object('relationship_code', NEW.relationship_code, 'source', NEW.source, 'starred_at', NEW.starred_at, 'timezone', NEW.timezone, 'website', NEW.website, 'avatar', NEW.avatar, 'suggested_changes', NEW.suggested_changes, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)), NEW.updated_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
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
CREATE TRIGGER webhooks_tasks_created AFTER INSERT ON tasks WHEN EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = NEW.account_list_id AND w.enabled = 1 AND s.value IN ('task.created', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = NEW.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), NEW.account_list_id, 'task.created', 'tasks', NEW.id, json_patch(json_object('id', NEW.id, 'account_list_id', NEW.account_list_id, 'user_id', NEW.user_id, 'activity_type', NEW.activity_type, 'subject', NEW.subject, 'subject_hidden', NEW.subject_hidden, 'start_at', NEW.start_at, 'completed', NEW.completed, 'completed_at', NEW.completed_at, 'result', NEW.result, 'next_action', NEW.next_action, 'location', NEW.location, 'starred', NEW.starred, 'notification_time_before', NEW.notification_time_before, 'notification_time_unit', NEW.notification_time_unit, 'notification_type', NEW.notification_type), json_object('notification_id', NEW.notification_id, 'remind_at', NEW.remind_at, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)), NEW.created_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
  INSERT OR IGNORE INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), e.account_list_id, w.id, e.id, e.event_type, e.created_at, e.created_at, e.created_at
    FROM webhook_events e JOIN webhooks w ON w.account_list_id = e.account_list_id
    WHERE e.rowid = last_insert_rowid() AND e.resource_id = NEW.id AND e.event_type = 'task.created' AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_each(w.event_types) s WHERE s.value IN ('task.created', '*'));
END;
--> statement-breakpoint
CREATE TRIGGER webhooks_tasks_updated AFTER UPDATE ON tasks WHEN NEW.updated_at IS NOT OLD.updated_at AND NOT (NEW.completed = 1 AND OLD.completed = 0) AND EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = NEW.account_list_id AND w.enabled = 1 AND s.value IN ('task.updated', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = NEW.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), NEW.account_list_id, 'task.updated', 'tasks', NEW.id, json_patch(json_object('id', NEW.id, 'account_list_id', NEW.account_list_id, 'user_id', NEW.user_id, 'activity_type', NEW.activity_type, 'subject', NEW.subject, 'subject_hidden', NEW.subject_hidden, 'start_at', NEW.start_at, 'completed', NEW.completed, 'completed_at', NEW.completed_at, 'result', NEW.result, 'next_action', NEW.next_action, 'location', NEW.location, 'starred', NEW.starred, 'notification_time_before', NEW.notification_time_before, 'notification_time_unit', NEW.notification_time_unit, 'notification_type', NEW.notification_type), json_object('notification_id', NEW.notification_id, 'remind_at', NEW.remind_at, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)), NEW.updated_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
  INSERT OR IGNORE INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), e.account_list_id, w.id, e.id, e.event_type, e.created_at, e.created_at, e.created_at
    FROM webhook_events e JOIN webhooks w ON w.account_list_id = e.account_list_id
    WHERE e.rowid = last_insert_rowid() AND e.resource_id = NEW.id AND e.event_type = 'task.updated' AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_each(w.event_types) s WHERE s.value IN ('task.updated', '*'));
END;
--> statement-breakpoint
CREATE TRIGGER webhooks_tasks_deleted AFTER DELETE ON tasks WHEN EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = OLD.account_list_id AND w.enabled = 1 AND s.value IN ('task.deleted', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = OLD.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), OLD.account_list_id, 'task.deleted', 'tasks', OLD.id, NULL, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
  INSERT OR IGNORE INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), e.account_list_id, w.id, e.id, e.event_type, e.created_at, e.created_at, e.created_at
    FROM webhook_events e JOIN webhooks w ON w.account_list_id = e.account_list_id
    WHERE e.rowid = last_insert_rowid() AND e.resource_id = OLD.id AND e.event_type = 'task.deleted' AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_each(w.event_types) s WHERE s.value IN ('task.deleted', '*'));
END;
--> statement-breakpoint
CREATE TRIGGER webhooks_tasks_completed AFTER UPDATE ON tasks WHEN NEW.completed = 1 AND OLD.completed = 0 AND EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = NEW.account_list_id AND w.enabled = 1 AND s.value IN ('task.completed', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = NEW.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), NEW.account_list_id, 'task.completed', 'tasks', NEW.id, json_patch(json_object('id', NEW.id, 'account_list_id', NEW.account_list_id, 'user_id', NEW.user_id, 'activity_type', NEW.activity_type, 'subject', NEW.subject, 'subject_hidden', NEW.subject_hidden, 'start_at', NEW.start_at, 'completed', NEW.completed, 'completed_at', NEW.completed_at, 'result', NEW.result, 'next_action', NEW.next_action, 'location', NEW.location, 'starred', NEW.starred, 'notification_time_before', NEW.notification_time_before, 'notification_time_unit', NEW.notification_time_unit, 'notification_type', NEW.notification_type), json_object('notification_id', NEW.notification_id, 'remind_at', NEW.remind_at, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)), NEW.updated_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
  INSERT OR IGNORE INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), e.account_list_id, w.id, e.id, e.event_type, e.created_at, e.created_at, e.created_at
    FROM webhook_events e JOIN webhooks w ON w.account_list_id = e.account_list_id
    WHERE e.rowid = last_insert_rowid() AND e.resource_id = NEW.id AND e.event_type = 'task.completed' AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_each(w.event_types) s WHERE s.value IN ('task.completed', '*'));
END;
--> statement-breakpoint
CREATE TRIGGER webhooks_donations_created AFTER INSERT ON donations WHEN EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = NEW.account_list_id AND w.enabled = 1 AND s.value IN ('donation.created', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = NEW.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), NEW.account_list_id, 'donation.created', 'donations', NEW.id, json_patch(json_object('id', NEW.id, 'account_list_id', NEW.account_list_id, 'designation_account_id', NEW.designation_account_id, 'donor_account_id', NEW.donor_account_id, 'appeal_id', NEW.appeal_id, 'appeal_amount', NEW.appeal_amount, 'amount', NEW.amount, 'currency', NEW.currency, 'donation_date', NEW.donation_date, 'motivation', NEW.motivation, 'payment_method', NEW.payment_method, 'memo', NEW.memo, 'remote_id', NEW.remote_id, 'channel', NEW.channel, 'payment_type', NEW.payment_type, 'tendered_amount', NEW.tendered_amount), json_object('tendered_currency', NEW.tendered_currency, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)), NEW.created_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
  INSERT OR IGNORE INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), e.account_list_id, w.id, e.id, e.event_type, e.created_at, e.created_at, e.created_at
    FROM webhook_events e JOIN webhooks w ON w.account_list_id = e.account_list_id
    WHERE e.rowid = last_insert_rowid() AND e.resource_id = NEW.id AND e.event_type = 'donation.created' AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_each(w.event_types) s WHERE s.value IN ('donation.created', '*'));
END;
--> statement-breakpoint
CREATE TRIGGER webhooks_donations_updated AFTER UPDATE ON donations WHEN NEW.updated_at IS NOT OLD.updated_at AND EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = NEW.account_list_id AND w.enabled = 1 AND s.value IN ('donation.updated', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = NEW.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), NEW.account_list_id, 'donation.updated', 'donations', NEW.id, json_patch(json_object('id', NEW.id, 'account_list_id', NEW.account_list_id, 'designation_account_id', NEW.designation_account_id, 'donor_account_id', NEW.donor_account_id, 'appeal_id', NEW.appeal_id, 'appeal_amount', NEW.appeal_amount, 'amount', NEW.amount, 'currency', NEW.currency, 'donation_date', NEW.donation_date, 'motivation', NEW.motivation, 'payment_method', NEW.payment_method, 'memo', NEW.memo, 'remote_id', NEW.remote_id, 'channel', NEW.channel, 'payment_type', NEW.payment_type, 'tendered_amount', NEW.tendered_amount), json_object('tendered_currency', NEW.tendered_currency, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)), NEW.updated_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
  INSERT OR IGNORE INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), e.account_list_id, w.id, e.id, e.event_type, e.created_at, e.created_at, e.created_at
    FROM webhook_events e JOIN webhooks w ON w.account_list_id = e.account_list_id
    WHERE e.rowid = last_insert_rowid() AND e.resource_id = NEW.id AND e.event_type = 'donation.updated' AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_each(w.event_types) s WHERE s.value IN ('donation.updated', '*'));
END;
--> statement-breakpoint
CREATE TRIGGER webhooks_donations_deleted AFTER DELETE ON donations WHEN EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = OLD.account_list_id AND w.enabled = 1 AND s.value IN ('donation.deleted', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = OLD.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), OLD.account_list_id, 'donation.deleted', 'donations', OLD.id, NULL, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
  INSERT OR IGNORE INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), e.account_list_id, w.id, e.id, e.event_type, e.created_at, e.created_at, e.created_at
    FROM webhook_events e JOIN webhooks w ON w.account_list_id = e.account_list_id
    WHERE e.rowid = last_insert_rowid() AND e.resource_id = OLD.id AND e.event_type = 'donation.deleted' AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_each(w.event_types) s WHERE s.value IN ('donation.deleted', '*'));
END;
--> statement-breakpoint
CREATE TRIGGER webhooks_notifications_created AFTER INSERT ON notifications WHEN EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = NEW.account_list_id AND w.enabled = 1 AND s.value IN ('notification.created', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = NEW.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), NEW.account_list_id, 'notification.created', 'notifications', NEW.id, json_object('id', NEW.id, 'account_list_id', NEW.account_list_id, 'contact_id', NEW.contact_id, 'notification_type_id', NEW.notification_type_id, 'donation_id', NEW.donation_id, 'event_date', NEW.event_date, 'event_key', NEW.event_key, 'cleared', NEW.cleared, 'app', NEW.app, 'wants_task', NEW.wants_task, 'wants_email', NEW.wants_email, 'task_created_at', NEW.task_created_at, 'digest_key', NEW.digest_key, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at), NEW.created_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
  INSERT OR IGNORE INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), e.account_list_id, w.id, e.id, e.event_type, e.created_at, e.created_at, e.created_at
    FROM webhook_events e JOIN webhooks w ON w.account_list_id = e.account_list_id
    WHERE e.rowid = last_insert_rowid() AND e.resource_id = NEW.id AND e.event_type = 'notification.created' AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_each(w.event_types) s WHERE s.value IN ('notification.created', '*'));
END;
--> statement-breakpoint
CREATE TRIGGER webhooks_imports_completed AFTER UPDATE ON imports WHEN OLD.import_completed_at IS NULL AND NEW.import_completed_at IS NOT NULL AND EXISTS (SELECT 1 FROM webhooks w, json_each(w.event_types) s WHERE w.account_list_id = NEW.account_list_id AND w.enabled = 1 AND s.value IN ('import.completed', '*'))
  AND NOT EXISTS (SELECT 1 FROM moving_lists m WHERE m.account_list_id = NEW.account_list_id AND m.state IN ('arriving', 'deleting')) BEGIN
  INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, snapshot, occurred_at, created_at)
    VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), NEW.account_list_id, 'import.completed', 'imports', NEW.id, json_patch(json_object('id', NEW.id, 'account_list_id', NEW.account_list_id, 'user_id', NEW.user_id, 'source', NEW.source, 'in_preview', NEW.in_preview, 'file_key', NEW.file_key, 'file_name', NEW.file_name, 'file_size_in_bytes', NEW.file_size_in_bytes, 'file_encoding', NEW.file_encoding, 'file_headers', NEW.file_headers, 'file_header_row', NEW.file_header_row, 'file_constants', NEW.file_constants, 'sample_rows', NEW.sample_rows, 'file_headers_mappings', NEW.file_headers_mappings, 'file_constants_mappings', NEW.file_constants_mappings, 'tag_list', NEW.tag_list), json_object('rows_total', NEW.rows_total, 'next_row', NEW.next_row, 'rows_imported', NEW.rows_imported, 'rows_failed', NEW.rows_failed, 'queued_for_import_at', NEW.queued_for_import_at, 'import_started_at', NEW.import_started_at, 'import_completed_at', NEW.import_completed_at, 'claimed_at', NEW.claimed_at, 'error', NEW.error, 'mail_attempted_at', NEW.mail_attempted_at, 'mail_sent_at', NEW.mail_sent_at, 'created_at', NEW.created_at, 'updated_at', NEW.updated_at)), NEW.import_completed_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
  INSERT OR IGNORE INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), e.account_list_id, w.id, e.id, e.event_type, e.created_at, e.created_at, e.created_at
    FROM webhook_events e JOIN webhooks w ON w.account_list_id = e.account_list_id
    WHERE e.rowid = last_insert_rowid() AND e.resource_id = NEW.id AND e.event_type = 'import.completed' AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_each(w.event_types) s WHERE s.value IN ('import.completed', '*'));
END;
