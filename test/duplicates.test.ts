/**
 * /contacts/duplicates and /contacts/people/duplicates: pairs found as the original finds them (similar names,
 * a shared donor account number; people of one contact by name, e-mail address or phone number), listed with the web app's own requests, marked
 * "not a duplicate" and never offered again; who may read and mark them; bad input.
 */
import { userStrangerAndCoach } from "./helpers/team";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { errorOf, get, put } from "./helpers/api";
import { givingTo, insertAddress, insertContact, insertEmail, insertPerson, insertPhone } from "./helpers/contact-fixtures";
import { createUser, createViewer, db, tokenFor, uuid } from "./helpers/factories";
import { expectKeptSumsExact, expectTriggersAsDeclared } from "./helpers/kept-sums";
import { contactNameKeyTriggers, duplicateInputTriggers, duplicatePairTriggers } from "../drizzle/duplicates";

type Viewer = Awaited<ReturnType<typeof createViewer>>;
type Pair = { id: string; type: string; attributes: Record<string, unknown>; relationships: { records: { data: Array<{ id: string; type: string }> } } };

/** The web app's Merge Contacts tool, verbatim (src/tools/merge/contacts/contacts.component.ts). */
const contactsTool = (listId: string) =>
  `/api/v2/contacts/duplicates?include=records,records.addresses&fields[contacts]=addresses,name,square_avatar,status,created_at&fields[addresses]=city,postal_code,primary_mailing_address,state,street,source&filter[account_list_id]=${listId}&filter[ignore]=false&per_page=5`;
/** The web app's Merge People tool, verbatim (src/tools/merge/people/people.component.ts). */
const peopleTool = (listId: string) =>
  `/api/v2/contacts/people/duplicates?include=records,records.phone_numbers,records.email_addresses&fields[people]=avatar,email_addresses,phone_numbers,first_name,last_name,created_at&fields[phone_numbers]=primary,number,source&fields[email_addresses]=primary,email,source&fields[person_duplicates]=people,shared_contact&filter[account_list_id]=${listId}&filter[ignore]=false&per_page=5`;

const pairedIds = (pairs: Pair[]) => pairs.map((pair) => pair.relationships.records.data.map((record) => record.id));

let alice: Viewer;
let bob: Viewer;
let coach: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  ({ owner: alice, stranger: bob, coach } = await userStrangerAndCoach());
});

describe("contact duplicates", () => {
  it("pairs similar names and shared donor numbers, the older first, and answers the web app's tool request", async () => {
    const john = await insertContact(alice.list.id, "Doe, John and Jane");
    const johnAgain = await insertContact(alice.list.id, "John H. Doe");
    await insertAddress(johnAgain.id, { street: "1 Main St", city: "Springfield", state: "IL", postalCode: "62701", primaryMailingAddress: true, source: "MPDX" });
    const church = await insertContact(alice.list.id, "First Baptist Church");
    await insertContact(alice.list.id, "First Methodist Church");
    const giver = await insertContact(alice.list.id, "Smith, Ann");
    const giverAgain = await insertContact(alice.list.id, "Ann Jones");
    const giving = await givingTo(alice.list.id);
    const number = `N${uuid().slice(0, 6)}`;
    await giving.donorAccountOf(giver.id, number);
    // The same number at another organization, linked to the second contact.
    const other = await givingTo(alice.list.id);
    await other.donorAccountOf(giverAgain.id, number);
    // Bob's contact of the same name is never paired with Alice's.
    await insertContact(bob.list.id, "Doe, John");

    const answer = await get(contactsTool(alice.list.id), alice.token);
    expect(answer.status, answer.text).toBe(200);
    // Found together, the pairs were made in the same second: their order is not told.
    const pairs = (answer.body.data as Pair[]).sort((a, b) => String(a.attributes.reason).localeCompare(String(b.attributes.reason)));
    expect(pairedIds(pairs)).toEqual([
      [giver.id, giverAgain.id],
      [john.id, johnAgain.id],
    ]);
    expect(pairs.map((pair) => pair.attributes.reason)).toEqual(["Same donor account number", "Similar names"]);
    expect(pairs[1]).toMatchObject({ type: "duplicate_record_pairs", attributes: { ignore: false }, relationships: { account_list: { data: { type: "account_lists", id: alice.list.id } } } });
    expect(pairs[0].relationships.records.data.every((record) => record.type === "contacts")).toBe(true);
    expect(answer.body.meta.pagination).toMatchObject({ total_count: 2, per_page: 5, page: 1 });
    const included = answer.body.included as Array<{ type: string; id: string; attributes: Record<string, unknown> }>;
    expect(included.find((resource) => resource.id === johnAgain.id)?.attributes).toEqual({ name: "John H. Doe", square_avatar: null, status: null, created_at: expect.any(String) });
    expect(included.find((resource) => resource.type === "addresses")?.attributes).toEqual({
      street: "1 Main St",
      city: "Springfield",
      state: "IL",
      postal_code: "62701",
      primary_mailing_address: true,
      source: "MPDX",
    });
    expect(included.some((resource) => resource.id === church.id)).toBe(false);
    // Listing again finds nothing new; the kept counts behind the finder equal their recount.
    expect(pairedIds((await get(contactsTool(alice.list.id), alice.token)).body.data).sort()).toEqual(pairedIds(pairs).sort());
    await expectKeptSumsExact();
  });

  it("marks a pair not a duplicate with the web app's request; it is never offered again, and its records may pair anew", async () => {
    const first = await insertContact(alice.list.id, "Lee, Pat");
    const second = await insertContact(alice.list.id, "Pat Lee");
    const listed = await get(contactsTool(alice.list.id), alice.token);
    const pair = (listed.body.data as Pair[]).find((item) => item.relationships.records.data[0].id === first.id)!;
    expect(pair).toBeDefined();
    const ignored = await put(`/api/v2/contacts/duplicates/${pair.id}`, { data: { type: "duplicate_record_pairs", id: pair.id, attributes: { ignore: true, overwrite: true } } }, alice.token);
    expect(ignored.status, ignored.text).toBe(200);
    expect(ignored.body.data.attributes.ignore).toBe(true);
    const again = await get(contactsTool(alice.list.id), alice.token);
    expect(pairedIds(again.body.data)).not.toContainEqual([first.id, second.id]);
    const ignoredList = await get(`/api/v2/contacts/duplicates?filter[account_list_id]=${alice.list.id}&filter[ignore]=true`, alice.token);
    expect(pairedIds(ignoredList.body.data)).toContainEqual([first.id, second.id]);
    // A third Pat Lee pairs with the first: the ignored pair holds neither record.
    const third = await insertContact(alice.list.id, "Lee, Pat and Sam");
    const found = await get(contactsTool(alice.list.id), alice.token);
    expect(pairedIds(found.body.data)).toContainEqual([first.id, third.id]);
    const shown = await get(`/api/v2/contacts/duplicates/${pair.id}`, coach.token);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.data.attributes.ignore).toBe(true);
  });

  it("goes with a record deleted, and lists every list of the viewer without a filter", async () => {
    const first = await insertContact(alice.list.id, "Ray, Kim");
    const second = await insertContact(alice.list.id, "Kim Ray");
    await get(contactsTool(alice.list.id), alice.token);
    const stored = () => db.select().from(schema.duplicateRecordPairs).where(eq(schema.duplicateRecordPairs.recordOneId, first.id));
    expect(await stored()).toHaveLength(1);
    const all = await get("/api/v2/contacts/duplicates?per_page=100", alice.token);
    expect(all.status, all.text).toBe(200);
    expect(pairedIds(all.body.data)).toContainEqual([first.id, second.id]);
    await db.delete(schema.contacts).where(eq(schema.contacts.id, second.id));
    expect(await stored()).toEqual([]);
  });

  it("is read by the list's coach, refused to strangers (404) and bad input (400), changing nothing", async () => {
    await insertContact(alice.list.id, "Fox, Lou");
    await insertContact(alice.list.id, "Lou Fox");
    const byCoach = await get(contactsTool(alice.list.id), coach.token);
    expect(byCoach.status, byCoach.text).toBe(200);
    const pair = (byCoach.body.data as Pair[])[0];
    const stranger = await get(contactsTool(alice.list.id), bob.token);
    expect(errorOf(stranger, 404).detail).toBe(`Resource 'AccountList' with id '${alice.list.id}' does not exist`);
    expect((await get(`/api/v2/contacts/duplicates/${pair.id}`, bob.token)).status).toBe(404);
    const body = (attributes: Record<string, unknown>) => ({ data: { type: "duplicate_record_pairs", id: pair.id, attributes } });
    // A coach reads but does not mark; a stranger does not find it.
    expect((await put(`/api/v2/contacts/duplicates/${pair.id}`, body({ ignore: true }), coach.token)).status).toBe(403);
    expect((await put(`/api/v2/contacts/duplicates/${pair.id}`, body({ ignore: true }), bob.token)).status).toBe(404);
    const bad = await put(`/api/v2/contacts/duplicates/${pair.id}`, body({ ignore: "maybe" }), alice.token);
    expect(errorOf(bad, 400).source).toEqual({ pointer: "/data/attributes/ignore" });
    const wrongType = await put(`/api/v2/contacts/duplicates/${pair.id}`, { data: { type: "contacts", id: pair.id, attributes: { ignore: true } } }, alice.token);
    expect(wrongType.status).toBe(409);
    const badFilter = await get(`/api/v2/contacts/duplicates?filter[ignore]=perhaps`, alice.token);
    expect(errorOf(badFilter, 400).source).toEqual({ parameter: "filter[ignore]" });
    const [row] = await db.select().from(schema.duplicateRecordPairs).where(eq(schema.duplicateRecordPairs.id, pair.id));
    expect(row.ignore).toBe(false);
  });
});

describe("people duplicates", () => {
  it("pairs people of one contact by name, and answers the web app's tool request", async () => {
    const family = await insertContact(alice.list.id, "Park, Sue");
    const sue = await insertPerson(family.id, "Sue", { lastName: "Park" });
    const sueAgain = await insertPerson(family.id, "sue", { lastName: "PARK " });
    const tom = await insertPerson(family.id, "Tom", { lastName: "Park" });
    const tomAgain = await insertPerson(family.id, "Tom");
    // The same name in another contact is another person.
    const elsewhere = await insertContact(alice.list.id, "Unrelated, Contact");
    await insertPerson(elsewhere.id, "Sue", { lastName: "Park" });
    const answer = await get(peopleTool(alice.list.id), alice.token);
    expect(answer.status, answer.text).toBe(200);
    // Found together, the two pairs were made in the same second: their order is not told.
    expect(pairedIds(answer.body.data)).toEqual(expect.arrayContaining([
      [sue.id, sueAgain.id],
      [tom.id, tomAgain.id],
    ]));
    expect(answer.body.data).toHaveLength(2);
    expect((answer.body.data as Pair[]).every((pair) => pair.relationships.records.data.every((record) => record.type === "people"))).toBe(true);
    expect(answer.body.included.filter((resource: { type: string }) => resource.type === "people")).toHaveLength(4);
    const pairId = (answer.body.data as Pair[]).find((pair) => pair.relationships.records.data[0].id === sue.id)!.id;
    const ignored = await put(`/api/v2/contacts/people/duplicates/${pairId}`, { data: { type: "duplicate_record_pairs", id: pairId, attributes: { ignore: true, overwrite: true } } }, alice.token);
    expect(ignored.status, ignored.text).toBe(200);
    expect(pairedIds((await get(peopleTool(alice.list.id), alice.token)).body.data)).toEqual([[tom.id, tomAgain.id]]);
    // A people pair is not at the contacts' path.
    expect((await get(`/api/v2/contacts/duplicates/${pairId}`, alice.token)).status).toBe(404);
    expect((await put(`/api/v2/contacts/duplicates/${pairId}`, { data: { type: "duplicate_record_pairs", id: pairId, attributes: { ignore: false } } }, alice.token)).status).toBe(404);
    await expectKeptSumsExact();
  });

  it("pairs people of one contact sharing an e-mail address or a phone number when both genders are given and equal", async () => {
    const family = await insertContact(alice.list.id, "Lane, Family");
    const ann = await insertPerson(family.id, "Ann", { lastName: "Lane", gender: "female" });
    const anna = await insertPerson(family.id, "Anna", { lastName: "Smith", gender: "Female" });
    await insertEmail(ann.id, "ann@lane.org");
    await insertEmail(anna.id, "  ANN@Lane.org ");
    const bill = await insertPerson(family.id, "Bill", { lastName: "Lane", gender: "male" });
    const william = await insertPerson(family.id, "William", { lastName: "Jones", gender: "male" });
    await insertPhone(bill.id, "(555) 123-4567", "mobile");
    await insertPhone(william.id, "+555.123.4567", "home");
    // A couple sharing an address and a number, and two people without a gender, are not one person.
    const [sam, sally] = [await insertPerson(family.id, "Sam", { gender: "male" }), await insertPerson(family.id, "Sally", { gender: "female" })];
    const [pat, kim] = [await insertPerson(family.id, "Pat"), await insertPerson(family.id, "Kim")];
    for (const person of [sam, sally, pat, kim]) {
      await insertEmail(person.id, "home@lane.org");
      await insertPhone(person.id, "555 000 1111", "home");
    }
    // The same address in another contact is another person's.
    const elsewhere = await insertContact(alice.list.id, "Other, Family");
    const annElsewhere = await insertPerson(elsewhere.id, "Annie", { gender: "female" });
    await insertEmail(annElsewhere.id, "ann@lane.org");
    await expectKeptSumsExact();

    const answer = await get(peopleTool(alice.list.id), alice.token);
    expect(answer.status, answer.text).toBe(200);
    // The pairs of this family (the list keeps the ones found before).
    const lanes = new Set([ann, anna, bill, william, sam, sally, pat, kim, annElsewhere].map((person) => person.id));
    const pairs = (answer.body.data as Pair[]).filter((pair) => pair.relationships.records.data.some((record) => lanes.has(record.id)));
    expect(pairedIds(pairs)).toEqual(expect.arrayContaining([
      [ann.id, anna.id],
      [bill.id, william.id],
    ]));
    expect(pairs).toHaveLength(2);
    const reasons = Object.fromEntries(pairs.map((pair) => [pair.relationships.records.data[0].id, pair.attributes.reason]));
    expect(reasons).toEqual({ [ann.id]: "Similar email addresses", [bill.id]: "Similar phone numbers" });

    // The kept groups follow an address edited, a person moved to another contact and one removed.
    await db.update(schema.emailAddresses).set({ email: "sam@lane.org" }).where(eq(schema.emailAddresses.personId, sam.id));
    await db.update(schema.people).set({ contactId: elsewhere.id }).where(eq(schema.people.id, anna.id));
    await db.delete(schema.people).where(eq(schema.people.id, pat.id));
    await expectKeptSumsExact();
    await db.delete(schema.contacts).where(eq(schema.contacts.id, family.id));
    await expectKeptSumsExact();
  });
});

it("keeps the compared names, removes a record's pairs and counts the finder's inputs by the declared triggers", async () => {
  await expectTriggersAsDeclared(["SET name_key", "DELETE FROM duplicate_record_pairs"], [...contactNameKeyTriggers(), ...duplicatePairTriggers()]);
  await expectTriggersAsDeclared(["INSERT INTO duplicate_checks"], duplicateInputTriggers());
});

describe("the finder's checks", () => {
  /** The Tools menu's duplicate counts (the web app asks on every page). */
  const counted = async (viewer: Viewer) => {
    const answer = await get(`/api/v2/tools/analytics?filter[account_list_id]=${viewer.list.id}`, viewer.token);
    expect(answer.status, answer.text).toBe(200);
    const counts = answer.body.data.attributes.counts_by_type[0].counts as Array<{ type: string; count: number }>;
    return Object.fromEntries(counts.filter((count) => count.type.startsWith("duplicate")).map((count) => [count.type, count.count]));
  };
  const check = async (viewer: Viewer) => (await db.select().from(schema.duplicateChecks).where(eq(schema.duplicateChecks.accountListId, viewer.list.id)))[0];
  /** The counts again with the checks forgotten: the finder run in full, as if never run. */
  const countedInFull = async (viewer: Viewer) => {
    await db.delete(schema.duplicateChecks).where(eq(schema.duplicateChecks.accountListId, viewer.list.id));
    return counted(viewer);
  };

  it("looks again only when what it reads changed, and counts what a full look would", async () => {
    const viewer = await createViewer();
    const family = await insertContact(viewer.list.id, "Reed, Family");
    const [ann, anna] = [await insertPerson(family.id, "Ann", { lastName: "Reed" }), await insertPerson(family.id, "Anna", { lastName: "Hill" })];
    await insertEmail(ann.id, "ann@reed.org");
    await insertEmail(anna.id, "ann@reed.org");
    await insertContact(viewer.list.id, "Doe, John");
    await insertContact(viewer.list.id, "John Doe");

    // Without genders the two sharing an address are not paired; the two Does are.
    expect(await counted(viewer)).toEqual({ "duplicate-contacts": 1, "duplicate-people": 0 });
    const looked = await check(viewer);
    expect(looked.checked).toBe(looked.inputs);
    // Nothing changed: the check stands.
    await counted(viewer);
    expect(await check(viewer)).toEqual(looked);

    // Both genders given and equal: one person (a person's gender is an input).
    await db.update(schema.people).set({ gender: "female" }).where(eq(schema.people.id, ann.id));
    await db.update(schema.people).set({ gender: "Female" }).where(eq(schema.people.id, anna.id));
    expect((await check(viewer)).inputs).toBeGreaterThan(looked.inputs);
    expect(await counted(viewer)).toEqual({ "duplicate-contacts": 1, "duplicate-people": 1 });

    // A third John joins the repeated name: no pair (each record pairs once), but the group changed.
    const before = (await check(viewer)).inputs;
    const third = await insertContact(viewer.list.id, "Doe, John H.");
    expect((await check(viewer)).inputs).toBeGreaterThan(before);
    expect(await counted(viewer)).toEqual({ "duplicate-contacts": 1, "duplicate-people": 1 });
    // The pair marked not a duplicate: its records are free, and the third John pairs with the first.
    await db.update(schema.duplicateRecordPairs).set({ ignore: true }).where(eq(schema.duplicateRecordPairs.accountListId, viewer.list.id));
    expect(await counted(viewer)).toEqual({ "duplicate-contacts": 1, "duplicate-people": 0 });
    const [paired] = await db.select().from(schema.duplicateRecordPairs).where(eq(schema.duplicateRecordPairs.recordTwoId, third.id));
    expect(paired).toMatchObject({ recordType: "Contact", ignore: false });
    expect(await countedInFull(viewer)).toEqual(await counted(viewer));

    // Two Johns of one contact pair once one of them has no last name (a change of no repeated group).
    const couple = await insertContact(viewer.list.id, "Hart, Couple");
    await insertPerson(couple.id, "John", { lastName: "Hart" });
    const other = await insertPerson(couple.id, "John", { lastName: "Stone" });
    expect(await counted(viewer)).toEqual({ "duplicate-contacts": 1, "duplicate-people": 0 });
    await db.update(schema.people).set({ lastName: " " }).where(eq(schema.people.id, other.id));
    expect(await counted(viewer)).toEqual({ "duplicate-contacts": 1, "duplicate-people": 1 });
  });
});

it("needs a token", async () => {
  expect((await get("/api/v2/contacts/duplicates", null)).status).toBe(401);
  expect((await get("/api/v2/contacts/people/duplicates", await tokenFor(uuid()))).status).toBe(401);
});
