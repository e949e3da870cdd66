/**
 * Background work on the lists' own rows (notification runs, imports, reminders, e-mails due, statistics) runs on
 * each list's database: the job is given the bindings with `DB` naming that database, and reads and writes there
 * exactly as it would on a deployment of one database (a list database keeps copies of the directory rows such
 * work reads: src/db/mirrors.ts).
 */
import { sql } from "drizzle-orm";
import { database } from "./client";
import { databaseBinding, DIRECTORY, listDatabaseNames } from "./databases";
import { databasesOfLists } from "./mirrors";

/** The bindings as a job on database `name` sees them. */
export function onDatabase<T extends { DB: D1Database }>(env: T, name: string): T {
  return name === DIRECTORY ? env : { ...env, DB: databaseBinding(env, name) };
}

/** The bindings as a job on this list sees them: `DB` is the database the list is placed on. */
export async function onListDatabase<T extends { DB: D1Database }>(env: T, listId: string): Promise<T> {
  return onDatabase(env, (await databasesOfLists(database(env.DB), [listId])).get(listId) ?? DIRECTORY);
}

/** The bindings as a job on the database holding this row of `table` sees them (the directory's when none does). */
export async function onDatabaseHolding<T extends { DB: D1Database }>(env: T, table: string, id: string): Promise<T> {
  for (const name of listDatabaseNames(env)) {
    const [found] = await database(databaseBinding(env, name)).all(sql`SELECT 1 FROM ${sql.identifier(table)} WHERE id = ${id}`);
    if (found) return onDatabase(env, name);
  }
  return env;
}

/** Runs the job on every database that may hold lists, one after another; answers the sum of what each answered. */
export async function onEveryListDatabase<T extends { DB: D1Database }>(env: T, job: (env: T) => Promise<unknown>): Promise<number> {
  let total = 0;
  for (const name of listDatabaseNames(env)) {
    const answered = await job(onDatabase(env, name));
    if (typeof answered === "number") total += answered;
  }
  return total;
}
