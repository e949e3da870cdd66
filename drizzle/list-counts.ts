/**
 * Rows per account list and per value of one column, for the resources that declare `maintainedCounts`
 * (contacts by status, tasks by completion). Triggers on those tables (migration 0007) keep each count inside the
 * same statement that inserts, updates or deletes the row, so a count is never behind a write, whichever path
 * (API, bulk, batch, background request, import) made it. Default list views read their exact totals from here
 * instead of counting every row in scope.
 */
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const listRowCounts = sqliteTable(
  "list_row_counts",
  {
    /** The counted table's SQL name. */
    tableName: text("table_name").notNull(),
    accountListId: text("account_list_id").notNull(),
    /** The counted column's value as text; NULL and blank share the bucket '' (lists treat them alike). */
    bucket: text("bucket").notNull(),
    rows: integer("rows").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tableName, t.accountListId, t.bucket] })],
);
