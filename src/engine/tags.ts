/**
 * Tags: rows of an (owner, name) table, names stored lower-case. Resources answer them as `tag_list`, an array
 * sorted by name; requests send a comma-separated string or an array. The `tags` (all of them, or any with
 * `any_tags=true`) and `exclude_tags` filters select owners by their tags in one statement.
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../env";
import { inList, q } from "../db/sql";
import { booleanValue, listValue } from "../jsonapi/filter-values";
import type { AttributeDef, BatchStatement, FilterDef, ParseResult } from "./define";

export interface TagTable {
  table: SQLiteTable;
  /** The owner's id column of the tag table (e.g. task_tags.task_id). */
  owner: SQLiteColumn;
  name: SQLiteColumn;
}

const MAX_TAG_LENGTH = 255;

/** Lower-cased, trimmed, blanks dropped, each name once, in the order sent. */
export function parseTagList(value: unknown): ParseResult {
  if (value === null || value === undefined) return { ok: true, value: [] };
  const parts = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : undefined;
  if (!parts || parts.some((part) => typeof part !== "string" && typeof part !== "number")) {
    return { ok: false, message: "must be a comma-separated string or an array of strings" };
  }
  const names = [...new Set(parts.map((part) => String(part).trim().toLowerCase()).filter((name) => name !== ""))];
  if (names.some((name) => name.length > MAX_TAG_LENGTH)) return { ok: false, message: `has a tag that is too long (maximum is ${MAX_TAG_LENGTH} characters)` };
  return { ok: true, value: names };
}

function tagsOf(tags: TagTable, ownerId: SQLiteColumn): SQL {
  return sql`(SELECT json_group_array(name) FROM (SELECT ${q(tags.name)} AS name FROM ${tags.table} WHERE ${q(tags.owner)} = ${q(ownerId)} ORDER BY ${q(tags.name)}))`;
}

/** The `tag_list` attribute; the parsed names are written by `tagWrites` in the same batch as the owner. */
export function tagListAttribute(tags: TagTable, ownerId: SQLiteColumn): AttributeDef {
  return {
    select: () => tagsOf(tags, ownerId),
    read: (_row, _ctx, _extras, selected) => (typeof selected === "string" ? JSON.parse(selected) : []),
    write: { parse: (value) => parseTagList(value) },
  };
}

/** Replaces an owner's tags when the request sent a tag list (`names` undefined: tags untouched). */
export function tagWrites(db: Database, tags: TagTable, ownerId: string, names: unknown): BatchStatement[] {
  if (!Array.isArray(names)) return [];
  const statements = [db.delete(tags.table).where(sql`${tags.owner} = ${ownerId}`) as unknown as BatchStatement];
  if (names.length > 0) {
    // Tag tables are (owner, name) in that order. An insert-select keeps any number of names to two parameters.
    statements.push(db.insert(tags.table).select(sql`SELECT ${ownerId}, value FROM json_each(${JSON.stringify(names)})`) as unknown as BatchStatement);
  }
  return statements;
}

function tagNames(value: Parameters<FilterDef>[0]): string[] {
  return [...new Set(listValue(value).map((name) => name.toLowerCase()))];
}

/** `tags`, `any_tags` (a modifier of `tags`, recognised so it is echoed) and `exclude_tags`. */
export function tagFilters(tags: TagTable, ownerId: SQLiteColumn): Record<string, FilterDef> {
  // Correlated probes on the (owner, name) key: common tags ("prayer") would make an uncorrelated IN subquery read
  // every list's tag rows; measured at 100,000 contacts, 47,454 rows read instead of 252,479.
  const withTags = (names: string[]) => sql`SELECT 1 FROM ${tags.table} WHERE ${q(tags.owner)} = ${q(ownerId)} AND ${inList(q(tags.name), names)}`;
  return {
    tags: (value, _ctx, all) => {
      const names = tagNames(value);
      if (names.length === 0) return undefined;
      if (booleanValue(all.any_tags) === true) return sql`EXISTS (${withTags(names)})`;
      return sql`(SELECT count(*) FROM (${withTags(names)})) = ${names.length}`;
    },
    any_tags: () => undefined,
    exclude_tags: (value) => {
      const names = tagNames(value);
      return names.length === 0 ? undefined : sql`NOT EXISTS (${withTags(names)})`;
    },
  };
}
