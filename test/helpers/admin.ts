/** Calls to the operator's /admin surface, as `npm run admin` makes them. */
import { env, exports } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import worker from "../../src/index";

/** The secret the test configuration binds (vitest.config.ts). */
export const TEST_ADMIN_SECRET = env.ADMIN_SECRET!;

export interface AdminAnswer {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** An /admin call; `bindings`: the Worker's bindings with a test's settings instead of the configured ones. */
export async function admin(method: string, path: string, body?: unknown, secret: string | null = TEST_ADMIN_SECRET, bindings?: object): Promise<AdminAnswer> {
  const headers: Record<string, string> = {};
  if (secret !== null) headers.Authorization = `Bearer ${secret}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const sent = new Request(`https://api.example.org/admin${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const response = bindings ? await worker.fetch!(sent, bindings as typeof env, createExecutionContext()) : await exports.default.fetch(sent);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // NDJSON or empty: the text is the answer.
  }
  return { status: response.status, text, body: parsed };
}

