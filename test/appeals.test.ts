import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { del, errorOf, get, post, put, request } from "./helpers/api";
import { addToList, createAccountList, createUser, createViewer, db, uuid } from "./helpers/factories";
import {
  createAppealRow,
  createContact,
  createDesignationAccount,
  createDonationRow,
  createDonorAccount,
  createOrganization,
  createPledgeRow,
  setRates,
  storedRow,
} from "./helpers/money-records";

type Viewer = Awaited<ReturnType<typeof createViewer>>;
let alice: Viewer;
let bob: Viewer;
let bobAppeal: { id: string; updatedAt: string };

const APPEALS = "/api/v2/appeals";

function appealBody(attributes: Record<string, unknown>, accountListId?: string | null) {
  return {
    data: {
      type: "appeals",
      attributes,
      ...(accountListId !== undefined ? { relationships: { account_list: { data: accountListId ? { type: "account_lists", id: accountListId } : null } } } : {}),
    },
  };
}

const idsOf = (document: { data: Array<{ id: string }> }) => document.data.map((resource) => resource.id);

beforeAll(async () => {
  alice = await createViewer({ currency: "EUR" });
  bob = await createViewer();
  bobAppeal = await createAppealRow(bob.list.id, { name: "Bob's building fund", amount: "500.0" });
  await setRates({ EUR: "0.9", GBP: "0.75", CAD: "1.35", AUD: "1.35" });
});

describe("creating appeals", () => {
  it("creates one in the viewer's default list with computed totals, hiding the filter attributes", async () => {
    const response = await post(APPEALS, appealBody({ name: "Summer camp", amount: 1500.5, description: "Kids", end_date: "2026-08-31" }), alice.token);
    expect(response.status, response.text).toBe(201);
    const { id, attributes, relationships } = response.body.data;
    expect(response.headers.get("location")).toBe(`https://api.example.org${APPEALS}/${id}`);
    expect(attributes).toMatchObject({
      name: "Summer camp",
      amount: "1500.5",
      description: "Kids",
      end_date: "2026-08-31",
      currencies: [],
      total_currency: "EUR",
      pledges_amount_total: "0.0",
      pledges_amount_not_received_not_processed: "0.0",
      pledges_amount_received_not_processed: "0.0",
      pledges_amount_processed: "0.0",
    });
    expect(attributes).not.toHaveProperty("inclusion_filter");
    expect(attributes).not.toHaveProperty("exclusion_filter");
    // Donation linkage is answered only when asked for (an appeal may gather tens of thousands of gifts).
    expect(relationships).toEqual({
      account_list: { data: { type: "account_lists", id: alice.list.id } },
      contacts: { data: [] },
    });
    expect(await storedRow(schema.appeals, id)).toMatchObject({ accountListId: alice.list.id, amount: "1500.5" });
  });

  it("creates one in another list of the viewer's, with a client id", async () => {
    const second = await createAccountList(alice.user, { currency: "GBP" });
    const id = uuid();
    const response = await post(APPEALS, { data: { ...appealBody({ name: "Second" }, second.id).data, id } }, alice.token);
    expect(response.status, response.text).toBe(201);
    expect(response.body.data).toMatchObject({ id, attributes: { total_currency: "GBP", amount: null } });
  });

  it("refuses bad bodies and other users' lists, storing nothing", async () => {
    const before = (await db.select().from(schema.appeals)).length;
    expect(errorOf(await post(APPEALS, appealBody({ amount: 5 }), alice.token), 400)).toMatchObject({ detail: "Name can't be blank", source: { pointer: "/data/attributes/name" } });
    expect(errorOf(await post(APPEALS, appealBody({ name: " " }), alice.token), 400).title).toBe("can't be blank");
    expect(errorOf(await post(APPEALS, appealBody({ name: "X", amount: "lots" }), alice.token), 400).source.pointer).toBe("/data/attributes/amount");
    expect(errorOf(await post(APPEALS, appealBody({ name: "X", end_date: "2026-13-01" }), alice.token), 400).source.pointer).toBe("/data/attributes/end_date");
    expect(errorOf(await post(APPEALS, appealBody({ name: "X", inclusion_filter: "status=active" }), alice.token), 400)).toMatchObject({
      detail: "Inclusion filter must be an object",
      source: { pointer: "/data/attributes/inclusion_filter" },
    });
    expect(errorOf(await post(APPEALS, appealBody({ name: "X", account_list_id: alice.list.id }), alice.token), 409).source.pointer).toBe("/data/attributes/account_list_id");
    expect(errorOf(await post(APPEALS, { data: { type: "tasks", attributes: { name: "X" } } }, alice.token), 409).detail).toBe(
      "'tasks' is not a valid resource type for this endpoint. Expected 'appeals' instead",
    );
    expect(errorOf(await post(APPEALS, { data: { ...appealBody({ name: "X" }).data, id: bobAppeal.id } }, alice.token), 409).source.pointer).toBe("/data/id");
    expect(errorOf(await post(APPEALS, appealBody({ name: "X" }, bob.list.id), alice.token), 403).detail).toBe(
      `Not allowed to perform that action on the resource with ID ${bob.list.id} of type account_lists`,
    );
    const unknown = uuid();
    expect(errorOf(await post(APPEALS, appealBody({ name: "X" }, unknown), alice.token), 404).detail).toBe(`Couldn't find AccountList with 'id'=${unknown}`);
    errorOf(await post(APPEALS, appealBody({ name: "X" }), null), 401);
    errorOf(await post(APPEALS, "[]", alice.token), 400);
    const coach = await createUser();
    await addToList(alice.list.id, coach.id, "coach");
    errorOf(await post(APPEALS, appealBody({ name: "X" }, alice.list.id), coach.token), 403);
    expect((await db.select().from(schema.appeals)).length).toBe(before);
  });
});

describe("choosing an appeal's contacts with filters", () => {
  let carol: Viewer;
  const people: Record<string, { id: string }> = {};

  beforeAll(async () => {
    carol = await createViewer();
    people.financial = await createContact(carol.list.id, { status: "Partner - Financial" });
    people.special = await createContact(carol.list.id, { status: "Partner - Special" });
    people.doNotAsk = await createContact(carol.list.id, { status: "Partner - Special", noAppeals: true });
    people.twoReasons = await createContact(carol.list.id, { status: "Partner - Financial", noAppeals: true, pledgeReceived: true });
    people.prayer = await createContact(carol.list.id, { status: "Partner - Pray", noAppeals: true });
    people.hidden = await createContact(carol.list.id, { status: "Never Ask" });
    const elsewhere = await createViewer();
    people.otherList = await createContact(elsewhere.list.id, { status: "Partner - Financial" });
  });

  async function appealContactsOf(appealId: string) {
    const rows = await db.select().from(schema.appealContacts).where(eq(schema.appealContacts.appealId, appealId));
    return rows.map((row) => row.contactId).sort();
  }

  async function excludedOf(appealId: string) {
    const rows = await db.select().from(schema.appealExcludedContacts).where(eq(schema.appealExcludedContacts.appealId, appealId));
    return Object.fromEntries(rows.map((row) => [row.contactId, row.reasons]));
  }

  it("adds the contacts matching every inclusion entry and records those matching any exclusion entry, with reasons", async () => {
    const response = await post(
      APPEALS,
      appealBody({
        name: "Christmas",
        inclusion_filter: { status: "Partner - Financial,Partner - Special" },
        exclusion_filter: { noAppeals: true, pledge_received: "true", unknown_filter: "x" },
      }),
      carol.token,
    );
    expect(response.status, response.text).toBe(201);
    const id = response.body.data.id;
    expect(await appealContactsOf(id)).toEqual([people.financial.id, people.special.id].sort());
    expect(response.body.data.relationships.contacts.data.map((c: { id: string }) => c.id).sort()).toEqual([people.financial.id, people.special.id].sort());
    expect(await excludedOf(id)).toEqual({
      [people.doNotAsk.id]: ["no_appeals"],
      [people.twoReasons.id]: ["no_appeals", "pledge_received"],
    });
    const appealContactIds = (await db.select().from(schema.appealContacts).where(eq(schema.appealContacts.appealId, id))).map((row) => row.id);
    expect(appealContactIds.every((rowId) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(rowId))).toBe(true);
    expect(new Set(appealContactIds).size).toBe(appealContactIds.length);

    const excluded = await get(`${APPEALS}/${id}/excluded_appeal_contacts`, carol.token);
    expect(excluded.status, excluded.text).toBe(200);
    expect(excluded.body.data).toHaveLength(2);
    const twoReasons = excluded.body.data.find((e: { relationships: { contact: { data: { id: string } } } }) => e.relationships.contact.data.id === people.twoReasons.id);
    expect(twoReasons).toMatchObject({ type: "excluded_appeal_contacts", attributes: { reasons: ["no_appeals", "pledge_received"] }, relationships: { appeal: { data: { type: "appeals", id } } } });
  });

  it("leaves hidden statuses out unless asked for", async () => {
    const everyone = await post(APPEALS, appealBody({ name: "Everyone", inclusion_filter: {} }), carol.token);
    expect(await appealContactsOf(everyone.body.data.id)).toEqual(
      [people.financial.id, people.special.id, people.doNotAsk.id, people.twoReasons.id, people.prayer.id].sort(),
    );
    const hidden = await post(APPEALS, appealBody({ name: "Hidden", inclusion_filter: { status: "hidden" } }), carol.token);
    expect(await appealContactsOf(hidden.body.data.id)).toEqual([people.hidden.id]);
  });

  it("without an inclusion filter adds nobody but records the list's contacts the exclusion filter matches", async () => {
    const financial = await post(APPEALS, appealBody({ name: "Not the financial partners", exclusion_filter: { status: "Partner - Financial" } }), carol.token);
    expect(financial.status, financial.text).toBe(201);
    expect(await appealContactsOf(financial.body.data.id)).toEqual([]);
    expect(await excludedOf(financial.body.data.id)).toEqual({ [people.financial.id]: ["status"], [people.twoReasons.id]: ["status"] });
    const excluded = await get(`${APPEALS}/${financial.body.data.id}/excluded_appeal_contacts`, carol.token);
    expect(excluded.body.data.map((e: { relationships: { contact: { data: { id: string } } } }) => e.relationships.contact.data.id).sort()).toEqual(
      [people.financial.id, people.twoReasons.id].sort(),
    );
    const noAppeals = await post(APPEALS, appealBody({ name: "None", exclusion_filter: { no_appeals: "true", status: "Never Ask" } }), carol.token);
    expect(await appealContactsOf(noAppeals.body.data.id)).toEqual([]);
    expect(await excludedOf(noAppeals.body.data.id)).toEqual({
      [people.doNotAsk.id]: ["no_appeals"],
      [people.twoReasons.id]: ["no_appeals"],
      [people.prayer.id]: ["no_appeals"],
      [people.hidden.id]: ["status"],
    });
    // Blank entries are no filter, as in lists: they neither fail nor exclude anyone.
    const blanks = await post(APPEALS, appealBody({ name: "Blanks", exclusion_filter: { status: "Never Ask", started_giving_range: "", city: " , ", donation_amount_range: { min: "", max: "" } } }), carol.token);
    expect(blanks.status, blanks.text).toBe(201);
    expect(await excludedOf(blanks.body.data.id)).toEqual({ [people.hidden.id]: ["status"] });
    const before = (await db.select().from(schema.appeals)).length;
    const bad = errorOf(await post(APPEALS, appealBody({ name: "Bad", exclusion_filter: { started_giving_range: "last spring" } }), carol.token), 400);
    expect(bad.source).toEqual({ pointer: "/data/attributes/exclusion_filter" });
    expect((await db.select().from(schema.appeals)).length).toBe(before);
  });

  it("points a filter's own error at the filter attribute and creates nothing", async () => {
    const before = (await db.select().from(schema.appeals)).length;
    const bad = errorOf(await post(APPEALS, appealBody({ name: "Bad", inclusion_filter: { status: "active" }, exclusion_filter: { started_giving_range: "last spring" } }), carol.token), 400);
    expect(bad.source).toEqual({ pointer: "/data/attributes/exclusion_filter" });
    expect(bad.detail).toContain("Wrong format of date range for filter 'started_giving_range'");
    const badInclusion = errorOf(await post(APPEALS, appealBody({ name: "Bad", inclusion_filter: { created_at: "never" } }), carol.token), 400);
    expect(badInclusion.source).toEqual({ pointer: "/data/attributes/inclusion_filter" });
    expect((await db.select().from(schema.appeals)).length).toBe(before);
  });

  it("ignores the filters on update", async () => {
    const created = await post(APPEALS, appealBody({ name: "Later" }), carol.token);
    const updated = await put(`${APPEALS}/${created.body.data.id}`, appealBody({ name: "Later still", overwrite: true, inclusion_filter: { status: "active" } }), carol.token);
    expect(updated.status, updated.text).toBe(200);
    expect(await appealContactsOf(created.body.data.id)).toEqual([]);
  });
});

describe("appeal totals", () => {
  it("sums pledges by status converted exactly into the list's currency, rounding once to cents", async () => {
    const dave = await createViewer({ currency: "EUR" });
    const appeal = await createAppealRow(dave.list.id, { amount: "2000.0" });
    const other = await createAppealRow(dave.list.id);
    const pledge = async (amount: string, amountCurrency: string | null, status: string, appealId = appeal.id) => {
      const contact = await createContact(dave.list.id);
      await createPledgeRow({ accountListId: dave.list.id, contactId: contact.id }, { appealId, amount, amountCurrency, status });
    };
    // Rates per USD: EUR 0.9, GBP 0.75, CAD and AUD 1.35; JPY has none and counts as 1.
    await pledge("100.0", "USD", "not_received"); // 90 EUR
    await pledge("5.0", null, "not_received"); // the list's currency: 5 EUR
    await pledge("1000.0", "JPY", "not_received"); // 900 EUR
    await pledge("30.0", "GBP", "received_not_processed"); // 36 EUR
    // 0.6666.. EUR each: 1.3333.. together, 1.33 (rounding each to cents first would give 1.34).
    await pledge("1.0", "cad", "processed");
    await pledge("1.0", "AUD", "processed");
    await pledge("10.0", "EUR", "processed");
    await pledge("999.0", "USD", "processed", other.id);
    const organization = await createOrganization();
    const donor = await createDonorAccount(organization.id);
    const fund = await createDesignationAccount(dave.list.id);
    // Stored codes differ in case; the appeal names each currency once, upper-case.
    for (const currency of ["USD", "EUR", "usd"]) {
      await createDonationRow({ accountListId: dave.list.id, designationAccountId: fund.id, donorAccountId: donor.id }, { appealId: appeal.id, currency });
    }
    const response = await get(`${APPEALS}/${appeal.id}`, dave.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.attributes).toMatchObject({
      amount: "2000.0",
      currencies: ["EUR", "USD"],
      total_currency: "EUR",
      pledges_amount_not_received_not_processed: "995.0",
      pledges_amount_received_not_processed: "36.0",
      pledges_amount_processed: "11.33",
      pledges_amount_total: "1042.33",
    });
    expect(response.body.data.relationships).not.toHaveProperty("donations");
    const withDonations = await get(`${APPEALS}/${appeal.id}?include=donations`, dave.token);
    expect(withDonations.body.data.relationships.donations.data).toHaveLength(3);
    expect(withDonations.body.included.filter((r: { type: string }) => r.type === "donations")).toHaveLength(3);
  });
});

describe("listing and reading appeals", () => {
  let erin: Viewer;
  let secondList: { id: string };
  const appeals: Record<string, { id: string }> = {};

  beforeAll(async () => {
    erin = await createViewer();
    secondList = await createAccountList(erin.user);
    appeals.first = await createAppealRow(erin.list.id, { name: "Missions Conference", createdAt: "2026-01-01T00:00:00Z" });
    appeals.second = await createAppealRow(erin.list.id, { name: "Year-end", createdAt: "2026-01-02T00:00:00Z" });
    appeals.third = await createAppealRow(secondList.id, { name: "Spring mission trip", createdAt: "2026-01-03T00:00:00Z" });
    const organization = await createOrganization();
    const donor = await createDonorAccount(organization.id);
    const fund = await createDesignationAccount(erin.list.id, { designationNumber: "0042771" });
    await createDonationRow({ accountListId: erin.list.id, designationAccountId: fund.id, donorAccountId: donor.id }, { appealId: appeals.second.id, amount: "12.0" });
    const contact = await createContact(erin.list.id, { name: "Doe, Jane" });
    await db.insert(schema.appealContacts).values({ id: uuid(), appealId: appeals.first.id, contactId: contact.id, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" });
  });

  it("lists the viewer's appeals of every list in created order, never another user's", async () => {
    const response = await get(APPEALS, erin.token);
    expect(response.status, response.text).toBe(200);
    expect(idsOf(response.body)).toEqual([appeals.first.id, appeals.second.id, appeals.third.id]);
    expect(response.body.meta).toEqual({ pagination: { page: 1, per_page: 25, total_count: 3, total_pages: 1 }, sort: null, filter: {} });
    const paged = await get(`${APPEALS}?per_page=1&page=2&sort=-created_at`, erin.token);
    expect(idsOf(paged.body)).toEqual([appeals.second.id]);
    errorOf(await get(APPEALS, null), 401);
  });

  it("filters by account list, appeal id and wildcard search over names and designation numbers", async () => {
    expect(idsOf((await get(`${APPEALS}?filter[account_list_id]=${secondList.id}`, erin.token)).body)).toEqual([appeals.third.id]);
    expect(errorOf(await get(`${APPEALS}?filter[account_list_id]=${bob.list.id}`, erin.token), 404).detail).toBe(`Resource 'AccountList' with id '${bob.list.id}' does not exist`);
    expect(idsOf((await get(`${APPEALS}?filter[appeal_id]=${appeals.first.id},${bobAppeal.id}`, erin.token)).body)).toEqual([appeals.first.id]);
    const byName = await get(`${APPEALS}?filter[wildcard_search]=MISSION`, erin.token);
    expect(idsOf(byName.body)).toEqual([appeals.first.id, appeals.third.id]);
    expect(byName.body.meta.filter).toEqual({ wildcard_search: "MISSION" });
    expect(idsOf((await get(`${APPEALS}?filter[wildcardSearch]=00427`, erin.token)).body)).toEqual([appeals.second.id]);
    expect(idsOf((await get(`${APPEALS}?filter[wildcard_search]=427`, erin.token)).body)).toEqual([]);
    expect(idsOf((await get(`${APPEALS}?filter[wildcard_search]=building`, erin.token)).body)).toEqual([]);
  });

  it("includes donations and contacts, and keeps only the asked fields", async () => {
    const response = await get(`${APPEALS}?include=donations,contacts&fields[appeals]=name,donations&fields[donations]=amount`, erin.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data[0]).toEqual({ id: appeals.first.id, type: "appeals", attributes: { name: "Missions Conference" }, relationships: { donations: { data: [] } } });
    const donation = response.body.included.find((resource: { type: string }) => resource.type === "donations");
    expect(donation.attributes).toEqual({ amount: "12.0" });
    const contact = response.body.included.find((resource: { type: string }) => resource.type === "contacts");
    expect(contact?.attributes?.name).toBe("Doe, Jane");
    const override = await request("POST", APPEALS, { token: erin.token, headers: { "X-HTTP-Method-Override": "GET" }, body: { filter: { appeal_id: appeals.second.id }, fields: { appeals: "" } } });
    expect(override.body.data).toEqual([{ id: appeals.second.id, type: "appeals" }]);
  });

  it("shows one; someone else's is 403 and an unknown one 404", async () => {
    const shown = await get(`${APPEALS}/${appeals.second.id}?include=account_list`, erin.token);
    expect(shown.body.data.attributes.name).toBe("Year-end");
    expect(shown.body.included?.[0]).toMatchObject({ type: "account_lists", id: erin.list.id });
    expect(errorOf(await get(`${APPEALS}/${bobAppeal.id}`, erin.token), 403).detail).toBe(`Not allowed to perform that action on the resource with ID ${bobAppeal.id} of type appeals`);
    const unknown = uuid();
    expect(errorOf(await get(`${APPEALS}/${unknown}`, erin.token), 404).detail).toBe(`Couldn't find Appeal with 'id'=${unknown}`);
    expect(errorOf(await get(`${APPEALS}/12`, erin.token), 404).detail).toBe("Route not found");
  });
});

describe("changing and deleting appeals", () => {
  it("updates with the offline-sync check and refuses moving to another list", async () => {
    const second = await createAccountList(alice.user);
    const appeal = await createAppealRow(alice.list.id, { name: "Old" });
    const path = `${APPEALS}/${appeal.id}`;
    const stale = errorOf(await put(path, appealBody({ name: "New" }), alice.token), 409);
    expect(stale).toMatchObject({
      title: `is not equal to the current value in the database (${appeal.updatedAt})`,
      source: { pointer: "/data/attributes/updated_in_db_at" },
      meta: { updated_in_db_at: appeal.updatedAt },
    });
    const moved = errorOf(await put(path, appealBody({ overwrite: true }, second.id), alice.token), 400);
    expect(moved).toMatchObject({ detail: "Account list can't be changed", source: { pointer: "/data/relationships/account_list" } });
    expect(errorOf(await put(path, appealBody({ name: "", overwrite: true }), alice.token), 400).source.pointer).toBe("/data/attributes/name");
    expect(await storedRow(schema.appeals, appeal.id)).toMatchObject({ name: "Old", accountListId: alice.list.id, updatedAt: appeal.updatedAt });
    const updated = await put(path, appealBody({ name: "New", amount: "99.95", updated_in_db_at: appeal.updatedAt.replace("T", " ").replace("Z", " UTC") }, alice.list.id), alice.token);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ name: "New", amount: "99.95" });
    expect(updated.body.data.attributes.updated_in_db_at).not.toBe(appeal.updatedAt);
  });

  it("refuses changes to someone else's appeal and leaves it as it was", async () => {
    const before = await storedRow(schema.appeals, bobAppeal.id);
    errorOf(await put(`${APPEALS}/${bobAppeal.id}`, appealBody({ name: "Mine now", overwrite: true }), alice.token), 403);
    errorOf(await del(`${APPEALS}/${bobAppeal.id}`, alice.token), 403);
    errorOf(await put(`${APPEALS}/${uuid()}`, appealBody({ name: "X", overwrite: true }), alice.token), 404);
    errorOf(await del(`${APPEALS}/${bobAppeal.id}`, null), 401);
    const coach = await createUser();
    await addToList(bob.list.id, coach.id, "coach");
    expect((await get(`${APPEALS}/${bobAppeal.id}`, coach.token)).status).toBe(200);
    errorOf(await put(`${APPEALS}/${bobAppeal.id}`, appealBody({ name: "Coached", overwrite: true }), coach.token), 403);
    errorOf(await del(`${APPEALS}/${bobAppeal.id}`, coach.token), 403);
    expect(await storedRow(schema.appeals, bobAppeal.id)).toEqual(before);
  });

  it("deletes one with its contacts and pledges; its donations stay without it", async () => {
    const appeal = await createAppealRow(alice.list.id);
    const contact = await createContact(alice.list.id);
    await db.insert(schema.appealContacts).values({ id: uuid(), appealId: appeal.id, contactId: contact.id, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" });
    const pledge = await createPledgeRow({ accountListId: alice.list.id, contactId: contact.id }, { appealId: appeal.id });
    const organization = await createOrganization();
    const donation = await createDonationRow(
      { accountListId: alice.list.id, designationAccountId: (await createDesignationAccount(alice.list.id)).id, donorAccountId: (await createDonorAccount(organization.id)).id },
      { appealId: appeal.id },
    );
    expect((await del(`${APPEALS}/${appeal.id}`, alice.token)).status).toBe(204);
    expect(await storedRow(schema.appeals, appeal.id)).toBeUndefined();
    expect(await db.select().from(schema.appealContacts).where(eq(schema.appealContacts.appealId, appeal.id))).toEqual([]);
    expect(await storedRow(schema.pledges, pledge.id)).toBeUndefined();
    expect(await storedRow(schema.donations, donation.id)).toMatchObject({ appealId: null });
    errorOf(await del(`${APPEALS}/${appeal.id}`, alice.token), 404);
  });
});

describe("appeal contacts", () => {
  let frank: Viewer;
  let appeal: { id: string };
  let otherAppeal: { id: string };
  let contacts: Array<{ id: string }>;
  let otherListContact: { id: string };
  let bobContact: { id: string };
  const path = (appealId: string, rest = "") => `${APPEALS}/${appealId}/appeal_contacts${rest}`;
  const contactBody = (contactId: string | null) => ({ data: { type: "appeal_contacts", relationships: { contact: { data: contactId ? { type: "contacts", id: contactId } : null } } } });

  beforeAll(async () => {
    frank = await createViewer();
    appeal = await createAppealRow(frank.list.id);
    otherAppeal = await createAppealRow(frank.list.id);
    contacts = [await createContact(frank.list.id), await createContact(frank.list.id), await createContact(frank.list.id)];
    otherListContact = await createContact((await createAccountList(frank.user)).id);
    bobContact = await createContact(bob.list.id);
  });

  it("adds a contact, answers it, lists it and refuses a duplicate", async () => {
    const created = await post(path(appeal.id), contactBody(contacts[0].id), frank.token);
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get("location")).toBe(`https://api.example.org${path(appeal.id)}/${created.body.data.id}`);
    expect(created.body.data.relationships).toEqual({
      appeal: { data: { type: "appeals", id: appeal.id } },
      contact: { data: { type: "contacts", id: contacts[0].id } },
    });
    const duplicate = errorOf(await post(path(appeal.id), contactBody(contacts[0].id), frank.token), 400);
    expect(duplicate).toMatchObject({ detail: "Contact has already been taken", source: { pointer: "/data/relationships/contact" } });
    await post(path(appeal.id), contactBody(contacts[1].id), frank.token);
    await post(path(otherAppeal.id), contactBody(contacts[2].id), frank.token);
    const listed = await get(`${path(appeal.id)}?include=contact`, frank.token);
    // Both were added within the same second: compare as sets.
    expect(listed.body.data.map((ac: { relationships: { contact: { data: { id: string } } } }) => ac.relationships.contact.data.id).sort()).toEqual([contacts[0].id, contacts[1].id].sort());
    expect(listed.body.included.map((c: { id: string }) => c.id).sort()).toEqual([contacts[0].id, contacts[1].id].sort());
    const appealShown = await get(`${APPEALS}/${appeal.id}`, frank.token);
    expect(appealShown.body.data.relationships.contacts.data.map((c: { id: string }) => c.id).sort()).toEqual([contacts[0].id, contacts[1].id].sort());
  });

  it("filters by whether the contact pledged to the appeal", async () => {
    await createPledgeRow({ accountListId: frank.list.id, contactId: contacts[1].id }, { appealId: appeal.id });
    const pledged = await get(`${path(appeal.id)}?filter[pledged_to_appeal]=true`, frank.token);
    expect(pledged.body.data.map((ac: { relationships: { contact: { data: { id: string } } } }) => ac.relationships.contact.data.id)).toEqual([contacts[1].id]);
    const asked = await get(`${path(appeal.id)}?filter[pledged_to_appeal]=false`, frank.token);
    expect(asked.body.data.map((ac: { relationships: { contact: { data: { id: string } } } }) => ac.relationships.contact.data.id)).toEqual([contacts[0].id]);
  });

  it("checks the contact: blank 400, another list 400, someone else's 403, unknown 404", async () => {
    const before = (await db.select().from(schema.appealContacts)).length;
    expect(errorOf(await post(path(appeal.id), { data: { type: "appeal_contacts" } }, frank.token), 400).source.pointer).toBe("/data/relationships/contact");
    expect(errorOf(await post(path(appeal.id), contactBody(otherListContact.id), frank.token), 400).detail).toBe("Contact must belong to the same account list");
    errorOf(await post(path(appeal.id), contactBody(bobContact.id), frank.token), 403);
    errorOf(await post(path(appeal.id), contactBody(uuid()), frank.token), 404);
    errorOf(await post(path(appeal.id), { data: { type: "contacts", relationships: {} } }, frank.token), 409);
    expect((await db.select().from(schema.appealContacts)).length).toBe(before);
  });

  it("asking an excluded contact lifts the exclusion", async () => {
    await db.insert(schema.appealExcludedContacts).values({ id: uuid(), appealId: otherAppeal.id, contactId: contacts[0].id, reasons: ["no_appeals"], createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" });
    expect((await get(`${APPEALS}/${otherAppeal.id}/excluded_appeal_contacts`, frank.token)).body.data).toHaveLength(1);
    expect((await post(path(otherAppeal.id), contactBody(contacts[0].id), frank.token)).status).toBe(201);
    expect((await get(`${APPEALS}/${otherAppeal.id}/excluded_appeal_contacts`, frank.token)).body.data).toEqual([]);
  });

  it("removes one; another appeal's is 404 here", async () => {
    const listed = await get(path(appeal.id), frank.token);
    const appealContactId = listed.body.data[0].id;
    const others = await get(path(otherAppeal.id), frank.token);
    errorOf(await del(path(appeal.id, `/${others.body.data[0].id}`), frank.token), 404);
    errorOf(await get(path(appeal.id, `/${others.body.data[0].id}`), frank.token), 404);
    expect((await del(path(appeal.id, `/${appealContactId}`), frank.token)).status).toBe(204);
    expect((await get(path(appeal.id), frank.token)).body.data).toHaveLength(1);
    errorOf(await del(path(appeal.id, `/${appealContactId}`), frank.token), 404);
    expect((await get(path(otherAppeal.id), frank.token)).body.data).toHaveLength(2);
  });

  it("guards the appeal: unknown 404, someone else's 403, a coach reads only, no token 401", async () => {
    const unknown = uuid();
    expect(errorOf(await get(path(unknown), frank.token), 404).detail).toBe(`Couldn't find Appeal with 'id'=${unknown}`);
    expect(errorOf(await get(`${APPEALS}/${unknown}/excluded_appeal_contacts`, frank.token), 404).detail).toBe(`Couldn't find Appeal with 'id'=${unknown}`);
    expect(errorOf(await get(path(bobAppeal.id), frank.token), 403).detail).toBe(`Not allowed to perform that action on the resource with ID ${bobAppeal.id} of type appeals`);
    errorOf(await get(`${APPEALS}/${bobAppeal.id}/excluded_appeal_contacts`, frank.token), 403);
    errorOf(await post(path(bobAppeal.id), contactBody(bobContact.id), frank.token), 403);
    errorOf(await get(path(appeal.id), null), 401);
    expect(errorOf(await put(path(appeal.id, `/${uuid()}`), contactBody(contacts[2].id), frank.token), 405).detail).toBe("PUT is not allowed here");
    const coach = await createUser();
    await addToList(frank.list.id, coach.id, "coach");
    expect((await get(path(appeal.id), coach.token)).status).toBe(200);
    const existing = (await get(path(appeal.id), coach.token)).body.data[0].id;
    errorOf(await del(path(appeal.id, `/${existing}`), coach.token), 403);
    errorOf(await post(path(appeal.id), contactBody(contacts[2].id), coach.token), 403);
    expect((await get(path(appeal.id), frank.token)).body.data.map((ac: { id: string }) => ac.id)).toContain(existing);
  });
});
