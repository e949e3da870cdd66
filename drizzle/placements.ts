/**
 * Where each account list's rows live. The directory database (binding `DB`) holds every user, membership and
 * account list, and may itself hold lists; a deployment adds list databases (bindings `LIST_DB_<name>`) and places
 * lists on them. A list without a row here is on the directory database, which is where every list starts.
 */
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";

export const listPlacements = sqliteTable(
  "list_placements",
  {
    accountListId: text("account_list_id")
      .primaryKey()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    /** The binding of the database that serves the list. */
    database: text("database").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("list_placements_database_idx").on(t.database)],
);
