/**
 * A record moved to another of the viewer's lists: it goes with everything it owns, is refused while records of its
 * old list are linked with it, and answers alike whether the two lists share a database or not. Between two
 * databases the move is recorded in the directory until done; the five-minute job settles one cut short.
 */
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Bindings } from "../src/env";
import { errorOf, get, post, put, request, type ApiResponse } from "./helpers/api";
import { runCron } from "./helpers/events";
import { uuid } from "./helpers/factories";
import { on, placedUser, type PlacedUser } from "./helpers/placement";
import { Receiver, endpointAt } from "./helpers/webhook-receiver";

const CONTACTS = "/api/v2/contacts";
const TASKS = "/api/v2/tasks";

/** Two users with the same two lists: on one list database, and on two. */
let together: PlacedUser;
let apart: PlacedUser;
const LAYOUTS: Array<[string, () => PlacedUser, [string, string]]> = [
  ["on one database", () => together, ["LIST_DB_1", "LIST_DB_1"]],
  ["on two databases", () => apart, ["LIST_DB_1", "LIST_DB_2"]],
];

beforeAll(async () => {
  together = await placedUser(["LIST_DB_1", "LIST_DB_1"]);
  apart = await placedUser(["LIST_DB_1", "LIST_DB_2"]);
});

const listLink = (id: string) => ({ data: { type: "account_lists", id } });
const moveBody = (type: string, id: string, listId: string, extra: Record<string, unknown> = {}) => ({
  data: { type, id, attributes: { overwrite: true }, relationships: { account_list: listLink(listId), ...extra } },
});

/**
 * A document with its ids and times blanked and its arrays in a fixed order: two users' answers compared (their
 * records' ids differ, and ids order ties, such as a contact's two people created in one second).
 */
function shape(document: unknown): unknown {
  const text = JSON.stringify(document)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "id")
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "time");
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, sorted(inner)]));
    return value;
  };
  return sorted(JSON.parse(text));
}

/** How many rows with this id each database holds, and where the one is. */
async function heldWhere(table: string, id: string, column = "id"): Promise<string[]> {
  const held: string[] = [];
  // The directory alone keeps record moves.
  for (const name of table === "record_moves" ? ["DB"] : ["DB", "LIST_DB_1", "LIST_DB_2"]) {
    const [row] = await on(name).all<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = ${id}`);
    for (let n = 0; n < Number(row.n); n++) held.push(name);
  }
  return held;
}

async function listOf(table: string, id: string, database: string): Promise<string | undefined> {
  const [row] = await on(database).all<{ list: string }>(sql`SELECT account_list_id AS list FROM ${sql.identifier(table)} WHERE id = ${id}`);
  return row?.list;
}

/** Ids that sort alike for both users (the first digit tells them apart), so their answers list records alike. */
let made = 0;
const idFor = (user: PlacedUser, kind: number) => `${user === together ? 1 : 2}${String(++made).padStart(7, "0")}-0000-4000-8000-${String(kind).padStart(12, "0")}`;

/** A contact of the user's first list with a person (an e-mail address, a phone number), an address and a tag. */
async function contactWithDetails(user: PlacedUser, name: string) {
  const ids = { contact: idFor(user, 1), person: idFor(user, 2), mail: idFor(user, 3), phone: idFor(user, 4), address: idFor(user, 5) };
  const created = await post(
    CONTACTS,
    { data: { type: "contacts", id: ids.contact, attributes: { name, status: "Partner - Financial", pledge_amount: "25", tag_list: "moving" }, relationships: { account_list: listLink(user.lists[0]) } } },
    user.token,
  );
  expect(created.status, created.text).toBe(201);
  const detailed = await put(
    `${CONTACTS}/${ids.contact}`,
    {
      data: {
        type: "contacts",
        id: ids.contact,
        attributes: { overwrite: true },
        relationships: { people: { data: [{ type: "people", id: ids.person }] }, addresses: { data: [{ type: "addresses", id: ids.address }] } },
      },
      included: [
        {
          type: "people",
          id: ids.person,
          attributes: { first_name: "Mo", last_name: "Ving" },
          relationships: { email_addresses: { data: [{ type: "email_addresses", id: ids.mail }] }, phone_numbers: { data: [{ type: "phone_numbers", id: ids.phone }] } },
        },
        { type: "email_addresses", id: ids.mail, attributes: { email: "mo@example.org", primary: true } },
        { type: "phone_numbers", id: ids.phone, attributes: { number: "+1 555 010 2030", location: "mobile" } },
        { type: "addresses", id: ids.address, attributes: { street: "1 Moving Way", city: "Orlando", primary_mailing_address: true } },
      ],
    },
    user.token,
  );
  expect(detailed.status, detailed.text).toBe(200);
  return ids;
}

const INCLUDE = "?include=people,people.email_addresses,people.phone_numbers,addresses";

describe("a contact moved to another of the viewer's lists", () => {
  it("goes with its people, their details, its addresses and tags, answered alike in both layouts", async () => {
    const answers: unknown[] = [];
    for (const [, user, databases] of LAYOUTS) {
      const ids = await contactWithDetails(user(), "Ving, Mo");
      const moved = await put(`${CONTACTS}/${ids.contact}${INCLUDE}`, moveBody("contacts", ids.contact, user().lists[1]), user().token);
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.data.relationships.account_list.data.id).toBe(user().lists[1]);
      expect(moved.body.data.attributes.tag_list).toEqual(["moving"]);
      expect([...new Set(moved.body.included.map((entry: { type: string }) => entry.type))].sort()).toEqual(["addresses", "email_addresses", "people", "phone_numbers"]);
      answers.push(shape(moved.body));

      // One copy of each row, on the new list's database, under the new list.
      const [, newDatabase] = databases;
      expect(await heldWhere("contacts", ids.contact)).toEqual([newDatabase]);
      expect(await listOf("contacts", ids.contact, newDatabase)).toBe(user().lists[1]);
      for (const [table, id] of [["people", ids.person], ["email_addresses", ids.mail], ["phone_numbers", ids.phone], ["addresses", ids.address]]) {
        expect(await heldWhere(table, id), table).toEqual([newDatabase]);
      }
      expect(await heldWhere("contact_tags", ids.contact, "contact_id")).toEqual([newDatabase]);
      // Not deleted, for offline clients: it is still theirs.
      expect(await heldWhere("deleted_records", ids.contact, "deletable_id")).toEqual([]);
      expect(await heldWhere("record_moves", ids.contact)).toEqual([]);

      // The lists' pages and counts follow it.
      const inNew = await get(`${CONTACTS}?filter[account_list_id]=${user().lists[1]}&fields[contacts]=name`, user().token);
      const inOld = await get(`${CONTACTS}?filter[account_list_id]=${user().lists[0]}&fields[contacts]=name`, user().token);
      expect(inNew.body.data.map((row: { id: string }) => row.id)).toContain(ids.contact);
      expect(inOld.body.data.map((row: { id: string }) => row.id)).not.toContain(ids.contact);

      // It is written where it now is, as any record, and its details with it.
      const renamed = await put(
        `${CONTACTS}/${ids.contact}`,
        { data: { type: "contacts", id: ids.contact, attributes: { name: "Ving, Maud", updated_in_db_at: moved.body.data.attributes.updated_in_db_at } } },
        user().token,
      );
      expect(renamed.status, renamed.text).toBe(200);
      const person = await get(`${CONTACTS}/${ids.contact}/people/${ids.person}`, user().token);
      expect(person.status, person.text).toBe(200);
    }
    expect(answers[1]).toEqual(answers[0]);
  });

  it("is refused while a task or an appeal of its old list is linked with it, and changes nothing; moves once unlinked", async () => {
    const refusals: unknown[] = [];
    for (const [, user, databases] of LAYOUTS) {
      const ids = await contactWithDetails(user(), "Linked, Lee");
      const task = await post(
        TASKS,
        { data: { type: "tasks", attributes: { subject: "Call Lee", activity_type: "Call" }, relationships: { account_list: listLink(user().lists[0]), contacts: { data: [{ type: "contacts", id: ids.contact }] } } } },
        user().token,
      );
      expect(task.status, task.text).toBe(201);
      const appeal = await post("/api/v2/appeals", { data: { type: "appeals", attributes: { name: "Summer" }, relationships: { account_list: listLink(user().lists[0]) } } }, user().token);
      expect(appeal.status, appeal.text).toBe(201);
      const member = await post(
        `/api/v2/appeals/${appeal.body.data.id}/appeal_contacts`,
        { data: { type: "appeal_contacts", relationships: { contact: { data: { type: "contacts", id: ids.contact } } } } },
        user().token,
      );
      expect(member.status, member.text).toBe(201);
      const before = await get(`${CONTACTS}/${ids.contact}`, user().token);

      const refused = errorOf(await put(`${CONTACTS}/${ids.contact}`, moveBody("contacts", ids.contact, user().lists[1]), user().token), 409);
      expect(refused.source.pointer).toBe("/data/relationships/account_list/data");
      expect(refused.detail).toContain("(1 appeal, 1 task)");
      refusals.push(shape({ ...refused, meta: undefined }));
      // Nothing moved, nothing copied, nothing left in the directory.
      const [oldDatabase] = databases;
      expect(await heldWhere("contacts", ids.contact)).toEqual([oldDatabase]);
      expect(await heldWhere("people", ids.person)).toEqual([oldDatabase]);
      expect(await heldWhere("record_moves", ids.contact)).toEqual([]);
      expect((await get(`${CONTACTS}/${ids.contact}`, user().token)).body).toEqual(before.body);

      // Once the task and the appeal no longer name it, it moves.
      expect((await request("DELETE", `${TASKS}/${task.body.data.id}`, { token: user().token })).status).toBe(204);
      expect((await request("DELETE", `/api/v2/appeals/${appeal.body.data.id}/appeal_contacts/${member.body.data.id}`, { token: user().token })).status).toBe(204);
      const moved = await put(`${CONTACTS}/${ids.contact}`, moveBody("contacts", ids.contact, user().lists[1]), user().token);
      expect(moved.status, moved.text).toBe(200);
      expect(await heldWhere("contacts", ids.contact)).toEqual([databases[1]]);
    }
    expect(refusals[1]).toEqual(refusals[0]);
  });

  it("moves in a bulk update beside items that stay, each answered as its own update", async () => {
    const answers: unknown[] = [];
    for (const [, user, databases] of LAYOUTS) {
      const goes = await contactWithDetails(user(), "Bulk, Goes");
      const stays = await contactWithDetails(user(), "Bulk, Stays");
      const response = await request("PUT", `${CONTACTS}/bulk`, {
        token: user().token,
        raw: true,
        body: {
          data: [
            moveBody("contacts", goes.contact, user().lists[1]),
            { data: { type: "contacts", id: stays.contact, attributes: { overwrite: true, status: "Partner - Pray" } } },
          ],
        },
      });
      expect(response.status, response.text).toBe(200);
      const items = JSON.parse(response.text) as Array<{ data: { id: string; attributes: Record<string, unknown>; relationships: { account_list: { data: { id: string } } } } }>;
      expect(items.map((item) => item.data.relationships.account_list.data.id)).toEqual([user().lists[1], user().lists[0]]);
      expect(await heldWhere("contacts", goes.contact)).toEqual([databases[1]]);
      expect(await heldWhere("people", goes.person)).toEqual([databases[1]]);
      expect(await heldWhere("contacts", stays.contact)).toEqual([databases[0]]);
      answers.push(items.map((item) => [item.data.attributes.name, item.data.attributes.status]));
    }
    expect(answers[1]).toEqual(answers[0]);
  });

  it("records the webhook events one update records: updated in the new list, nothing in the old", async () => {
    const events: unknown[] = [];
    for (const [, user, databases] of LAYOUTS) {
      const ids = await contactWithDetails(user(), "Hooked, Hal");
      const receiver = new Receiver();
      for (const list of user().lists) await endpointAt(receiver, { list: { id: list }, token: user().token }, ["contact.created", "contact.updated", "contact.deleted"]);
      const moved = await put(`${CONTACTS}/${ids.contact}`, moveBody("contacts", ids.contact, user().lists[1]), user().token);
      expect(moved.status, moved.text).toBe(200);
      const recorded: string[] = [];
      for (const [index, list] of user().lists.entries()) {
        const rows = await on(databases[index]).all<{ type: string }>(sql`SELECT event_type AS type FROM webhook_events WHERE account_list_id = ${list} ORDER BY rowid`);
        recorded.push(...rows.map((row) => `list ${index + 1}: ${row.type}`));
      }
      expect(recorded).toEqual(["list 2: contact.updated"]);
      // Sent by the request that moved it, from the database the record went to.
      await vi.waitUntil(() => receiver.received.length >= 1, { timeout: 10_000, interval: 50 });
      expect(receiver.received.map((delivery) => [delivery.payload.type, delivery.payload.data.id])).toEqual([["contact.updated", ids.contact]]);
      events.push(recorded);
    }
    expect(events[1]).toEqual(events[0]);
  });
});

describe("someone else's record", () => {
  it("is not moved into the viewer's list, wherever either is kept: 403, nothing copied", async () => {
    const stranger = await placedUser(["LIST_DB_1"]);
    const ids = await contactWithDetails(stranger, "Stranger, Sam");
    const answers: unknown[] = [];
    for (const [, user] of LAYOUTS) {
      const refused = errorOf(await put(`${CONTACTS}/${ids.contact}`, moveBody("contacts", ids.contact, user().lists[1]), user().token), 403);
      answers.push(shape({ ...refused, meta: undefined }));
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(await heldWhere("contacts", ids.contact)).toEqual(["LIST_DB_1"]);
    expect(await listOf("contacts", ids.contact, "LIST_DB_1")).toBe(stranger.lists[0]);
    expect(await heldWhere("people", ids.person)).toEqual(["LIST_DB_1"]);
    expect(await heldWhere("record_moves", ids.contact)).toEqual([]);
  });
});

describe("a task moved to another of the viewer's lists", () => {
  it("goes with its comments and tags, and with the contacts it is given there in the same write", async () => {
    const answers: unknown[] = [];
    for (const [, user, databases] of LAYOUTS) {
      const oldContact = await contactWithDetails(user(), "Old, Olive");
      const newContact = (await post(CONTACTS, { data: { type: "contacts", attributes: { name: "New, Nell" }, relationships: { account_list: listLink(user().lists[1]) } } }, user().token)).body.data.id;
      const comment = uuid();
      const task = await post(
        `${TASKS}?include=activity_contacts`,
        {
          data: {
            type: "tasks",
            attributes: { subject: "Visit", activity_type: "Appointment", tag_list: "visit" },
            relationships: {
              account_list: listLink(user().lists[0]),
              user: { data: { type: "users", id: user().id } },
              contacts: { data: [{ type: "contacts", id: oldContact.contact }] },
              comments: { data: [{ type: "comments", id: comment }] },
            },
          },
          included: [{ type: "comments", id: comment, attributes: { body: "Bring the photos" } }],
        },
        user().token,
      );
      expect(task.status, task.text).toBe(201);
      const taskId = task.body.data.id;
      const oldLink = task.body.data.relationships.activity_contacts.data[0].id;
      const moved = await put(
        `${TASKS}/${taskId}?include=comments,contacts`,
        {
          data: {
            type: "tasks",
            id: taskId,
            attributes: { overwrite: true },
            relationships: {
              account_list: listLink(user().lists[1]),
              contacts: { data: [{ type: "contacts", id: newContact }] },
              activity_contacts: { data: [{ type: "activity_contacts", id: oldLink }] },
            },
          },
          included: [{ type: "activity_contacts", id: oldLink, attributes: { _destroy: true } }],
        },
        user().token,
      );
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.data.relationships.contacts.data).toEqual([{ type: "contacts", id: newContact }]);
      expect(moved.body.data.attributes.tag_list).toEqual(["visit"]);
      expect(moved.body.data.relationships.user.data).toEqual({ type: "users", id: user().id });
      expect(moved.body.data.attributes.comments_count).toBe(1);
      answers.push(shape(moved.body));
      expect(await heldWhere("tasks", taskId)).toEqual([databases[1]]);
      expect(await heldWhere("comments", comment)).toEqual([databases[1]]);
      expect(await heldWhere("activity_contacts", oldLink)).toEqual([]);
      expect(await heldWhere("task_tags", taskId, "task_id")).toEqual([databases[1]]);
      // The old list's contact stays where it was, no longer linked.
      expect(await heldWhere("contacts", oldContact.contact)).toEqual([databases[0]]);
      expect(await heldWhere("deleted_records", taskId, "deletable_id")).toEqual([]);
    }
    expect(answers[1]).toEqual(answers[0]);
  });
});

describe("a move between databases", () => {
  const cronAt = (time: number) => runCron("*/5 * * * *", time, env as unknown as Bindings);
  const recordMove = (table: string, id: string, user: PlacedUser, startedAt: string) =>
    on("DB").run(sql`INSERT INTO record_moves (table_name, id, from_list, to_list, from_database, to_database, started_at)
      VALUES (${table}, ${id}, ${user.lists[0]}, ${user.lists[1]}, 'LIST_DB_1', 'LIST_DB_2', ${startedAt})`);

  it("waits for another request moving the same record: 409, nothing changed", async () => {
    const ids = await contactWithDetails(apart, "Busy, Bo");
    await recordMove("contacts", ids.contact, apart, new Date().toISOString().slice(0, 19) + "Z");
    const refused = errorOf(await put(`${CONTACTS}/${ids.contact}`, moveBody("contacts", ids.contact, apart.lists[1]), apart.token), 409);
    expect(refused.detail).toContain("being moved");
    expect(await heldWhere("contacts", ids.contact)).toEqual(["LIST_DB_1"]);
    expect(await heldWhere("record_moves", ids.contact)).toEqual(["DB"]);
    await on("DB").run(sql`DELETE FROM record_moves WHERE id = ${ids.contact}`);
  });

  it("cut short is undone by the five-minute job while the old rows are there, and finished once they are gone", async () => {
    const now = Date.now();
    const longAgo = new Date(now - 10 * 60_000).toISOString().slice(0, 19) + "Z";

    // Copied, never removed from the old database: the copy goes again.
    const undone = await contactWithDetails(apart, "Undone, Una");
    const [row] = await on("LIST_DB_1").all<Record<string, unknown>>(sql`SELECT id, name, created_at, updated_at FROM contacts WHERE id = ${undone.contact}`);
    await on("LIST_DB_2").run(sql`INSERT INTO contacts (id, account_list_id, name, created_at, updated_at) VALUES (${row.id}, ${apart.lists[1]}, ${row.name}, ${row.created_at}, ${row.updated_at})`);
    await recordMove("contacts", undone.contact, apart, longAgo);

    // Removed from the old database, the directory not yet told: the move stands, the id's claim follows it.
    const finished = await contactWithDetails(apart, "Finished, Fay");
    const moved = await put(`${CONTACTS}/${finished.contact}`, moveBody("contacts", finished.contact, apart.lists[1]), apart.token);
    expect(moved.status, moved.text).toBe(200);
    await on("DB").run(sql`UPDATE client_ids SET anchor = ${apart.lists[0]} WHERE table_name = 'contacts' AND id = ${finished.contact}`);
    await recordMove("contacts", finished.contact, apart, longAgo);

    // A move still under way is left to its request.
    const recent = await contactWithDetails(apart, "Recent, Rae");
    await recordMove("contacts", recent.contact, apart, new Date(now - 30_000).toISOString().slice(0, 19) + "Z");

    await cronAt(now);
    expect(await heldWhere("contacts", undone.contact)).toEqual(["LIST_DB_1"]);
    expect(await heldWhere("record_moves", undone.contact)).toEqual([]);
    expect(await heldWhere("contacts", finished.contact)).toEqual(["LIST_DB_2"]);
    expect(await heldWhere("record_moves", finished.contact)).toEqual([]);
    const [claim] = await on("DB").all<{ anchor: string }>(sql`SELECT anchor FROM client_ids WHERE table_name = 'contacts' AND id = ${finished.contact}`);
    expect(claim.anchor).toBe(apart.lists[1]);
    expect(await heldWhere("record_moves", recent.contact)).toEqual(["DB"]);
    await on("DB").run(sql`DELETE FROM record_moves WHERE id = ${recent.contact}`);
  });

  it("of a record with a client-chosen id hands its claim to the new list: a create sent again there is the same record", async () => {
    for (const [, user] of LAYOUTS) {
      const id = uuid();
      const body = (listId: string) => ({ data: { type: "contacts", id, attributes: { name: "Claimed, Cal" }, relationships: { account_list: listLink(listId) } } });
      expect((await post(CONTACTS, body(user().lists[0]), user().token)).status).toBe(201);
      const moved = await put(`${CONTACTS}/${id}`, moveBody("contacts", id, user().lists[1]), user().token);
      expect(moved.status, moved.text).toBe(200);
      const [claim] = await on("DB").all<{ anchor: string }>(sql`SELECT anchor FROM client_ids WHERE table_name = 'contacts' AND id = ${id}`);
      expect(claim.anchor).toBe(user().lists[1]);
      const again: ApiResponse = await post(CONTACTS, body(user().lists[1]), user().token);
      expect(again.status, again.text).toBe(201);
      expect(again.body.data.relationships.account_list.data.id).toBe(user().lists[1]);
    }
  });
});
