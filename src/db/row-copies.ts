/**
 * Rows of a list's tables (src/db/list-tables.ts) copied from one database to another as JSON: a list moving
 * (src/admin/moves.ts), or one record with everything it owns moving to a list on another database
 * (src/engine/record-moves.ts).
 */
import { sql, type SQL } from "drizzle-orm";
import { LIST_TABLES, type ListTable } from "./list-tables";
import { jsonList } from "./sql";
import { rowsOf, type Rows } from "./statements";
import type { Database } from "./client";

/** A statement's rows go in as one JSON value, which D1 takes up to 2 MB: written in slices of at most this. */
export const SLICE_BYTES = 1_500_000;

export const columnList = (entry: ListTable) => entry.columns.map((column) => `"${column}"`).join(", ");


/** Rows of a JSON array of rows, keyed by column, for `INSERT … SELECT`. */
export function fromJson(entry: ListTable, rows: Rows): SQL {
  const extracts = entry.columns.map((column) => `json_extract(value, '$."${column}"') AS "${column}"`).join(", ");
  return sql`SELECT ${sql.raw(extracts)} FROM json_each(${JSON.stringify(rows)})`;
}

/** Only rows whose parents the database already holds: a row's parent written after copying began waits for its record. */
export function parentsPresent(entry: ListTable, alias: string): string {
  const checks = entry.parents.map((parent) => `(${alias}."${parent.column}" IS NULL OR EXISTS (SELECT 1 FROM ${parent.table} WHERE ${parent.references} = ${alias}."${parent.column}"))`);
  return checks.length ? checks.join(" AND ") : "1";
}

/** The shared rows (donor accounts) the rows point at, copied to the target first. */
export async function copyShared(source: Database, target: Database, entry: ListTable, rows: Rows): Promise<void> {
  for (const parent of entry.parents.filter((candidate) => !LIST_TABLES.some((table) => table.name === candidate.table))) {
    const ids = [...new Set(rows.map((row) => row[parent.column]).filter((id) => id !== null && id !== undefined))];
    if (ids.length === 0) continue;
    const [shared] = await rowsOf(source, [sql`SELECT * FROM ${sql.identifier(parent.table)} WHERE ${sql.identifier(parent.references)} IN ${jsonList(ids)}`]);
    if (shared.length === 0) continue;
    const columns = Object.keys(shared[0]);
    const extracts = columns.map((column) => `json_extract(value, '$."${column}"')`).join(", ");
    await target.run(
      sql`INSERT INTO ${sql.identifier(parent.table)} (${sql.raw(columns.map((column) => `"${column}"`).join(", "))}) SELECT ${sql.raw(extracts)} FROM json_each(${JSON.stringify(shared)}) WHERE true ON CONFLICT DO NOTHING`,
    );
  }
}

/** Rows in slices whose JSON stays under what D1 takes as one value. */
export function slices(rows: Rows): Rows[] {
  const out: Rows[] = [];
  let slice: Rows = [];
  let bytes = 0;
  for (const row of rows) {
    const size = JSON.stringify(row).length;
    if (slice.length > 0 && bytes + size > SLICE_BYTES) {
      out.push(slice);
      slice = [];
      bytes = 0;
    }
    slice.push(row);
    bytes += size;
  }
  if (slice.length > 0) out.push(slice);
  return out;
}

