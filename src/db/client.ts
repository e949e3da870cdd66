import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";

/** The query builder over the D1 binding; `$client` is the binding itself (for hand-written statements). */
export type Database = DrizzleD1Database & { $client: D1Database };

/**
 * One query builder per D1 binding per isolate. Building it is not free (with a schema, drizzle derives its
 * relational configuration each time), and this service writes its queries with the table objects directly,
 * so no schema is registered at all.
 */
const clients = new WeakMap<D1Database, Database>();

export function database(binding: D1Database): Database {
  let db = clients.get(binding);
  if (!db) {
    db = drizzle(binding);
    clients.set(binding, db);
  }
  return db;
}
