#!/usr/bin/env node
/**
 * npm run deploy [-- --env staging|production]: applies the remote D1 migrations, then deploys the Worker.
 * Migrations go first so the new code never runs against an older schema; a failed migration stops the deploy.
 */
import { runWrangler } from "./run-wrangler.mjs";

const args = process.argv.slice(2);
const migrated = await runWrangler(["d1", "migrations", "apply", "DB", "--remote", ...args]);
if (migrated !== 0) {
  console.error("Migrations failed: nothing was deployed.");
  process.exit(migrated);
}
process.exitCode = await runWrangler(["deploy", ...args]);
