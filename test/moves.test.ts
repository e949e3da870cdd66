/**
 * Moving an account list to another database while it is in use: writers keep writing throughout; every write
 * acknowledged is on the new database once, nothing refused is stored, the only refusals are 503s while
 * switching, the old database keeps none of the list's rows, and a move killed at any step finishes when run again.
 */
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { moveStep, placementOf } from "../src/admin/moves";
import { database } from "../src/db/client";
import { databaseBinding } from "../src/db/databases";
import { LIST_TABLES, listMoveTriggers } from "../src/db/list-tables";
import { webhookTriggers } from "../drizzle/webhook-triggers";
import type { Bindings } from "../src/env";
import { del, errorOf, get, post, put, request, type ApiResponse } from "./helpers/api";
import { givingTo } from "./helpers/contact-fixtures";
import { expectCountsKept, expectTriggersAsDeclared } from "./helpers/kept-sums";
import { copiesById, on, operator, placedUser, type PlacedUser } from "./helpers/placement";
import { stopAnswering } from "./helpers/identity-provider";
import { endpointAt, Receiver } from "./helpers/webhook-receiver";

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

let owner: PlacedUser;
let listId: string;

/** Rows of the list on a database, per table (tables without any left out). */
async function rowsOfList(name: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const entry of LIST_TABLES) {
    const condition = entry.rowsOfList.replaceAll("?1", "?");
    const bound = Array.from({ length: entry.rowsOfList.split("?1").length - 1 }, () => listId);
    const row = await databaseBinding(env, name).prepare(`SELECT count(*) AS n FROM ${entry.name} WHERE ${condition}`).bind(...bound).first<{ n: number }>();
    if (row && row.n > 0) counts[entry.name] = row.n;
  }
  return counts;
}

const contactBody = (name: string) => ({
  data: { type: "contacts", attributes: { name, status: "Partner - Financial", pledge_amount: "25", tag_list: "moving" }, relationships: { account_list: { data: { type: "account_lists", id: listId } } } },
});

async function fillList(contacts: number): Promise<string[]> {
  const ids: string[] = [];
  const giving = await givingTo(listId, on("LIST_DB_1"));
  for (let n = 0; n < contacts; n++) {
    const contact = await post("/api/v2/contacts", contactBody(`Mover, Partner ${n}`), owner.token);
    expect(contact.status, contact.text).toBe(201);
    ids.push(contact.body.data.id);
    const person = await post(`/api/v2/contacts/${contact.body.data.id}/people`, { data: { type: "people", attributes: { first_name: `Person ${n}` } } }, owner.token);
    await post(`/api/v2/contacts/${contact.body.data.id}/people/${person.body.data.id}/email_addresses`, { data: { type: "email_addresses", attributes: { email: `p${n}@example.org`, primary: true } } }, owner.token);
    await post(
      "/api/v2/tasks",
      { data: { type: "tasks", attributes: { subject: `Call ${n}`, start_at: `${day(n % 5)}T10:00:00Z` }, relationships: { account_list: { data: { type: "account_lists", id: listId } }, contacts: { data: [{ type: "contacts", id: contact.body.data.id }] } } } },
      owner.token,
    );
    await giving.give(contact.body.data.id, `${10 + n}`, day(-n));
    // An address and a referral: kept rows owned through the contact (the panels' places and referrers).
    await post(`/api/v2/contacts/${contact.body.data.id}/addresses`, { data: { type: "addresses", attributes: { city: `City ${n % 3}`, state: "ST" } } }, owner.token);
    if (n > 0) {
      const referral = await post(`/api/v2/contacts/${ids[n - 1]}/referrals`, { data: { type: "contact_referrals", relationships: { referred_to: { data: { type: "contacts", id: contact.body.data.id } } } } }, owner.token);
      expect(referral.status, referral.text).toBe(201);
    }
  }
  return ids;
}

/** An env whose list databases fail after `calls` statements: a job killed part way. */
function killedAfter(calls: number): Bindings {
  let left = calls;
  const failing = (binding: D1Database) =>
    new Proxy(binding, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (property !== "prepare" && property !== "batch") return typeof value === "function" ? value.bind(target) : value;
        return (...args: unknown[]) => {
          if (left-- <= 0) throw new Error("the job was killed");
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  return { ...(env as unknown as Bindings), LIST_DB_1: failing(env.LIST_DB_1!), LIST_DB_2: failing(env.LIST_DB_2!), LIST_MOVE_QUEUE: { send: async () => {} } as unknown as Bindings["LIST_MOVE_QUEUE"] };
}

const quiet = { ...(env as unknown as Bindings), LIST_MOVE_QUEUE: { send: async () => {} } as unknown as Bindings["LIST_MOVE_QUEUE"] };

beforeEach(async () => {
  owner = await placedUser(["LIST_DB_1"]);
  listId = owner.lists[0];
});

describe("moving a list", () => {
  it("records and refuses through the declared triggers, on every table a list owns", async () => {
    // The webhook outbox's triggers read it too: a list being removed after a move records no events.
    await expectTriggersAsDeclared(["moving_lists"], [...listMoveTriggers(), ...webhookTriggers()]);
    expect(LIST_TABLES.map((table) => table.name)).toEqual(expect.arrayContaining(["contacts", "people", "email_addresses", "tasks", "activity_contacts", "donations", "pledges", "appeals", "notifications", "imports"]));
    // Parents come before the rows that point at them.
    const at = (name: string) => LIST_TABLES.findIndex((table) => table.name === name);
    expect(at("contacts")).toBeLessThan(at("people"));
    expect(at("people")).toBeLessThan(at("email_addresses"));
    expect(at("notifications")).toBeLessThan(at("tasks"));
  });

  it("refuses an unknown list or database, the list's own database and a second move, changing nothing", async () => {
    const unknown = await operator("POST", "/account_lists/00000000-0000-4000-8000-000000000000/move", { database: "LIST_DB_2" });
    expect(unknown.status).toBe(404);
    const badName = await operator("POST", `/account_lists/${listId}/move`, { database: "LIST_DB_9" });
    expect(badName.status).toBe(400);
    expect(badName.body.errors[0].detail).toBe("database LIST_DB_9 is not a list database of this deployment");
    const notD1 = await operator("POST", `/account_lists/${listId}/move`, { database: "IMPORT_FILES" });
    expect(notD1.status).toBe(400);
    const same = await operator("POST", `/account_lists/${listId}/move`, { database: "LIST_DB_1" });
    expect(same.status).toBe(409);
    expect(same.body.errors[0].detail).toBe("The account list is already on LIST_DB_1");
    expect((await placementOf(database(env.DB), listId))).toMatchObject({ database: "LIST_DB_1", state: "placed" });
    const started = await operator("POST", `/account_lists/${listId}/move`, { database: "LIST_DB_2" });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ database: "LIST_DB_1", state: "copying", other: "LIST_DB_2" });
    const second = await operator("POST", `/account_lists/${listId}/move`, { database: "DB" });
    expect(second.status).toBe(409);
    expect((await placementOf(database(env.DB), listId))).toMatchObject({ state: "copying", other: "LIST_DB_2" });
  });

  it("moves a list in use: acknowledged writes arrive once, refusals are 503 while switching, the old database keeps nothing", async () => {
    const contacts = await fillList(6);
    const before = await rowsOfList("LIST_DB_1");
    expect(Object.keys(before)).toEqual(expect.arrayContaining(["contacts", "people", "email_addresses", "tasks", "activity_contacts", "donations", "contact_donor_accounts", "contact_tags"]));
    expect((await operator("POST", `/account_lists/${listId}/move`, { database: "LIST_DB_2" })).status).toBe(202);

    const acknowledged = new Set<string>();
    const deleted = new Set<string>();
    const refused: ApiResponse[] = [];
    let writes = 0;
    /** One writer's turn: create, update and delete, as clients do while the list moves. */
    async function write(): Promise<void> {
      const n = writes++;
      const created = await post("/api/v2/contacts", contactBody(`Written, During ${n}`), owner.token);
      if (created.status === 201) acknowledged.add(created.body.data.id);
      else refused.push(created);
      const target = contacts[n % contacts.length];
      if (!deleted.has(target)) {
        const updated = await put(`/api/v2/contacts/${target}`, { data: { type: "contacts", id: target, attributes: { notes: `note ${n}`, overwrite: true } } }, owner.token);
        if (updated.status !== 200) refused.push(updated);
      }
      if (n % 3 === 2 && !deleted.has(contacts[n % contacts.length])) {
        const gone = await del(`/api/v2/contacts/${contacts[n % contacts.length]}`, owner.token);
        if (gone.status === 204) deleted.add(contacts[n % contacts.length]);
        else refused.push(gone);
      }
    }

    let steps = 0;
    let switchedWrites = 0;
    for (;;) {
      const placement = (await placementOf(database(env.DB), listId))!;
      if (placement.state === "switching") {
        // Writes during the switch are refused with 503 and Retry-After, and store nothing.
        const refusedWrite = await post("/api/v2/contacts", contactBody("Refused, While Switching"), owner.token);
        expect(refusedWrite.status).toBe(503);
        expect(refusedWrite.headers.get("Retry-After")).toBe("1");
        switchedWrites++;
        // Reads go on.
        expect((await get(`/api/v2/contacts/${contacts[0]}`, owner.token)).status).not.toBe(503);
      } else if (placement.state === "copying") {
        await write();
      }
      const step = await moveStep(quiet, listId, Date.now() + (placement.state === "cleaning" ? 60_000 : 0));
      steps++;
      if (step.next === "done") break;
      expect(steps).toBeLessThan(500);
    }
    expect(switchedWrites).toBe(1);
    expect(refused).toEqual([]);
    const placed = (await placementOf(database(env.DB), listId))!;
    expect(placed).toMatchObject({ database: "LIST_DB_2", state: "placed", other: null });
    expect(placed.switch_ms).toBeGreaterThanOrEqual(0);

    // Every acknowledged write is on the new database exactly once; what was deleted is gone; nothing refused.
    const names = await on("LIST_DB_2").all<{ id: string; name: string; notes: string | null }>(sql`SELECT id, name, notes FROM contacts WHERE account_list_id = ${listId}`);
    for (const id of acknowledged) expect(names.filter((row) => row.id === id)).toHaveLength(1);
    for (const id of deleted) expect(names.some((row) => row.id === id)).toBe(false);
    expect(names.some((row) => row.name === "Refused, While Switching")).toBe(false);
    expect(names).toHaveLength(contacts.length - deleted.size + acknowledged.size);
    const last = writes - 1;
    const updatedLast = contacts[last % contacts.length];
    if (!deleted.has(updatedLast)) expect(names.find((row) => row.id === updatedLast)?.notes).toBe(`note ${last}`);

    // The rest of the list came along, and its kept counts and totals are right there.
    const after = await rowsOfList("LIST_DB_2");
    for (const table of ["people", "email_addresses", "tasks", "activity_contacts", "donations", "contact_donor_accounts"]) expect(after[table]).toBeGreaterThan(0);
    await expectCountsKept(env.LIST_DB_2!);
    // The old database holds none of it.
    expect(await rowsOfList("LIST_DB_1")).toEqual({});
    const [leftovers] = await on("LIST_DB_1").all<{ n: number }>(sql`SELECT (SELECT count(*) FROM account_lists WHERE id = ${listId}) + (SELECT count(*) FROM list_row_counts WHERE account_list_id = ${listId}) + (SELECT count(*) FROM moving_lists WHERE account_list_id = ${listId}) + (SELECT count(*) FROM list_changes WHERE account_list_id = ${listId}) + (SELECT count(*) FROM kept_sums WHERE owner_id = ${listId}) AS n`);
    expect(Number(leftovers.n)).toBe(0);
    // The API serves it from its new database.
    const listed = await get("/api/v2/contacts?per_page=0", owner.token);
    expect(listed.body.meta.pagination.total_count).toBe(names.length);
  });

  it("answers the tasks' panel of a moved list from its new database, following its contacts there", async () => {
    const [first] = await fillList(2);
    const path = `/api/v2/tasks/filters?filter[account_list_id]=${listId}`;
    const options = async () => {
      const answer = await request("GET", path, { token: owner.token, raw: true });
      expect(answer.status, answer.text).toBe(200);
      const items = answer.body.data as Array<{ attributes: { name: string; options?: Array<{ name: string }> } }>;
      return items.find((item) => item.attributes.name === "contact_ids")!.attributes.options!.map((option) => option.name);
    };
    const stamps = (name: string) => on(name).all<{ n: number }>(sql`SELECT count(*) AS n FROM contact_name_stamps WHERE account_list_id = ${listId}`).then(([row]) => Number(row.n));
    const before = await options();
    expect(before).toEqual(["-- Any --", "Mover, Partner 0", "Mover, Partner 1"]);
    // Read twice: the second answer may come from what the first kept.
    expect(await options()).toEqual(before);
    expect((await operator("POST", `/account_lists/${listId}/move`, { database: "LIST_DB_2" })).status).toBe(202);
    for (let steps = 0; ; steps++) {
      expect(steps).toBeLessThan(500);
      if ((await moveStep(quiet, listId, Date.now() + 60_000)).next === "done") break;
    }
    // The stamp lives where the contacts are: the copies stamped the list on its new database, the old one forgot it.
    expect(await stamps("LIST_DB_1")).toBe(0);
    expect(await stamps("LIST_DB_2")).toBe(1);
    expect(await options()).toEqual(before);
    const renamed = await put(`/api/v2/contacts/${first}`, { data: { type: "contacts", id: first, attributes: { name: "Moved, Partner 0", overwrite: true } } }, owner.token);
    expect(renamed.status, renamed.text).toBe(200);
    expect(await options()).toEqual(["-- Any --", "Moved, Partner 0", "Mover, Partner 1"]);
  });

  it("moves a list's webhooks with it: each event arrives once, written before or during the move, and neither the copies nor the old rows' removal record any", async () => {
    const receiver = new Receiver();
    // What the API writes (the gifts here are written straight to the database, where nothing sends them).
    const endpoint = await endpointAt(receiver, { list: { id: listId }, token: owner.token }, ["contact.created", "contact.updated", "task.created"]);
    await fillList(2);
    const count = (name: string, table: string) => on(name).all<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.identifier(table)} WHERE account_list_id = ${listId}`).then(([row]) => Number(row.n));
    const before = await count("LIST_DB_1", "webhook_events");
    expect(before).toBeGreaterThan(0);
    expect((await operator("POST", `/account_lists/${listId}/move`, { database: "LIST_DB_2" })).status).toBe(202);
    // Contacts written and changed while the list is copied: recorded on the old database, copied with the rest.
    const during: string[] = [];
    for (let steps = 0; ; steps++) {
      const placement = (await placementOf(database(env.DB), listId))!;
      if (placement.state === "copying") {
        const created = await post("/api/v2/contacts", contactBody(`During, Move ${steps}`), owner.token);
        expect(created.status).toBe(201);
        during.push(created.body.data.id);
        const updated = await put(`/api/v2/contacts/${during[0]}`, { data: { type: "contacts", id: during[0], attributes: { notes: `step ${steps}`, overwrite: true } } }, owner.token);
        expect(updated.status).toBe(200);
      }
      if ((await moveStep(quiet, listId, Date.now() + 60_000)).next === "done") break;
      expect(steps).toBeLessThan(500);
    }
    expect(during.length).toBeGreaterThan(0);
    expect(await count("LIST_DB_1", "webhook_events")).toBe(0);
    expect(await count("LIST_DB_2", "webhooks")).toBe(1);
    // Every event once: those before the move, a created and an update per step during it; a delivery each.
    expect(await count("LIST_DB_2", "webhook_events")).toBe(before + 2 * during.length);
    expect(await count("LIST_DB_2", "webhook_deliveries")).toBe(before + 2 * during.length);
    const created = await on("LIST_DB_2").all<{ resource_id: string }>(sql`SELECT resource_id FROM webhook_events WHERE account_list_id = ${listId} AND event_type = 'contact.created'`);
    for (const id of during) expect(created.filter((event) => event.resource_id === id)).toHaveLength(1);
    // It goes on from its new database.
    const arrived = await post("/api/v2/contacts", contactBody("Arrived, Anna"), owner.token);
    expect(arrived.status).toBe(201);
    await vi.waitUntil(() => receiver.received.some((r) => r.payload.data.id === arrived.body.data.id), { timeout: 10_000, interval: 50 });
    receiver.verifyAll(endpoint.secret);
    vi.restoreAllMocks();
    stopAnswering();
  });

  it("moves a list's integrations with it, a connection replaced while it is copied arriving as replaced", async () => {
    const mailChimp = `/api/v2/account_lists/${listId}/mail_chimp_account`;
    const prayerLetters = `/api/v2/account_lists/${listId}/prayer_letters_account`;
    expect((await post(mailChimp, { data: { type: "mail_chimp_accounts", attributes: { api_key: "first-us1" } } }, owner.token)).status).toBe(201);
    const letters = await post(prayerLetters, { data: { type: "prayer_letters_accounts", attributes: { oauth2_token: "moving-token" } } }, owner.token);
    expect(letters.status).toBe(201);
    expect(await rowsOfList("LIST_DB_1")).toMatchObject({ mail_chimp_accounts: 1, prayer_letters_accounts: 1 });
    expect((await operator("POST", `/account_lists/${listId}/move`, { database: "LIST_DB_2" })).status).toBe(202);
    let replaced: string | undefined;
    for (let steps = 0; ; steps++) {
      const placement = (await placementOf(database(env.DB), listId))!;
      if (placement.state === "copying" && !replaced) {
        const connected = await post(mailChimp, { data: { type: "mail_chimp_accounts", attributes: { api_key: "second-us2", primary_list_id: "abc" } } }, owner.token);
        expect(connected.status, connected.text).toBe(201);
        replaced = connected.body.data.id;
      }
      if ((await moveStep(quiet, listId, Date.now() + 60_000)).next === "done") break;
      expect(steps).toBeLessThan(500);
    }
    expect(replaced).toBeDefined();
    expect(await rowsOfList("LIST_DB_1")).toEqual({});
    expect(await rowsOfList("LIST_DB_2")).toMatchObject({ mail_chimp_accounts: 1, prayer_letters_accounts: 1 });
    const [key] = await on("LIST_DB_2").all<{ id: string; api_key: string }>(sql`SELECT id, api_key FROM mail_chimp_accounts WHERE account_list_id = ${listId}`);
    expect(key).toEqual({ id: replaced, api_key: "second-us2" });
    // Answered from the new database.
    const shown = await get(mailChimp, owner.token);
    expect(shown.body.data).toMatchObject({ id: replaced, attributes: { primary_list_id: "abc", lists_link: "https://us2.admin.mailchimp.com/lists/" } });
    expect((await get(prayerLetters, owner.token)).body.data.id).toBe(letters.body.data.id);
    expect((await del(prayerLetters, owner.token)).status).toBe(204);
  });

  it("moves a list whose rows point at a user who has left it, and lets one run of the job at a time", async () => {
    await fillList(1);
    const helper = await placedUser(["LIST_DB_2"]);
    expect((await operator("PUT", `/account_lists/${listId}/members/${helper.id}`, {})).status).toBe(200);
    const task = await post(
      "/api/v2/tasks",
      { data: { type: "tasks", attributes: { subject: "Assigned" }, relationships: { account_list: { data: { type: "account_lists", id: listId } }, user: { data: { type: "users", id: helper.id } } } } },
      owner.token,
    );
    expect(task.status, task.text).toBe(201);
    expect((await operator("DELETE", `/account_lists/${listId}/members/${helper.id}`)).status).toBe(200);
    expect((await operator("POST", `/account_lists/${listId}/move`, { database: "LIST_DB_2" })).status).toBe(202);
    // While it moves, a record cannot move into it or out of it (its rows would stay behind), nor its user be erased.
    const other = await operator("POST", "/account_lists", { user: owner.id, name: "Other list", currency: "USD", database: "LIST_DB_1" });
    const elsewhere = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: "Elsewhere, Pat" }, relationships: { account_list: { data: { type: "account_lists", id: other.body.id } } } } }, owner.token);
    expect(elsewhere.status).toBe(201);
    const rehomed = await put(`/api/v2/contacts/${elsewhere.body.data.id}`, { data: { type: "contacts", id: elsewhere.body.data.id, attributes: { overwrite: true }, relationships: { account_list: { data: { type: "account_lists", id: listId } } } } }, owner.token);
    expect(rehomed.status).toBe(503);
    expect(rehomed.headers.get("Retry-After")).toBe("1");
    const [stays] = await on("LIST_DB_1").all<{ account_list_id: string }>(sql`SELECT account_list_id FROM contacts WHERE id = ${elsewhere.body.data.id}`);
    expect(stays.account_list_id).toBe(other.body.id);
    const erasing = await operator("POST", `/users/${owner.id}/erasure`);
    expect(erasing.status).toBe(409);
    expect(erasing.body.errors[0].detail).toContain("is moving to another database");
    const [user] = await database(env.DB).all<{ disabled_at: string | null }>(sql`SELECT disabled_at FROM users WHERE id = ${owner.id}`);
    expect(user.disabled_at).toBeNull();
    // A second run while the first holds the move comes back later, doing nothing.
    await database(env.DB).run(sql`UPDATE list_placements SET lease_until = '2999-01-01T00:00:00Z' WHERE account_list_id = ${listId}`);
    expect(await moveStep(quiet, listId)).toEqual({ next: "later", seconds: 60 });
    expect((await placementOf(database(env.DB), listId))).toMatchObject({ state: "copying", cursor_table: null });
    await database(env.DB).run(sql`UPDATE list_placements SET lease_until = NULL WHERE account_list_id = ${listId}`);
    for (let steps = 0; ; steps++) {
      expect(steps).toBeLessThan(500);
      const placement = (await placementOf(database(env.DB), listId))!;
      if ((await moveStep(quiet, listId, Date.now() + (placement.state === "cleaning" ? 60_000 : 0))).next === "done") break;
    }
    expect((await placementOf(database(env.DB), listId))).toMatchObject({ database: "LIST_DB_2", state: "placed" });
    const [moved] = await on("LIST_DB_2").all<{ user_id: string }>(sql`SELECT user_id FROM tasks WHERE id = ${task.body.data.id}`);
    expect(moved.user_id).toBe(helper.id);
  });

  it("fails a move that would leave a row behind, keeping the list where it was and removing the partial copy", async () => {
    const [contact] = await fillList(1);
    // A referral to a contact of another list on the old database: the new database cannot hold it.
    const other = await operator("POST", "/account_lists", { user: owner.id, name: "Referrers", currency: "USD", database: "LIST_DB_1" });
    const referrer = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: "Referrer, Ray" }, relationships: { account_list: { data: { type: "account_lists", id: other.body.id } } } } }, owner.token);
    const referral = crypto.randomUUID();
    await on("LIST_DB_1").run(sql`INSERT INTO contact_referrals (id, referred_by_id, referred_to_id, created_at, updated_at) VALUES (${referral}, ${contact}, ${referrer.body.data.id}, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`);
    const before = await rowsOfList("LIST_DB_1");
    expect((await operator("POST", `/account_lists/${listId}/move`, { database: "LIST_DB_2" })).status).toBe(202);
    for (let steps = 0; ; steps++) {
      expect(steps).toBeLessThan(500);
      if ((await moveStep(quiet, listId)).next === "done") break;
    }
    const placement = (await placementOf(database(env.DB), listId))!;
    expect(placement).toMatchObject({ database: "LIST_DB_1", state: "placed", other: null });
    // It fails as the row is copied, before the rest of the list is.
    expect(placement.failure).toBe(`rows the new database could not take: contact_referrals ${referral}`);
    expect(placement.rows_copied).toBeLessThan(Object.values(before).reduce((sum, n) => sum + n, 0));
    // Nothing left behind, nothing lost, and the list takes writes again where it is.
    expect(await rowsOfList("LIST_DB_2")).toEqual({});
    expect(await rowsOfList("LIST_DB_1")).toEqual(before);
    const [copies] = await on("LIST_DB_2").all<{ n: number }>(sql`SELECT (SELECT count(*) FROM account_lists WHERE id = ${listId}) + (SELECT count(*) FROM kept_sums WHERE owner_id = ${listId}) AS n`);
    expect(Number(copies.n)).toBe(0);
    expect((await post("/api/v2/contacts", contactBody("After, Failure"), owner.token)).status).toBe(201);
    const [changes] = await on("LIST_DB_1").all<{ n: number }>(sql`SELECT (SELECT count(*) FROM moving_lists WHERE account_list_id = ${listId}) + (SELECT count(*) FROM list_changes WHERE account_list_id = ${listId}) AS n`);
    expect(Number(changes.n)).toBe(0);
  });

  it("fails a move when a row written meanwhile cannot be taken, as its record is copied, the list staying where it was", async () => {
    const [contact] = await fillList(2);
    const other = await operator("POST", "/account_lists", { user: owner.id, name: "Referrers", currency: "USD", database: "LIST_DB_1" });
    const referrer = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: "Referrer, Rita" }, relationships: { account_list: { data: { type: "account_lists", id: other.body.id } } } } }, owner.token);
    expect((await operator("POST", `/account_lists/${listId}/move`, { database: "LIST_DB_2" })).status).toBe(202);
    // Every table copied: then the referral to another list's contact is written, and recorded.
    for (let steps = 0; (await placementOf(database(env.DB), listId))!.cursor_table !== "$changes"; steps++) {
      expect(steps).toBeLessThan(100);
      await moveStep(quiet, listId);
    }
    const referral = crypto.randomUUID();
    await on("LIST_DB_1").run(sql`INSERT INTO contact_referrals (id, referred_by_id, referred_to_id, created_at, updated_at) VALUES (${referral}, ${contact}, ${referrer.body.data.id}, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`);
    const before = await rowsOfList("LIST_DB_1");
    for (let steps = 0; ; steps++) {
      expect(steps).toBeLessThan(100);
      if ((await moveStep(quiet, listId)).next === "done") break;
    }
    const placement = (await placementOf(database(env.DB), listId))!;
    expect(placement).toMatchObject({ database: "LIST_DB_1", state: "placed", other: null, failure: `rows the new database could not take: contact_referrals ${referral}` });
    expect(await rowsOfList("LIST_DB_2")).toEqual({});
    expect(await rowsOfList("LIST_DB_1")).toEqual(before);
    expect((await post("/api/v2/contacts", contactBody("After, Failure"), owner.token)).status).toBe(201);
  });

  it("finishes a move killed in each step when it runs again", async () => {
    await fillList(3);
    const before = await rowsOfList("LIST_DB_1");
    expect((await operator("POST", `/account_lists/${listId}/move`, { database: "LIST_DB_2" })).status).toBe(202);
    const killedIn = new Set<string>();
    let kills = 0;
    for (let steps = 0; ; steps++) {
      expect(steps).toBeLessThan(500);
      const placement = (await placementOf(database(env.DB), listId))!;
      const later = Date.now() + (placement.state === "cleaning" ? 60_000 : 0);
      // First a run killed part way (after a few statements), then the run that goes on from where it stopped.
      try {
        await moveStep(killedAfter(1 + (kills++ % 4)), listId, later);
      } catch (error) {
        expect(`${String(error)} ${String((error as Error).cause)}`).toContain("the job was killed");
        killedIn.add(placement.state);
      }
      const step = await moveStep(quiet, listId, later);
      if (step.next === "done") break;
    }
    expect([...killedIn].sort()).toEqual(["cleaning", "copying", "switching"]);
    expect((await placementOf(database(env.DB), listId))).toMatchObject({ database: "LIST_DB_2", state: "placed" });
    expect(await rowsOfList("LIST_DB_2")).toEqual(before);
    expect(await rowsOfList("LIST_DB_1")).toEqual({});
    await expectCountsKept(env.LIST_DB_2!);
  });

  it("walks each table by rowid across windows and gaps, another list's rows between the list's, copying the list's alone", async () => {
    const contacts = await fillList(3);
    const neighbour = await operator("POST", "/account_lists", { user: owner.id, name: "Neighbours", currency: "USD", database: "LIST_DB_1" });
    const stays = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: "Neighbour, Nell" }, relationships: { account_list: { data: { type: "account_lists", id: neighbour.body.id } } } } }, owner.token);
    expect(stays.status, stays.text).toBe(201);
    // Rows far apart: one walk window (5,000 rowids) apart, then a gap of many windows, the other list's in between.
    const db = on("LIST_DB_1");
    await db.run(sql`UPDATE contacts SET rowid = 7000 WHERE id = ${contacts[1]}`);
    await db.run(sql`UPDATE contacts SET rowid = 9000 WHERE id = ${stays.body.data.id}`);
    await db.run(sql`UPDATE contacts SET rowid = 900000 WHERE id = ${contacts[2]}`);
    await db.run(sql`UPDATE email_addresses SET rowid = rowid + 50000 WHERE person_id IN (SELECT id FROM people WHERE contact_id = ${contacts[2]})`);
    const before = await rowsOfList("LIST_DB_1");
    expect((await operator("POST", `/account_lists/${listId}/move`, { database: "LIST_DB_2" })).status).toBe(202);
    let steps = 0;
    for (; ; steps++) {
      expect(steps).toBeLessThan(500);
      const placement = (await placementOf(database(env.DB), listId))!;
      if ((await moveStep(quiet, listId, Date.now() + (placement.state === "cleaning" ? 60_000 : 0))).next === "done") break;
    }
    // Gaps are skipped, not walked a window at a time (900,000 rowids would take 180 windows of contacts alone).
    expect(steps).toBeLessThan(15);
    expect(await rowsOfList("LIST_DB_2")).toEqual(before);
    expect(await rowsOfList("LIST_DB_1")).toEqual({});
    const placement = (await placementOf(database(env.DB), listId))!;
    expect(placement).toMatchObject({ database: "LIST_DB_2", state: "placed" });
    expect(placement.rows_copied).toBe(Object.values(before).reduce((sum, n) => sum + n, 0));
    // The other list's contact stays where it was, and is not copied.
    const [[left], [copied]] = [await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM contacts WHERE id = ${stays.body.data.id}`), await on("LIST_DB_2").all<{ n: number }>(sql`SELECT count(*) AS n FROM contacts WHERE id = ${stays.body.data.id}`)];
    expect([Number(left.n), Number(copied.n)]).toEqual([1, 0]);
    await expectCountsKept(env.LIST_DB_2!);
  });

  it("moves through the queue, from the operator's request to placed", async () => {
    await fillList(2);
    expect((await operator("POST", `/account_lists/${listId}/move`, { database: "DB" })).status).toBe(202);
    // The local queue delivers each step; cleaning waits for the viewer cache's seconds (10 at least).
    for (let waited = 0; (await placementOf(database(env.DB), listId))!.state !== "cleaning"; waited++) {
      expect(waited).toBeLessThan(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await placementOf(database(env.DB), listId))).toMatchObject({ database: "DB", other: "LIST_DB_1" });
    const listed = await get("/api/v2/contacts?per_page=0", owner.token);
    expect(listed.body.meta.pagination.total_count).toBe(2);
    const placements = await operator("GET", "/placements");
    expect(placements.body.placements.find((row: { account_list_id: string }) => row.account_list_id === listId)).toMatchObject({ database: "DB", state: "cleaning" });
  });
});

describe("an id names one record in the whole deployment", () => {
  it("refuses another user's create under an id a record holds on another database, and the list then moves there", async () => {
    // The owner's list is on LIST_DB_1 (beforeEach); Alice's is alone on LIST_DB_2.
    const alice = await placedUser(["LIST_DB_2"]);
    const inList = (list: string) => ({ account_list: { data: { type: "account_lists", id: list } } });
    const chosen = crypto.randomUUID();
    const personId = crypto.randomUUID();
    const contact = await post(
      "/api/v2/contacts",
      { data: { type: "contacts", id: chosen, attributes: { name: "Chosen, Id" }, relationships: { ...inList(alice.lists[0]), people: { data: [{ type: "people", id: personId }] } } }, included: [{ type: "people", id: personId, attributes: { first_name: "Ida" } }] },
      alice.token,
    );
    expect(contact.status, contact.text).toBe(201);
    // An id the service made: another user can learn it (a list they coached once), never take it.
    const task = await post("/api/v2/tasks", { data: { type: "tasks", attributes: { subject: "Made here", activity_type: "Call" }, relationships: inList(alice.lists[0]) } }, alice.token);
    const made = task.body.data.id as string;

    const mine = inList(listId);
    const refusals = [
      await post("/api/v2/contacts", { data: { type: "contacts", id: chosen, attributes: { name: "Chosen, Id" }, relationships: mine } }, owner.token),
      await post("/api/v2/tasks", { data: { type: "tasks", id: made, attributes: { subject: "Made here", activity_type: "Call" }, relationships: mine } }, owner.token),
      await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: "Holder, Of" }, relationships: { ...mine, people: { data: [{ type: "people", id: personId }] } } }, included: [{ type: "people", id: personId, attributes: { first_name: "Ida" } }] }, owner.token),
    ];
    expect(errorOf(refusals[0], 409).detail).toBe(`duplicate key value violates unique constraint "contacts_pkey": Key (id)=(${chosen}) already exists.`);
    expect(errorOf(refusals[1], 409).detail).toContain(`"activities_pkey": Key (id)=(${made})`);
    expect(errorOf(refusals[2], 409).detail).toContain(`"people_pkey": Key (id)=(${personId})`);
    const bulk = await request("POST", "/api/v2/tasks/bulk", { token: owner.token, raw: true, body: { data: [{ data: { type: "tasks", id: made, attributes: { subject: "Bulk", activity_type: "Call" }, relationships: mine } }] } });
    expect(bulk.body[0].errors[0]).toMatchObject({ status: "409" });
    const batched = await post("/api/v2/batch", { requests: [{ method: "POST", path: "/api/v2/contacts", body: { data: { type: "contacts", id: chosen, attributes: { name: "Batched" }, relationships: mine } } }] }, owner.token, { raw: true });
    expect(batched.body[0].status).toBe(409);
    // Nothing of the attempts is stored, and no claim is left for them.
    expect(await copiesById("contacts", chosen)).toEqual({ DB: 0, LIST_DB_1: 0, LIST_DB_2: 1 });
    expect(await copiesById("tasks", made)).toEqual({ DB: 0, LIST_DB_1: 0, LIST_DB_2: 1 });
    expect(await copiesById("people", personId)).toEqual({ DB: 0, LIST_DB_1: 0, LIST_DB_2: 1 });
    const claims = await database(env.DB).all<{ table_name: string; anchor: string }>(sql`SELECT table_name, anchor FROM client_ids WHERE id IN (${chosen}, ${made}, ${personId}) ORDER BY table_name`);
    expect(claims).toEqual([
      { table_name: "contacts", anchor: alice.lists[0] },
      { table_name: "people", anchor: chosen },
    ]);

    // Alice's list moves to the owner's database: nothing there clashes with it.
    expect((await operator("POST", `/account_lists/${alice.lists[0]}/move`, { database: "LIST_DB_1" })).status).toBe(202);
    for (let steps = 0; ; steps++) {
      expect(steps).toBeLessThan(500);
      if ((await moveStep(quiet, alice.lists[0], Date.now() + 60_000)).next === "done") break;
    }
    expect(await placementOf(database(env.DB), alice.lists[0])).toMatchObject({ database: "LIST_DB_1", state: "placed", failure: null });
    expect(await copiesById("contacts", chosen)).toEqual({ DB: 0, LIST_DB_1: 1, LIST_DB_2: 0 });
    // Her create sent again after the move is the same record; the owner's attempt is still refused.
    const again = await post("/api/v2/contacts", { data: { type: "contacts", id: chosen, attributes: { name: "Chosen, Id" }, relationships: inList(alice.lists[0]) } }, alice.token);
    expect(again.status, again.text).toBe(201);
    errorOf(await post("/api/v2/contacts", { data: { type: "contacts", id: chosen, attributes: { name: "Chosen, Id" }, relationships: mine } }, owner.token), 409);
  });
});
