#!/usr/bin/env node
/**
 * npm run db:migrate [-- --remote] [-- --env <name>]: applies the migrations to every D1 database of the
 * environment: the directory and each list database (local unless --remote).
 */
import { d1Bindings, environmentOf } from "./databases.mjs";
import { runWrangler } from "./run-wrangler.mjs";

const args = process.argv.slice(2);
const where = args.includes("--remote") ? [] : ["--local"];
for (const binding of d1Bindings(environmentOf(args))) {
  const code = await runWrangler(["d1", "migrations", "apply", binding, ...where, ...args]);
  if (code !== 0) {
    console.error(`Migrations failed on ${binding}.`);
    process.exit(code);
  }
}
