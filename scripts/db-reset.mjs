#!/usr/bin/env node
/** npm run db:reset: deletes the local D1 database, then applies the migrations and loads the demo data. */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runningDevServer } from "./dev-lock.mjs";

const server = runningDevServer();
if (server) {
  console.error(
    `npm run dev is running (process ${server.pid}, ${server.address}) and holds the local database open.\n` +
      "Stop it (Ctrl-C), run npm run db:reset, then start npm run dev again.",
  );
  process.exit(1);
}

const root = fileURLToPath(new URL("..", import.meta.url));
rmSync(new URL("../.wrangler/state/v3/d1", import.meta.url), { recursive: true, force: true });

for (const script of ["db:migrate", "db:seed"]) {
  // npm runs each script with the project's Node (the npm package `node`), as it ran this one.
  const result = spawnSync("npm", ["run", "--silent", script], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
