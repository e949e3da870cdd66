/**
 * Records owned through a parent rather than directly by an account list: a contact's addresses and people, a
 * person's details, a task's comments and activity contacts. The parent chain decides which lists a row is of,
 * so reads and writes are scoped exactly as the parent's are, and linking a row to a parent is checked the same way.
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { inList, q } from "../db/sql";
import { forbidden, recordNotFound } from "../jsonapi/errors";
import type { RelationshipDef, RequestContext } from "./define";
import { belongsTo } from "./relationships";

/** A parent record type: its id column and the condition, on its row, that it belongs to some lists. */
export interface Owner {
  type: string;
  model: string;
  idColumn: SQLiteColumn;
  inLists: (lists: readonly string[]) => SQL;
}

/** A record type owned directly by an account list (contacts, tasks). */
export function listOwner(type: string, model: string, idColumn: SQLiteColumn, accountListColumn: SQLiteColumn): Owner {
  return { type, model, idColumn, inLists: (lists) => inList(q(accountListColumn), lists) };
}

/** Whether the row whose `foreignKey` names an `owner` row belongs to the lists. */
function ownerInLists(owner: Owner, foreignKey: SQLiteColumn, lists: readonly string[]): SQL {
  return sql`EXISTS (SELECT 1 FROM ${owner.idColumn.table} WHERE ${q(owner.idColumn)} = ${q(foreignKey)} AND ${owner.inLists(lists)})`;
}

/** A record type owned by `owner` through `foreignKey` (people of contacts), itself usable as an owner. */
export function ownedBy(owner: Owner, type: string, model: string, idColumn: SQLiteColumn, foreignKey: SQLiteColumn): Owner {
  return { type, model, idColumn, inLists: (lists) => ownerInLists(owner, foreignKey, lists) };
}

/** Read scope (the viewer's lists) and write scope (the lists they are a user of) of rows owned through `foreignKey`. */
export function ownedScopes(owner: Owner, foreignKey: SQLiteColumn) {
  return {
    scope: (ctx: RequestContext) => ownerInLists(owner, foreignKey, ctx.viewer.readableListIds),
    writeScope: (ctx: RequestContext) => ownerInLists(owner, foreignKey, ctx.viewer.writableListIds),
  };
}

/** Checks an owner row may receive records: 404 unknown, 403 outside the lists the viewer may write. */
export async function checkWritableOwner(owner: Owner, id: string, ctx: RequestContext): Promise<void> {
  const [row] = await ctx.db
    .select({ writable: sql<number>`${owner.inLists(ctx.viewer.writableListIds)}` })
    .from(owner.idColumn.table as SQLiteTable)
    .where(sql`${q(owner.idColumn)} = ${id}`)
    .limit(1);
  if (!row) throw recordNotFound(owner.model, id);
  if (!row.writable) throw forbidden(id, owner.type);
}

/** The to-one relationship to the owner, writable to an owner the viewer may write. */
export function ownerRelationship(owner: Owner, foreignKey: SQLiteColumn, options: { default?: boolean; listedAs?: string } = {}): RelationshipDef {
  return {
    ...belongsTo(owner.type, foreignKey, { check: (id, ctx) => checkWritableOwner(owner, id, ctx), listedAs: options.listedAs }),
    default: options.default,
  };
}
