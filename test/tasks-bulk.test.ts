import { beforeAll, describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { errorOf, request } from "./helpers/api";
import { createViewer, db, timestamps, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
const contact = { john: uuid(), anna: uuid(), bobs: uuid() };

const BULK = "/api/v2/tasks/bulk";
const link = (type: string, id: string) => ({ type, id });
const item = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ data: { type: "tasks", attributes, ...extra } });
const bulk = (method: string, items: unknown[], token: string | null = alice.token) => request(method, BULK, { token, body: { data: items }, raw: true });

async function storedTask(id: string) {
  const [row] = await db.select().from(schema.tasks).where(eq(schema.tasks.id, id));
  return row;
}

async function insertTask(accountListId: string, values: Partial<typeof schema.tasks.$inferInsert> = {}) {
  const id = uuid();
  await db.insert(schema.tasks).values({ id, accountListId, subject: "Stored", ...timestamps(), ...values });
  return (await storedTask(id))!;
}

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  await db.insert(schema.contacts).values([
    { id: contact.john, accountListId: alice.list.id, name: "Doe, John", ...timestamps() },
    { id: contact.anna, accountListId: alice.list.id, name: "Smith, Anna", ...timestamps() },
    { id: contact.bobs, accountListId: bob.list.id, name: "Bobs, Contact", ...timestamps() },
  ]);
});

describe("bulk create", () => {
  it("writes the valid items and answers one document per item, in order", async () => {
    const first = uuid();
    const invalid = uuid();
    const response = await bulk("POST", [
      item({ subject: "First", tag_list: "A,b" }, { id: first, relationships: { contacts: { data: [link("contacts", contact.john)] } } }),
      item({ subject: "Bad", activity_type: "Juggling" }, { id: invalid }),
      item({ activity_type: "Call", completed: true }, { relationships: { contacts: { data: [link("contacts", contact.anna)] } } }),
      item({ subject: "Foreign contact" }, { relationships: { contacts: { data: [link("contacts", contact.bobs)] } } }),
      { data: { type: "contacts", attributes: { name: "x" } } },
    ]);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.api+json; charset=utf-8");
    const [created, bad, generated, foreign, wrongType] = response.body;
    expect(created.data).toMatchObject({ id: first, type: "tasks", attributes: { subject: "First", tag_list: ["a", "b"] } });
    expect(created.data.relationships.contacts.data).toEqual([link("contacts", contact.john)]);
    expect(bad.errors[0]).toMatchObject({ status: "400", detail: "Activity type is not included in the list", source: { pointer: "/data/attributes/activity_type" } });
    expect(bad.meta).toEqual({ id: invalid });
    expect(generated.data.attributes).toMatchObject({ subject: "Call Smith, Anna", subject_hidden: true, completed: true, result: "Done" });
    expect(generated.data.attributes.start_at).toBe(generated.data.attributes.completed_at);
    expect(foreign.errors[0]).toMatchObject({ status: "403", detail: `Not allowed to perform that action on the resource with ID ${contact.bobs} of type contacts` });
    expect(wrongType.errors[0].status).toBe("409");
    expect(await storedTask(invalid)).toBeUndefined();
    const rows = await db.select().from(schema.tasks).where(eq(schema.tasks.accountListId, alice.list.id));
    expect(rows.map((r) => r.subject).sort()).toEqual(["Call Smith, Anna", "First"]);
    const links = await db.select().from(schema.activityContacts).where(inArray(schema.activityContacts.taskId, rows.map((r) => r.id)));
    expect(links.map((l) => l.contactId).sort()).toEqual([contact.john, contact.anna].sort());
    const tags = await db.select().from(schema.taskTags).where(eq(schema.taskTags.taskId, first));
    expect(tags.map((t) => t.name).sort()).toEqual(["a", "b"]);
  });

  it("gives a new activity contact id to the first item that claims it and refuses it, item by item, to the others", async () => {
    const shared = uuid();
    const claiming = (id: string, subject: string, contactId: string) => ({
      data: { type: "tasks", id, attributes: { subject }, relationships: { activity_contacts: { data: [link("activity_contacts", shared)] } } },
      included: [{ type: "activity_contacts", id: shared, relationships: { contact: { data: link("contacts", contactId) } } }],
    });
    const plain = uuid();
    const [first, second] = [uuid(), uuid()];
    const response = await bulk("POST", [
      item({ subject: "Plain" }, { id: plain }),
      claiming(first, "Claims it", contact.john),
      claiming(second, "Claims it too", contact.anna),
    ]);
    expect(response.status, response.text).toBe(200);
    const results = response.body as Array<{ data?: { id: string }; errors?: Array<Record<string, unknown>>; meta?: { id: string } }>;
    expect(results[0].data!.id).toBe(plain);
    expect(results[1].data!.id).toBe(first);
    expect(results[2]).toMatchObject({ errors: [{ status: "409", detail: `duplicate key value violates unique constraint "activity_contacts_pkey": Key (id)=(${shared}) already exists.`, source: { pointer: "/included/0/id" } }], meta: { id: second } });
    expect(await storedTask(plain)).toBeTruthy();
    expect(await storedTask(second)).toBeUndefined();
    const links = await db.select().from(schema.activityContacts).where(eq(schema.activityContacts.id, shared));
    expect(links.map((l) => [l.taskId, l.contactId])).toEqual([[first, contact.john]]);
  });

  it("refuses more than 500 items, a body without a data array and requests without a token", async () => {
    const count = async () => (await db.select({ n: sql<number>`count(*)` }).from(schema.tasks))[0].n;
    const before = await count();
    const tooMany = await request("POST", BULK, { token: alice.token, body: { data: Array.from({ length: 501 }, () => item({ subject: "x" })) } });
    expect(errorOf(tooMany, 400).source.pointer).toBe("/data");
    errorOf(await request("POST", BULK, { token: alice.token, body: { data: { type: "tasks" } } }), 400);
    errorOf(await request("POST", BULK, { token: null, body: { data: [] } }), 401);
    expect(await count()).toBe(before);
    const exactly = await bulk("POST", Array.from({ length: 500 }, (_, i) => item({ subject: `Many ${i}` })));
    expect(exactly.status).toBe(200);
    expect(exactly.body).toHaveLength(500);
    expect(await count()).toBe(before + 500);
    await db.delete(schema.tasks).where(sql`${schema.tasks.subject} LIKE 'Many %'`);
  });
});

describe("bulk update", () => {
  it("applies each single-update check per item and writes only the valid ones", async () => {
    const fresh = await insertTask(alice.list.id, { subject: "Fresh", activityType: "Call" });
    const stale = await insertTask(alice.list.id, { subject: "Stale" });
    const blank = await insertTask(alice.list.id, { subject: "Blank" });
    const forced = await insertTask(alice.list.id, { subject: "Forced" });
    const bobs = await insertTask(bob.list.id, { subject: "Bob's" });
    const unknown = uuid();
    const response = await bulk("PUT", [
      item({ completed: true, updated_in_db_at: fresh.updatedAt }, { id: fresh.id, relationships: { contacts: { data: [link("contacts", contact.john)] } } }),
      item({ subject: "Changed", updated_in_db_at: "2020-01-01T00:00:00Z" }, { id: stale.id }),
      item({ subject: " ", overwrite: true }, { id: blank.id }),
      item({ subject: "Overwritten", overwrite: true }, { id: forced.id }),
      item({ subject: "Hijacked", overwrite: true }, { id: bobs.id }),
      item({ subject: "Ghost", overwrite: true }, { id: unknown }),
      item({ subject: "No id", overwrite: true }),
    ]);
    expect(response.status, response.text).toBe(200);
    const [ok, staleAnswer, blankAnswer, forcedAnswer, bobsAnswer, unknownAnswer, noId] = response.body;
    expect(ok.data.attributes).toMatchObject({ completed: true, result: "Done" });
    expect(ok.data.relationships.contacts.data).toEqual([link("contacts", contact.john)]);
    expect(staleAnswer.errors[0]).toMatchObject({
      status: "409",
      detail: `Updated in db at is not equal to the current value in the database (${stale.updatedAt})`,
      meta: { updated_in_db_at: stale.updatedAt },
    });
    expect(blankAnswer.errors[0]).toMatchObject({ status: "400", detail: "Subject can't be blank" });
    expect(forcedAnswer.data.attributes.subject).toBe("Overwritten");
    expect(bobsAnswer.errors[0]).toMatchObject({ status: "403", detail: `Not allowed to perform that action on the resource with ID ${bobs.id} of type tasks` });
    expect(unknownAnswer.errors[0]).toMatchObject({ status: "404", detail: `Couldn't find Task with 'id'=${unknown}` });
    expect(noId.errors[0].status).toBe("400");
    expect(await storedTask(stale.id)).toEqual(stale);
    expect(await storedTask(blank.id)).toEqual(blank);
    expect(await storedTask(bobs.id)).toEqual(bobs);
    expect(await storedTask(fresh.id)).toMatchObject({ completed: true, result: "Done" });
    expect((await storedTask(forced.id)).subject).toBe("Overwritten");
  });
});

describe("bulk delete", () => {
  it("deletes the viewer's tasks and refuses the others item by item", async () => {
    const mine = await insertTask(alice.list.id, { subject: "Delete me" });
    const bobs = await insertTask(bob.list.id, { subject: "Keep me" });
    const unknown = uuid();
    const response = await bulk("DELETE", [{ data: { type: "tasks", id: mine.id } }, { data: { type: "tasks", id: bobs.id } }, { data: { type: "tasks", id: unknown } }]);
    expect(response.status, response.text).toBe(200);
    expect(response.body[0].data).toMatchObject({ id: mine.id, type: "tasks", attributes: { subject: "Delete me" } });
    expect(response.body[1].errors[0].status).toBe("403");
    expect(response.body[2].errors[0].status).toBe("404");
    expect(await storedTask(mine.id)).toBeUndefined();
    expect(await storedTask(bobs.id)).toEqual(bobs);
  });
});
