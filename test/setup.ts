import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { DIRECTORY, listDatabaseNames, databaseBinding } from "../src/db/databases";

// Storage is isolated per test file; each file starts from the migrated, empty schema, on every database: the
// directory with its migrations, each list database with the list databases'.
for (const name of listDatabaseNames(env)) await applyD1Migrations(databaseBinding(env, name), name === DIRECTORY ? env.TEST_MIGRATIONS : env.TEST_LIST_MIGRATIONS);
