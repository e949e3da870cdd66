/**
 * Where a new account list goes: the list database with the most room. Room is measured from the size D1 reports
 * after a statement (`meta.size_after`), asked of each list database at once. The directory takes new lists only in
 * a deployment that binds no other list database; an operator closes a database to new lists by listing it in
 * the CLOSED_LIST_DATABASES variable (comma-separated), and may still name it explicitly.
 */
import { sql } from "drizzle-orm";
import { listPlacements } from "../../drizzle/schema";
import { databaseBinding, DIRECTORY, listDatabaseNames } from "../db/databases";
import type { Database } from "../env";

/** D1's largest database (10 GB): the room of a database is what it has left of it. */
export const DATABASE_LIMIT_BYTES = 10 * 1000 ** 3;

export function closedDatabases(env: object): Set<string> {
  const setting = (env as { CLOSED_LIST_DATABASES?: string }).CLOSED_LIST_DATABASES ?? "";
  return new Set(setting.split(",").map((name) => name.trim()).filter(Boolean));
}

/** Each list database's size in bytes, as D1 reports it, with the lists placed on it. */
export async function databaseSizes(env: object, directory: Database): Promise<Array<{ database: string; bytes: number | null; lists: number }>> {
  const names = listDatabaseNames(env);
  const counts = await directory.all<{ database: string; lists: number }>(
    sql`SELECT ${listPlacements.database} AS "database", count(*) AS "lists" FROM ${listPlacements} GROUP BY 1`,
  );
  const listsOn = new Map(counts.map((row) => [row.database, Number(row.lists)]));
  return Promise.all(
    names.map(async (database) => {
      const result = await databaseBinding(env, database).prepare("SELECT 1").run();
      const bytes = typeof result.meta.size_after === "number" ? result.meta.size_after : null;
      return { database, bytes, lists: listsOn.get(database) ?? 0 };
    }),
  );
}

export async function databaseForNewList(env: object, directory: Database): Promise<string> {
  const closed = closedDatabases(env);
  const candidates = (await databaseSizes(env, directory)).filter(({ database }) => database !== DIRECTORY && !closed.has(database));
  if (candidates.length === 0) return DIRECTORY;
  // Most room first; between databases of the same size (new ones), the one with the fewest lists, then by name.
  candidates.sort((a, b) => (a.bytes ?? 0) - (b.bytes ?? 0) || a.lists - b.lists || a.database.localeCompare(b.database));
  return candidates[0].database;
}
