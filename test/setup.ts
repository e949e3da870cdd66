import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { listDatabaseNames, databaseBinding } from "../src/db/databases";

// Storage is isolated per test file; each file starts from the migrated, empty schema, on every database.
for (const name of listDatabaseNames(env)) await applyD1Migrations(databaseBinding(env, name), env.TEST_MIGRATIONS);
