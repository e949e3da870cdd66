/**
 * Moving an account list to another database while it is in use (src/admin/moves.ts). On the database the list
 * leaves, `moving_lists` names it with the step of its move, and triggers on every table a list owns (rendered by
 * `listMoveTriggers` in src/db/list-tables.ts; migration 0020 holds them) record in `list_changes` each row of the
 * list a write touches while it is copied, and refuse writes to it while it switches and after it has moved.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const movingLists = sqliteTable("moving_lists", {
  accountListId: text("account_list_id").primaryKey(),
  /**
   * copying (writes recorded), switching and moved (writes refused), deleting (the move removes the old rows); on the
   * database the list goes to, arriving until it switches (the rows written there are copies: drizzle/webhook-triggers.ts).
   */
  state: text("state").notNull(),
});

export const listChanges = sqliteTable(
  "list_changes",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    accountListId: text("account_list_id").notNull(),
    tableName: text("table_name").notNull(),
    /** The row's key: its id, or for a table keyed by several columns their values as a JSON array. */
    rowKey: text("row_key").notNull(),
  },
  (t) => [index("list_changes_account_list_id_seq_idx").on(t.accountListId, t.seq)],
);
