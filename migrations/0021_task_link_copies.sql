DROP INDEX `activity_contacts_contact_id_idx`;--> statement-breakpoint
ALTER TABLE `activity_contacts` ADD `task_completed` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `activity_contacts` ADD `task_activity_type` text;--> statement-breakpoint
ALTER TABLE `activity_contacts` ADD `task_completed_at` text;--> statement-breakpoint
CREATE INDEX `activity_contacts_contact_id_task_state_idx` ON `activity_contacts` (`contact_id`,`task_id`,`task_completed`,`task_activity_type`,`task_completed_at`);--> statement-breakpoint
-- The copies of existing links; then the triggers that keep them (drizzle/task-link-copies.ts).
UPDATE activity_contacts SET (task_completed, task_activity_type, task_completed_at) = (SELECT completed, activity_type, completed_at FROM tasks WHERE tasks.id = activity_contacts.task_id);
--> statement-breakpoint
CREATE TRIGGER activity_contacts_task_copy_insert AFTER INSERT ON activity_contacts BEGIN
  UPDATE activity_contacts SET (task_completed, task_activity_type, task_completed_at) = (SELECT completed, activity_type, completed_at FROM tasks WHERE id = NEW.task_id) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER activity_contacts_task_copy_relink AFTER UPDATE OF task_id ON activity_contacts BEGIN
  UPDATE activity_contacts SET (task_completed, task_activity_type, task_completed_at) = (SELECT completed, activity_type, completed_at FROM tasks WHERE id = NEW.task_id) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER tasks_task_copy_update AFTER UPDATE OF completed, activity_type, completed_at ON tasks BEGIN
  UPDATE activity_contacts SET task_completed = NEW.completed, task_activity_type = NEW.activity_type, task_completed_at = NEW.completed_at WHERE task_id = NEW.id;
END;
--> statement-breakpoint
-- A link's update marks its contacts only when it moves to another task or contact (drizzle/run-marks.ts).
DROP TRIGGER activity_contacts_marks_contacts_update;
--> statement-breakpoint
CREATE TRIGGER activity_contacts_marks_contacts_update AFTER UPDATE OF task_id, contact_id ON activity_contacts WHEN NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = NEW.task_id AND t.notification_id IS NOT NULL) BEGIN
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = OLD.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
  INSERT INTO changed_contacts (contact_id, account_list_id) SELECT id, account_list_id FROM contacts WHERE id = NEW.contact_id
    ON CONFLICT (contact_id) DO UPDATE SET account_list_id = excluded.account_list_id;
END;
