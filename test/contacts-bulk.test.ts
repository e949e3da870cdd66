/**
 * PUT and DELETE /api/v2/contacts/bulk: one answer per item, valid items written together, invalid ones
 * reported and left as they were.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { errorOf, request } from "./helpers/api";
import { createViewer, db, uuid } from "./helpers/factories";
import { insertContact, insertTags, storedContact } from "./helpers/contact-fixtures";

const BULK = "/api/v2/contacts/bulk";
let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
});

const item = (id: string, attributes: Record<string, unknown>, type = "contacts") => ({ data: { type, id, attributes } });

async function bulk(method: "PUT" | "DELETE" | "PATCH" | "POST", body: unknown, token = alice.token) {
  return request(method, BULK, { body, token, raw: true });
}

describe("bulk update", () => {
  it("writes the valid items and reports the others, each in its place", async () => {
    const first = await insertContact(alice.list.id, "Bulk, First", { status: "Ask in Future" });
    const second = await insertContact(alice.list.id, "Bulk, Second");
    const stale = await insertContact(alice.list.id, "Bulk, Stale", { notes: "as is" });
    const invalid = await insertContact(alice.list.id, "Bulk, Invalid", { notes: "as is" });
    const foreign = await insertContact(bob.list.id, "Bulk, Foreign", { notes: "bob's" });
    await insertTags(second.id, ["old"]);
    const unknown = uuid();
    const before = await Promise.all([stale, invalid, foreign].map((c) => storedContact(c.id)));
    const response = await bulk("PUT", {
      data: [
        item(first.id, { status: "Partner - Financial", pledge_amount: "25", updated_in_db_at: first.updatedAt }),
        item(second.id, { tag_list: "new,NEWER", overwrite: true }),
        item(stale.id, { notes: "lost", updated_in_db_at: "2001-01-01T00:00:00Z" }),
        item(invalid.id, { status: "Maybe", overwrite: true }),
        item(foreign.id, { notes: "mine", overwrite: true }),
        item(unknown, { notes: "who", overwrite: true }),
        item(first.id, { notes: "twice", overwrite: true }),
        item(uuid(), { notes: "x" }, "tasks"),
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.api+json; charset=utf-8");
    const results = response.body as Array<{ data?: { id: string; attributes: Record<string, unknown> }; errors?: Array<Record<string, unknown>>; meta?: { id: string } }>;
    expect(results).toHaveLength(8);
    expect(results[0].data).toMatchObject({ id: first.id, type: "contacts", attributes: { status: "Partner - Financial", pledge_amount: "25.0" } });
    expect(results[1].data).toMatchObject({ id: second.id, attributes: { tag_list: ["new", "newer"] } });
    expect(results[2]).toEqual({
      errors: [
        {
          status: "409",
          title: `is not equal to the current value in the database (${stale.updatedAt})`,
          detail: `Updated in db at is not equal to the current value in the database (${stale.updatedAt})`,
          source: { pointer: "/data/attributes/updated_in_db_at" },
          meta: { updated_in_db_at: stale.updatedAt },
        },
      ],
      meta: { id: stale.id },
    });
    expect(results[3].errors![0]).toMatchObject({ status: "400", detail: "Status is not included in the list", source: { pointer: "/data/attributes/status" } });
    expect(results[4].errors![0]).toMatchObject({ status: "403", detail: `Not allowed to perform that action on the resource with ID ${foreign.id} of type contacts` });
    expect(results[5].errors![0]).toMatchObject({ status: "404", detail: `Couldn't find Contact with 'id'=${unknown}` });
    expect(results[6]).toMatchObject({ errors: [{ status: "409", source: { pointer: "/data/id" } }], meta: { id: first.id } });
    expect(results[7].errors![0]).toMatchObject({ status: "409", detail: "'tasks' is not a valid resource type for this endpoint. Expected 'contacts' instead" });
    expect(await storedContact(first.id)).toMatchObject({ status: "Partner - Financial", pledgeAmount: "25.0", notes: null });
    const tags = await db.select().from(schema.contactTags).where(eq(schema.contactTags.contactId, second.id));
    expect(tags.map((t) => t.name).sort()).toEqual(["new", "newer"]);
    expect(await Promise.all([stale, invalid, foreign].map((c) => storedContact(c.id)))).toEqual(before);
  });

  it("applies concurrent bulk overwrites of the same contact, none refused as stale", async () => {
    const contact = await insertContact(alice.list.id, "Bulk, Raced", { notes: "start" });
    const other = await insertContact(alice.list.id, "Bulk, Calm");
    const notes = ["one", "two", "three"];
    const responses = await Promise.all(
      notes.map((note) => bulk("PUT", { data: [item(contact.id, { notes: note, overwrite: true }), item(other.id, { church_name: note, overwrite: true })] })),
    );
    for (const [n, response] of responses.entries()) {
      expect(response.status, response.text).toBe(200);
      const results = response.body as Array<{ data?: { attributes: Record<string, unknown> }; errors?: unknown }>;
      expect(results.map((result) => result.errors)).toEqual([undefined, undefined]);
      expect(results[0].data!.attributes.notes).toBe(notes[n]);
    }
    expect(notes).toContain((await storedContact(contact.id)).notes);
  });

  it("refuses a body without a data array, more than 500 items, and bulk requests inside a batch", async () => {
    const contact = await insertContact(alice.list.id, "Bulk, Limit", { notes: "kept" });
    const notArray = await bulk("PUT", { data: item(contact.id, { notes: "x", overwrite: true }) });
    expect(notArray.status).toBe(400);
    expect(notArray.body.errors[0].source).toEqual({ pointer: "/data" });
    const many = Array.from({ length: 501 }, () => item(contact.id, { notes: "too many", overwrite: true }));
    const tooMany = await bulk("PUT", { data: many });
    expect(errorOf(tooMany, 400).detail).toBe("A bulk request may hold at most 500 items; this one holds 501");
    expect((await storedContact(contact.id)).notes).toBe("kept");
    const noToken = await request("PUT", BULK, { body: { data: [] }, raw: true });
    expect(noToken.status).toBe(401);
    const batch = await request("POST", "/api/v2/batch", {
      body: { requests: [{ method: "PUT", path: BULK, body: { data: [item(contact.id, { notes: "batched", overwrite: true })] } }] },
      token: alice.token,
      raw: true,
    });
    expect(batch.body[0].status).toBe(403);
    expect(JSON.parse(batch.body[0].body).errors[0].detail).toBe("You cannot access this endpoint from within a batch request");
    expect((await storedContact(contact.id)).notes).toBe("kept");
    const empty = await bulk("PUT", { data: [] });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
  });

  it("accepts PATCH like PUT and 500 items in one call", async () => {
    const contacts: Array<{ id: string }> = [];
    for (let i = 0; i < 5; i++) contacts.push(await insertContact(alice.list.id, `Bulk, Patch ${i}`));
    const response = await bulk("PATCH", { data: contacts.map((c) => item(c.id, { church_name: "Shared", overwrite: true })) });
    expect(response.status).toBe(200);
    expect(response.body.every((r: { data?: { attributes: { church_name: string } } }) => r.data?.attributes.church_name === "Shared")).toBe(true);
    const all = await bulk("PUT", { data: Array.from({ length: 500 }, (_, i) => item(contacts[i % 5].id, { church_name: "Repeated", overwrite: true })) });
    expect(all.status).toBe(200);
    expect(all.body.filter((r: { errors?: unknown }) => r.errors)).toHaveLength(495);
  });
});

describe("bulk delete", () => {
  it("deletes the contacts the user may change and reports the others", async () => {
    const mine = await insertContact(alice.list.id, "Delete, Mine");
    const alsoMine = await insertContact(alice.list.id, "Delete, Also");
    const foreign = await insertContact(bob.list.id, "Delete, Foreign");
    const unknown = uuid();
    const response = await bulk("DELETE", {
      data: [{ data: { type: "contacts", id: mine.id } }, { data: { type: "contacts", id: foreign.id } }, { data: { type: "contacts", id: unknown } }, { type: "contacts", id: alsoMine.id }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body[0].data).toMatchObject({ id: mine.id, type: "contacts", attributes: { name: "Delete, Mine" } });
    expect(response.body[1].errors[0]).toMatchObject({ status: "403" });
    expect(response.body[2].errors[0]).toMatchObject({ status: "404" });
    expect(response.body[3].data).toMatchObject({ id: alsoMine.id });
    expect(await storedContact(mine.id)).toBeUndefined();
    expect(await storedContact(alsoMine.id)).toBeUndefined();
    expect(await storedContact(foreign.id)).toBeDefined();
    const noId = await bulk("DELETE", { data: [{ data: { type: "contacts" } }] });
    expect(noId.body[0].errors[0]).toMatchObject({ status: "400", source: { pointer: "/data/id" } });
  });
});

describe("bulk update with nested writes", () => {
  it("stores each item's sideposted address with it and refuses an item whose included entry nothing references", async () => {
    const withAddress = await insertContact(alice.list.id, "Bulk, Address");
    const withStray = await insertContact(alice.list.id, "Bulk, Stray");
    const [address, stray] = [uuid(), uuid()];
    const response = await bulk("PUT", {
      data: [
        {
          data: { type: "contacts", id: withAddress.id, attributes: { overwrite: true }, relationships: { addresses: { data: [{ type: "addresses", id: address }] } } },
          included: [{ type: "addresses", id: address, attributes: { street: "1 Bulk Way" } }],
        },
        { data: { type: "contacts", id: withStray.id, attributes: { overwrite: true } }, included: [{ type: "addresses", id: stray, attributes: { street: "Lost" } }] },
      ],
    });
    expect(response.status, response.text).toBe(200);
    const results = response.body as Array<{ data?: { id: string }; errors?: Array<{ status: string; source: { pointer: string } }> }>;
    expect(results[0].data!.id).toBe(withAddress.id);
    expect(results[1].errors![0]).toMatchObject({ status: "400", source: { pointer: "/included/0" } });
    const stored = await db.select().from(schema.addresses).where(eq(schema.addresses.contactId, withAddress.id));
    expect(stored.map((a) => [a.id, a.street])).toEqual([[address, "1 Bulk Way"]]);
    expect(await db.select().from(schema.addresses).where(eq(schema.addresses.contactId, withStray.id))).toEqual([]);
  });
});
