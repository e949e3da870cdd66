/**
 * Relationship builders. Linkage is read in the same statement as the rows (a column for to-one, a correlated
 * subquery returning a JSON array for to-many), so a page costs one query however many relationships it shows.
 */
import { Column, getTableColumns, is, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { q } from "../db/sql";
import type { RelationshipDef, RequestContext, SharedSelect, SidepostRule } from "./define";

/** A to-many that also accepts nested writes of its records (sideposting). */
export function sideposted(relationship: RelationshipDef, rule: SidepostRule): RelationshipDef {
  return { ...relationship, sidepost: rule };
}

/** to-one through a foreign key column of this table. */
export function belongsTo(type: string, column: SQLiteColumn, write?: RelationshipDef["write"]): RelationshipDef {
  return { type, kind: "one", column, write };
}

/** to-one computed in SQL (the target id, or NULL). */
export function hasOne(type: string, select: (ctx: RequestContext) => SQL): RelationshipDef {
  return { type, kind: "one", select };
}

/**
 * to-one whose identifier also carries the target's created_at and updated_at, as the interface answers a
 * user's `master_person` (JSON:API 1.0 itself allows only type, id and meta there). An id whose target row is
 * missing is still linked, with null timestamps.
 */
export function belongsToStamped(
  type: string,
  column: SQLiteColumn,
  target: { id: SQLiteColumn; createdAt: SQLiteColumn; updatedAt: SQLiteColumn },
): RelationshipDef {
  const stamped = sql`json_object('id', ${q(target.id)}, 'created_at', ${q(target.createdAt)}, 'updated_at', ${q(target.updatedAt)})`;
  return {
    type,
    kind: "one",
    identifierMembers: true,
    select: () =>
      sql`CASE WHEN ${q(column)} IS NULL THEN NULL ELSE COALESCE((SELECT ${stamped} FROM ${target.id.table} WHERE ${q(target.id)} = ${q(column)}), json_object('id', ${q(column)}, 'created_at', NULL, 'updated_at', NULL)) END`,
  };
}

/**
 * A dotted sort (`contact.name`): the value of a column of the record this row's to-one foreign key names,
 * read through that record's primary key.
 */
export function relatedSort(foreignKey: SQLiteColumn, target: SQLiteColumn): SQL {
  const targetId = getTableColumns(target.table).id as SQLiteColumn;
  return sql`(SELECT ${q(target)} FROM ${target.table} WHERE ${q(targetId)} = ${q(foreignKey)})`;
}

/**
 * to-many: the ids of `targetId` rows whose `foreignKey` equals this row's `ownerId`, in `orderBy` order (then by
 * id). Each id is selected with its order keys and put in order when the linkage is decoded (`linkageIds`): a
 * subquery's ORDER BY costs D1 a row read per owner row, even when the linkage is empty.
 */
export function hasMany(
  type: string,
  targetId: SQLiteColumn,
  foreignKey: SQLiteColumn,
  ownerId: SQLiteColumn,
  options: { where?: SQL; orderBy?: Array<SQL | SQLiteColumn> | SQL | SQLiteColumn; default?: boolean } = {},
): RelationshipDef {
  const table = foreignKey.table;
  const where = options.where ? sql` AND ${options.where}` : sql``;
  const terms = options.orderBy === undefined ? [] : Array.isArray(options.orderBy) ? options.orderBy : [options.orderBy];
  // The id ends each entry (and so breaks ties), once.
  const keys = terms.filter((term) => term !== targetId).map((term) => (is(term, Column) ? q(term as SQLiteColumn) : (term as SQL)));
  const keyed = sql.join([...keys, q(targetId)], sql`, `);
  return {
    type,
    kind: "many",
    default: options.default,
    select: () => sql`(SELECT json_group_array(json_array(${keyed})) FROM ${table} WHERE ${q(foreignKey)} = ${q(ownerId)}${where})`,
  };
}

/** to-many computed by any SQL returning a JSON array of ids. */
export function manyBy(type: string, select: (ctx: RequestContext) => SQL, options: { default?: boolean } = {}): RelationshipDef {
  return { type, kind: "many", select, default: options.default };
}

/** A relationship whose linkage is picked from a per-row value it shares with others (see RelationshipDef.shared). */
export function sharedLinkage(type: string, kind: "one" | "many", select: SharedSelect, pick: (selected: unknown) => unknown): RelationshipDef {
  return { type, kind, shared: { select, pick } };
}

/** A to-many that is always empty: the relationship exists in the interface but this service stores no such records. */
export function emptyMany(type: string): RelationshipDef {
  return { type, kind: "many", select: () => sql`'[]'` };
}
