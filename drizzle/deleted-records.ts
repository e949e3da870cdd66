/**
 * What offline clients learn deletions from: one row per contact, task or donation deleted, written in the same
 * atomic batch as the delete itself (src/write/write.ts, `prepareDelete`). Rows belong to the list the record was
 * deleted from, so they move with it and an erasure removes them; the daily job removes rows older than
 * DELETED_RECORDS_DAYS.
 */
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";
import { id, timestamps } from "./columns";
import { tasks } from "./tasks";
import { users } from "./users";

export const deletedRecords = sqliteTable(
  "deleted_records",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    deletableId: text("deletable_id").notNull(),
    /** The original's model name: `Contact`, `Activity` (a task) or `Donation`. */
    deletableType: text("deletable_type").notNull(),
    /** The account list, or for a donation its designation account. */
    deletedFromId: text("deleted_from_id").notNull(),
    /** `AccountList` or `DesignationAccount`. */
    deletedFromType: text("deleted_from_type").notNull(),
    deletedById: text("deleted_by_id").references(() => users.id, { onDelete: "set null" }),
    deletedAt: text("deleted_at").notNull(),
    ...timestamps(),
  },
  (t) => [
    index("deleted_records_account_list_id_deleted_at_idx").on(t.accountListId, t.deletedAt, t.id),
    index("deleted_records_account_list_id_created_at_idx").on(t.accountListId, t.createdAt, t.id),
    index("deleted_records_account_list_id_updated_at_idx").on(t.accountListId, t.updatedAt, t.id),
    // The daily removal of old rows, across lists.
    index("deleted_records_deleted_at_idx").on(t.deletedAt),
  ],
);

/**
 * A task's deletion as offline clients learn it: `Activity`, the original's model name (`filter[types]=Task` finds
 * it too). Here beside the table, as data: the task resource declares it, and the deletes of tasks written as SQL
 * (a cleared notification's open task, the notification run's) record theirs by it (src/engine/deletions.ts).
 */
export const TASK_DELETION = { deletableType: "Activity", idColumn: tasks.id, accountListColumn: tasks.accountListId };
