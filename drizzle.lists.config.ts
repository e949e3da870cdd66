import { defineConfig } from "drizzle-kit";

// Generates the list databases' SQL migrations (wrangler.toml: migrations_dir = "migrations-lists" on LIST_DB_*).
export default defineConfig({
  dialect: "sqlite",
  schema: "./drizzle/list-schema.ts",
  out: "./migrations-lists",
});
