/**
 * Hostile input: parameter and body keys that name built-in object members, deep nesting, and the requests that
 * once reached Object.prototype. Each answer is a JSON:API error or a normal answer, never a 500, and nothing
 * one user sends changes what another user gets.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { errorOf, get, post, put, request } from "./helpers/api";
import { runInBackground } from "./helpers/background";
import { createAccountList, createViewer, db } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  // Each with a second list: where a layout spreads them, a viewer's lists are apart and beside the other's.
  await createAccountList(alice.user);
  await createAccountList(bob.user);
});

const BUILT_IN_NAMES = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "__defineGetter__"];

/** Whatever a request did, the shared prototype of every object in this isolate must be untouched. */
function expectPrototypeUntouched() {
  for (const key of ["x", "polluted", "then"]) expect(Object.prototype, key).not.toHaveProperty(key);
  expect(({} as Record<string, unknown>).x).toBeUndefined();
}

/** Another user's writes still work after the request under test (a polluted prototype broke every write). */
async function expectOthersCanWrite() {
  const batch = await request("POST", "/api/v2/batch", { token: bob.token, raw: true, body: { requests: [] } });
  expect(batch.status, batch.text).toBe(200);
  const created = await post(
    "/api/v2/contacts",
    { data: { type: "contacts", attributes: { name: "Still, Working" }, relationships: { account_list: { data: { type: "account_lists", id: bob.list.id } } } } },
    bob.token,
  );
  expect(created.status, created.text).toBe(201);
}

const nested = (depth: number, leaf: unknown = "x") => {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
const nestedObject = (depth: number) => {
  let value: unknown = "Partner - Financial";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe("parameters whose keys name built-in members", () => {
  it("never reach the shared prototype: query strings, filters, batch item paths and background requests", async () => {
    expect((await get("/api/v2/user?__proto__[x]=y", alice.token)).status).toBe(200);
    expect((await get("/api/v2/contacts?filter[__proto__][x]=y&constructor[prototype][polluted]=1", alice.token)).status).toBe(200);
    expect((await get("/api/v2/tasks?filter[__proto__]=1&__proto__[then]=1", alice.token)).status).toBe(200);
    const batch = await request("POST", "/api/v2/batch", {
      token: alice.token,
      raw: true,
      body: { requests: [{ method: "GET", path: "/api/v2/contacts?__proto__[x]=y&filter[constructor][prototype][x]=1" }] },
    });
    expect(batch.status, batch.text).toBe(200);
    expect(JSON.parse(batch.text)[0].status).toBe(200);
    await runInBackground(alice.token, [
      { path: "api/v2/contacts", request_params: JSON.parse('{"__proto__": {"x": "y"}, "filter": {"__proto__": {"x": "y"}}}') },
    ]);
    expectPrototypeUntouched();
    await expectOthersCanWrite();
  });

  it("are unknown filters, sorts, includes and fields on every list, never a 500", async () => {
    for (const name of BUILT_IN_NAMES) {
      for (const path of ["/api/v2/contacts", "/api/v2/tasks", "/api/v2/appeals", `/api/v2/account_lists/${alice.list.id}/donations`]) {
        const filtered = await get(`${path}?filter[${name}]=1&filter[reverse_${name}]=true`, alice.token);
        expect(filtered.status, `${path} filter[${name}]: ${filtered.text}`).toBe(200);
        const included = await get(`${path}?include=${name},${name}.${name}&fields[${name}]=${name}`, alice.token);
        expect(included.status, `${path} include=${name}: ${included.text}`).toBe(200);
        const sorted = await get(`${path}?sort=${name}`, alice.token);
        expect(sorted.status, `${path} sort=${name}`).toBe(400);
      }
    }
    expectPrototypeUntouched();
  });

  it("are refused as filter values that name choices: date ranges, statuses, task activity", async () => {
    for (const name of BUILT_IN_NAMES) {
      const range = await get(`/api/v2/tasks?filter[date_range]=${name}`, alice.token);
      expect(errorOf(range, 400).detail, range.text).toMatch(/^Wrong format of date range for filter 'date_range'/);
      expect((await get(`/api/v2/contacts?filter[status]=${name}`, alice.token)).status).toBe(200);
      expect((await get(`/api/v2/contacts?filter[donation]=${name}&filter[pledge_late_by]=${name}`, alice.token)).status).toBe(200);
      expect((await get(`/api/v2/constants?fields[constant_list]=${name}`, alice.token)).status).toBe(200);
    }
  });

  it("in attributes and preferences are ignored or refused like any unknown key, and store nothing odd", async () => {
    for (const name of BUILT_IN_NAMES) {
      const body = JSON.parse(`{"data": {"type": "users", "attributes": {"overwrite": true, "preferences": {"${name}": "x", "locale": "de"}, "${name}": "y"}}}`);
      const response = await put("/api/v2/user", body, alice.token);
      expect(response.status, `${name}: ${response.text}`).toBe(200);
      expect(response.body.data.attributes.preferences.locale).toBe("de");
      expect(Object.keys(response.body.data.attributes.preferences)).not.toContain(name);
    }
    const task = await post(
      "/api/v2/tasks",
      JSON.parse(`{"data": {"type": "tasks", "attributes": {"subject": "Proto", "activity_type": "constructor", "__proto__": {"completed": true}}, "relationships": {"account_list": {"data": {"type": "account_lists", "id": "${alice.list.id}"}}}}}`),
      alice.token,
    );
    expect(errorOf(task, 400).source).toEqual({ pointer: "/data/attributes/activity_type" });
    const valid = await post(
      "/api/v2/tasks",
      JSON.parse(`{"data": {"type": "tasks", "attributes": {"subject": "Proto", "activity_type": "Call", "next_action": "toString", "result": "constructor"}, "relationships": {"account_list": {"data": {"type": "account_lists", "id": "${alice.list.id}"}}}}}`),
      alice.token,
    );
    expect([201, 400]).toContain(valid.status);
    expectPrototypeUntouched();
  });
});

describe("deep nesting", () => {
  const DEPTH = 10_000;

  it("of a JSON body is refused with 400 before anything is read or stored", async () => {
    const contactsBefore = await db.select({ id: schema.contacts.id }).from(schema.contacts);
    const override = await request("POST", "/api/v2/contacts", {
      token: alice.token,
      headers: { "X-HTTP-Method-Override": "GET" },
      body: { filter: { status: nested(DEPTH) } },
    });
    expect(errorOf(override, 400).detail).toMatch(/nested more than 32 levels deep/);
    const appeal = await post(
      "/api/v2/appeals",
      { data: { type: "appeals", attributes: { name: "Deep", inclusion_filter: nestedObject(DEPTH) }, relationships: { account_list: { data: { type: "account_lists", id: alice.list.id } } } } },
      alice.token,
    );
    expect(errorOf(appeal, 400).detail).toMatch(/nested more than 32 levels deep/);
    const exclusion = await post(
      "/api/v2/appeals",
      { data: { type: "appeals", attributes: { name: "Deep", exclusion_filter: { status: nested(3_000) } }, relationships: { account_list: { data: { type: "account_lists", id: alice.list.id } } } } },
      alice.token,
    );
    expect(exclusion.status).toBe(400);
    const background = await post(
      "/api/v2/background_batches",
      { data: { type: "background_batches", attributes: {}, relationships: { requests: { data: [{ type: "background_batch_requests", attributes: { path: "api/v2/user", request_params: nestedObject(DEPTH) } }] } } } },
      alice.token,
    );
    expect(errorOf(background, 400).detail).toMatch(/nested more than 32 levels deep/);
    const batch = await request("POST", "/api/v2/batch", { token: alice.token, raw: true, body: { requests: [{ method: "GET", path: "/api/v2/user", body: nestedObject(DEPTH) }] } });
    expect(batch.status).toBe(400);
    expect(await db.select({ id: schema.appeals.id }).from(schema.appeals).where(eq(schema.appeals.name, "Deep"))).toEqual([]);
    expect(await db.select({ id: schema.backgroundBatches.id }).from(schema.backgroundBatches).where(eq(schema.backgroundBatches.userId, alice.user.id))).toHaveLength(1);
    expect(await db.select({ id: schema.contacts.id }).from(schema.contacts)).toHaveLength(contactsBefore.length);
  });

  it("accepts nesting up to the limit", async () => {
    const response = await request("POST", "/api/v2/contacts", {
      token: alice.token,
      headers: { "X-HTTP-Method-Override": "GET" },
      body: { filter: { status: nested(28, "Partner - Financial") } },
    });
    expect(response.status, response.text).toBe(200);
  });

  it("of query-string brackets is refused with 400 naming the parameter", async () => {
    const deep = `filter${"[a]".repeat(50)}=1`;
    expect(errorOf(await get(`/api/v2/contacts?${deep}`, alice.token), 400)).toMatchObject({ source: { parameter: `filter${"[a]".repeat(50)}` } });
    expect((await get(`/api/v2/contacts?filter[donation_amount_range][min]=1`, alice.token)).status).toBe(200);
  });
});
