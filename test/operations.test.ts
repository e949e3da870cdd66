/**
 * Running the service: one structured log line per request, the request id in every error, the health check,
 * the settings check (503 with what is missing, logged once) and accepting the previous secret during a key
 * rotation. Requests go through the worker's own fetch and queue handlers, with bindings changed per test.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../src/index";
import type { BackgroundBatchMessage, Bindings } from "../src/env";
import { mintToken } from "../src/auth/token";
import { createViewer, uuid } from "./helpers/factories";
import { createContact } from "./helpers/money-records";

/** The secret the tests sign with (vitest.config.ts) plays the part of the previous one. */
const TEST_JWT_SECRET = (env as Bindings).JWT_SECRET;
const NEW_SECRET = "the-next-secret-after-a-rotation-0123456789";

/** Sends a request to the worker with these bindings; returns the answer and what it logged. */
async function send(path: string, { bindings = env as Bindings, token }: { bindings?: Bindings; token?: string } = {}) {
  const info = vi.spyOn(console, "log").mockImplementation(() => {});
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const headers: Record<string, string> = { Accept: "application/vnd.api+json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await worker.fetch(new Request(`https://api.example.org${path}`, { headers }), bindings, createExecutionContext());
  const body = await response.json<{ errors?: Array<Record<string, unknown>>; meta?: unknown }>();
  const logged = { lines: info.mock.calls.map((call) => JSON.parse(String(call[0]))), errors: errors.mock.calls.map((call) => call[0]) };
  info.mockRestore();
  errors.mockRestore();
  return { response, body, logged };
}

afterEach(() => vi.restoreAllMocks());

describe("the request log", () => {
  it("logs one JSON line per request: id, method, route pattern, status, duration, D1 cost and user", async () => {
    const viewer = await createViewer();
    const contact = await createContact(viewer.list.id);
    const { response, logged } = await send(`/api/v2/contacts/${contact.id}?access_token=${viewer.token}`);
    expect(response.status).toBe(200);
    expect(logged.lines).toHaveLength(1);
    const [line] = logged.lines;
    expect(line).toMatchObject({
      level: "info",
      message: "request",
      request_id: response.headers.get("x-request-id"),
      method: "GET",
      route: "/api/v2/contacts/:id",
      status: 200,
      user_id: viewer.user.id,
      d1_rows_read_complete: true,
    });
    expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    expect(line.d1_round_trips).toBeGreaterThanOrEqual(2);
    expect(line.d1_rows_read).toBeGreaterThanOrEqual(2);
    // The query string may hold the access token: it is never logged.
    expect(JSON.stringify(line)).not.toContain(viewer.token);
  });

  it("carries a list read's plan: its conditions' SQL with placeholders, never the values filtered by", async () => {
    const viewer = await createViewer();
    await createContact(viewer.list.id);
    const church = "Saint Privately Named Church";
    const path = `/api/v2/contacts?filter[church]=${encodeURIComponent(church)}&sort=-name&include=people.email_addresses&fields[contacts]=name,people&per_page=7&page=2&access_token=${viewer.token}`;
    const { response, logged } = await send(path);
    expect(response.status).toBe(200);
    const [line] = logged.lines;
    expect(line.plan).toMatchObject({
      type: "contacts",
      lists: 1,
      order: [expect.stringMatching(/"name" DESC$/), expect.stringMatching(/"id" ASC$/)],
      window: { page: 2, perPage: 7, offset: 7 },
      fields: ["name", "people"],
      includes: ["people", "people.email_addresses"],
      total: "counted",
    });
    expect(line.plan.conditions).toContain("?");
    expect(JSON.stringify(line)).not.toContain(church);
    // The default page's total comes from the counts kept per list.
    const plain = await send(`/api/v2/contacts?access_token=${viewer.token}`);
    expect(plain.logged.lines[0].plan).toMatchObject({ type: "contacts", window: { page: 1, perPage: 25, offset: 0 }, includes: [], total: "kept counts" });
  });

  it("logs refused and unrouted requests too, without a user, and puts the request id in the error", async () => {
    const viewer = await createViewer();
    const refused = await send("/api/v2/contacts");
    expect(refused.response.status).toBe(401);
    expect(refused.logged.lines).toEqual([expect.objectContaining({ level: "warn", route: "/api/v2/contacts", status: 401, user_id: null })]);
    expect(refused.body.errors![0].meta).toEqual({ request_id: refused.response.headers.get("x-request-id") });

    const unrouted = await send("/api/v2/nothing-here", { token: viewer.token });
    expect(unrouted.response.status).toBe(404);
    expect(unrouted.logged.lines).toEqual([expect.objectContaining({ route: null, status: 404, user_id: viewer.user.id })]);
    expect(unrouted.body.errors![0].meta).toEqual({ request_id: unrouted.response.headers.get("x-request-id") });
  });
});

describe("GET /api/v2/health", () => {
  it("answers 200 without a token when D1 answers, naming nothing secret", async () => {
    const { response, body } = await send("/api/v2/health");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("max-age=0, private, must-revalidate");
    expect(body).toEqual({ meta: { status: "ok", database: "ok" } });
  });

  it("answers 503 when D1 does not, with the failure in the log and not in the answer", async () => {
    // A binding that opens sessions (every request runs in one) whose statements all fail.
    const down: Record<string, unknown> = { prepare: () => { throw new Error("D1 is down: internal detail"); }, getBookmark: () => null };
    down.withSession = () => down;
    const { response, body, logged } = await send("/api/v2/health", { bindings: { ...env, DB: down as unknown as D1Database } });
    expect(response.status).toBe(503);
    expect(body.errors).toEqual([{ status: "503", title: "Service Unavailable", detail: "The database is not reachable", meta: { request_id: response.headers.get("x-request-id") } }]);
    expect(JSON.stringify(body)).not.toContain("internal detail");
    expect(logged.errors).toEqual([expect.objectContaining({ message: "D1 is down: internal detail" })]);
  });

  it("answers 503 when a list database does not answer, the directory still up", async () => {
    const down: Record<string, unknown> = { prepare: () => { throw new Error("list database down: internal detail"); }, batch: () => Promise.reject(new Error("down")), getBookmark: () => null };
    down.withSession = () => down;
    const { response, body, logged } = await send("/api/v2/health", { bindings: { ...env, LIST_DB_2: down as unknown as D1Database } });
    expect(response.status).toBe(503);
    expect(body.errors?.[0].detail).toBe("The database is not reachable");
    expect(JSON.stringify(body)).not.toContain("LIST_DB_2");
    expect(logged.errors).toEqual([expect.objectContaining({ message: "list database down: internal detail" })]);
  });
});

describe("settings", () => {
  it("answers 503 saying what is missing, and logs it once, when JWT_SECRET is missing or short", async () => {
    const viewer = await createViewer();
    for (const [secret, problem] of [
      [undefined, "JWT_SECRET is not set"],
      ["too-short", "JWT_SECRET must be at least 32 characters long"],
    ] as const) {
      const bindings = { ...env, JWT_SECRET: secret } as Bindings;
      const first = await send("/api/v2/contacts", { bindings, token: viewer.token });
      const second = await send("/api/v2/user", { bindings });
      for (const answer of [first, second]) {
        expect(answer.response.status).toBe(503);
        expect(answer.body.errors).toEqual([
          { status: "503", title: "Service Unavailable", detail: `The service is not configured: ${problem}`, meta: { request_id: answer.response.headers.get("x-request-id") } },
        ]);
      }
      const settingsLines = [...first.logged.errors, ...second.logged.errors].map((line) => JSON.parse(String(line)));
      expect(settingsLines).toEqual([{ level: "error", message: "The service is not configured", problems: [problem] }]);
      // The health check still answers: it needs no secret.
      expect((await send("/api/v2/health", { bindings })).response.status).toBe(200);
    }
  });
});

describe("key rotation", () => {
  it("accepts tokens signed with JWT_SECRET_PREVIOUS as well as JWT_SECRET, and no others", async () => {
    const viewer = await createViewer();
    const rotated = { ...env, JWT_SECRET: NEW_SECRET, JWT_SECRET_PREVIOUS: TEST_JWT_SECRET } as Bindings;
    const signedWith = (secret: string) => mintToken(secret, viewer.user.id);
    expect((await send("/api/v2/user", { bindings: rotated, token: await signedWith(TEST_JWT_SECRET) })).response.status).toBe(200);
    expect((await send("/api/v2/user", { bindings: rotated, token: await signedWith(NEW_SECRET) })).response.status).toBe(200);
    const stranger = await send("/api/v2/user", { bindings: rotated, token: await signedWith("a-secret-this-deployment-never-had-000000") });
    expect(stranger.response.status).toBe(401);
    expect(stranger.body.errors![0].detail).toBe("The access token is invalid");
    // Once the previous secret is removed, its tokens stop working.
    const after = { ...env, JWT_SECRET: NEW_SECRET } as Bindings;
    expect((await send("/api/v2/user", { bindings: after, token: await signedWith(TEST_JWT_SECRET) })).response.status).toBe(401);
  });
});

describe("queue consumer log", () => {
  it("logs each message's outcome", async () => {
    const info = vi.spyOn(console, "log").mockImplementation(() => {});
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const unknown = uuid();
    const batch = createMessageBatch<BackgroundBatchMessage>("background-batch-requests", [
      { id: "settled-message", timestamp: new Date(), attempts: 2, body: { requestId: unknown } },
      { id: "empty-message", timestamp: new Date(), attempts: 1, body: {} as BackgroundBatchMessage },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env as Bindings, ctx);
    await getQueueResult(batch, ctx);
    const lines = [...info.mock.calls, ...errors.mock.calls].map((call) => JSON.parse(String(call[0])));
    expect(lines).toContainEqual({ level: "info", message: "queue message", queue: "background-batch-requests", message_id: "settled-message", request_id: unknown, attempts: 2, outcome: "already settled" });
    expect(lines).toContainEqual({ level: "error", message: "queue message", queue: "background-batch-requests", message_id: "empty-message", request_id: null, attempts: 1, outcome: "no request id" });
  });
});
