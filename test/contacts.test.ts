import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { del, errorOf, get, patch, post, put } from "./helpers/api";
import { addToList, createUser, createViewer, db, timestamps, uuid } from "./helpers/factories";
import { contactBody, givingTo, insertContact, insertEmail, insertPerson, insertReferral, insertTask, insertTags, storedContact } from "./helpers/contact-fixtures";

const CONTACTS = "/api/v2/contacts";
let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
let bobContact: Awaited<ReturnType<typeof insertContact>>;

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  bobContact = await insertContact(bob.list.id, "Bobson, Bill", { notes: "private" });
});

async function peopleOf(contactId: string) {
  return db.select().from(schema.people).where(eq(schema.people.contactId, contactId)).orderBy(schema.people.position);
}

describe("creating contacts", () => {
  it("creates a contact in the default list with two people from a couple's name; 201 with Location", async () => {
    const id = uuid();
    const response = await post(
      CONTACTS,
      { data: { type: "contacts", id, attributes: { name: "Doe, John and Jane", notes: "Met at church", pledge_amount: 100, pledge_frequency: 1, status: "Partner - Financial", tag_list: "Friends, CHURCH ,friends" } } },
      alice.token,
    );
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get("location")).toBe(`https://api.example.org${CONTACTS}/${id}`);
    const data = response.body.data;
    expect(data).toMatchObject({
      id,
      type: "contacts",
      attributes: {
        name: "Doe, John and Jane",
        notes: "Met at church",
        pledge_amount: "100.0",
        pledge_frequency: "1.0",
        pledge_currency: "USD",
        pledge_currency_symbol: "$",
        status: "Partner - Financial",
        tag_list: ["church", "friends"],
        lifetime_donations: "0.0",
        suggested_changes: {},
        uncompleted_tasks_count: 0,
        last_donation: null,
        last_activity: null,
        square_avatar: null,
      },
    });
    expect(data.attributes.notes_saved_at).toBe(data.attributes.created_at);
    expect(data.attributes.updated_in_db_at).toBe(data.attributes.updated_at);
    expect(data.relationships.account_list.data).toEqual({ type: "account_lists", id: alice.list.id });
    const people = await peopleOf(id);
    expect(people.map((p) => [p.firstName, p.lastName, p.isPrimary])).toEqual([
      ["John", "Doe", true],
      ["Jane", "Doe", false],
    ]);
    expect(data.relationships.people.data).toEqual(people.map((p) => ({ type: "people", id: p.id })));
    expect(data.relationships.primary_person.data).toEqual({ type: "people", id: people[0].id });
    expect(data.relationships.primary_or_first_person.data).toEqual({ type: "people", id: people[0].id });
    expect(data.relationships.spouse.data).toEqual({ type: "people", id: people[1].id });
    const tags = await db.select().from(schema.contactTags).where(eq(schema.contactTags.contactId, id));
    expect(tags.map((t) => t.name).sort()).toEqual(["church", "friends"]);
  });

  it("splits names with & and makes one person of a name without a comma, or none when asked", async () => {
    const ampersand = await post(CONTACTS, contactBody({ name: "Smith, Ann & Al" }), alice.token);
    expect((await peopleOf(ampersand.body.data.id)).map((p) => `${p.firstName} ${p.lastName}`)).toEqual(["Ann Smith", "Al Smith"]);
    const company = await post(CONTACTS, contactBody({ name: "Acme Supplies" }), alice.token);
    expect((await peopleOf(company.body.data.id)).map((p) => [p.firstName, p.lastName])).toEqual([["Acme Supplies", null]]);
    expect(company.body.data.relationships.spouse.data).toBeNull();
    const bare = await post(CONTACTS, contactBody({ name: "Nobody, Here", create_default_person: false }), alice.token);
    expect(bare.status).toBe(201);
    expect(await peopleOf(bare.body.data.id)).toEqual([]);
    expect(bare.body.data.relationships.primary_or_first_person.data).toBeNull();
  });

  it("stores pledge frequencies as the constants key and answers them exactly", async () => {
    for (const [sent, stored] of [
      [0.23076923076923, "0.23076923076923"],
      ["2", "2.0"],
      [12, "12.0"],
      ["0.46153846153846", "0.46153846153846"],
    ] as const) {
      const response = await post(CONTACTS, contactBody({ name: "Freq, Test", pledge_frequency: sent }), alice.token);
      expect(response.body.data.attributes.pledge_frequency).toBe(stored);
      expect((await storedContact(response.body.data.id)).pledgeFrequency).toBe(stored);
    }
  });

  it("refuses bad values with one error per field and stores nothing", async () => {
    const before = (await db.select().from(schema.contacts)).length;
    const response = await post(
      CONTACTS,
      contactBody({ status: "Maybe", likely_to_give: "Sure", send_newsletter: "Fax", pledge_frequency: 5, pledge_currency: "ZZZ", pledge_amount: "lots" }),
      alice.token,
    );
    expect(response.status).toBe(400);
    const details = response.body.errors.map((e: { detail: string; source: { pointer: string } }) => [e.source.pointer, e.detail]);
    expect(details).toEqual(
      expect.arrayContaining([
        ["/data/attributes/status", "Status is not included in the list"],
        ["/data/attributes/likely_to_give", "Likely to give is not included in the list"],
        ["/data/attributes/send_newsletter", "Send newsletter is not included in the list"],
        ["/data/attributes/pledge_frequency", "Pledge frequency is not included in the list"],
        ["/data/attributes/pledge_currency", "Pledge currency is not included in the list"],
        ["/data/attributes/pledge_amount", "Pledge amount is not a number"],
        ["/data/attributes/name", "Name can't be blank"],
      ]),
    );
    expect(details).toHaveLength(7);
    expect((await db.select().from(schema.contacts)).length).toBe(before);
    expect(errorOf(await post(CONTACTS, contactBody({ name: "" }), alice.token), 400).detail).toBe("Name can't be blank");
    expect(errorOf(await post(CONTACTS, { data: { type: "tasks", attributes: { name: "X" } } }, alice.token), 409).detail).toBe(
      "'tasks' is not a valid resource type for this endpoint. Expected 'contacts' instead",
    );
    expect(errorOf(await post(CONTACTS, { data: { ...contactBody({ name: "Dup, Id" }).data, id: bobContact.id } }, alice.token), 409).source.pointer).toBe("/data/id");
    expect((await db.select().from(schema.contacts)).length).toBe(before);
  });

  it("keeps pledge amounts up to the largest the column holds exactly and refuses larger ones, storing nothing", async () => {
    const largest = await post(CONTACTS, contactBody({ name: "Large, Pledge", pledge_amount: "900719925474.0991" }), alice.token);
    expect(largest.status, largest.text).toBe(201);
    expect(largest.body.data.attributes.pledge_amount).toBe("900719925474.0991");
    const lowest = await post(CONTACTS, contactBody({ name: "Low, Pledge", pledge_amount: "-900719925474.0991" }), alice.token);
    expect(lowest.body.data.attributes.pledge_amount).toBe("-900719925474.0991");
    expect((await get(`${CONTACTS}/${largest.body.data.id}`, alice.token)).body.data.attributes.pledge_amount).toBe("900719925474.0991");
    const before = (await db.select().from(schema.contacts)).length;
    for (const amount of ["900719925474.0992", "900719925474.0993", "-900719925474.0992", 1e20]) {
      const error = errorOf(await post(CONTACTS, contactBody({ name: "Huge, Pledge", pledge_amount: amount }), alice.token), 400);
      expect(error).toEqual({
        status: "400",
        title: "is too large (maximum is 900719925474.0991)",
        detail: "Pledge amount is too large (maximum is 900719925474.0991)",
        source: { pointer: "/data/attributes/pledge_amount" },
      });
    }
    expect((await db.select().from(schema.contacts)).length).toBe(before);
    const stored = await storedContact(largest.body.data.id);
    const update = await put(`${CONTACTS}/${largest.body.data.id}`, contactBody({ pledge_amount: "900719925474.0993", notes: "changed", overwrite: true }), alice.token);
    expect(errorOf(update, 400).source.pointer).toBe("/data/attributes/pledge_amount");
    expect(await storedContact(largest.body.data.id)).toEqual(stored);
  });

  it("accepts empty status, likely_to_give and send_newsletter, and tag_list as an array", async () => {
    const response = await post(CONTACTS, contactBody({ name: "Empty, Values", status: "", likely_to_give: "", send_newsletter: "", tag_list: ["B", "a"] }), alice.token);
    expect(response.status, response.text).toBe(201);
    expect(response.body.data.attributes).toMatchObject({ status: "", likely_to_give: "", send_newsletter: "", tag_list: ["a", "b"] });
  });

  it("refuses creating in another user's list (403) and needs a token (401)", async () => {
    const response = await post(CONTACTS, contactBody({ name: "Sneaky, One" }, { relationships: { account_list: { data: { type: "account_lists", id: bob.list.id } } } }), alice.token);
    expect(errorOf(response, 403).detail).toBe(`Not allowed to perform that action on the resource with ID ${bob.list.id} of type account_lists`);
    expect((await db.select().from(schema.contacts).where(eq(schema.contacts.name, "Sneaky, One"))).length).toBe(0);
    errorOf(await post(CONTACTS, contactBody({ name: "No, Token" })), 401);
    errorOf(await get(CONTACTS), 401);
  });
});

describe("reading one contact", () => {
  it("adds lifetime_donations and the computed dates; other users get 403, unknown ids 404", async () => {
    const contact = await insertContact(alice.list.id, "Giver, Gail", { pledgeCurrency: "EUR", suggestedChanges: { status: "Partner - Pray" }, avatar: "https://img.example.org/a.png" });
    const giving = await givingTo(alice.list.id);
    await giving.give(contact.id, "25.5", "2025-03-01");
    await giving.give(contact.id, "100.0", "2025-06-30");
    await insertTask(alice.list.id, [contact.id], { activityType: "Call", completed: true, completedAt: "2025-05-02T10:00:00Z" });
    await insertTask(alice.list.id, [contact.id], { activityType: "Thank", completed: true, completedAt: "2025-07-09T10:00:00Z" });
    await insertTask(alice.list.id, [contact.id], { activityType: "Appointment", completed: false });
    await insertTask(alice.list.id, [contact.id], { activityType: "Support Letter", completed: true, completedAt: "2025-01-03T08:00:00Z" });
    const response = await get(`${CONTACTS}/${contact.id}`, alice.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.attributes).toMatchObject({
      lifetime_donations: "125.5",
      last_donation: "2025-06-30",
      last_phone_call: "2025-05-02",
      last_thank: "2025-07-09",
      last_letter: "2025-01-03",
      last_activity: "2025-07-09",
      last_appointment: null,
      last_pre_call: null,
      uncompleted_tasks_count: 1,
      pledge_currency: "EUR",
      pledge_currency_symbol: "€",
      suggested_changes: { status: "Partner - Pray" },
      avatar: "https://img.example.org/a.png",
      square_avatar: "https://img.example.org/a.png",
    });
    expect(response.body.data.relationships.last_six_donations.data).toHaveLength(2);
    const list = await get(`${CONTACTS}?filter[ids]=${contact.id}`, alice.token);
    expect(list.body.data[0].attributes).not.toHaveProperty("lifetime_donations");
    expect(errorOf(await get(`${CONTACTS}/${bobContact.id}`, alice.token), 403).detail).toBe(
      `Not allowed to perform that action on the resource with ID ${bobContact.id} of type contacts`,
    );
    const unknown = uuid();
    expect(errorOf(await get(`${CONTACTS}/${unknown}`, alice.token), 404).detail).toBe(`Couldn't find Contact with 'id'=${unknown}`);
    expect(errorOf(await get(`${CONTACTS}/not-a-uuid`, alice.token), 404).detail).toBe("Route not found");
  });

  it("answers sparse fieldsets on show and the people include", async () => {
    const contact = await insertContact(alice.list.id, "Sparse, Sam");
    const person = await insertPerson(contact.id, "Sam", { lastName: "Sparse", isPrimary: true });
    const response = await get(`${CONTACTS}/${contact.id}?fields[contacts]=name,people&include=people&fields[people]=first_name`, alice.token);
    expect(response.body.data).toEqual({
      id: contact.id,
      type: "contacts",
      attributes: { name: "Sparse, Sam" },
      relationships: { people: { data: [{ type: "people", id: person.id }] } },
    });
    expect(response.body.included).toEqual([{ id: person.id, type: "people", attributes: { first_name: "Sam" } }]);
  });

  it("never includes people, their details or referrals of another user's list, even when a stored link leads there", async () => {
    const contact = await insertContact(alice.list.id, "Link, Lee");
    const lee = await insertPerson(contact.id, "Lee", { isPrimary: true });
    const spouse = await insertPerson(contact.id, "Lou", { position: 1 });
    await insertEmail(spouse.id, "lou@example.org");
    const bobsPerson = await insertPerson(bobContact.id, "Tom", { lastName: "Theirs" });
    await insertEmail(bobsPerson.id, "tom.secret@example.org");
    const [own, foreign] = [uuid(), uuid()];
    await db.insert(schema.familyRelationships).values([
      { id: own, personId: lee.id, relatedPersonId: spouse.id, relationship: "Wife", ...timestamps() },
      { id: foreign, personId: lee.id, relatedPersonId: bobsPerson.id, relationship: "Brother", ...timestamps() },
    ]);
    await insertReferral(bobContact.id, contact.id);
    const referrer = await insertContact(alice.list.id, "Referrer, Rae");
    const ownReferral = await insertReferral(referrer.id, contact.id);

    const response = await get(
      `${CONTACTS}/${contact.id}?include=people.family_relationships.related_person.email_addresses,contact_referrals_to_me`,
      alice.token,
    );
    expect(response.status).toBe(200);
    const included = response.body.included as Array<{ type: string; id: string; attributes: Record<string, unknown> }>;
    const ids = (type: string) => included.filter((resource) => resource.type === type).map((resource) => resource.id).sort();
    // Alice's own family relationships and people are all there, with the e-mail of her contact's person.
    expect(ids("family_relationships")).toEqual([own, foreign].sort());
    expect(ids("people")).toEqual([lee.id, spouse.id].sort());
    expect(included.filter((resource) => resource.type === "email_addresses").map((resource) => resource.attributes.email)).toEqual(["lou@example.org"]);
    expect(JSON.stringify(included)).not.toContain("Theirs");
    expect(JSON.stringify(included)).not.toContain("tom.secret");
    // Only the referral between two of her own contacts is shown.
    expect(ids("contact_referrals")).toEqual([ownReferral.id]);
  });
});

describe("updating contacts", () => {
  it("applies ten concurrent overwrites of one contact, each answered with what it wrote, the last stamp stored", async () => {
    const contact = await insertContact(alice.list.id, "Overwrite, Raced", { notes: "start" });
    const notes = Array.from({ length: 10 }, (_, n) => `note ${n}`);
    const responses = await Promise.all(
      notes.map((note) => put(`${CONTACTS}/${contact.id}`, { data: { type: "contacts", id: contact.id, attributes: { notes: note, overwrite: true } } }, alice.token)),
    );
    expect(responses.map((r) => r.status)).toEqual(notes.map(() => 200));
    responses.forEach((response, n) => expect(response.body.data.attributes.notes).toBe(notes[n]));
    const stamps = responses.map((r) => r.body.data.attributes.updated_in_db_at as string);
    expect(new Set(stamps).size).toBe(notes.length);
    const stored = await storedContact(contact.id);
    const latest = [...stamps].sort().at(-1)!;
    expect(stored.updatedAt).toBe(latest);
    expect(stored.notes).toBe(notes[stamps.indexOf(latest)]);
  });

  it("changes only what is sent, stamps notes_saved_at, sets starred_at and replaces tags", async () => {
    const contact = await insertContact(alice.list.id, "Update, Una", { notes: "old", churchName: "First", notesSavedAt: "2025-01-01T00:00:00Z" });
    await insertTags(contact.id, ["old"]);
    const response = await put(
      `${CONTACTS}/${contact.id}`,
      contactBody({ notes: "new notes", starred_at: "2026-02-03 04:05:06 UTC", tag_list: "fresh", updated_in_db_at: contact.updatedAt }),
      alice.token,
    );
    expect(response.status, response.text).toBe(200);
    const stored = await storedContact(contact.id);
    expect(stored).toMatchObject({ notes: "new notes", churchName: "First", starredAt: "2026-02-03T04:05:06Z", name: "Update, Una" });
    expect(stored.notesSavedAt).not.toBe("2025-01-01T00:00:00Z");
    expect(stored.notesSavedAt).toBe(stored.updatedAt);
    expect(response.body.data.attributes).toMatchObject({ tag_list: ["fresh"], starred_at: "2026-02-03T04:05:06Z", notes_saved_at: stored.notesSavedAt });
    const unstar = await patch(`${CONTACTS}/${contact.id}`, contactBody({ starred_at: null, church_name: "Second", overwrite: true }), alice.token);
    expect(unstar.status).toBe(200);
    expect(await storedContact(contact.id)).toMatchObject({ starredAt: null, churchName: "Second", notesSavedAt: stored.notesSavedAt });
  });

  it("writes status_valid and avatar on create and update; square_avatar is the same picture", async () => {
    const picture = "https://images.example.org/avatars/una.png";
    const created = await post(CONTACTS, contactBody({ name: "Avatar, Ava", status_valid: false, avatar: picture, square_avatar: "https://ignored.example.org/x.png" }), alice.token);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.attributes).toMatchObject({ status_valid: false, avatar: picture, square_avatar: picture });
    const id = created.body.data.id;
    expect(await storedContact(id)).toMatchObject({ statusValid: false, avatar: picture });
    const other = "https://images.example.org/avatars/ava-2.png";
    const updated = await put(`${CONTACTS}/${id}`, contactBody({ status_valid: true, avatar: other, overwrite: true }), alice.token);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ status_valid: true, avatar: other, square_avatar: other });
    expect(await storedContact(id)).toMatchObject({ statusValid: true, avatar: other });
    const cleared = await put(`${CONTACTS}/${id}`, contactBody({ avatar: null, overwrite: true }), alice.token);
    expect(cleared.body.data.attributes).toMatchObject({ status_valid: true, avatar: null, square_avatar: null });
    expect(await storedContact(id)).toMatchObject({ statusValid: true, avatar: null });
  });

  it("refuses a status_valid that is not a boolean and an avatar that is not a string; nothing changes", async () => {
    const contact = await insertContact(alice.list.id, "Valid, Val", { statusValid: true, avatar: "https://images.example.org/val.png" });
    const before = await storedContact(contact.id);
    for (const [attributes, pointer, detail] of [
      [{ status_valid: "maybe" }, "/data/attributes/status_valid", "Status valid must be true or false"],
      [{ status_valid: null }, "/data/attributes/status_valid", "Status valid must be true or false"],
      [{ avatar: { url: "https://images.example.org/x.png" } }, "/data/attributes/avatar", "Avatar must be a string"],
    ] as const) {
      const error = errorOf(await put(`${CONTACTS}/${contact.id}`, contactBody({ ...attributes, notes: "changed", overwrite: true }), alice.token), 400);
      expect(error).toMatchObject({ detail, source: { pointer } });
    }
    expect(await storedContact(contact.id)).toEqual(before);
    const count = (await db.select().from(schema.contacts)).length;
    errorOf(await post(CONTACTS, contactBody({ name: "Bad, Avatar", avatar: ["x"] }), alice.token), 400);
    expect((await db.select().from(schema.contacts)).length).toBe(count);
  });

  it("refuses a stale updated_in_db_at with 409 and changes nothing", async () => {
    const contact = await insertContact(alice.list.id, "Stale, Stan", { notes: "keep" });
    const before = await storedContact(contact.id);
    const response = await put(`${CONTACTS}/${contact.id}`, contactBody({ notes: "lost", updated_in_db_at: "2020-01-01T00:00:00Z" }), alice.token);
    expect(errorOf(response, 409)).toEqual({
      status: "409",
      source: { pointer: "/data/attributes/updated_in_db_at" },
      title: `is not equal to the current value in the database (${contact.updatedAt})`,
      detail: `Updated in db at is not equal to the current value in the database (${contact.updatedAt})`,
      meta: { updated_in_db_at: contact.updatedAt },
    });
    errorOf(await put(`${CONTACTS}/${contact.id}`, contactBody({ notes: "lost" }), alice.token), 409);
    expect(await storedContact(contact.id)).toEqual(before);
  });

  it("refuses a body id other than the path's with 409, whatever its form, and changes nothing", async () => {
    const contact = await insertContact(alice.list.id, "Ident, Ida", { notes: "keep" });
    const before = await storedContact(contact.id);
    for (const id of [uuid(), "abc", 42]) {
      const error = errorOf(await put(`${CONTACTS}/${contact.id}`, { data: { ...contactBody({ notes: "lost", overwrite: true }).data, id } }, alice.token), 409);
      expect(error).toMatchObject({ detail: `The id in the body (${id}) does not match the id in the path (${contact.id})`, source: { pointer: "/data/id" } });
    }
    expect(await storedContact(contact.id)).toEqual(before);
    const same = await put(`${CONTACTS}/${contact.id}`, { data: { ...contactBody({ notes: "kept id", overwrite: true }).data, id: contact.id.toUpperCase() } }, alice.token);
    expect(same.status, same.text).toBe(200);
    // On create a client id must still be a UUID.
    expect(errorOf(await post(CONTACTS, { data: { ...contactBody({ name: "Bad, Id" }).data, id: "abc" } }, alice.token), 400).detail).toBe("Id must be a UUID");
  });

  it("refuses other users' contacts, coaches and bad values; nothing changes", async () => {
    const before = await storedContact(bobContact.id);
    const forbidden = await put(`${CONTACTS}/${bobContact.id}`, contactBody({ notes: "mine now", overwrite: true }), alice.token);
    expect(errorOf(forbidden, 403).detail).toBe(`Not allowed to perform that action on the resource with ID ${bobContact.id} of type contacts`);
    const coach = await createUser();
    await addToList(bob.list.id, coach.id, "coach");
    expect((await get(`${CONTACTS}/${bobContact.id}`, coach.token)).status).toBe(200);
    errorOf(await put(`${CONTACTS}/${bobContact.id}`, contactBody({ notes: "coach edit", overwrite: true }), coach.token), 403);
    errorOf(await del(`${CONTACTS}/${bobContact.id}`, coach.token), 403);
    const bad = await put(`${CONTACTS}/${bobContact.id}`, contactBody({ status: "Nope", overwrite: true }), bob.token);
    expect(errorOf(bad, 400).source.pointer).toBe("/data/attributes/status");
    const blank = await put(`${CONTACTS}/${bobContact.id}`, contactBody({ name: " ", overwrite: true }), bob.token);
    expect(errorOf(blank, 400).detail).toBe("Name can't be blank");
    expect(await storedContact(bobContact.id)).toEqual(before);
    const unknown = uuid();
    expect(errorOf(await put(`${CONTACTS}/${unknown}`, contactBody({ overwrite: true }), alice.token), 404).detail).toBe(`Couldn't find Contact with 'id'=${unknown}`);
  });
});

describe("deleting contacts", () => {
  it("deletes with 204 (people and tags go with it); another user's contact is 403 and stays", async () => {
    const contact = await insertContact(alice.list.id, "Delete, Dan");
    await insertPerson(contact.id, "Dan");
    await insertTags(contact.id, ["gone"]);
    const response = await del(`${CONTACTS}/${contact.id}`, alice.token);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await storedContact(contact.id)).toBeUndefined();
    expect(await peopleOf(contact.id)).toEqual([]);
    expect(await db.select().from(schema.contactTags).where(eq(schema.contactTags.contactId, contact.id))).toEqual([]);
    errorOf(await del(`${CONTACTS}/${bobContact.id}`, alice.token), 403);
    expect(await storedContact(bobContact.id)).toBeDefined();
    errorOf(await del(`${CONTACTS}/${contact.id}`, alice.token), 404);
  });
});
