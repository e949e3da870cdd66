import { NOTIFICATION_TYPE_IDS } from "../src/constants/notifications";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { del, errorOf, get, post, request } from "./helpers/api";
import { createViewer, db, timestamps, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
const typeId = NOTIFICATION_TYPE_IDS.larger_gift;
const bobBatchId = uuid();
const bobRequestId = uuid();

const BASE = "/api/v2/background_batches";
const requestEntry = (attributes: Record<string, unknown>, id?: string) => ({ type: "background_batch_requests", ...(id ? { id } : {}), attributes });
const batchBody = (entries: unknown[], id?: string) => ({
  data: { type: "background_batches", ...(id ? { id } : {}), attributes: {}, relationships: { requests: { data: entries } } },
});

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  await db.insert(schema.backgroundBatches).values({ id: bobBatchId, userId: bob.user.id, ...timestamps(1) });
  await db.insert(schema.backgroundBatchRequests).values({ id: bobRequestId, backgroundBatchId: bobBatchId, position: 0, path: "/api/v2/constants", ...timestamps(1) });
});

async function storedRequests(batchId: string) {
  return db.select().from(schema.backgroundBatchRequests).where(eq(schema.backgroundBatchRequests.backgroundBatchId, batchId));
}

async function waitUntilDone(batchId: string, token: string) {
  await vi.waitUntil(async () => (await get(`${BASE}/${batchId}`, token)).body.data.attributes.pending === 0, { timeout: 15_000, interval: 50 });
}

describe("background batches through the queue", () => {
  it("stores the batch, runs every request through the queue as its owner and keeps the answers", async () => {
    const preferenceId = uuid();
    const requestIds = [uuid(), uuid(), uuid(), uuid(), uuid()];
    const preference = { data: { type: "notification_preferences", id: preferenceId, attributes: { app: true }, relationships: { notification_type: { data: { type: "notification_types", id: typeId } } } } };
    const created = await post(
      `${BASE}?include=requests`,
      batchBody([
        requestEntry({ path: "api/v2/constants" }, requestIds[0]),
        requestEntry({ path: "/api/v2/account_lists/%{default_account_list_id}/notification_preferences", request_method: "post", request_body: JSON.stringify(preference) }, requestIds[1]),
        requestEntry({ path: "api/v2/account_lists/%{default_account_list_id}/notification_preferences", request_params: { fields: { notification_preferences: "app" } } }, requestIds[2]),
        requestEntry({ path: "/api/v2/account_lists/%{default_account_list_id}/notification_preferences", default_account_list: true, request_headers: { "X-Custom": "1" } }, requestIds[3]),
        requestEntry({ path: `/api/v2/account_lists/${bob.list.id}/notification_preferences` }, requestIds[4]),
      ]),
      alice.token,
    );
    expect(created.status, created.text).toBe(201);
    const batchId = created.body.data.id;
    expect(created.headers.get("location")).toBe(`https://api.example.org${BASE}/${batchId}`);
    expect(created.body.data.type).toBe("background_batches");
    expect(created.body.data.attributes.total).toBe(5);
    expect(created.body.data.attributes.pending).toBeGreaterThanOrEqual(0);
    expect(created.body.data.relationships.requests.data).toEqual(requestIds.map((id) => ({ type: "background_batch_requests", id })));
    expect(created.body.included.map((r: { id: string }) => r.id)).toEqual(requestIds);

    await waitUntilDone(batchId, alice.token);
    const shown = await get(`${BASE}/${batchId}?include=requests`, alice.token);
    expect(shown.body.data.attributes).toMatchObject({ pending: 0, total: 5 });
    const byId = new Map(shown.body.included.map((r: { id: string }) => [r.id, r]));
    const attributesOf = (index: number) => (byId.get(requestIds[index]) as { attributes: Record<string, any> }).attributes;

    expect(attributesOf(0)).toMatchObject({
      path: "api/v2/constants",
      request_method: "GET",
      request_params: null,
      request_body: null,
      request_headers: { accept: "application/vnd.api+json", "content-type": "application/vnd.api+json" },
      default_account_list: false,
      response_status: 200,
    });
    expect(attributesOf(0).response_headers).toMatchObject({ "Content-Type": "application/vnd.api+json; charset=utf-8", "X-Frame-Options": "SAMEORIGIN" });
    expect(attributesOf(0).response_body.data.type).toBe("constant_list");

    expect(attributesOf(1)).toMatchObject({ request_method: "POST", request_body: JSON.stringify(preference), response_status: 201 });
    // The answer names the service where the batch was created.
    expect(attributesOf(1).response_headers.Location).toBe(`https://api.example.org/api/v2/account_lists/${alice.list.id}/notification_preferences/${preferenceId}`);
    expect(attributesOf(1).response_body.data).toMatchObject({ id: preferenceId, attributes: { app: true } });
    const stored = await db.select().from(schema.notificationPreferences).where(eq(schema.notificationPreferences.id, preferenceId));
    expect(stored).toHaveLength(1);
    expect(stored[0].accountListId).toBe(alice.list.id);

    expect(attributesOf(2).request_params).toEqual({ fields: { notification_preferences: "app" } });
    expect(attributesOf(2).response_status).toBe(200);

    expect(attributesOf(3).request_headers).toEqual({ accept: "application/vnd.api+json", "content-type": "application/vnd.api+json", "x-custom": "1" });
    expect(attributesOf(3).response_body.meta.filter).toEqual({ account_list_id: alice.list.id });

    // Run as Alice: Bob's list is not hers. The request's own error is its result, not a failure.
    expect(attributesOf(4).response_status).toBe(403);
    expect(attributesOf(4).response_body.errors[0].status).toBe("403");

    const rows = await storedRequests(batchId);
    expect(rows.map((r) => [r.state, r.attempts])).toEqual(rows.map(() => ["done", 1]));
  });

  it("answers pending as the requests still to be processed and total as all of them", async () => {
    const batchId = uuid();
    await db.insert(schema.backgroundBatches).values({ id: batchId, userId: alice.user.id, ...timestamps(2) });
    await db.insert(schema.backgroundBatchRequests).values(
      ["pending", "running", "done", "failed", "pending"].map((state, position) => ({ id: uuid(), backgroundBatchId: batchId, position, path: "/api/v2/constants", state, ...timestamps(2) })),
    );
    const shown = await get(`${BASE}/${batchId}`, alice.token);
    expect(shown.body.data.attributes).toMatchObject({ pending: 3, total: 5 });
    expect(Object.keys(shown.body.data.attributes).sort()).toEqual(["created_at", "pending", "total", "updated_at", "updated_in_db_at"]);
  });

  it("lists only the viewer's own batches", async () => {
    const list = await get(BASE, alice.token);
    expect(list.status).toBe(200);
    const ids = list.body.data.map((b: { id: string }) => b.id);
    expect(ids).not.toContain(bobBatchId);
    expect(ids.length).toBe(list.body.meta.pagination.total_count);
    expect(ids.length).toBeGreaterThanOrEqual(2);

    const bobs = await get(BASE, bob.token);
    expect(bobs.body.data.map((b: { id: string }) => b.id)).toEqual([bobBatchId]);
    const overridden = await request("POST", BASE, { token: bob.token, body: { per_page: 1 }, headers: { "X-HTTP-Method-Override": "GET" } });
    expect(overridden.status).toBe(200);
    expect(overridden.body.meta.pagination).toMatchObject({ per_page: 1, total_count: 1 });
    errorOf(await get(BASE), 401);
  });

  it("refuses another user's batch with 403 and leaves it as it was; unknown ids are 404", async () => {
    const before = await storedRequests(bobBatchId);
    const forbidden = errorOf(await get(`${BASE}/${bobBatchId}`, alice.token), 403);
    expect(forbidden.detail).toBe(`Not allowed to perform that action on the resource with ID ${bobBatchId} of type background_batches`);
    errorOf(await del(`${BASE}/${bobBatchId}`, alice.token), 403);
    expect(await storedRequests(bobBatchId)).toEqual(before);
    expect(await db.select().from(schema.backgroundBatches).where(eq(schema.backgroundBatches.id, bobBatchId))).toHaveLength(1);
    const missing = uuid();
    expect(errorOf(await get(`${BASE}/${missing}`, alice.token), 404).detail).toBe(`Couldn't find BackgroundBatch with 'id'=${missing}`);
    expect(errorOf(await get(`${BASE}/not-a-uuid`, alice.token), 404).detail).toBe("Route not found");
    errorOf(await request("PUT", `${BASE}/${bobBatchId}`, { token: bob.token, body: batchBody([]) }), 405);
  });

  it("deletes a batch with its requests", async () => {
    const created = await post(BASE, batchBody([requestEntry({ path: "/api/v2/constants" }), requestEntry({ path: "/api/v2/announcements" })]), alice.token);
    const batchId = created.body.data.id;
    expect((await storedRequests(batchId)).length).toBe(2);
    const deleted = await del(`${BASE}/${batchId}`, alice.token);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect(await storedRequests(batchId)).toEqual([]);
    errorOf(await get(`${BASE}/${batchId}`, alice.token), 404);
  });

  it("uses client ids and refuses ids already taken with 409", async () => {
    const batchId = uuid();
    const requestId = uuid();
    const created = await post(BASE, batchBody([requestEntry({ path: "/api/v2/constants" }, requestId)], batchId), alice.token);
    expect(created.status).toBe(201);
    expect(created.body.data.id).toBe(batchId);
    expect((await storedRequests(batchId)).map((r) => r.id)).toEqual([requestId]);
    expect(errorOf(await post(BASE, batchBody([requestEntry({ path: "/api/v2/constants" })], batchId), alice.token), 409).source).toEqual({ pointer: "/data/id" });
    const taken = errorOf(await post(BASE, batchBody([requestEntry({ path: "/x" }), requestEntry({ path: "/api/v2/constants" }, bobRequestId)]), alice.token), 409);
    expect(taken.source).toEqual({ pointer: "/data/relationships/requests/data/1/id" });
    const twice = uuid();
    const duplicated = errorOf(await post(BASE, batchBody([requestEntry({ path: "/a" }, twice), requestEntry({ path: "/b" }, twice)]), alice.token), 409);
    expect(duplicated.source).toEqual({ pointer: "/data/relationships/requests/data/1/id" });
  });

  it("refuses bad documents with pointers and stores nothing", async () => {
    const countBefore = (await db.select().from(schema.backgroundBatches)).length;
    const requestsBefore = (await db.select().from(schema.backgroundBatchRequests)).length;

    const none = errorOf(await post(BASE, { data: { type: "background_batches", attributes: {} } }, alice.token), 400);
    expect(none).toEqual({ status: "400", title: "can't be blank", detail: "Requests can't be blank", source: { pointer: "/data/relationships/requests" } });
    expect(errorOf(await post(BASE, batchBody([]), alice.token), 400).detail).toBe("Requests can't be blank");

    const invalid = await post(
      BASE,
      batchBody([
        requestEntry({ path: "/api/v2/constants" }),
        requestEntry({ path: "/api/v2/constants", request_method: "PATCH" }),
        requestEntry({ path: "/api/v2/constants", request_params: "page=2", request_headers: { "bad header": "x" } }),
        requestEntry({ request_method: "GET" }),
        requestEntry({ path: " ", default_account_list: "maybe" }),
        requestEntry({ path: "/api/v2/constants", request_params: ["x", "y"] }),
        requestEntry({ path: "/api/v2/constants", request_method: "POST", request_params: [] }),
      ]),
      alice.token,
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e: { source: { pointer: string }; detail: string }) => [e.source.pointer, e.detail])).toEqual([
      ["/data/relationships/requests/data/1/attributes/request_method", "Request method is not included in the list"],
      ["/data/relationships/requests/data/2/attributes/request_params", "Request params must be an object"],
      ["/data/relationships/requests/data/2/attributes/request_headers", "Request headers has an invalid header: bad header"],
      ["/data/relationships/requests/data/3/attributes/path", "Path can't be blank"],
      ["/data/relationships/requests/data/4/attributes/path", "Path can't be blank"],
      ["/data/relationships/requests/data/4/attributes/default_account_list", "Default account list must be true or false"],
      ["/data/relationships/requests/data/5/attributes/request_params", "Request params must be an object"],
      ["/data/relationships/requests/data/6/attributes/request_params", "Request params must be an object"],
    ]);

    const arrayParams = errorOf(await post(BASE, batchBody([requestEntry({ path: "/api/v2/constants", request_params: ["x", "y"] })]), alice.token), 400);
    expect(arrayParams).toEqual({
      status: "400",
      title: "must be an object",
      detail: "Request params must be an object",
      source: { pointer: "/data/relationships/requests/data/0/attributes/request_params" },
    });

    const wrongEntryType = errorOf(await post(BASE, batchBody([{ type: "tasks", attributes: { path: "/x" } }]), alice.token), 409);
    expect(wrongEntryType.source).toEqual({ pointer: "/data/relationships/requests/data/0/type" });
    expect(wrongEntryType.detail).toBe("'tasks' is not a valid resource type for this endpoint. Expected 'background_batch_requests' instead");
    expect(errorOf(await post(BASE, batchBody([requestEntry({ path: "/x" }, "7")]), alice.token), 400).source).toEqual({ pointer: "/data/relationships/requests/data/0/id" });
    expect(errorOf(await post(BASE, batchBody(["GET /x"]), alice.token), 400).source).toEqual({ pointer: "/data/relationships/requests/data/0" });
    expect(errorOf(await post(BASE, { data: { type: "background_batches", relationships: { requests: [] } } }, alice.token), 400).source).toEqual({ pointer: "/data/relationships/requests" });
    expect(errorOf(await post(BASE, { data: { type: "tasks", relationships: {} } }, alice.token), 409).source).toEqual({ pointer: "/data/type" });
    errorOf(await post(BASE, "{oops", alice.token), 400);
    const tooMany = Array.from({ length: 1001 }, () => requestEntry({ path: "/api/v2/constants" }));
    expect(errorOf(await post(BASE, batchBody(tooMany), alice.token), 400).detail).toBe("Requests is too long (maximum is 1000 requests)");
    errorOf(await post(BASE, batchBody([requestEntry({ path: "/api/v2/constants" })]), null), 401);

    expect(await db.select().from(schema.backgroundBatches)).toHaveLength(countBefore);
    expect(await db.select().from(schema.backgroundBatchRequests)).toHaveLength(requestsBefore);
  });

  it("runs more than one queue send's worth of requests (over 100) and counts them all down", async () => {
    const entries = Array.from({ length: 101 }, (_, i) => requestEntry({ path: `/api/v2/announcements?n=${i}` }));
    const created = await post(BASE, batchBody(entries), alice.token);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.attributes.total).toBe(101);
    await waitUntilDone(created.body.data.id, alice.token);
    const rows = await storedRequests(created.body.data.id);
    expect(rows.filter((r) => r.state === "done" && r.responseStatus === 200)).toHaveLength(101);
  });
});
