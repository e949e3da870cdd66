/**
 * The nested routes of the original: a contact's addresses and people, a person's details, every person of the
 * caller's contacts, and a task's comments. Each is the resource's declaration narrowed to the path's parent.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { del, errorOf, get, post, put, request } from "./helpers/api";
import { insertContact, insertPerson, insertTask } from "./helpers/contact-fixtures";
import { addToList, createUser, createViewer, db, tokenFor, uuid } from "./helpers/factories";
import { addressesOf, phonesOf } from "./helpers/sidepost-fixtures";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
let coachToken: string;
let contact: { id: string };
let other: { id: string };
let bobsContact: { id: string };

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  const coach = await createUser();
  await addToList(alice.list.id, coach.id, "coach");
  coachToken = await tokenFor(coach.id);
  contact = await insertContact(alice.list.id, "Nested, Nora");
  other = await insertContact(alice.list.id, "Nested, Other");
  bobsContact = await insertContact(bob.list.id, "Nested, Bob's");
});

const doc = (type: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ data: { type, attributes, ...extra } });
const contactPath = (id: string) => `/api/v2/contacts/${id}`;

describe("a contact's addresses", () => {
  it("are created, listed, shown, updated and deleted under the contact, which the path decides", async () => {
    const created = await post(`${contactPath(contact.id)}/addresses`, doc("addresses", { street: "1 Main St", city: "Springfield", primary_mailing_address: true }), alice.token);
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id;
    expect(created.headers.get("location")).toBe(`https://api.example.org${contactPath(contact.id)}/addresses/${id}`);
    expect((await addressesOf(contact.id)).map((row) => row.id)).toEqual([id]);
    await post(`${contactPath(other.id)}/addresses`, doc("addresses", { city: "Elsewhere" }), alice.token);
    const listed = await get(`${contactPath(contact.id)}/addresses`, alice.token);
    expect(listed.body.data.map((row: { id: string }) => row.id)).toEqual([id]);
    expect(listed.body.meta.pagination.total_count).toBe(1);
    // A contact filter sees the new address at once.
    const byCity = await get("/api/v2/contacts?filter[city]=Springfield", alice.token);
    expect(byCity.body.data.map((row: { id: string }) => row.id)).toEqual([contact.id]);
    const stamp = created.body.data.attributes.updated_in_db_at;
    const updated = await put(`${contactPath(contact.id)}/addresses/${id}`, { data: { type: "addresses", id, attributes: { city: "Shelbyville", updated_in_db_at: stamp } } }, alice.token);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data.attributes.city).toBe("Shelbyville");
    const stale = errorOf(await put(`${contactPath(contact.id)}/addresses/${id}`, { data: { type: "addresses", id, attributes: { city: "Stale", updated_in_db_at: stamp } } }, alice.token), 409);
    expect(stale.source).toEqual({ pointer: "/data/attributes/updated_in_db_at" });
    expect((await addressesOf(contact.id))[0].city).toBe("Shelbyville");
    expect((await del(`${contactPath(contact.id)}/addresses/${id}`, alice.token)).status).toBe(204);
    expect(await addressesOf(contact.id)).toEqual([]);
  });

  it("refuse someone else's contact (403), an unknown one (404), another contact's record (404) and a body naming another contact, writing nothing", async () => {
    const before = await db.select().from(schema.addresses);
    expect(errorOf(await get(`${contactPath(bobsContact.id)}/addresses`, alice.token), 403).detail).toBe(
      `Not allowed to perform that action on the resource with ID ${bobsContact.id} of type contacts`,
    );
    errorOf(await post(`${contactPath(bobsContact.id)}/addresses`, doc("addresses", { city: "Intruder" }), alice.token), 403);
    errorOf(await post(`${contactPath("00000000-0000-4000-8000-000000000000")}/addresses`, doc("addresses", { city: "Nowhere" }), alice.token), 404);
    const theirs = await post(`${contactPath(other.id)}/addresses`, doc("addresses", { city: "Theirs" }), alice.token);
    const theirsId = theirs.body.data.id;
    errorOf(await get(`${contactPath(contact.id)}/addresses/${theirsId}`, alice.token), 404);
    errorOf(await put(`${contactPath(contact.id)}/addresses/${theirsId}`, { data: { type: "addresses", id: theirsId, attributes: { city: "Moved", overwrite: true } } }, alice.token), 404);
    errorOf(await del(`${contactPath(contact.id)}/addresses/${theirsId}`, alice.token), 404);
    const moved = errorOf(
      await post(`${contactPath(contact.id)}/addresses`, doc("addresses", { city: "Here" }, { relationships: { contact: { data: { type: "contacts", id: other.id } } } }), alice.token),
      400,
    );
    expect(moved.source).toEqual({ pointer: "/data/relationships/contact" });
    // A coach reads, but does not write.
    expect((await get(`${contactPath(contact.id)}/addresses`, coachToken)).status).toBe(200);
    errorOf(await post(`${contactPath(contact.id)}/addresses`, doc("addresses", { city: "Coach" }), coachToken), 403);
    const after = await db.select().from(schema.addresses);
    expect(after.map((row) => row.id).sort()).toEqual([...before.map((row) => row.id), theirsId].sort());
    expect(after.find((row) => row.id === theirsId)?.city).toBe("Theirs");
  });
});

describe("a contact's people and their details", () => {
  it("creates a person under the contact and a phone under the person, refusing a bad number with its pointer", async () => {
    const person = await post(`${contactPath(contact.id)}/people`, doc("people", { first_name: "Nora", last_name: "Nested" }), alice.token);
    expect(person.status, person.text).toBe(201);
    const personId = person.body.data.id;
    const phones = `${contactPath(contact.id)}/people/${personId}/phones`;
    const phone = await post(phones, doc("phone_numbers", { number: "+1 555 010 0100", location: "mobile", primary: true }), alice.token);
    expect(phone.status, phone.text).toBe(201);
    expect(phone.body.data.type).toBe("phone_numbers");
    const bad = errorOf(await post(phones, doc("phone_numbers", { number: "call me maybe" }), alice.token), 400);
    expect(bad.source).toEqual({ pointer: "/data/attributes/number" });
    expect((await phonesOf(personId)).map((row) => row.id)).toEqual([phone.body.data.id]);
    // The phone filter sees it at once.
    expect((await get("/api/v2/contacts?filter[contact_info_mobile]=Yes", alice.token)).body.data.map((row: { id: string }) => row.id)).toContain(contact.id);
    const emails = `${contactPath(contact.id)}/people/${personId}/email_addresses`;
    const first = await post(emails, doc("email_addresses", { email: "nora@example.org", primary: true }), alice.token);
    const second = await post(emails, doc("email_addresses", { email: "nora@work.example.org", primary: true }), alice.token);
    expect([first.status, second.status]).toEqual([201, 201]);
    // Marking the second primary unmarked the first.
    const listed = await get(emails, alice.token);
    const primaryOf = (id: string) => listed.body.data.find((row: { id: string }) => row.id === id).attributes.primary;
    expect([primaryOf(first.body.data.id), primaryOf(second.body.data.id)]).toEqual([false, true]);
    errorOf(await post(emails, doc("email_addresses", { email: "not an address" }), alice.token), 400);
    // A person is reached only under their own contact.
    errorOf(await get(`${contactPath(other.id)}/people/${personId}/phones`, alice.token), 404);
    const bobsPerson = await insertPerson(bobsContact.id, "Bob's person");
    errorOf(await post(`${contactPath(bobsContact.id)}/people/${bobsPerson.id}/phones`, doc("phone_numbers", { number: "+1 555 010 0199" }), alice.token), 403);
    expect(await phonesOf(bobsPerson.id)).toEqual([]);
  });

  it("lists every person of the caller's contacts at /contacts/people, and only theirs", async () => {
    const mine = await insertPerson(other.id, "Listed");
    const theirs = await insertPerson(bobsContact.id, "Hidden");
    const listed = await get("/api/v2/contacts/people?per_page=1000", alice.token);
    expect(listed.status, listed.text).toBe(200);
    const listedIds = listed.body.data.map((row: { id: string }) => row.id);
    expect(listedIds).toContain(mine.id);
    expect(listedIds).not.toContain(theirs.id);
    errorOf(await get(`/api/v2/contacts/people/${theirs.id}`, alice.token), 403);
    const updated = await put(`/api/v2/contacts/people/${mine.id}`, { data: { type: "people", id: mine.id, attributes: { last_name: "Renamed", overwrite: true } } }, alice.token);
    expect(updated.body.data.attributes.last_name).toBe("Renamed");
    const bulk = await request("PUT", "/api/v2/contacts/people/bulk", {
      token: alice.token,
      raw: true,
      body: { data: [{ data: { type: "people", id: mine.id, attributes: { occupation: "Baker", overwrite: true } } }, { data: { type: "people", id: theirs.id, attributes: { occupation: "Thief", overwrite: true } } }] },
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body[0].data.attributes.occupation).toBe("Baker");
    expect(bulk.body[1].errors[0].status).toBe("403");
    expect((await db.select().from(schema.people).where(eq(schema.people.id, theirs.id)))[0].occupation).toBeNull();
  });
});

describe("POST /api/v2/contacts/people/bulk", () => {
  it("creates each valid person with its contact, answers each item in order, and stores nothing of a refused item", async () => {
    const ours = await insertContact(alice.list.id, "Bulk, Family");
    const theirs = await insertContact(bob.list.id, "Not, Alices");
    const [first, second, blank, foreign] = [uuid(), uuid(), uuid(), uuid()];
    const person = (id: string, attributes: Record<string, unknown>, contactId: string) => ({
      data: { type: "people", id, attributes, relationships: { contact: { data: { type: "contacts", id: contactId } } } },
    });
    const answer = await request("POST", "/api/v2/contacts/people/bulk", {
      token: alice.token,
      raw: true,
      body: {
        data: [
          person(first, { first_name: "Ann", last_name: "Bulk" }, ours.id),
          person(second, { first_name: "Ben", last_name: "Bulk" }, ours.id),
          person(blank, { last_name: "Nameless" }, ours.id),
          person(foreign, { first_name: "Intruder" }, theirs.id),
          { data: { type: "people", id: uuid(), attributes: { first_name: "Nobody's" } } },
        ],
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.map((item: { data?: { id: string } }) => item.data?.id ?? null)).toEqual([first, second, null, null, null]);
    expect(answer.body[4].errors[0]).toMatchObject({ status: "400", source: { pointer: "/data/relationships/contact" } });
    expect(answer.body[0].data.attributes).toMatchObject({ first_name: "Ann", last_name: "Bulk" });
    expect(answer.body[2].errors[0]).toMatchObject({ status: "400", source: { pointer: "/data/attributes/first_name" } });
    expect(answer.body[3].errors[0].status).toMatch(/^40[34]$/);
    const stored = await db.select().from(schema.people).where(eq(schema.people.contactId, ours.id));
    expect(stored.map((row) => [row.id, row.firstName, row.isPrimary]).sort()).toEqual(
      [
        [first, "Ann", true],
        [second, "Ben", false],
      ].sort(),
    );
    expect(await db.select().from(schema.people).where(eq(schema.people.contactId, theirs.id))).toEqual([]);
    // Inside a batch, as every bulk endpoint.
    const batched = await post("/api/v2/batch", { requests: [{ method: "POST", path: "/api/v2/contacts/people/bulk", body: { data: [person(uuid(), { first_name: "Cy" }, ours.id)] } }] }, alice.token, { raw: true });
    expect(batched.body[0].status).toBe(403);
  });
});

describe("POST /api/v2/contacts/people/bulk as the original's own example sends it", () => {
  it("takes a person's contact named as `contacts`, a list of one, and refuses a list of another size", async () => {
    const family = await insertContact(alice.list.id, "Listed, Family");
    const theirs = await insertContact(bob.list.id, "Listed, Not Alices");
    const id = uuid();
    // The example: the person's attributes with updated_in_db_at, and `relationships.contacts` naming the contact.
    const answer = await request("POST", "/api/v2/contacts/people/bulk", {
      token: alice.token,
      raw: true,
      body: {
        data: [
          {
            data: {
              type: "people",
              id,
              attributes: { first_name: "Lena", last_name: "Listed", updated_in_db_at: "2026-01-01T00:00:00Z" },
              relationships: { contacts: { data: [{ type: "contacts", id: family.id }] } },
            },
          },
        ],
      },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body[0].data).toMatchObject({ id, type: "people", attributes: { first_name: "Lena", last_name: "Listed" } });
    const [stored] = await db.select().from(schema.people).where(eq(schema.people.id, id));
    expect([stored.contactId, stored.isPrimary]).toEqual([family.id, true]);
    // Each refusal stores nothing: two contacts, none, a contact of another list, two names that disagree.
    const refused = [uuid(), uuid(), uuid(), uuid()];
    const item = (personId: string, relationships: Record<string, unknown>) => ({ data: { type: "people", id: personId, attributes: { first_name: "Nope" }, relationships } });
    const again = await request("POST", "/api/v2/contacts/people/bulk", {
      token: alice.token,
      raw: true,
      body: {
        data: [
          item(refused[0], { contacts: { data: [{ type: "contacts", id: family.id }, { type: "contacts", id: family.id }] } }),
          item(refused[1], { contacts: { data: [] } }),
          item(refused[2], { contacts: { data: [{ type: "contacts", id: theirs.id }] } }),
          item(refused[3], { contacts: { data: [{ type: "contacts", id: family.id }] }, contact: { data: { type: "contacts", id: theirs.id } } }),
        ],
      },
    });
    expect(again.status).toBe(200);
    expect(again.body[0].errors[0]).toMatchObject({ status: "400", source: { pointer: "/data/relationships/contacts/data" } });
    expect(again.body[0].errors[0].detail).toBe("Relationship contacts must name exactly one contact");
    expect(again.body[1].errors[0]).toMatchObject({ status: "400", source: { pointer: "/data/relationships/contacts/data" } });
    expect(again.body[2].errors[0].status).toMatch(/^40[34]$/);
    expect(again.body[3].errors[0]).toMatchObject({ status: "400", source: { pointer: "/data/relationships/contacts/data" } });
    for (const personId of refused) expect(await db.select().from(schema.people).where(eq(schema.people.id, personId))).toEqual([]);
  });
});

describe("a task's comments", () => {
  it("keep comments_count true as they are added and removed, under their task only", async () => {
    const task = await insertTask(alice.list.id, [contact.id], { subject: "Commented" });
    const comments = `/api/v2/tasks/${task.id}/comments`;
    const first = await post(comments, doc("comments", { body: "First" }), alice.token);
    const second = await post(comments, doc("comments", { body: "Second" }), alice.token);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((await get(`/api/v2/tasks/${task.id}`, alice.token)).body.data.attributes.comments_count).toBe(2);
    expect((await del(`${comments}/${first.body.data.id}`, alice.token)).status).toBe(204);
    expect((await get(`/api/v2/tasks/${task.id}`, alice.token)).body.data.attributes.comments_count).toBe(1);
    expect((await get(comments, alice.token)).body.data.map((row: { id: string }) => row.id)).toEqual([second.body.data.id]);
    errorOf(await post(comments, doc("comments", { body: "" }), alice.token), 400);
    const bobsTask = await insertTask(bob.list.id, [], { subject: "Bob's" });
    errorOf(await post(`/api/v2/tasks/${bobsTask.id}/comments`, doc("comments", { body: "Intruder" }), alice.token), 403);
    expect(await db.select().from(schema.comments).where(eq(schema.comments.taskId, bobsTask.id))).toEqual([]);
  });
});
