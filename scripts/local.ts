/** Shared by the local scripts: the .dev.vars secret and look-ups in the local D1 database. */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
// @ts-expect-error: a plain ES module without type declarations.
import { runWranglerCapture } from "./run-wrangler.mjs";

export const DEV_VARS = fileURLToPath(new URL("../.dev.vars", import.meta.url));

/** The secrets a local run needs: the token secret and the operator's (npm run admin). */
const DEV_SECRETS = ["JWT_SECRET", "ADMIN_SECRET", "WEBHOOK_SECRETS_KEY"];

/** Adds a random value to .dev.vars for each secret it lacks; returns true when it wrote one. */
export function ensureDevVars(): boolean {
  const existing = existsSync(DEV_VARS) ? readFileSync(DEV_VARS, "utf8") : "";
  const missing = DEV_SECRETS.filter((name) => !new RegExp(`^${name}=.+`, "m").test(existing));
  if (missing.length === 0) return false;
  const lines = missing.map((name) => `${name}=${randomBytes(32).toString("hex")}\n`).join("");
  writeFileSync(DEV_VARS, `${existing}${existing && !existing.endsWith("\n") ? "\n" : ""}${lines}`);
  return true;
}

/** A value of .dev.vars, or undefined. */
export function readDevVar(name: string): string | undefined {
  if (!existsSync(DEV_VARS)) return undefined;
  const match = new RegExp(`^${name}=(.+)$`, "m").exec(readFileSync(DEV_VARS, "utf8"));
  return match?.[1].trim().replace(/^"(.*)"$/, "$1");
}

export function readDevSecret(): string {
  if (!existsSync(DEV_VARS)) throw new Error(".dev.vars is missing: run npm run dev once, or create it with JWT_SECRET=<secret>");
  const match = /^JWT_SECRET=(.+)$/m.exec(readFileSync(DEV_VARS, "utf8"));
  if (!match) throw new Error(".dev.vars has no JWT_SECRET");
  return match[1].trim().replace(/^"(.*)"$/, "$1");
}

/** The local user with this e-mail address, with the sign-out generation a token minted for them must carry. */
export async function localUser(email: string): Promise<{ id: string; tokenGeneration: number } | undefined> {
  const escaped = email.replace(/'/g, "''");
  const query = `SELECT id, token_generation AS tokenGeneration FROM users WHERE lower(email) = lower('${escaped}')`;
  const output: string = await runWranglerCapture(["d1", "execute", "DB", "--local", "--json", "--command", query]);
  const parsed = JSON.parse(output) as Array<{ results: Array<{ id: string; tokenGeneration: number }> }>;
  return parsed[0]?.results[0];
}

export async function localUserId(email: string): Promise<string | undefined> {
  return (await localUser(email))?.id;
}
