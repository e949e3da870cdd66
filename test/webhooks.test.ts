import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as schema from "../drizzle/schema";
import { WEBHOOK_EVENT_TYPES } from "../src/constants/webhooks";
import { DEFAULT_ENDPOINTS_PER_LIST } from "../src/webhooks/limits";
import { decryptSecret } from "../src/webhooks/secrets";
import { del, errorOf, get, post, put } from "./helpers/api";
import { runInBackground } from "./helpers/background";
import { addToList, createUser, createViewer, db, uuid } from "./helpers/factories";
import { storage } from "./helpers/storage";

type Viewer = Awaited<ReturnType<typeof createViewer>>;
let alice: Viewer;
let coach: Awaited<ReturnType<typeof createUser>>;
let stranger: Viewer;

const webhooksOf = (listId: string) => `/api/v2/account_lists/${listId}/webhooks`;
const body = (attributes: Record<string, unknown>) => ({ data: { type: "webhooks", attributes } });
const RECEIVER = "https://hooks.example.org/receive";
/** The bindings of a deployment: no loopback receivers (the suite's own allow them). */
const deployed = { ...env, WEBHOOKS_ALLOW_LOOPBACK: "false" };

beforeAll(async () => {
  alice = await createViewer();
  stranger = await createViewer();
  coach = await createUser();
  await addToList(alice.list.id, coach.id, "coach");
});

async function createWebhook(attributes: Record<string, unknown> = {}) {
  const response = await post(webhooksOf(alice.list.id), body({ url: RECEIVER, event_types: ["contact.created"], ...attributes }), alice.token);
  expect(response.status, response.text).toBe(201);
  return response.body.data as { id: string; attributes: Record<string, unknown> };
}

describe("webhook endpoints", () => {
  it("creates one, answering its secret once and storing it encrypted", async () => {
    const logged = vi.spyOn(console, "log");
    const errors = vi.spyOn(console, "error");
    const response = await post(webhooksOf(alice.list.id), body({ url: RECEIVER, description: "CRM sync", event_types: ["contact.created", "task.completed"] }), alice.token);
    expect(response.status, response.text).toBe(201);
    const { id, attributes } = response.body.data;
    expect(response.headers.get("location")).toBe(`https://api.example.org${webhooksOf(alice.list.id)}/${id}`);
    expect(attributes).toMatchObject({ url: RECEIVER, description: "CRM sync", event_types: ["contact.created", "task.completed"], enabled: true, disabled_reason: null });
    const secret = attributes.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(atob(secret.slice(6)).length).toBeGreaterThanOrEqual(24);

    const [stored] = await db.select().from(schema.webhooks).where(eq(schema.webhooks.id, id));
    expect(stored.secret).not.toContain(secret.slice(6));
    expect(stored.secret).toMatch(/^v1\./);
    expect(await decryptSecret(env, stored.secret)).toBe(secret);

    // Never again: not on show, list or with a fieldset naming it; never in a log line.
    const shown = await get(`${webhooksOf(alice.list.id)}/${id}`, alice.token);
    expect(shown.status).toBe(200);
    expect(shown.body.data.attributes.secret).toBeUndefined();
    expect(shown.text).not.toContain(secret);
    const listed = await get(webhooksOf(alice.list.id), alice.token);
    expect(listed.text).not.toContain(secret);
    const asked = await get(`${webhooksOf(alice.list.id)}/${id}?fields[webhooks]=secret,url`, alice.token);
    expect(asked.body.data.attributes.secret ?? null).toBeNull();
    const output = [...logged.mock.calls, ...errors.mock.calls].flat().map(String).join("\n");
    expect(output).not.toContain(secret.slice(6));
    logged.mockRestore();
    errors.mockRestore();
  });

  it("refuses unknown event types and an empty list, pointing at them", async () => {
    const unknown = errorOf(await post(webhooksOf(alice.list.id), body({ url: RECEIVER, event_types: ["contact.created", "contact.exploded"] }), alice.token), 400);
    expect(unknown.source.pointer).toBe("/data/attributes/event_types");
    expect(unknown.detail).toContain("contact.exploded");
    const empty = errorOf(await post(webhooksOf(alice.list.id), body({ url: RECEIVER, event_types: [] }), alice.token), 400);
    expect(empty.source.pointer).toBe("/data/attributes/event_types");
    const missing = errorOf(await post(webhooksOf(alice.list.id), body({ url: RECEIVER }), alice.token), 400);
    expect(missing.source.pointer).toBe("/data/attributes/event_types");
    const all = await createWebhook({ event_types: ["*"] });
    expect(all.attributes.event_types).toEqual(["*"]);
  });

  it.each([
    ["ftp://hooks.example.org/x"],
    ["http://hooks.example.org/x"],
    ["https://user:pass@hooks.example.org/x"],
    ["https://10.1.2.3/x"],
    ["https://172.20.0.1/x"],
    ["https://192.168.0.10/x"],
    ["https://169.254.169.254/latest"],
    ["https://100.64.0.1/x"],
    ["https://0xa.0.0.1/x"],
    ["https://10.1/x"],
    ["https://167772161/x"],
    ["https://[fc00::1]/x"],
    ["https://[fe80::1]/x"],
    ["https://[::ffff:10.0.0.1]/x"],
    ["http://hooks.example.org:80@127.0.0.1/"],
    [`https://hooks.example.org/${"a".repeat(2000)}`],
    ["not a url"],
  ])("refuses %s", async (url) => {
    const error = errorOf(await post(webhooksOf(alice.list.id), body({ url, event_types: ["*"] }), alice.token), 400);
    expect(error.source.pointer).toBe("/data/attributes/url");
  });

  it.each([
    ["https://localhost./x"],
    ["https://metadata.google.internal./computeMetadata/v1/"],
    ["https://hooks.example.org./x"],
    ["https://intranet/x"],
    ["https://[::7f00:1]/x"],
    ["https://[::ffff:0:7f00:1]/x"],
    ["https://[64:ff9b::7f00:1]/x"],
    ["https://[2002:7f00:1::]/x"],
    ["https://[fec0::1]/x"],
    ["https://[ff02::1]/x"],
    ["https://[::]/x"],
    ["https://198.18.0.1/x"],
    ["https://198.19.255.254/x"],
    ["https://224.0.0.1/x"],
    ["https://239.255.255.250/x"],
    ["https://240.0.0.1/x"],
    ["https://255.255.255.255/x"],
    ["https://192.0.0.8/x"],
    ["https://0.1.2.3/x"],
    ["https://0xa9.0xfe.0xa9.0xfe/latest"],
    ["https://012.0.0.1/x"],
    ["https://3232235521/x"],
  ])("refuses %s at create and at update, storing nothing", async (url) => {
    const viewer = await createViewer();
    const list = webhooksOf(viewer.list.id);
    const created = errorOf(await post(list, body({ url, event_types: ["*"] }), viewer.token), 400);
    expect(created.source.pointer).toBe("/data/attributes/url");
    expect(await db.select().from(schema.webhooks).where(eq(schema.webhooks.accountListId, viewer.list.id))).toEqual([]);

    const kept = await post(list, body({ url: RECEIVER, event_types: ["*"] }), viewer.token);
    expect(kept.status, kept.text).toBe(201);
    const updated = errorOf(await put(`${list}/${kept.body.data.id}`, body({ url, overwrite: true }), viewer.token), 400);
    expect(updated.source.pointer).toBe("/data/attributes/url");
    const stored = await db.select().from(schema.webhooks).where(eq(schema.webhooks.accountListId, viewer.list.id));
    expect(stored.map((row) => [row.url, row.updatedAt])).toEqual([[RECEIVER, kept.body.data.attributes.updated_at]]);
  });

  it("takes public addresses written as literals", async () => {
    const viewer = await createViewer();
    for (const url of ["https://8.8.8.8/hook", "https://[2606:4700:4700::1111]/hook", "https://hooks.example.org:443/hook"]) {
      const created = await post(webhooksOf(viewer.list.id), body({ url, event_types: ["*"] }), viewer.token, { bindings: deployed });
      expect(created.status, created.text).toBe(201);
    }
  });

  it.each([
    ["https://[::ffff:127.0.0.1]/x"],
    ["https://2130706433/x"],
    ["https://0.0.0.0/x"],
    ["https://ｌｏｃａｌｈｏｓｔ/x"],
    ["https://localhost。/x"],
    ["https://[fe80::1%25eth0]/x"],
    ["https://1.2.3.4:22/"],
    ["https://hooks.example.org:8443/hook"],
  ])("refuses %s where loopback receivers are not allowed", async (url) => {
    const viewer = await createViewer();
    const error = errorOf(await post(webhooksOf(viewer.list.id), body({ url, event_types: ["*"] }), viewer.token, { bindings: deployed }), 400);
    expect(error.source.pointer).toBe("/data/attributes/url");
    expect(await db.select().from(schema.webhooks).where(eq(schema.webhooks.accountListId, viewer.list.id))).toEqual([]);
  });

  it("takes another port only where loopback receivers are allowed (the local run)", async () => {
    const error = errorOf(await post(webhooksOf(alice.list.id), body({ url: "https://hooks.example.org:8443/hook", event_types: ["*"] }), alice.token, { bindings: deployed }), 400);
    expect(error.detail).toContain("must use the default port (443)");
    expect((await post(webhooksOf(alice.list.id), body({ url: "https://hooks.example.org:8443/hook", event_types: ["*"] }), alice.token)).status).toBe(201);
  });

  it("allows loopback receivers only where WEBHOOKS_ALLOW_LOOPBACK is true", async () => {
    for (const url of ["http://127.0.0.1:9999/hook", "http://localhost:8080/", "http://[::1]:9000/x"]) {
      const created = await post(webhooksOf(alice.list.id), body({ url, event_types: ["*"] }), alice.token);
      expect(created.status, created.text).toBe(201);
    }
    for (const url of ["http://127.0.0.1:9999/hook", "https://localhost/x", "https://127.0.0.1/x", "https://queue.internal/x", "https://[::1]/x"]) {
      const error = errorOf(await post(webhooksOf(alice.list.id), body({ url, event_types: ["*"] }), alice.token, { bindings: deployed }), 400);
      expect(error.source.pointer).toBe("/data/attributes/url");
    }
  });

  it("is managed by the list's users only: a coach gets 403, anyone else 404", async () => {
    const webhook = await createWebhook();
    const path = `${webhooksOf(alice.list.id)}/${webhook.id}`;
    errorOf(await get(webhooksOf(alice.list.id), coach.token), 403);
    errorOf(await get(path, coach.token), 403);
    errorOf(await post(webhooksOf(alice.list.id), body({ url: RECEIVER, event_types: ["*"] }), coach.token), 403);
    errorOf(await get(`${path}/deliveries`, coach.token), 403);
    errorOf(await get(webhooksOf(alice.list.id), stranger.token), 404);
    errorOf(await get(path, stranger.token), 404);
    errorOf(await del(path, stranger.token), 404);
    errorOf(await post(`${path}/test`, {}, stranger.token), 404);
    errorOf(await get(webhooksOf(uuid()), alice.token), 404);
    // Another list's endpoint under this list's path is not there.
    errorOf(await get(`${webhooksOf(stranger.list.id)}/${webhook.id}`, stranger.token), 404);
  });

  it("updates with updated_in_db_at (409 when stale, overwrite forces) and deletes", async () => {
    const webhook = await createWebhook();
    const path = `${webhooksOf(alice.list.id)}/${webhook.id}`;
    const stale = await put(path, body({ description: "late", updated_in_db_at: "2020-01-01T00:00:00Z" }), alice.token);
    expect(stale.status).toBe(409);
    const forced = await put(path, body({ description: "forced", enabled: false, overwrite: true }), alice.token);
    expect(forced.status, forced.text).toBe(200);
    expect(forced.body.data.attributes).toMatchObject({ description: "forced", enabled: false });
    expect(forced.body.data.attributes.secret).toBeUndefined();
    const changed = await put(path, body({ event_types: ["donation.created"], updated_in_db_at: forced.body.data.attributes.updated_in_db_at }), alice.token);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.attributes.event_types).toEqual(["donation.created"]);
    expect((await del(path, alice.token)).status).toBe(204);
    errorOf(await get(path, alice.token), 404);
  });

  it("rotates the secret on rotate_secret: the new one answered once, the old one kept for a day", async () => {
    const webhook = await createWebhook();
    const path = `${webhooksOf(alice.list.id)}/${webhook.id}`;
    const rotated = await put(path, body({ rotate_secret: true, overwrite: true }), alice.token);
    expect(rotated.status, rotated.text).toBe(200);
    const secret = rotated.body.data.attributes.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(webhook.attributes.secret);
    const [stored] = await db.select().from(schema.webhooks).where(eq(schema.webhooks.id, webhook.id));
    expect(await decryptSecret(env, stored.secret)).toBe(secret);
    expect(await decryptSecret(env, stored.previousSecret!)).toBe(webhook.attributes.secret);
    const overlap = Date.parse(stored.previousSecretUntil!) - Date.parse(rotated.body.data.attributes.updated_at);
    expect(overlap).toBeGreaterThanOrEqual(24 * 3600 * 1000 - 1000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600 * 1000);
    const plain = await put(path, body({ description: "no rotation", overwrite: true }), alice.token);
    expect(plain.body.data.attributes.secret).toBeUndefined();
  });

  it("is not managed in background batches, whose answers are stored: the secret would be kept in one", async () => {
    const list = webhooksOf(alice.list.id);
    const id = await runInBackground(alice.token, [
      { path: list, request_method: "post", request_body: JSON.stringify(body({ url: RECEIVER, event_types: ["*"] })) },
      { path: list, request_method: "get" },
    ]);
    const batch = await get(`/api/v2/background_batches/${id}?include=requests`, alice.token);
    const answers = batch.body.included.map((request: { attributes: { response_status: number; response_body: unknown } }) => request.attributes);
    expect(answers.map((answer: { response_status: number }) => answer.response_status).sort()).toEqual([200, 403]);
    expect(JSON.stringify(answers)).not.toContain("whsec_");
  });

  it("answers 503 while WEBHOOK_SECRETS_KEY is not set, storing nothing", async () => {
    const before = (await get(webhooksOf(alice.list.id), alice.token)).body.meta.pagination.total_count;
    const unset = { ...env, WEBHOOK_SECRETS_KEY: "" };
    const refused = await post(webhooksOf(alice.list.id), body({ url: RECEIVER, event_types: ["*"] }), alice.token, { bindings: unset });
    expect(refused.status).toBe(503);
    expect(refused.body.errors[0].detail).toContain("WEBHOOK_SECRETS_KEY");
    expect((await get(webhooksOf(alice.list.id), alice.token)).body.meta.pagination.total_count).toBe(before);
  });

  it(`keeps at most ${DEFAULT_ENDPOINTS_PER_LIST} endpoints a list, creates sent at once included: the next is 409, storing nothing`, async () => {
    const viewer = await createViewer();
    const list = webhooksOf(viewer.list.id);
    const create = () => post(list, body({ url: RECEIVER, event_types: ["*"] }), viewer.token);
    const answers = await Promise.all(Array.from({ length: DEFAULT_ENDPOINTS_PER_LIST + 2 }, create));
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(DEFAULT_ENDPOINTS_PER_LIST).fill(201), 409, 409]);
    const endpoints = () => db.select().from(schema.webhooks).where(eq(schema.webhooks.accountListId, viewer.list.id));
    expect(await endpoints()).toHaveLength(DEFAULT_ENDPOINTS_PER_LIST);

    const refused = errorOf(await create(), 409);
    expect(refused.detail).toBe(`An account list may have at most ${DEFAULT_ENDPOINTS_PER_LIST} webhook endpoints: delete one before adding another`);
    expect(await endpoints()).toHaveLength(DEFAULT_ENDPOINTS_PER_LIST);
    // Another list is not held back; and one removed makes room.
    expect((await post(webhooksOf(alice.list.id), body({ url: RECEIVER, event_types: ["*"] }), alice.token)).status).toBe(201);
    const [first] = await endpoints();
    expect((await del(`${list}/${first.id}`, viewer.token)).status).toBe(204);
    expect((await create()).status).toBe(201);
    errorOf(await create(), 409);
  });

  it("answers another failure of the create's batch as what it is, not as the endpoint limit", async () => {
    const viewer = await createViewer();
    // A statement of the batch failing as a plain guard does (json() on malformed input).
    await storage.prepare("CREATE TRIGGER webhooks_guard_test AFTER INSERT ON webhooks WHEN NEW.description = 'guarded' BEGIN SELECT json('not json'); END").run();
    try {
      const response = await post(webhooksOf(viewer.list.id), body({ url: RECEIVER, description: "guarded", event_types: ["*"] }), viewer.token);
      expect(response.status).toBe(500);
      expect(response.text).not.toContain("webhook endpoints");
    } finally {
      await storage.prepare("DROP TRIGGER webhooks_guard_test").run();
    }
    expect(await db.select().from(schema.webhooks).where(eq(schema.webhooks.accountListId, viewer.list.id))).toEqual([]);
  });

  it("takes its limit from WEBHOOK_ENDPOINTS_PER_LIST", async () => {
    const viewer = await createViewer();
    const twoAtMost = { bindings: { ...env, WEBHOOK_ENDPOINTS_PER_LIST: "2" } };
    const create = () => post(webhooksOf(viewer.list.id), body({ url: RECEIVER, event_types: ["*"] }), viewer.token, twoAtMost);
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(201);
    expect(errorOf(await create(), 409).detail).toContain("at most 2 webhook endpoints");
  });

  it("answers the event catalogue in the constants", async () => {
    const response = await get("/api/v2/constants?fields[constant_list]=webhook_event_types", alice.token);
    expect(response.body.data.attributes.webhook_event_types).toEqual([...WEBHOOK_EVENT_TYPES]);
  });
});
