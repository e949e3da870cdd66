/**
 * A client id that already exists answers 409 with the original database's wording and primary key name: offline
 * sync clients (the Android app) recognise "already exists" only by `duplicate key value violates unique
 * constraint` and the key, and otherwise send the record again forever.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { errorOf, get, post, request } from "./helpers/api";
import { createViewer, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;

beforeAll(async () => {
  alice = await createViewer();
});

const inList = () => ({ account_list: { data: { type: "account_lists", id: alice.list.id } } });

describe("a client id that already exists", () => {
  it.each([
    ["/api/v2/tasks", "tasks", { subject: "Sync me", activity_type: "Call" }, "activities_pkey"],
    ["/api/v2/contacts", "contacts", { name: "Sync, Me" }, "contacts_pkey"],
    ["/api/v2/appeals", "appeals", { name: "Sync appeal" }, "appeals_pkey"],
  ])("%s answers 409 naming %s's original primary key, and stores nothing more", async (path, type, attributes, key) => {
    const id = uuid();
    const body = { data: { type, id, attributes, relationships: inList() } };
    expect((await post(path, body, alice.token)).status).toBe(201);
    const again = errorOf(await post(path, body, alice.token), 409);
    expect(again.detail).toBe(`duplicate key value violates unique constraint "${key}": Key (id)=(${id}) already exists.`);
    expect(again.source).toEqual({ pointer: "/data/id" });
    const listed = await get(`${path}?filter[ids]=${id}&per_page=100`, alice.token);
    expect(listed.body.data.filter((r: { id: string }) => r.id === id)).toHaveLength(1);
  });

  it("answers the same wording for a background batch and for a bulk item", async () => {
    const id = uuid();
    const batch = { data: { type: "background_batches", id, attributes: {}, relationships: { requests: { data: [{ type: "background_batch_requests", attributes: { path: "api/v2/user" } }] } } } };
    expect((await post("/api/v2/background_batches", batch, alice.token)).status).toBe(201);
    expect(errorOf(await post("/api/v2/background_batches", batch, alice.token), 409).detail).toContain('"background_batches_pkey"');
    const taskId = uuid();
    const item = { data: { type: "tasks", id: taskId, attributes: { subject: "Bulk sync", activity_type: "Call" }, relationships: inList() } };
    expect((await post("/api/v2/tasks", item, alice.token)).status).toBe(201);
    const bulk = await request("POST", "/api/v2/tasks/bulk", { token: alice.token, raw: true, body: { data: [item] } });
    expect(bulk.status).toBe(200);
    expect(bulk.body[0].errors[0]).toMatchObject({ status: "409", detail: `duplicate key value violates unique constraint "activities_pkey": Key (id)=(${taskId}) already exists.` });
  });
});
