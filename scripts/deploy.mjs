#!/usr/bin/env node
/**
 * npm run deploy [-- --env staging|production]: applies the remote D1 migrations to every database of the
 * environment (the directory and each list database), then deploys the Worker. Migrations go first so the new code
 * never runs against an older schema; a failed migration stops the deploy.
 */
import { d1Bindings, environmentOf } from "./databases.mjs";
import { runWrangler } from "./run-wrangler.mjs";

const args = process.argv.slice(2);
for (const binding of d1Bindings(environmentOf(args))) {
  const migrated = await runWrangler(["d1", "migrations", "apply", binding, "--remote", ...args]);
  if (migrated !== 0) {
    console.error(`Migrations failed on ${binding}: nothing was deployed.`);
    process.exit(migrated);
  }
}
process.exitCode = await runWrangler(["deploy", ...args]);
