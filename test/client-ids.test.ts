/**
 * A client id that already exists answers 409 with the original database's wording and primary key name: offline
 * sync clients (the Android app) recognise "already exists" only by `duplicate key value violates unique
 * constraint` and the key, and otherwise send the record again forever. The same create sent again (the client
 * lost the first answer) is answered as the first was, with nothing written.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { errorOf, get, post, put, request } from "./helpers/api";
import { storage } from "./helpers/storage";
import { createAccountList, createViewer, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;

beforeAll(async () => {
  alice = await createViewer();
});

const inList = () => ({ account_list: { data: { type: "account_lists", id: alice.list.id } } });

describe("a client id that already exists", () => {
  it.each([
    ["/api/v2/tasks", "tasks", { subject: "Sync me", activity_type: "Call" }, "activities_pkey", { activity_type: "Email" }],
    ["/api/v2/contacts", "contacts", { name: "Sync, Me" }, "contacts_pkey", { notes: "changed" }],
    ["/api/v2/appeals", "appeals", { name: "Sync appeal" }, "appeals_pkey", { name: "Another appeal" }],
  ])("%s answers the same create sent again as the first, and 409 naming %s's original primary key for another body", async (path, type, attributes, key, changed) => {
    const id = uuid();
    const body = { data: { type, id, attributes, relationships: inList() } };
    const first = await post(path, body, alice.token);
    expect(first.status).toBe(201);
    const table = type === "tasks" ? "tasks" : type;
    const storedRow = () => storage.prepare(`SELECT * FROM ${table} WHERE id = ?`).bind(id).first();
    const before = await storedRow();
    // Sent again: the same answer, the row untouched (its updated_at too).
    const again = await post(path, body, alice.token);
    expect(again.status, again.text).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await storedRow()).toEqual(before);
    // Another body under the id: a clash.
    const other = errorOf(await post(path, { data: { ...body.data, attributes: { ...attributes, ...changed } } }, alice.token), 409);
    expect(other.detail).toBe(`duplicate key value violates unique constraint "${key}": Key (id)=(${id}) already exists.`);
    expect(other.source).toEqual({ pointer: "/data/id" });
    expect(await storedRow()).toEqual(before);
    const listed = await get(`${path}?filter[ids]=${id}&per_page=100`, alice.token);
    expect(listed.body.data.filter((r: { id: string }) => r.id === id)).toHaveLength(1);
  });

  it("answers 409 for the same body in another list, or after the record changed", async () => {
    const id = uuid();
    const body = { data: { type: "contacts", id, attributes: { name: "Changed, Since" }, relationships: inList() } };
    const first = await post("/api/v2/contacts", body, alice.token);
    expect(first.status).toBe(201);
    const renamed = await put(`/api/v2/contacts/${id}`, { data: { type: "contacts", id, attributes: { name: "Renamed, Since", overwrite: true } } }, alice.token);
    expect(renamed.status).toBe(200);
    errorOf(await post("/api/v2/contacts", body, alice.token), 409);
    // Another user sending the first body under the id, into their own list.
    const bob = await createViewer();
    const bobs = { data: { ...body.data, attributes: { name: "Renamed, Since" }, relationships: { account_list: { data: { type: "account_lists", id: bob.list.id } } } } };
    errorOf(await post("/api/v2/contacts", bobs, bob.token), 409);
    expect(await storage.prepare("SELECT count(*) AS n FROM contacts WHERE id = ?").bind(id).first("n")).toBe(1);
  });

  it("answers the same wording for a background batch and for a bulk item", async () => {
    const id = uuid();
    const batch = { data: { type: "background_batches", id, attributes: {}, relationships: { requests: { data: [{ type: "background_batch_requests", attributes: { path: "api/v2/user" } }] } } } };
    expect((await post("/api/v2/background_batches", batch, alice.token)).status).toBe(201);
    const otherBatch = { data: { ...batch.data, relationships: { requests: { data: [{ type: "background_batch_requests", attributes: { path: "api/v2/constants" } }] } } } };
    expect(errorOf(await post("/api/v2/background_batches", otherBatch, alice.token), 409).detail).toContain('"background_batches_pkey"');
    const taskId = uuid();
    const item = { data: { type: "tasks", id: taskId, attributes: { subject: "Bulk sync", activity_type: "Call" }, relationships: inList() } };
    expect((await post("/api/v2/tasks", item, alice.token)).status).toBe(201);
    const changed = { data: { ...item.data, attributes: { ...item.data.attributes, subject: "Bulk sync, changed" } } };
    const bulk = await request("POST", "/api/v2/tasks/bulk", { token: alice.token, raw: true, body: { data: [changed] } });
    expect(bulk.status).toBe(200);
    expect(bulk.body[0].errors[0]).toMatchObject({ status: "409", detail: `duplicate key value violates unique constraint "activities_pkey": Key (id)=(${taskId}) already exists.` });
  });

  it("refuses another user an id that a record of a list holds, wherever each list is placed", async () => {
    // Alice's second list: on a database of its own in the layout that spreads a user's lists.
    const second = await createAccountList(alice.user);
    const bob = await createViewer();
    const id = uuid();
    const task = { data: { type: "tasks", id, attributes: { subject: "Mine alone", activity_type: "Call" }, relationships: { account_list: { data: { type: "account_lists", id: second.id } } } } };
    expect((await post("/api/v2/tasks", task, alice.token)).status).toBe(201);
    const bobs = { data: { ...task.data, relationships: { account_list: { data: { type: "account_lists", id: bob.list.id } } } } };
    expect(errorOf(await post("/api/v2/tasks", bobs, bob.token), 409).detail).toBe(`duplicate key value violates unique constraint "activities_pkey": Key (id)=(${id}) already exists.`);
    const bulk = await request("POST", "/api/v2/tasks/bulk", { token: bob.token, raw: true, body: { data: [bobs] } });
    expect(bulk.body[0].errors[0].status).toBe("409");
    expect(await storage.prepare("SELECT account_list_id FROM tasks WHERE id = ?").bind(id).all()).toMatchObject({ results: [{ account_list_id: second.id }] });
  });

  it("answers a create sent again in a bulk request, a /batch item and a background batch as the first", async () => {
    const ids = [uuid(), uuid()];
    const items = ids.map((id, n) => ({ data: { type: "tasks", id, attributes: { subject: `Sent twice ${n}`, activity_type: "Call" }, relationships: inList() } }));
    const first = await request("POST", "/api/v2/tasks/bulk", { token: alice.token, raw: true, body: { data: items } });
    expect(first.status).toBe(200);
    const again = await request("POST", "/api/v2/tasks/bulk", { token: alice.token, raw: true, body: { data: items } });
    expect(again.body).toEqual(first.body);
    // One sent again beside one that is new: the new one is written, the other answered as stored.
    const fresh = { data: { type: "tasks", id: uuid(), attributes: { subject: "New beside", activity_type: "Call" }, relationships: inList() } };
    const mixed = await request("POST", "/api/v2/tasks/bulk", { token: alice.token, raw: true, body: { data: [items[0], fresh] } });
    expect(mixed.body.map((answer: { data: { id: string } }) => answer.data.id)).toEqual([ids[0], fresh.data.id]);
    const batched = await post("/api/v2/batch", { requests: [{ method: "POST", path: "/api/v2/tasks", body: items[1] }] }, alice.token, { raw: true });
    expect(batched.body[0].status).toBe(201);
    expect(JSON.parse(batched.body[0].body).data.id).toBe(ids[1]);
    expect(await storage.prepare("SELECT count(*) AS n FROM tasks WHERE subject LIKE 'Sent twice%'").first("n")).toBe(2);
  });
});
