/**
 * npm run dev: the local service on its embedded default. Applies the migrations to the local D1, loads the
 * demo data (idempotent), creates .dev.vars with a random JWT_SECRET when missing, prints a token for Alice
 * with an example request, then serves on http://127.0.0.1:8787 (local queues drain background batches).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { mintToken } from "../src/auth/token";
import { ensureDevVars, localUserId, readDevSecret } from "./local";
// @ts-expect-error: a plain ES module without type declarations.
import { runWrangler } from "./run-wrangler.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const DEMO_USER = "alice@example.org";
const ADDRESS = { ip: "127.0.0.1", port: "8787" };

function step(script: string): void {
  const result = spawnSync("npm", ["run", "--silent", script], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (ensureDevVars()) console.log("Created .dev.vars with a random JWT_SECRET.");
step("db:migrate");
step("db:seed");

const userId = await localUserId(DEMO_USER);
if (userId) {
  const token = await mintToken(readDevSecret(), userId, 7 * 24 * 3600);
  console.log(`\nToken for ${DEMO_USER} (valid 7 days; more with: npm run token -- <email>):\n\n${token}\n`);
  console.log(`Try:\n  curl -H "Authorization: Bearer ${token}" http://${ADDRESS.ip}:${ADDRESS.port}/api/v2/account_lists\n`);
}

process.exitCode = await runWrangler(["dev", "--ip", ADDRESS.ip, "--port", ADDRESS.port]);
