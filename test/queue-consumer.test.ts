import { beforeAll, describe, expect, it, vi } from "vitest";
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import worker from "../src/index";
import type { BackgroundBatchMessage } from "../src/env";
import { formatTimestamp } from "../src/jsonapi/time";
import { claimRequest, storeResponse } from "../src/queue/claims";
import { retryDelaySeconds } from "../src/retries";
import { get, recordedDocument } from "./helpers/api";
import { addToList, createAccountList, createUser, createViewer, db, timestamps, uuid } from "./helpers/factories";

const QUEUE = "background-batch-requests";
const DEAD_LETTER_QUEUE = "background-batch-requests-dlq";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
const typeIds = [uuid(), uuid(), uuid(), uuid()];
let batchId: string;

type NewRequest = Partial<typeof schema.backgroundBatchRequests.$inferInsert>;

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  await db.insert(schema.notificationTypes).values(typeIds.map((id, n) => ({ id, key: `type_${n}`, description: `Type ${n}`, ...timestamps() })));
  batchId = uuid();
  await db.insert(schema.backgroundBatches).values({ id: batchId, userId: alice.user.id, ...timestamps() });
});

let position = 0;
async function storedRequest(values: NewRequest & { path: string }, owner: { batchId: string } = { batchId }) {
  const id = values.id ?? uuid();
  await db.insert(schema.backgroundBatchRequests).values({ position: position++, ...values, id, backgroundBatchId: owner.batchId, ...timestamps() });
  return id;
}

async function row(id: string) {
  const [found] = await db.select().from(schema.backgroundBatchRequests).where(eq(schema.backgroundBatchRequests.id, id));
  return found;
}

let messageCounter = 0;
/**
 * Delivers the messages to the worker's queue handler and answers what it acknowledged and retried, with the
 * retry delays (getQueueResult reports which messages were retried, not their delays).
 */
async function deliver(bodies: unknown[], { queue = QUEUE, attempts = 1, bindings = env } = {}) {
  const messages = bodies.map((body) => ({ id: `message-${++messageCounter}`, timestamp: new Date(), attempts, body: body as BackgroundBatchMessage }));
  const batch = createMessageBatch<BackgroundBatchMessage>(queue, messages);
  const delays = new Map<string, number | undefined>();
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    vi.spyOn(message, "retry").mockImplementation((options) => {
      delays.set(message.id, options?.delaySeconds);
      retry(options);
    });
  }
  const ctx = createExecutionContext();
  await worker.queue(batch, bindings, ctx);
  const result = await getQueueResult(batch, ctx);
  const retryMessages = result.retryMessages.map(({ msgId }) => ({ msgId, delaySeconds: delays.get(msgId) }));
  return { ids: messages.map((m) => m.id), result: { ...result, retryMessages } };
}

const preferenceCreate = (typeId: string) =>
  JSON.stringify({ data: { type: "notification_preferences", attributes: { app: true }, relationships: { notification_type: { data: { type: "notification_types", id: typeId } } } } });

async function preferencesOfType(typeId: string) {
  return db.select().from(schema.notificationPreferences).where(eq(schema.notificationPreferences.notificationTypeId, typeId));
}

describe("background batch queue consumer", () => {
  it("runs a request as the batch's owner, stores its answer and acknowledges the message", async () => {
    const id = await storedRequest({ path: "api/v2/constants" });
    const { ids, result } = await deliver([{ requestId: id }]);
    expect(result.explicitAcks).toEqual(ids);
    expect(result.retryMessages).toEqual([]);
    const stored = await row(id);
    expect(stored).toMatchObject({ state: "done", attempts: 1, responseStatus: 200, lastError: null });
    expect(stored.responseHeaders).toMatchObject({ "Content-Type": "application/vnd.api+json; charset=utf-8", "X-Content-Type-Options": "nosniff" });
    expect(JSON.parse(stored.responseBody!).data.type).toBe("constant_list");
    expect(stored.claimedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it("records the request's own error answer as its result, not as a failure", async () => {
    const id = await storedRequest({ path: `/api/v2/account_lists/${bob.list.id}/notification_preferences` });
    const { ids, result } = await deliver([{ requestId: id }]);
    expect(result.explicitAcks).toEqual(ids);
    expect(await row(id)).toMatchObject({ state: "done", responseStatus: 403, attempts: 1 });
  });

  it("runs a request once however often its message is delivered, one after another or at the same time", async () => {
    const id = await storedRequest({ path: "/api/v2/account_lists/%{default_account_list_id}/notification_preferences", requestMethod: "POST", requestBody: preferenceCreate(typeIds[0]) });
    const first = await deliver([{ requestId: id }]);
    const again = await deliver([{ requestId: id }]);
    expect(first.result.explicitAcks).toEqual(first.ids);
    expect(again.result.explicitAcks).toEqual(again.ids);
    expect(await preferencesOfType(typeIds[0])).toHaveLength(1);
    expect(await row(id)).toMatchObject({ state: "done", responseStatus: 201, attempts: 1 });

    const racing = await storedRequest({ path: `/api/v2/account_lists/${alice.list.id}/notification_preferences`, requestMethod: "POST", requestBody: preferenceCreate(typeIds[1]) });
    const [one, other] = await Promise.all([deliver([{ requestId: racing }]), deliver([{ requestId: racing }])]);
    const acked = [one, other].filter((d) => d.result.explicitAcks.length === 1);
    const retried = [one, other].filter((d) => d.result.retryMessages.length === 1);
    expect([acked.length, retried.length]).toEqual([1, 1]);
    // The loser looks again once the winner's claim could have expired.
    const delay = retried[0].result.retryMessages[0].delaySeconds!;
    expect(delay).toBeGreaterThan(290);
    expect(delay).toBeLessThanOrEqual(300);
    expect(await preferencesOfType(typeIds[1])).toHaveLength(1);
    expect(await row(racing)).toMatchObject({ state: "done", responseStatus: 201, attempts: 1 });
  });

  it("retries a request claimed by a live delivery later, and takes over one whose claim was abandoned", async () => {
    const claimedAt = formatTimestamp(new Date(Date.now() - 60_000));
    const busy = await storedRequest({ path: "/api/v2/constants", state: "running", claimedAt, attempts: 1 });
    const { ids, result } = await deliver([{ requestId: busy }]);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toHaveLength(1);
    expect(result.retryMessages[0].msgId).toBe(ids[0]);
    expect(result.retryMessages[0].delaySeconds).toBeGreaterThanOrEqual(239);
    expect(result.retryMessages[0].delaySeconds).toBeLessThanOrEqual(241);
    expect(await row(busy)).toMatchObject({ state: "running", claimedAt, attempts: 1, responseStatus: null });

    const abandoned = await storedRequest({ path: "/api/v2/constants", state: "running", claimedAt: formatTimestamp(new Date(Date.now() - 600_000)), attempts: 1 });
    const takeover = await deliver([{ requestId: abandoned }]);
    expect(takeover.result.explicitAcks).toEqual(takeover.ids);
    expect(await row(abandoned)).toMatchObject({ state: "done", attempts: 2, responseStatus: 200 });
  });

  it("acknowledges messages whose request is finished, deleted or not named", async () => {
    const done = await storedRequest({ path: "/api/v2/constants", state: "done", responseStatus: 204, attempts: 1 });
    const failed = await storedRequest({ path: "/api/v2/constants", state: "failed", responseStatus: 500, attempts: 5 });
    const { ids, result } = await deliver([{ requestId: done }, { requestId: failed }, { requestId: uuid() }, {}, "garbage"]);
    expect(result.explicitAcks.sort()).toEqual([...ids].sort());
    expect(result.retryMessages).toEqual([]);
    expect(await row(done)).toMatchObject({ state: "done", responseStatus: 204, attempts: 1 });
    expect(await row(failed)).toMatchObject({ state: "failed", responseStatus: 500, attempts: 5 });
  });

  it("gives the claim back and retries with exponential backoff when the machinery fails", async () => {
    const id = await storedRequest({ path: "/api/v2/constants" });
    const brokenBindings = { ...env, JWT_SECRET: "" };
    const { ids, result } = await deliver([{ requestId: id }], { attempts: 3, bindings: brokenBindings });
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toEqual([{ msgId: ids[0], delaySeconds: 60 }]);
    expect(await row(id)).toMatchObject({ state: "pending", claimedAt: null, attempts: 1, lastError: "Error: The service is not configured: JWT_SECRET is not set", responseStatus: null });
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelaySeconds)).toEqual([15, 30, 60, 120, 240, 480, 600]);

    // The retried message then runs it normally.
    const retried = await deliver([{ requestId: id }], { attempts: 4 });
    expect(retried.result.explicitAcks).toEqual(retried.ids);
    expect(await row(id)).toMatchObject({ state: "done", attempts: 2, responseStatus: 200, lastError: null });
  });

  it("runs a request again later when the owner's request budget is spent, since it did not run", async () => {
    const id = await storedRequest({ path: "/api/v2/constants" });
    const exhausted = { ...env, API_RATE_LIMIT: { limit: async () => ({ success: false }) } };
    const { ids, result } = await deliver([{ requestId: id }], { bindings: exhausted });
    expect(result.retryMessages).toEqual([{ msgId: ids[0], delaySeconds: 60 }]);
    expect(await row(id)).toMatchObject({ state: "pending", claimedAt: null, attempts: 1, responseStatus: null, lastError: "rate limited" });
  });

  it("acknowledges and retries each message of a delivery on its own", async () => {
    const good = await storedRequest({ path: "/api/v2/constants" });
    const claimedAt = formatTimestamp(new Date());
    const busy = await storedRequest({ path: "/api/v2/constants", state: "running", claimedAt, attempts: 1 });
    const { ids, result } = await deliver([{ requestId: good }, { requestId: busy }]);
    expect(result.ackAll).toBe(false);
    expect(result.explicitAcks).toEqual([ids[0]]);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual([ids[1]]);
  });

  it("fills in the owner's default account list, its filter, the params of a GET and the sent headers", async () => {
    // No default list set: the owner's first list is used.
    const carol = await createUser();
    const first = await createAccountList(carol);
    await createAccountList(carol);
    const carolBatch = uuid();
    await db.insert(schema.backgroundBatches).values({ id: carolBatch, userId: carol.id, ...timestamps() });
    const list = await storedRequest(
      { path: "api/v2/account_lists/%{default_account_list_id}/notification_preferences?sort=created_at", requestParams: { per_page: 1, fields: { notification_preferences: "app" } }, defaultAccountList: true },
      { batchId: carolBatch },
    );
    const header = await storedRequest({ path: "/api/v2/constants", requestHeaders: { accept: "application/vnd.api+json; version=2" } }, { batchId: carolBatch });
    await deliver([{ requestId: list }, { requestId: header }]);
    const listed = await row(list);
    expect(listed.responseStatus).toBe(200);
    expect(JSON.parse(listed.responseBody!).meta).toEqual({
      pagination: { page: 1, per_page: 1, total_count: 0, total_pages: 0 },
      sort: "created_at",
      filter: { account_list_id: first.id },
    });
    // The sent Accept replaced the default one (and the app refuses that media type parameter).
    expect((await row(header)).responseStatus).toBe(406);
  });

  it("mints the owner's credential when the request runs, so it acts with the owner's access at that moment", async () => {
    const id = await storedRequest({ path: `/api/v2/account_lists/${bob.list.id}/notification_preferences` });
    await addToList(bob.list.id, alice.user.id, "coach");
    await deliver([{ requestId: id }]);
    expect((await row(id)).responseStatus).toBe(200);
  });

  it("runs as the owner even when the stored headers carry another credential", async () => {
    const [stale, others] = await Promise.all([
      storedRequest({ path: "/api/v2/user", requestHeaders: { Authorization: "Bearer nonsense" } }),
      storedRequest({ path: "/api/v2/user", requestHeaders: { authorization: `Bearer ${bob.token}` } }),
    ]);
    await deliver([{ requestId: stale }, { requestId: others }]);
    for (const id of [stale, others]) {
      const stored = await row(id);
      expect(stored.responseStatus).toBe(200);
      expect(JSON.parse(stored.responseBody!).data.id).toBe(alice.user.id);
    }
  });

  it("refuses bulk endpoints, the batch endpoint and creating a background batch from a background batch", async () => {
    const ids = await Promise.all([
      storedRequest({ path: "/api/v2/contacts/bulk", requestMethod: "PUT", requestBody: "{}" }),
      storedRequest({ path: "/api/v2/batch", requestMethod: "POST", requestBody: JSON.stringify({ requests: [] }) }),
      storedRequest({ path: "/api/v2/background_batches", requestMethod: "POST", requestBody: "{}" }),
    ]);
    await deliver(ids.map((requestId) => ({ requestId })));
    for (const id of ids) {
      const stored = await row(id);
      expect(stored).toMatchObject({ state: "done", responseStatus: 403 });
      expect(JSON.parse(stored.responseBody!).errors[0].detail).toBe("You cannot access this endpoint from within a batch request");
    }
    expect((await db.select().from(schema.backgroundBatches).where(eq(schema.backgroundBatches.userId, alice.user.id))).length).toBe(1);
  });

  it("records nothing for a request whose batch was deleted while it ran", async () => {
    const id = await storedRequest({ path: "/api/v2/constants" });
    const outcome = await claimRequest(db, id);
    if (outcome.kind !== "claimed") throw new Error(`expected a claim, got ${outcome.kind}`);
    await db.delete(schema.backgroundBatchRequests).where(eq(schema.backgroundBatchRequests.id, id));
    await storeResponse(db, outcome.claim, { status: 200, headers: {}, body: "{}" });
    expect(await row(id)).toBeUndefined();
  });
});

describe("dead-letter queue consumer", () => {
  it("records a request that kept failing as failed, so the batch's pending count still reaches 0", async () => {
    const deadBatch = uuid();
    await db.insert(schema.backgroundBatches).values({ id: deadBatch, userId: alice.user.id, ...timestamps() });
    const pending = await storedRequest({ path: "/api/v2/constants", attempts: 6, lastError: "Error: D1_ERROR" }, { batchId: deadBatch });
    const abandoned = await storedRequest({ path: "/api/v2/constants", state: "running", claimedAt: "2020-01-01T00:00:00Z", attempts: 2 }, { batchId: deadBatch });
    const done = await storedRequest({ path: "/api/v2/constants", state: "done", responseStatus: 200, responseBody: "{}", attempts: 1 }, { batchId: deadBatch });
    expect((await get(`/api/v2/background_batches/${deadBatch}`, alice.token)).body.data.attributes).toMatchObject({ pending: 2, total: 3 });

    const { ids, result } = await deliver([{ requestId: pending }, { requestId: abandoned }, { requestId: done }, { requestId: uuid() }], { queue: DEAD_LETTER_QUEUE });
    expect(result.explicitAcks.sort()).toEqual([...ids].sort());
    for (const id of [pending, abandoned]) {
      const stored = await row(id);
      expect(stored).toMatchObject({ state: "failed", responseStatus: 500, responseHeaders: { "Content-Type": "application/vnd.api+json; charset=utf-8" } });
      expect(recordedDocument({ body: stored.responseBody!, headers: stored.responseHeaders! })).toEqual({
        errors: [{ status: "500", title: "Internal Server Error", detail: "This request could not be run: the background batch service failed repeatedly and gave up on it" }],
      });
    }
    // Each recorded answer has a request id of its own, as every answer of the app does.
    const requestIds = await Promise.all([pending, abandoned].map(async (id) => ((await row(id)).responseHeaders as Record<string, string>)["X-Request-Id"]));
    expect(requestIds.every((value) => typeof value === "string" && value.length > 0)).toBe(true);
    expect(new Set(requestIds).size).toBe(2);
    expect((await row(pending)).lastError).toBe("Error: D1_ERROR");
    expect(await row(done)).toMatchObject({ state: "done", responseStatus: 200, responseBody: "{}" });

    const shown = await get(`/api/v2/background_batches/${deadBatch}?include=requests`, alice.token);
    expect(shown.body.data.attributes).toMatchObject({ pending: 0, total: 3 });
    const failedRequest = shown.body.included.find((r: { id: string }) => r.id === pending);
    expect(failedRequest.attributes.response_status).toBe(500);
    expect(failedRequest.attributes.response_body.errors[0].status).toBe("500");
  });

  it("leaves a request that is running under a live claim to finish, looking again when the claim expires", async () => {
    const running = await storedRequest({ path: "/api/v2/constants", state: "running", claimedAt: formatTimestamp(new Date()), attempts: 1 });
    const { ids, result } = await deliver([{ requestId: running }], { queue: DEAD_LETTER_QUEUE });
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages[0].msgId).toBe(ids[0]);
    expect(result.retryMessages[0].delaySeconds).toBeGreaterThanOrEqual(299);
    expect(await row(running)).toMatchObject({ state: "running", responseStatus: null });
  });
});
