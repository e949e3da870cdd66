/**
 * A task's links to its contacts (`activity_contacts`) carry copies of the task's completion, type and completion
 * time. A contact row of a list page summarises its tasks (last activity, last call, last thank-you, open tasks); read
 * from these copies through the link index, the summary reads each link once instead of each link and each task.
 *
 * Triggers keep the copies inside the statement that writes the task or the link, so no write path (API, bulk,
 * batch, background request, import, a list's move) leaves one behind. Migration 0021 holds them as rendered here
 * and fills the copies of existing links; the tests check both (test/helpers/kept-sums.ts).
 */

/** The task's columns a link carries, each as `task_<column>`. */
export const COPIED = ["completed", "activity_type", "completed_at"] as const;
const copies = COPIED.map((column) => `task_${column}`).join(", ");

/** The link `NEW` takes its task's state. */
const fromTask = `UPDATE activity_contacts SET (${copies}) = (SELECT ${COPIED.join(", ")} FROM tasks WHERE id = NEW.task_id) WHERE id = NEW.id;`;

export function taskLinkCopyTriggers(): string[] {
  return [
    `CREATE TRIGGER activity_contacts_task_copy_insert AFTER INSERT ON activity_contacts BEGIN
  ${fromTask}
END;`,
    `CREATE TRIGGER activity_contacts_task_copy_relink AFTER UPDATE OF task_id ON activity_contacts BEGIN
  ${fromTask}
END;`,
    `CREATE TRIGGER tasks_task_copy_update AFTER UPDATE OF ${COPIED.join(", ")} ON tasks BEGIN
  UPDATE activity_contacts SET ${COPIED.map((column) => `task_${column} = NEW.${column}`).join(", ")} WHERE task_id = NEW.id;
END;`,
  ];
}

/** Fills the copies of the links already there (the migration's backfill). */
export const taskLinkCopyBackfill = `UPDATE activity_contacts SET (${copies}) = (SELECT ${COPIED.join(", ")} FROM tasks WHERE tasks.id = activity_contacts.task_id);`;
