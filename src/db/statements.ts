/**
 * Hand-written statements run on D1 directly. The read side writes its statements as SQL templates (with
 * drizzle's `sql`, so columns and parameters are escaped the usual way) and reads the rows as D1 returns them:
 * its read plans know which values to decode, which is cheaper than a query builder's general row mapping.
 */
import { getTableColumns, getTableName, sql, type SQL } from "drizzle-orm";
import { SQLiteAsyncDialect, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";

const dialect = new SQLiteAsyncDialect();

import type { Rows } from "./rows";
export type { Rows };
export { firstOf } from "./rows";

export function prepare(db: Database, query: SQL): D1PreparedStatement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return db.$client.prepare(text).bind(...params);
}

/** The rows of each statement, in one round trip (one D1 batch when there are several). */
export async function rowsOf(db: Database, queries: SQL[]): Promise<Rows[]> {
  const statements = queries.map((query) => prepare(db, query));
  if (statements.length === 1) return [await rowObjects(statements[0])];
  return (await db.$client.batch<Record<string, unknown>>(statements)).map((result) => result.results);
}

/** Hand-written writes run as one D1 batch, one atomic transaction. */
export async function runAtomically(db: Database, queries: SQL[]): Promise<void> {
  await rowsChanged(db, queries);
}

/** Runs hand-written writes as one atomic D1 batch; answers the rows each statement changed. */
export async function rowsChanged(db: Database, queries: SQL[]): Promise<number[]> {
  const results = await db.$client.batch(queries.map((query) => prepare(db, query)));
  return results.map((result) => result.meta.changes);
}

/**
 * Runs `writes` and then reads `queries` in one D1 batch, which is one transaction: the rows are exactly what the
 * writes left, whatever other requests write at the same time.
 */
export async function rowsAfter(db: Database, writes: BuiltQuery[], queries: SQL[]): Promise<Rows[]> {
  const statements = [
    ...writes.map((write) => {
      const { sql: text, params } = write._prepare().getQuery();
      return db.$client.prepare(text).bind(...params);
    }),
    ...queries.map((query) => prepare(db, query)),
  ];
  const results = await db.$client.batch<Record<string, unknown>>(statements);
  return results.slice(writes.length).map((result) => result.results);
}

/** A query builder's statement (insert, update, delete, or a raw statement), as drizzle prepares it for a batch. */
export interface BuiltQuery {
  _prepare(): { getQuery(): { sql: string; params: unknown[] } };
}

/**
 * One statement's rows as objects. D1 sends rows as arrays beside their column names; asking for them that way
 * and naming the values in a plain loop costs a fraction of D1's own conversion (`all()`), which shows on pages
 * of fifty columns.
 */
async function rowObjects(statement: D1PreparedStatement): Promise<Rows> {
  const [columns, ...values] = await statement.raw({ columnNames: true });
  const rows: Rows = new Array(values.length);
  for (let r = 0; r < values.length; r++) {
    const array = values[r];
    const row: Record<string, unknown> = {};
    for (let c = 0; c < columns.length; c++) row[columns[c]] = array[c];
    rows[r] = row;
  }
  return rows;
}

/**
 * A fragment rendered to text once, for SQL that is the same on every request: drizzle then copies a few
 * chunks instead of walking the fragment's whole tree each time. Its parameters stay bound parameters. Should
 * the text hold a `?` of its own (inside a literal), the fragment is kept as it is.
 */
export function precompiled(fragment: SQL): SQL {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  const pieces = text.split("?");
  if (pieces.length !== params.length + 1) return fragment;
  const chunks: SQL[] = [];
  pieces.forEach((piece, index) => {
    chunks.push(sql.raw(piece));
    if (index < params.length) chunks.push(sql`${params[index]}`);
  });
  return sql.join(chunks);
}

/**
 * How many subqueries a condition has that read rows of other tables: every SELECT other than the JSON list
 * parameters that `inList` reads with json_each. 0 means the condition looks at the row's own columns only.
 */
export function otherTableReads(condition: SQL): number {
  return dialect.sqlToQuery(condition).sql.match(/\bSELECT\b(?! value FROM json_each\(\?\)\))/gi)?.length ?? 0;
}

/** A fragment's SQL text as SQLite receives it, with `?` where its values go. */
export function sqlText(fragment: SQL): string {
  return dialect.sqlToQuery(fragment).sql;
}

/** How many parameters a fragment binds (D1 allows at most 100 in one statement). */
export function boundParameters(fragment: SQL): number {
  return dialect.sqlToQuery(fragment).params.length;
}

/**
 * One INSERT of any number of rows (keyed by column name): the rows go in as one JSON parameter, read with
 * json_each, because D1 binds at most 100 parameters a statement. A column a row leaves out takes the column's
 * default, so rows of different shapes go in together.
 */
export function insertRows(table: SQLiteTable, rows: Array<Record<string, unknown>>): SQL | undefined {
  if (rows.length === 0) return undefined;
  const defined = new Map(Object.values(getTableColumns(table)).map((column) => [column.name, column]));
  const names = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const fallback = (name: string) => {
    const column = defined.get(name);
    if (!column) throw new Error(`${getTableName(table)} has no column ${name}`);
    const value = column.hasDefault && typeof column.default !== "object" ? column.default : null;
    return typeof value === "boolean" ? Number(value) : value;
  };
  const values = rows.map((row) => names.map((name) => (name in row ? row[name] : fallback(name))));
  const columns = sql.join(names.map((name) => sql.identifier(name)), sql`, `);
  const extracts = sql.join(names.map((_, index) => sql.raw(`json_extract(value, '$[${index}]')`)), sql`, `);
  return sql`INSERT INTO ${table} (${columns}) SELECT ${extracts} FROM json_each(${JSON.stringify(values)})`;
}
