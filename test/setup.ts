import type { D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { DIRECTORY, listDatabaseNames, databaseBinding } from "../src/db/databases";

/**
 * Each migration in order, with the row wrangler records for it, in one batch: the same statements in the same order
 * as applying them one migration at a time (each migration is a batch, run as one transaction, either way), in one
 * round trip instead of one a migration.
 */
async function migrate(db: D1Database, migrations: D1Migration[]): Promise<void> {
  const recorded = db.prepare("INSERT INTO d1_migrations (name) VALUES (?)");
  await db.batch([
    db.prepare("CREATE TABLE d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)"),
    ...migrations.flatMap((migration) => [...migration.queries.map((query) => db.prepare(query)), recorded.bind(migration.name)]),
  ]);
}

// Storage is isolated per test file; each file starts from the migrated, empty schema, on every database: the
// directory with its migrations, each list database with the list databases'. The databases are apart: migrated at once.
await Promise.all(listDatabaseNames(env).map((name) => migrate(databaseBinding(env, name), name === DIRECTORY ? env.TEST_MIGRATIONS : env.TEST_LIST_MIGRATIONS)));
