/**
 * Where each account list's rows live. The directory database (binding `DB`) holds every user, membership and
 * account list, and may itself hold lists; a deployment adds list databases (bindings `LIST_DB_<name>`) and places
 * lists on them. A list without a row here is on the directory database, which is where every list starts.
 */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";

export const listPlacements = sqliteTable(
  "list_placements",
  {
    accountListId: text("account_list_id")
      .primaryKey()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    /** The binding of the database that serves the list. */
    database: text("database").notNull(),
    /** placed, or the step of a move: copying, switching, cleaning (src/admin/moves.ts). */
    state: text("state").notNull().default("placed"),
    /** While copying and switching, the database the list goes to; while cleaning, the one it left. */
    other: text("other"),
    /** Where copying stands: the table being copied and the last key copied from it. */
    cursorTable: text("cursor_table"),
    cursorKey: text("cursor_key"),
    /** What the move has done so far, for the operator. */
    rowsCopied: integer("rows_copied").notNull().default(0),
    startedAt: text("started_at"),
    switchedAt: text("switched_at"),
    /** How long writes were refused while switching, in milliseconds. */
    switchMs: integer("switch_ms"),
    /** Why the last move failed (the list stayed where it was), for the operator. */
    failure: text("failure"),
    /** Until when one run of the move's job holds it: a second delivery of its message waits (src/admin/moves.ts). */
    leaseUntil: text("lease_until"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("list_placements_database_idx").on(t.database)],
);

/**
 * Every id a client chose for a record of a list, claimed deployment-wide before the record is written
 * (src/engine/client-ids.ts): one database's primary key cannot see another's, so without it two lists on two
 * databases could each hold a record under one id, and neither list could then move to the other's database.
 * `anchor` is what the record hangs off: its account list, or the parent it is owned through (a person's contact).
 */
export const clientIds = sqliteTable(
  "client_ids",
  {
    tableName: text("table_name").notNull(),
    id: text("id").notNull(),
    anchor: text("anchor").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tableName, t.id] })],
);

/**
 * A record (a contact or a task, with everything it owns) being moved to another of its viewer's lists kept on
 * another database (src/engine/record-moves.ts). It is written before the copy and removed once the old rows are
 * gone; one left behind by a run that died is finished or undone by the five-minute job, so a record is never
 * kept twice.
 */
export const recordMoves = sqliteTable("record_moves", {
  /** The list table of the moved record and its id: one move of a record at a time. */
  tableName: text("table_name").notNull(),
  id: text("id").notNull(),
  fromList: text("from_list").notNull(),
  toList: text("to_list").notNull(),
  /** The bindings of the two databases. */
  fromDatabase: text("from_database").notNull(),
  toDatabase: text("to_database").notNull(),
  startedAt: text("started_at").notNull(),
}, (t) => [primaryKey({ columns: [t.tableName, t.id] })]);
