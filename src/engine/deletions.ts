/**
 * Deletions as offline clients learn them (`GET /deleted_records`): a resource that declares `recordsDeletion`
 * gets a `deleted_records` row for every row it deletes, written by the same atomic batch as the delete. Every
 * delete of the engine (single, bulk, `/batch` items and background requests, which re-enter the single routes,
 * nested deletes) goes through `prepareDelete`, and the few deletes written as SQL elsewhere use
 * `recordDeletionsWhere`, so no path deletes a record without its row.
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { deletedRecords } from "../../drizzle/schema";
import { q, randomUuid } from "../db/sql";
import type { BatchStatement, DeletionRecord, RequestContext, ResourceDef } from "./define";

export type { DeletionRecord };


/** The `deleted_records` rows, in the table's column order, for the rows of `record`'s table that `where` selects. */
function deletionRows(record: DeletionRecord, where: SQL, now: string, deletedBy: string | null): SQL {
  const from = record.deletedFrom ?? { type: "AccountList", column: record.accountListColumn };
  return rowsFrom(record.deletableType, record.idColumn, q(record.accountListColumn), sql`${q(from.column)}, ${from.type}`, where, now, deletedBy);
}

function rowsFrom(deletableType: string, idColumn: SQLiteColumn, list: SQL, deletedFrom: SQL, where: SQL, now: string, deletedBy: string | null): SQL {
  return sql`SELECT ${randomUuid()}, ${list}, ${q(idColumn)}, ${deletableType}, ${deletedFrom}, ${deletedBy}, ${now}, ${now}, ${now}
    FROM ${idColumn.table} WHERE ${where}`;
}

const INSERT_DELETED = sql`INSERT INTO ${deletedRecords} (id, account_list_id, deletable_id, deletable_type, deleted_from_id, deleted_from_type, deleted_by_id, deleted_at, created_at, updated_at)`;

/** The insert of those rows as SQL, for deletes written as hand-written statements (src/events). */
export function recordDeletionsWhere(record: DeletionRecord, where: SQL, now: string, deletedBy: string | null): SQL {
  return sql`${INSERT_DELETED} ${deletionRows(record, where, now, deletedBy)}`;
}

/**
 * The same for records that carry no list of their own (a contact's person, deleted by a merge): `list` names
 * it in SQL over the row, read before the row goes.
 */
export function recordDeletionsOfListless(deletableType: string, idColumn: SQLiteColumn, list: SQL, where: SQL, now: string, deletedBy: string | null): SQL {
  return sql`${INSERT_DELETED} ${rowsFrom(deletableType, idColumn, list, sql`${list}, 'AccountList'`, where, now, deletedBy)}`;
}

/** The insert of those rows as a statement of a request's batch, put before the delete; by the viewer. */
export function recordDeletionsIn(record: DeletionRecord, where: SQL, ctx: RequestContext): BatchStatement {
  return ctx.db.insert(deletedRecords).select(deletionRows(record, where, ctx.now, ctx.viewer.id)) as unknown as BatchStatement;
}

/** The statement that records the deletion of the row `id`. */
export function recordDeletion(record: DeletionRecord, id: string, ctx: RequestContext): BatchStatement {
  return recordDeletionsIn(record, sql`${q(record.idColumn)} = ${id}`, ctx);
}

/** A declaration's deletion record, its id and list columns the declaration's own. */
export function deletionRecordOf(def: Pick<ResourceDef, "recordsDeletion" | "idColumn" | "accountListColumn" | "type">): DeletionRecord {
  if (!def.recordsDeletion || !def.accountListColumn) throw new Error(`${def.type}: recordsDeletion needs an accountListColumn`);
  return { ...def.recordsDeletion, idColumn: def.idColumn, accountListColumn: def.accountListColumn };
}
