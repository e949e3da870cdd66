/**
 * `X-HTTP-Method-Override: GET` on a POST makes the request the GET it stands for, in every respect: the route it
 * reaches, its access check and its answer; on any other request the header means nothing
 * (src/jsonapi/method-override.ts). Every write route the app mounts (read from the app, as the API description is:
 * a route added later is swept too) is sent as a coach of the list, as a stranger to it and as a user of it, with
 * and without the header, directly, as /batch items and as background requests.
 */
import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as schema from "../drizzle/schema";
import { NOTIFICATION_TYPE_IDS } from "../src/constants/notifications";
import { createExecutionContext } from "cloudflare:test";
import { MAX_BODY_BYTES } from "../src/app";
import { app } from "../src/index";
import { openApiPath } from "../src/openapi/document";
import { get, post, request, type ApiResponse } from "./helpers/api";
import { askInAppeal, excludeFromAppeal, insertAddress, insertAppeal, insertContact, insertEmail, insertFacebook, insertPerson, insertPhone, insertPledge, insertReferral, insertTags, insertTask } from "./helpers/contact-fixtures";
import { addToList, createUser, createViewer, db, timestamps, tokenFor, uuid } from "./helpers/factories";
import { createDesignationAccount, createDonationRow, createDonorAccount, createOrganization, linkDonorAccount } from "./helpers/money-records";
import { operator } from "./helpers/placement";
import { databaseOfTestList } from "./helpers/storage";

const OVERRIDE = { "X-HTTP-Method-Override": "GET" };
const WRITE_METHODS = ["POST", "PUT", "PATCH", "DELETE"];
const SIGN_OUT = "DELETE /api/v2/user/authenticate";
const TAG = "override";

/** Every write route of the API the app mounts, as its description names it: `PUT /api/v2/contacts/{id}`. */
function writeRoutes(): Array<{ method: string; path: string; key: string }> {
  const routes = new Map<string, { method: string; path: string; key: string }>();
  for (const route of app.routes) {
    if (!WRITE_METHODS.includes(route.method) || !route.path.startsWith("/api/v2/")) continue;
    const { path } = openApiPath(route.path);
    const key = `${route.method} ${path}`;
    routes.set(key, { method: route.method, path, key });
  }
  return [...routes.values()];
}

type Caller = { id: string; token: string };

/** A list with a user of it, a coach, and one record of every kind a write route names, and a stranger to it. */
async function buildWorld() {
  const owner = await createViewer();
  const list = owner.list.id;
  const user = async (role?: "user" | "coach") => {
    const made = await createUser();
    if (role) await addToList(list, made.id, role);
    return { id: made.id, token: made.token };
  };
  const second = await user("user");
  // One coach and one stranger per way of sending: each has a request budget of its own.
  const coaches = { direct: await user("coach"), batch: await user("coach"), background: await user("coach") };
  const otherCoach = await user("coach");
  const strangers = { direct: await createViewer(), batch: await createViewer(), background: await createViewer() };
  // The list's user (its owner, who owns the other list) and one more coach also reach a list on another database: their requests that name no one list
  // are answered from each database (src/routing.ts), and those are swept too.
  const spreadCoach = await user("coach");
  const elsewhere = await listElsewhere(list, owner.user.id);
  const coaching = await operator("PUT", `/account_lists/${elsewhere}/members/${spreadCoach.id}`, { coach: true });
  expect(coaching.status, JSON.stringify(coaching.body)).toBe(200);
  const contact = await insertContact(list, "Override, Olive");
  const friend = await insertContact(list, "Override, Fred");
  const person = await insertPerson(contact.id, "Olive");
  const relative = await insertPerson(contact.id, "Sam");
  // A contact and a person named twice: the list's duplicates to name.
  await insertContact(list, "Override, Olive");
  await insertPerson(contact.id, "Olive");
  await insertAddress(contact.id, { city: "Springfield" });
  await insertEmail(person.id, "olive@example.org");
  await insertPhone(person.id, "+1 555 010 0100", "mobile");
  await insertFacebook(person.id);
  await db.insert(schema.linkedinAccounts).values({ id: uuid(), personId: person.id, publicUrl: "https://linkedin.example.org/olive", ...timestamps() });
  await db.insert(schema.twitterAccounts).values({ id: uuid(), personId: person.id, screenName: "olive", ...timestamps() });
  await db.insert(schema.websites).values({ id: uuid(), personId: person.id, url: "https://olive.example.org", ...timestamps() });
  await db.insert(schema.familyRelationships).values({ id: uuid(), personId: person.id, relatedPersonId: relative.id, relationship: "Sister", ...timestamps() });
  await insertReferral(contact.id, friend.id);
  await insertTags(contact.id, [TAG]);
  const task = await insertTask(list, [contact.id]);
  await db.insert(schema.taskTags).values({ taskId: task.id, name: TAG });
  await db.insert(schema.comments).values({ id: uuid(), taskId: task.id, personId: person.id, body: "Called", ...timestamps() });
  const appeal = await insertAppeal(list);
  await askInAppeal(appeal.id, contact.id);
  await excludeFromAppeal(appeal.id, friend.id);
  await insertPledge(list, contact.id);
  const organization = await createOrganization();
  const donor = await createDonorAccount(organization.id);
  await linkDonorAccount(contact.id, donor.id);
  const designation = await createDesignationAccount(list);
  await createDonationRow({ accountListId: list, designationAccountId: designation.id, donorAccountId: donor.id });
  await db.insert(schema.notificationPreferences).values({ id: uuid(), accountListId: list, notificationTypeId: NOTIFICATION_TYPE_IDS.larger_gift, app: true, ...timestamps() });
  await db.insert(schema.notifications).values({
    id: uuid(), accountListId: list, contactId: contact.id, notificationTypeId: NOTIFICATION_TYPE_IDS.larger_gift, eventDate: "2026-01-01", eventKey: `larger_gift:${uuid()}`, app: true, ...timestamps(),
  });
  await db.insert(schema.accountListInvites).values({ id: uuid(), accountListId: list, invitedByUserId: owner.user.id, code: "c".repeat(64), recipientEmail: "invited@example.org", inviteUserAs: "user", ...timestamps() });
  const importId = uuid();
  await db.insert(schema.imports).values({
    id: importId, accountListId: list, userId: owner.user.id, fileKey: `account_lists/${list}/imports/${importId}.csv`, fileHeaders: {}, fileConstants: {}, sampleRows: [], fileHeadersMappings: {}, fileConstantsMappings: {}, ...timestamps(),
  });
  const webhook = await post(`/api/v2/account_lists/${list}/webhooks`, { data: { type: "webhooks", attributes: { url: "http://127.0.0.1:9/hook", event_types: ["webhook.test"] } } }, owner.token);
  expect(webhook.status, webhook.text).toBe(201);
  const event = { id: uuid(), accountListId: list, eventType: "webhook.test", resourceType: "webhooks", resourceId: webhook.body.data.id, occurredAt: "2026-01-01T00:00:00Z", createdAt: "2026-01-01T00:00:00Z" };
  await db.insert(schema.webhookEvents).values(event);
  await db.insert(schema.webhookDeliveries).values({
    id: uuid(), accountListId: list, webhookId: webhook.body.data.id, eventId: event.id, eventType: "webhook.test", status: "failed", attempts: 1, nextAttemptAt: "2026-01-01T00:00:00Z", ...timestamps(),
  });
  const batch = await post(
    "/api/v2/background_batches",
    { data: { type: "background_batches", attributes: {}, relationships: { requests: { data: [{ type: "background_batch_requests", attributes: { path: "api/v2/user", request_method: "GET" } }] } } } },
    owner.token,
  );
  expect(batch.status, batch.text).toBe(201);
  await vi.waitUntil(async () => (await get(`/api/v2/background_batches/${batch.body.data.id}`, owner.token)).body.data.attributes.pending === 0, { timeout: 15_000, interval: 50 });
  return {
    owner: { id: owner.user.id, token: owner.token },
    coaches: { ...coaches, spread: spreadCoach },
    strangers: { direct: caller(strangers.direct), batch: caller(strangers.batch), background: caller(strangers.background) },
    // The records path parameters name, and those a collection's `{id}` names where the collection's first is not the one.
    named: { key: "setup_position", account_list_id: list, contact_id: contact.id, person_id: person.id, task_id: task.id, appeal_id: appeal.id, webhook_id: webhook.body.data.id },
    // The pairs a merge names: the list's two contacts, and two people of one contact.
    merged: { contacts: { winner_id: contact.id, loser_id: friend.id }, people: { winner_id: person.id, loser_id: relative.id } },
    chosen: { account_lists: list, users: second.id, coaches: otherCoach.id, people: person.id } as Record<string, string>,
    list,
  };
}

/** A list of `user`'s on a database other than that of `list`, made as an operator makes one. */
async function listElsewhere(list: string, user: string): Promise<string> {
  const home = await databaseOfTestList(list);
  const database = ["LIST_DB_1", "DB"].find((name) => name !== home)!;
  const made = await operator("POST", "/account_lists", { user, name: "Elsewhere", currency: "USD", database });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(made.body.database).toBe(database);
  return made.body.id as string;
}

const caller = (viewer: Awaited<ReturnType<typeof createViewer>>): Caller => ({ id: viewer.user.id, token: viewer.token });

type World = Awaited<ReturnType<typeof buildWorld>>;

/** A write route as sent in a world: its path with real ids, and a body a user of the list could send. */
interface Sent {
  key: string;
  method: string;
  path: string;
  body?: unknown;
}

/**
 * Routes that act on the caller's own things, not a list's: any caller may write there. Sent a body refused before
 * anything is stored, so that a coach's or stranger's request changes nothing either way.
 */
const OWN_THINGS: Record<string, unknown> = {
  "PUT /api/v2/user": { data: { type: "users", attributes: { time_zone: ["not a zone"] } } },
  "PATCH /api/v2/user": { data: { type: "users", attributes: { time_zone: ["not a zone"] } } },
  "POST /api/v2/user/authenticate": { data: { type: "authenticate", attributes: {} } },
  "POST /api/v2/background_batches": { data: { type: "background_batches", attributes: {}, relationships: { requests: { data: [] } } } },
  "POST /api/v2/batch": { requests: [] },
  "POST /api/v2/user/options": { data: { type: "user_options", attributes: {} } },
};

/**
 * Whether a coach's or stranger's answer refuses: an error, or a bulk answer whose every item is one. Tags are added
 * and removed on the records a filter chooses among the caller's writable lists, which to them is none (204).
 */
function refusedTo(sent: Sent, answer: unknown): boolean {
  return refused(answer) || sent.key in OWN_THINGS || (sent.path.endsWith("/tags/bulk") && (answer as Said).status === 204);
}

/** The first record a collection answers its user, and its type. */
async function firstOf(path: string, world: World): Promise<{ id: string; type: string }> {
  const listed = await get(path, world.owner.token, { raw: true });
  expect(listed.status, `GET ${path}: ${listed.text.slice(0, 200)}`).toBe(200);
  const [first] = listed.body.data as Array<{ id: string; type: string }>;
  expect(first, `${path} has no record to name: give the world one`).toBeDefined();
  return first;
}

/** The route with the world's ids in its path, and its body. */
async function sentIn(world: World, route: { method: string; path: string; key: string }): Promise<Sent> {
  const segments = route.path.split("/");
  let path = "";
  let type: string | undefined;
  for (const [index, segment] of segments.entries()) {
    const parameter = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (!parameter) {
      path += `${index === 0 ? "" : "/"}${segment}`;
      continue;
    }
    let id = (world.named as Record<string, string>)[parameter];
    if (parameter === "id") {
      const collection = segments[index - 1];
      id = world.chosen[collection];
      const first = id ? undefined : await firstOf(path, world);
      id ??= first!.id;
      type = first?.type;
    }
    expect(id, `${route.key}: no record for {${parameter}}`).toBeDefined();
    path += `/${id}`;
  }
  if (route.key in OWN_THINGS) return { ...route, path, body: OWN_THINGS[route.key] };
  // A merge names its winner and loser in its attributes (one pair, or a list of them in bulk).
  const merge = /\/(people\/)?merges(\/bulk)?$/.exec(path);
  if (merge) {
    const pair = { type: merge[1] ? "people_merges" : "contacts_merges", attributes: merge[1] ? world.merged.people : world.merged.contacts };
    return { ...route, path, body: { data: merge[2] ? [{ data: pair }] : pair } };
  }
  if (route.method === "DELETE" && !path.endsWith("/bulk")) return { ...route, path };
  const bulk = path.endsWith("/bulk");
  // A bulk write names its records in its items: the collection's first.
  const first = bulk ? await firstOf(path.slice(0, -"/bulk".length), world) : undefined;
  const id = first?.id ?? /\/([0-9a-f-]{36})(?:\/[a-z_]+)?$/.exec(path)?.[1];
  type ??= first?.type ?? (await typeOf(path, world));
  const accountList = { account_list: { data: { type: "account_lists", id: world.list } } };
  // Creates that name no list in their path name it in the body: a create falls back to the caller's own list.
  const top = /^\/api\/v2\/[a-z_]+(?:\/bulk)?$/.test(path);
  const attributes = type === "tags" ? { name: TAG } : route.method === "POST" ? {} : { overwrite: true };
  const resource = { type, ...(id && route.method !== "POST" && type !== "tags" ? { id } : {}), attributes, ...(top ? { relationships: accountList } : {}) };
  if (!bulk) return { ...route, path, body: { data: resource } };
  // Tags are added to and removed from the records a filter chooses: the tagged record's.
  const chosen = type === "tags" ? { filter: { ids: path.includes("/tasks/") ? world.named.task_id : world.named.contact_id } } : {};
  return { ...route, path, body: { data: [{ data: resource }], ...chosen } };
}

/** The type a collection (or a record's) path answers. */
async function typeOf(path: string, world: World): Promise<string> {
  const collection = path.replace(/\/[0-9a-f-]{36}(?:\/[a-z_]+)?$/, "");
  const listed = await get(collection, world.owner.token, { raw: true });
  const data = listed.body?.data;
  return (Array.isArray(data) ? data[0]?.type : data?.type) ?? collection.split("/").at(-1)!;
}

function send(sent: Sent, token: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return request(sent.method, sent.path, { token, body: sent.body, headers, raw: true });
}

/** What an answer says, without what differs between two worlds or two runs (ids, times, names of users). */
function said(status: number, body: unknown): unknown {
  const errors = (body as { errors?: Array<Record<string, unknown>> } | undefined)?.errors;
  const data = (body as { data?: unknown } | undefined)?.data;
  const shown = errors
    ? errors.map(({ status: errorStatus, title, detail, source }) => ({ status: errorStatus, title, detail, source }))
    : Array.isArray(body)
      ? body.map((item) => said(Number((item as { status?: number }).status ?? 200), (item as { errors?: unknown }).errors ? item : undefined))
      : Array.isArray(data)
        ? data.map((item: { type: string }) => item.type)
        : (data as { type?: string } | undefined)?.type;
  return JSON.parse(
    JSON.stringify({ status, shown: shown ?? null })
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<id>")
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, "<time>"),
  );
}

const answerOf = (response: ApiResponse) => said(response.status, response.body);

type Said = { status: number; shown: unknown };

/** A refusal: an error status, or a bulk answer (200) whose every item is an error. */
function refused(answer: unknown): boolean {
  const { status, shown } = answer as Said;
  if (status >= 400) return true;
  return Array.isArray(shown) && shown.length > 0 && shown.every((item) => Array.isArray((item as Said | undefined)?.shown) && (item as Said).status === 200 && ((item as Said).shown as Array<{ status?: string }>).every((error) => Number(error.status) >= 400));
}

/** Every row of every database, by table: what a refused request must leave as it found it. `except` leaves rows out. */
async function storedRows(except: (table: string, row: Record<string, unknown>) => boolean = () => false): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const name of ["DB", "LIST_DB_1", "LIST_DB_2"]) {
    const binding = (env as unknown as Record<string, D1Database | undefined>)[name];
    if (!binding) continue;
    const { results: tables } = await binding.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' ORDER BY name").all<{ name: string }>();
    for (const { name: table } of tables) {
      const { results } = await binding.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).all<Record<string, unknown>>();
      rows[`${name}.${table}`] = results.filter((row) => !except(table, row));
    }
  }
  return rows;
}

/** Every write route as sent in `world`, read before anything is written there. */
async function sweepOf(world: World): Promise<Sent[]> {
  const sweep: Sent[] = [];
  for (const route of writeRoutes()) sweep.push(await sentIn(world, route));
  return sweep;
}

let world: World;
let sweep: Sent[];

beforeAll(async () => {
  world = await buildWorld();
  sweep = await sweepOf(world);
}, 120_000);

describe("the sweep", () => {
  it("covers every write route the app mounts, nested and bulk ones too", () => {
    const keys = sweep.map((sent) => sent.key);
    expect(keys.length).toBeGreaterThan(100);
    expect(keys).toEqual(expect.arrayContaining([
      "DELETE /api/v2/account_lists/{account_list_id}/users/{id}",
      "POST /api/v2/account_lists/{account_list_id}/notification_preferences/bulk",
      "DELETE /api/v2/contacts/{contact_id}/people/{person_id}/phones/{id}",
      "PUT /api/v2/tasks/bulk",
      "POST /api/v2/batch",
      SIGN_OUT,
    ]));
    // Every path is filled with real records, so that a refusal is the route's, not a missing record's.
    for (const sent of sweep) expect(sent.path, sent.key).not.toMatch(/[{}]/);
  });
});

/**
 * What the request must answer with the header: on a POST, the GET of its path (the route, the check and the answer
 * of a read); on anything else, what it answers without the header.
 */
async function expectedWithHeader(sent: Sent, token: string, plain: unknown): Promise<unknown> {
  return sent.method === "POST" ? answerOf(await request("GET", sent.path, { token, raw: true })) : plain;
}

describe("as a coach and as a stranger", () => {
  it("every write route answers as without the header (a POST as its GET), and nothing changes", async () => {
    const before = await storedRows();
    for (const sent of sweep) {
      if (sent.key === SIGN_OUT) continue;
      for (const [who, viewer] of [["coach", world.coaches.direct], ["coach of a list on another database too", world.coaches.spread], ["stranger", world.strangers.direct]] as const) {
        const plain = answerOf(await send(sent, viewer.token));
        expect(refusedTo(sent, plain), `${sent.key} as a ${who}: ${JSON.stringify(plain)}`).toBe(true);
        const overridden = answerOf(await send(sent, viewer.token, OVERRIDE));
        expect(overridden, `${sent.key} as a ${who}, with the header`).toEqual(await expectedWithHeader(sent, viewer.token, plain));
      }
    }
    expect(await storedRows()).toEqual(before);
  }, 300_000);

  it("as /batch items, each answers as the same request sent alone, whatever an item says of the header; nothing changes", async () => {
    const items = sweep.filter((sent) => sent.key !== SIGN_OUT && !sent.path.endsWith("/batch"));
    const before = await storedRows();
    for (const [who, viewer] of [["coach", world.coaches.batch], ["stranger", world.strangers.batch]] as const) {
      const answers = async (requests: unknown[]) => {
        const response = await request("POST", "/api/v2/batch", { token: viewer.token, body: { requests }, raw: true });
        expect(response.status, response.text.slice(0, 300)).toBe(200);
        return (response.body as Array<{ status: number; body: string }>).map((entry) => said(entry.status, entry.body ? JSON.parse(entry.body) : undefined));
      };
      for (let start = 0; start < items.length; start += 50) {
        const chunk = items.slice(start, start + 50);
        const requests = chunk.map((sent) => ({ method: sent.method, path: sent.path, body: sent.body }));
        // An item has no headers: one naming the override is the same request.
        const plain = await answers(requests);
        const named = await answers(requests.map((item) => ({ ...item, headers: OVERRIDE })));
        chunk.forEach((sent, index) => {
          expect(refusedTo(sent, plain[index]), `${sent.key} as a ${who}'s /batch item`).toBe(true);
          expect(named[index], `${sent.key} as a ${who}'s /batch item naming the header`).toEqual(plain[index]);
        });
      }
      // A batch sent with the header is a GET of /batch: no such read, and nothing runs.
      const overriddenBatch = await request("POST", "/api/v2/batch", { token: viewer.token, body: { requests: [{ method: "DELETE", path: items[0].path }] }, headers: OVERRIDE, raw: true });
      expect(answerOf(overriddenBatch)).toEqual(answerOf(await request("GET", "/api/v2/batch", { token: viewer.token, raw: true })));
      expect(overriddenBatch.status).toBe(405);
    }
    expect(await storedRows()).toEqual(before);
  }, 300_000);

  it("as background requests, each answers as without the header (a POST as its GET), and nothing changes but the batches", async () => {
    // A stored request is GET, POST, PUT or DELETE: each PATCH route is its PUT's twin.
    const items = sweep.filter((sent) => sent.key !== SIGN_OUT && sent.method !== "PATCH");
    // The batches this test creates, and their requests, are all it may add.
    const batches: string[] = [];
    const ours = (table: string, row: Record<string, unknown>) =>
      (table === "background_batches" && batches.includes(String(row.id))) || (table === "background_batch_requests" && batches.includes(String(row.background_batch_id)));
    const before = await storedRows(ours);
    for (const [who, viewer] of [["coach", world.coaches.background], ["stranger", world.strangers.background]] as const) {
      const stored = (sent: Sent, method = sent.method, headers?: Record<string, string>) => ({
        path: sent.path.replace(/^\//, ""),
        request_method: method,
        ...(sent.body !== undefined && method !== "GET" ? { request_body: JSON.stringify(sent.body) } : {}),
        ...(headers ? { request_headers: headers } : {}),
      });
      // Each route three times: as sent, with the header, and as the GET a POST with the header stands for.
      const requests = items.flatMap((sent) => [stored(sent), stored(sent, sent.method, OVERRIDE), stored(sent, "GET")]);
      const created = await post(
        "/api/v2/background_batches",
        { data: { type: "background_batches", attributes: {}, relationships: { requests: { data: requests.map((attributes) => ({ type: "background_batch_requests", attributes })) } } } },
        viewer.token,
      );
      expect(created.status, created.text.slice(0, 300)).toBe(201);
      const id = created.body.data.id as string;
      batches.push(id);
      await vi.waitUntil(async () => (await get(`/api/v2/background_batches/${id}`, viewer.token)).body.data.attributes.pending === 0, { timeout: 120_000, interval: 200 });
      const rows = await db.select().from(schema.backgroundBatchRequests).where(eq(schema.backgroundBatchRequests.backgroundBatchId, id));
      const answers = rows.sort((a, b) => a.position - b.position).map((row) => said(row.responseStatus ?? 0, row.responseBody ? JSON.parse(String(row.responseBody)) : undefined));
      items.forEach((sent, index) => {
        const [plain, overridden, asGet] = answers.slice(3 * index, 3 * index + 3);
        expect(refusedTo(sent, plain), `${sent.key} as a ${who}'s background request`).toBe(true);
        expect(overridden, `${sent.key} as a ${who}'s background request with the header`).toEqual(sent.method === "POST" ? asGet : plain);
      });
    }
    expect(batches).toHaveLength(2);
    expect(await storedRows(ours)).toEqual(before);
  }, 300_000);
});

/** Rack-style query parameters of a body: `{filter: {status: "a"}}` → `filter[status]=a`. */
function queryOf(params: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(params).flatMap(([name, value]) => {
    const key = prefix ? `${prefix}[${name}]` : name;
    return typeof value === "object" && value !== null ? queryOf(value as Record<string, unknown>, key) : [`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`];
  });
}

describe("a read sent as POST", () => {
  it("answers exactly as its GET (ETag too), for a user of the list and for a coach: contacts, tasks and their analytics", async () => {
    const reads: Array<[string, Record<string, unknown>]> = [
      ["/api/v2/contacts", { filter: { account_list_id: world.list, status: "active,null" }, include: "people", fields: { contacts: "name,status,people", people: "first_name" }, sort: "name", per_page: 25, page: 1 }],
      ["/api/v2/tasks", { filter: { account_list_id: world.list, completed: "false" }, include: "contacts", fields: { tasks: "subject,contacts", contacts: "name" }, per_page: 10 }],
      ["/api/v2/contacts/analytics", { filter: { account_list_id: world.list } }],
      ["/api/v2/tasks/analytics", { filter: { account_list_id: world.list } }],
    ];
    for (const [who, viewer] of [["user", world.owner], ["coach", world.coaches.direct]] as const) {
      for (const [path, params] of reads) {
        const asGet = await get(`${path}?${queryOf(params).join("&")}`, viewer.token);
        expect(asGet.status, `${path} as a ${who}: ${asGet.text.slice(0, 200)}`).toBe(200);
        const sentAsPost = await request("POST", path, { token: viewer.token, body: params, headers: OVERRIDE });
        expect(sentAsPost.status, `${path} as a ${who}`).toBe(200);
        expect(sentAsPost.text, `${path} as a ${who}`).toBe(asGet.text);
        expect(sentAsPost.headers.get("etag"), `${path} as a ${who}`).toBe(asGet.headers.get("etag"));
      }
      // The override is GET alone: another value leaves a POST what it is (a create, refused to a coach).
      const create = { data: { type: "contacts", attributes: { name: "Sent, As Post" }, relationships: { account_list: { data: { type: "account_lists", id: world.list } } } } };
      const asDelete = await request("POST", "/api/v2/contacts", { token: viewer.token, body: create, headers: { "X-HTTP-Method-Override": "DELETE" } });
      expect(asDelete.status, asDelete.text.slice(0, 200)).toBe(who === "user" ? 201 : 403);
    }
  });
});

describe("a read sent as POST whose body names the list", () => {
  it("runs where the body's list is, as its handler reads it: the body's filter over the query's", async () => {
    const viewer = await createViewer();
    const home = viewer.list.id;
    const elsewhere = await listElsewhere(home, viewer.user.id);
    for (const [list, name] of [[home, "Home, Hattie"], [elsewhere, "Away, Abel"]]) {
      const made = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name }, relationships: { account_list: { data: { type: "account_lists", id: list } } } } }, viewer.token);
      expect(made.status, made.text).toBe(201);
    }
    const names = (answer: ApiResponse) => (answer.body.data as Array<{ attributes: { name: string } }>).map((contact) => contact.attributes.name);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      // The body's list wins over the query's.
      [`filter[account_list_id]=${home}`, { filter: { account_list_id: elsewhere } }, `filter[account_list_id]=${elsewhere}`],
      // A negation in the body is read with the query's list: every list but that one.
      [`filter[account_list_id]=${home}`, { filter: { reverse_account_list_id: "true" } }, `filter[account_list_id]=${home}&filter[reverse_account_list_id]=true`],
    ];
    for (const [query, body, asGetQuery] of cases) {
      const asGet = await get(`/api/v2/contacts?${asGetQuery}&fields[contacts]=name`, viewer.token);
      expect(names(asGet), asGetQuery).toEqual(["Away, Abel"]);
      const sent = await request("POST", `/api/v2/contacts?${query}&fields[contacts]=name`, { token: viewer.token, body, headers: OVERRIDE });
      expect(sent.status, sent.text.slice(0, 300)).toBe(200);
      expect(sent.text, JSON.stringify(body)).toBe(asGet.text);
    }
  });
});

describe("the body of a read sent as POST", () => {
  const overridden = (path: string, body: BodyInit, token?: string) =>
    exports.default.fetch(
      new Request(`https://api.example.org${path}`, { method: "POST", headers: { ...OVERRIDE, "Content-Type": "application/vnd.api+json", ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body }),
    );

  it("past the body limit is refused (413) with an error document, on every path", async () => {
    const large = JSON.stringify({ filter: { wildcard_search: "x".repeat(MAX_BODY_BYTES) } });
    for (const path of ["/api/v2/contacts", "/admin/users", "/nowhere"]) {
      const response = await overridden(path, large, world.owner.token);
      expect(response.status, path).toBe(413);
      const document = (await response.json()) as { errors: Array<{ status: string; detail: string }> };
      expect(document.errors, path).toEqual([expect.objectContaining({ status: "413", detail: `The request body is larger than ${MAX_BODY_BYTES} bytes` })]);
    }
  });

  it("that breaks off as it is read gets the error document of a failure, not a bare one", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const broken = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"filter": {'));
        },
        pull(controller) {
          controller.error(new Error("connection reset"));
        },
      });
      const response = await app.fetch(
        new Request("https://api.example.org/api/v2/contacts", { method: "POST", headers: { ...OVERRIDE, "Content-Type": "application/vnd.api+json", Authorization: `Bearer ${world.owner.token}` }, body: broken }),
        env,
        createExecutionContext(),
      );
      expect(response.status).toBe(500);
      expect(response.headers.get("content-type")).toContain("application/vnd.api+json");
      const document = (await response.json()) as { errors: Array<{ status: string }> };
      expect(document.errors).toEqual([expect.objectContaining({ status: "500" })]);
      expect(logged).toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it("is read once, however often the request's parameters are asked for", async () => {
    const marker = `once-${uuid()}`;
    const text = JSON.stringify({ filter: { account_list_id: world.list, wildcard_search: marker }, include: "people", sort: "name" });
    const parse = vi.spyOn(JSON, "parse");
    try {
      const response = await overridden("/api/v2/contacts", text, world.owner.token);
      expect(response.status, await response.clone().text()).toBe(200);
      expect(parse.mock.calls.filter(([parsed]) => typeof parsed === "string" && parsed.includes(marker))).toHaveLength(1);
    } finally {
      parse.mockRestore();
    }
  });
});

describe("the header's value", () => {
  /** A request with the header sent as these lines (a repeated header reaches the app as one, its values joined). */
  async function sentWith(method: string, path: string, lines: string[], token: string, body?: unknown): Promise<ApiResponse> {
    const headers = new Headers({ Accept: "application/vnd.api+json", Authorization: `Bearer ${token}` });
    if (body !== undefined) headers.set("Content-Type", "application/vnd.api+json");
    for (const line of lines) headers.append("X-HTTP-Method-Override", line);
    const response = await exports.default.fetch(new Request(`https://api.example.org${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
  }

  it("is GET in any case and spacing; any other value, a list of methods or a repeated header leaves the POST a POST, and a HEAD a HEAD", async () => {
    const coach = world.coaches.direct;
    const create = { data: { type: "contacts", attributes: { name: "Sent, With A Header" }, relationships: { account_list: { data: { type: "account_lists", id: world.list } } } } };
    const before = await storedRows();
    const asGet = answerOf(await get("/api/v2/contacts", coach.token, { raw: true }));
    const asPost = answerOf(await request("POST", "/api/v2/contacts", { token: coach.token, body: create, raw: true }));
    expect(asGet).toMatchObject({ status: 200 });
    expect(asPost).toMatchObject({ status: 403 });
    for (const lines of [["get"], [" GET "], ["Get"]]) {
      expect(answerOf(await sentWith("POST", "/api/v2/contacts", lines, coach.token, create)), JSON.stringify(lines)).toEqual(asGet);
    }
    for (const lines of [["GET, DELETE"], ["GET", "GET"], ["GET", "DELETE"], ["GETS"], [""]]) {
      expect(answerOf(await sentWith("POST", "/api/v2/contacts", lines, coach.token, create)), JSON.stringify(lines)).toEqual(asPost);
    }
    const head = await request("HEAD", "/api/v2/contacts", { token: coach.token, raw: true });
    const overriddenHead = await sentWith("HEAD", "/api/v2/contacts", ["GET"], coach.token);
    expect(overriddenHead.status).toBe(head.status);
    expect(overriddenHead.text).toBe("");
    expect(overriddenHead.headers.get("etag")).toBe(head.headers.get("etag"));
    expect(await storedRows()).toEqual(before);
  });
});

describe("as a user of the list", () => {
  let twin: World;
  let twinSweep: Sent[];

  beforeAll(async () => {
    twin = await buildWorld();
    twinSweep = await sweepOf(twin);
  }, 120_000);

  it("every write route does what its method says, the header or not (a POST with it reads as its GET)", async () => {
    // The same writes in two alike worlds, in the same order: without the header in one, with it in the other.
    for (const [index, sent] of sweep.entries()) {
      const alike = twinSweep[index];
      expect(alike.key).toBe(sent.key);
      if (sent.key === SIGN_OUT) continue;
      const plain = answerOf(await send(sent, world.owner.token));
      if (sent.method === "POST") {
        const asGet = await expectedWithHeader(alike, twin.owner.token, plain);
        expect(answerOf(await send(alike, twin.owner.token, OVERRIDE)), `${sent.key} with the header`).toEqual(asGet);
        // Then as the other world, so that both go on alike.
        expect(answerOf(await send(alike, twin.owner.token)), sent.key).toEqual(plain);
      } else {
        expect(answerOf(await send(alike, twin.owner.token, OVERRIDE)), `${sent.key} with the header`).toEqual(plain);
      }
    }
  }, 300_000);

  it("as /batch items and as background requests, every write route does what its method says, the header or not", async () => {
    // The two worlds are alike after the sweep above: the same writes again, as items, by each world's user.
    const items = (of: Sent[]) => of.filter((sent) => sent.key !== SIGN_OUT && !sent.path.endsWith("/batch"));
    // A batch holds at most 100 requests.
    const batched = async (token: string, requests: unknown[]) => {
      const answers: unknown[] = [];
      for (let start = 0; start < requests.length; start += 50) {
        const response = await request("POST", "/api/v2/batch", { token, body: { requests: requests.slice(start, start + 50) }, raw: true });
        expect(response.status, response.text.slice(0, 300)).toBe(200);
        for (const entry of response.body as Array<{ status: number; body: string }>) answers.push(said(entry.status, entry.body ? JSON.parse(entry.body) : undefined));
      }
      return answers;
    };
    const plainItems = items(sweep).map((sent) => ({ method: sent.method, path: sent.path, body: sent.body }));
    const namingItems = items(twinSweep).map((sent) => ({ method: sent.method, path: sent.path, body: sent.body, headers: OVERRIDE }));
    const keyed = (of: Sent[], answers: unknown[]) => answers.map((answer, index) => [of[index]?.key, answer]);
    expect(keyed(items(twinSweep), await batched(twin.owner.token, namingItems))).toEqual(keyed(items(sweep), await batched(world.owner.token, plainItems)));

    // In the background a POST with the header is its GET, read in the same world; then both worlds write alike.
    const stored = items(sweep).filter((sent) => sent.method !== "PATCH");
    const storedTwin = items(twinSweep).filter((sent) => sent.method !== "PATCH");
    const asStored = (sent: Sent, method: string, headers?: Record<string, string>) => ({
      path: sent.path.replace(/^\//, ""),
      request_method: method,
      ...(sent.body !== undefined && method !== "GET" ? { request_body: JSON.stringify(sent.body) } : {}),
      ...(headers ? { request_headers: headers } : {}),
    });
    const background = async (token: string, requests: unknown[]) => {
      const created = await post(
        "/api/v2/background_batches",
        { data: { type: "background_batches", attributes: {}, relationships: { requests: { data: requests.map((attributes) => ({ type: "background_batch_requests", attributes })) } } } },
        token,
      );
      expect(created.status, created.text.slice(0, 300)).toBe(201);
      const id = created.body.data.id as string;
      await vi.waitUntil(async () => (await get(`/api/v2/background_batches/${id}`, token)).body.data.attributes.pending === 0, { timeout: 120_000, interval: 200 });
      const rows = await db.select().from(schema.backgroundBatchRequests).where(eq(schema.backgroundBatchRequests.backgroundBatchId, id));
      return rows.sort((a, b) => a.position - b.position).map((row) => said(row.responseStatus ?? 0, row.responseBody ? JSON.parse(String(row.responseBody)) : undefined));
    };
    const plain = await background(world.owner.token, stored.map((sent) => asStored(sent, sent.method)));
    // In the other world a POST is sent with the header, then as its GET, then as itself.
    const overridden = await background(
      twin.owner.token,
      storedTwin.flatMap((sent) => (sent.method === "POST" ? [asStored(sent, "POST", OVERRIDE), asStored(sent, "GET"), asStored(sent, "POST")] : [asStored(sent, sent.method, OVERRIDE)])),
    );
    let at = 0;
    for (const [index, sent] of storedTwin.entries()) {
      if (sent.method === "POST") {
        expect(overridden[at], `${sent.key} as a background request with the header`).toEqual(overridden[at + 1]);
        at += 2;
      }
      expect(overridden[at], `${sent.key} as a background request${sent.method === "POST" ? "" : " with the header"}`).toEqual(plain[index]);
      at += 1;
    }
    expect(at).toBe(overridden.length);
  }, 300_000);

  it("signs out with DELETE, the header or not", async () => {
    const signOut = sweep.find((sent) => sent.key === SIGN_OUT)!;
    for (const viewer of [world.owner, world.coaches.direct]) {
      const overridden = await send(signOut, viewer.token, OVERRIDE);
      expect(overridden.status, overridden.text).toBe(204);
      expect((await get("/api/v2/user", viewer.token, { raw: true })).status).toBe(401);
      // A token issued after the sign out, in a later second.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const plain = await send(signOut, await tokenFor(viewer.id));
      expect(answerOf(plain)).toEqual(answerOf(overridden));
    }
  });
});
