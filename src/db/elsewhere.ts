/**
 * Records on the other databases of a deployment. One database answers for what it holds: an id it does not have
 * is unknown to it, though another database may keep that record in someone's list. Wherever an answer must be the
 * one a single database would give (403 for someone else's record, 400 for another list of the viewer's, 409 for
 * an id taken), the records are looked up here: every other database at once, one statement a table, by key.
 */
import { getTableName, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { database, type Database } from "./client";
import { databaseBinding, listDatabaseNames } from "./databases";
import { q } from "./sql";
import { rowsOf } from "./statements";

/**
 * Ids of one table to look up, the column that names each one's list (when the caller needs it), and a condition
 * true of the records the request's viewer may read (when the caller needs to tell theirs from another user's).
 */
export interface Sought {
  table: SQLiteTable;
  idColumn: SQLiteColumn;
  listColumn?: SQLiteColumn;
  visible?: SQL;
  ids: string[];
}

/** A record found on another database: where, in which list, and whether the viewer may read it. */
export interface Found {
  database: string;
  list: string | null;
  visible: boolean;
}

/** What the look-up needs of a request: its bindings, and its session of each database where it has one. */
export interface Databases {
  env: object;
  databaseOn?: (name: string) => Database;
}

/** The key of a record in the look-up's answer. */
export const foundKey = (table: SQLiteTable, id: string): string => `${getTableName(table)}:${id}`;

/**
 * The records sought that databases other than `asked` hold, by `foundKey`. Nothing is read in a deployment of one
 * database, or when nothing is sought.
 */
export async function lookupElsewhere(request: Databases, asked: string[], sought: Sought[]): Promise<Map<string, Found>> {
  const wanted = sought.filter((entry) => entry.ids.length > 0);
  const others = listDatabaseNames(request.env).filter((name) => !asked.includes(name));
  const found = new Map<string, Found>();
  if (wanted.length === 0 || others.length === 0) return found;
  const reads: SQL[] = wanted.map(
    ({ table, idColumn, listColumn, visible, ids }) =>
      sql`SELECT ${getTableName(table)} || ':' || ${q(idColumn)} AS key, ${listColumn ? q(listColumn) : sql`NULL`} AS list, ${visible ? sql`coalesce(${visible}, 0)` : sql`0`} AS visible
        FROM ${table} WHERE ${q(idColumn)} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
  );
  const answers = await Promise.all(
    others.map(async (name) => {
      // In the request's session of that database (its bookmark and D1 counts), where the request has one.
      const db = request.databaseOn?.(name) ?? database(databaseBinding(request.env, name));
      return { name, rows: (await rowsOf(db, reads)).flat() };
    }),
  );
  for (const { name, rows } of answers) {
    for (const row of rows) found.set(String(row.key), { database: name, list: row.list === null ? null : String(row.list), visible: Number(row.visible) === 1 });
  }
  return found;
}
