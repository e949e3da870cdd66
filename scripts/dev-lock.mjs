/**
 * Marks a running `npm run dev`, so `npm run db:reset` can refuse to delete the database under it (the server
 * would keep its open handle to the deleted file and answer 500 until restarted).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const LOCK = fileURLToPath(new URL("../.wrangler/dev-server.json", import.meta.url));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/**
 * The running dev server ({ pid, address, issuer }), or undefined; a lock left by a server that died is ignored.
 * `issuer` is its local OpenID provider's, when it started one.
 */
export function runningDevServer() {
  if (!existsSync(LOCK)) return undefined;
  try {
    const server = JSON.parse(readFileSync(LOCK, "utf8"));
    return Number.isInteger(server.pid) && alive(server.pid) ? server : undefined;
  } catch {
    return undefined;
  }
}

/** Records this process as the dev server, serving at `address` and trusting `issuer`, until it exits. */
export function holdDevLock(address, issuer) {
  mkdirSync(fileURLToPath(new URL("../.wrangler/", import.meta.url)), { recursive: true });
  writeFileSync(LOCK, JSON.stringify({ pid: process.pid, address, ...(issuer ? { issuer } : {}) }));
  const release = () => rmSync(LOCK, { force: true });
  process.on("exit", release);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => process.exit(130));
}
