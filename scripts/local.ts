/** Shared by the local scripts: the .dev.vars secret and look-ups in the local D1 database. */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
// @ts-expect-error: a plain ES module without type declarations.
import { runWranglerCapture } from "./run-wrangler.mjs";

export const DEV_VARS = fileURLToPath(new URL("../.dev.vars", import.meta.url));

/** Creates .dev.vars with a random JWT_SECRET when it is missing; returns true when it wrote one. */
export function ensureDevVars(): boolean {
  if (existsSync(DEV_VARS) && /^JWT_SECRET=.+/m.test(readFileSync(DEV_VARS, "utf8"))) return false;
  const existing = existsSync(DEV_VARS) ? readFileSync(DEV_VARS, "utf8") : "";
  writeFileSync(DEV_VARS, `${existing}${existing && !existing.endsWith("\n") ? "\n" : ""}JWT_SECRET=${randomBytes(32).toString("hex")}\n`);
  return true;
}

export function readDevSecret(): string {
  if (!existsSync(DEV_VARS)) throw new Error(".dev.vars is missing: run npm run dev once, or create it with JWT_SECRET=<secret>");
  const match = /^JWT_SECRET=(.+)$/m.exec(readFileSync(DEV_VARS, "utf8"));
  if (!match) throw new Error(".dev.vars has no JWT_SECRET");
  return match[1].trim().replace(/^"(.*)"$/, "$1");
}

export async function localUserId(email: string): Promise<string | undefined> {
  const escaped = email.replace(/'/g, "''");
  const output: string = await runWranglerCapture(["d1", "execute", "DB", "--local", "--json", "--command", `SELECT id FROM users WHERE lower(email) = lower('${escaped}')`]);
  const parsed = JSON.parse(output) as Array<{ results: Array<{ id: string }> }>;
  return parsed[0]?.results[0]?.id;
}
