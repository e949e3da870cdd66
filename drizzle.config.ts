import { defineConfig } from "drizzle-kit";

// Generates the SQL migrations that wrangler applies (wrangler.toml: migrations_dir = "migrations").
export default defineConfig({
  dialect: "sqlite",
  schema: "./drizzle/schema.ts",
  out: "./migrations",
});
