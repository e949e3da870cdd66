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
  createPledgeRow,
  createOrganization,
  linkDonorAccount,
  setRates,
  storedRow,
} from "./helpers/money-records";

type Viewer = Awaited<ReturnType<typeof createViewer>>;
let alice: Viewer;
let bob: Viewer;
let aliceSecondList: Awaited<ReturnType<typeof createAccountList>>;
let organizationId: string;
let designation: { id: string };
let otherListDesignation: { id: string };
let bobDesignation: { id: string };
let donor: { id: string };
let otherDonor: { id: string };
let aliceContact: { id: string };
let bobDonation: { id: string };

const base = (listId: string) => `/api/v2/account_lists/${listId}/donations`;

function donationBody(attributes: Record<string, unknown>, relationships: Record<string, string | null> = {}, id?: string) {
  const links: Record<string, unknown> = {};
  const types: Record<string, string> = { designation_account: "designation_accounts", donor_account: "donor_accounts", appeal: "appeals" };
  for (const [name, target] of Object.entries(relationships)) links[name] = { data: target ? { type: types[name], id: target } : null };
  return { data: { type: "donations", ...(id ? { id } : {}), attributes, relationships: links } };
}

const complete = () => ({ designation_account: designation.id, donor_account: donor.id });

beforeAll(async () => {
  alice = await createViewer({ currency: "USD" });
  bob = await createViewer();
  aliceSecondList = await createAccountList(alice.user, { currency: "EUR" });
  organizationId = (await createOrganization()).id;
  designation = await createDesignationAccount(alice.list.id, { designationNumber: "555123" });
  otherListDesignation = await createDesignationAccount(aliceSecondList.id);
  bobDesignation = await createDesignationAccount(bob.list.id);
  donor = await createDonorAccount(organizationId);
  otherDonor = await createDonorAccount(organizationId);
  aliceContact = await createContact(alice.list.id, { name: "Giver, Gina" });
  await linkDonorAccount(aliceContact.id, donor.id);
  // The same donor account is linked in Bob's list too: a donation's contact is the one of its own list.
  const bobContact = await createContact(bob.list.id);
  await linkDonorAccount(bobContact.id, donor.id);
  bobDonation = await createDonationRow({ accountListId: bob.list.id, designationAccountId: bobDesignation.id, donorAccountId: donor.id });
  await setRates({ EUR: "0.8", CAD: "1.25" });
});

describe("creating donations", () => {
  it("creates one with a client id and answers every attribute, the converted amount and the donor's contact", async () => {
    const id = uuid();
    const appeal = await createAppealRow(alice.list.id);
    const response = await post(
      base(alice.list.id),
      donationBody(
        { amount: 10, currency: "eur", donation_date: "2026-02-03", motivation: "Gift", payment_method: "Check", memo: "Thanks", appeal_amount: "2.5" },
        { ...complete(), appeal: appeal.id },
        id,
      ),
      alice.token,
    );
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get("location")).toBe(`https://api.example.org${base(alice.list.id)}/${id}`);
    expect(response.body.data.attributes).toMatchObject({
      amount: "10.0",
      appeal_amount: "2.5",
      currency: "EUR",
      converted_amount: "12.5",
      converted_currency: "USD",
      donation_date: "2026-02-03",
      motivation: "Gift",
      payment_method: "Check",
      memo: "Thanks",
      remote_id: null,
    });
    expect(response.body.data.relationships).toMatchObject({
      account_list: { data: { type: "account_lists", id: alice.list.id } },
      designation_account: { data: { type: "designation_accounts", id: designation.id } },
      donor_account: { data: { type: "donor_accounts", id: donor.id } },
      appeal: { data: { type: "appeals", id: appeal.id } },
      contact: { data: { type: "contacts", id: aliceContact.id } },
      pledges: { data: [] },
    });
    expect(await storedRow(schema.donations, id)).toMatchObject({ accountListId: alice.list.id, amount: "10.0", currency: "EUR", appealId: appeal.id });
  });

  it("defaults the currency to the list's and has no contact for a donor account no contact of the list is linked to", async () => {
    // The donor already gives to the list (an imported gift), so the list reaches it without a linked contact.
    await createDonationRow({ accountListId: aliceSecondList.id, designationAccountId: otherListDesignation.id, donorAccountId: otherDonor.id });
    const response = await post(base(aliceSecondList.id), donationBody({ amount: "7.25", donation_date: "2026-02-04" }, { designation_account: otherListDesignation.id, donor_account: otherDonor.id }), alice.token);
    expect(response.status, response.text).toBe(201);
    expect(response.body.data.attributes).toMatchObject({ currency: "EUR", converted_amount: "7.25", converted_currency: "EUR" });
    expect(response.body.data.relationships.contact.data).toBeNull();
  });

  it("refuses bad bodies with pointers and stores nothing", async () => {
    const before = (await db.select().from(schema.donations)).length;
    const missing = await post(base(alice.list.id), donationBody({}), alice.token);
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual(["/data/attributes/amount", "/data/attributes/donation_date"]);
    const noLinks = await post(base(alice.list.id), donationBody({ amount: 1, donation_date: "2026-01-01" }), alice.token);
    expect(noLinks.status).toBe(400);
    expect(noLinks.body.errors.map((e: { detail: string }) => e.detail)).toEqual(["Donor account can't be blank", "Designation account can't be blank"]);
    const badAmount = errorOf(await post(base(alice.list.id), donationBody({ amount: "ten", donation_date: "2026-01-01" }, complete()), alice.token), 400);
    expect(badAmount).toMatchObject({ detail: "Amount is not a number", source: { pointer: "/data/attributes/amount" } });
    const tooPrecise = errorOf(await post(base(alice.list.id), donationBody({ amount: "1.00001", donation_date: "2026-01-01" }, complete()), alice.token), 400);
    expect(tooPrecise.source.pointer).toBe("/data/attributes/amount");
    const tooLarge = errorOf(await post(base(alice.list.id), donationBody({ amount: "900719925474.0993", appeal_amount: 1, donation_date: "2026-01-01" }, complete()), alice.token), 400);
    expect(tooLarge).toMatchObject({ detail: "Amount is too large (maximum is 900719925474.0991)", source: { pointer: "/data/attributes/amount" } });
    const badCurrency = errorOf(await post(base(alice.list.id), donationBody({ amount: 1, currency: "ZZZ", donation_date: "2026-01-01" }, complete()), alice.token), 400);
    expect(badCurrency).toMatchObject({ detail: "Currency is not included in the list", source: { pointer: "/data/attributes/currency" } });
    const badDate = errorOf(await post(base(alice.list.id), donationBody({ amount: 1, donation_date: "2026-02-30" }, complete()), alice.token), 400);
    expect(badDate.source.pointer).toBe("/data/attributes/donation_date");
    // Other `*_id` attributes are foreign keys smuggled into attributes (remote_id is an ordinary attribute).
    const foreignKey = errorOf(await post(base(alice.list.id), donationBody({ amount: 1, donation_date: "2026-01-01", appeal_id: "x" }, complete()), alice.token), 409);
    expect(foreignKey.source.pointer).toBe("/data/attributes/appeal_id");
    const wrongType = errorOf(await post(base(alice.list.id), { data: { type: "pledges", attributes: {} } }, alice.token), 409);
    expect(wrongType.detail).toBe("'pledges' is not a valid resource type for this endpoint. Expected 'donations' instead");
    const wrongLinkType = errorOf(
      await post(base(alice.list.id), { data: { type: "donations", attributes: { amount: 1, donation_date: "2026-01-01" }, relationships: { designation_account: { data: { type: "contacts", id: designation.id } } } } }, alice.token),
      409,
    );
    expect(wrongLinkType.source.pointer).toBe("/data/relationships/designation_account/data/type");
    const reused = errorOf(await post(base(alice.list.id), donationBody({ amount: 1, donation_date: "2026-01-01" }, complete(), bobDonation.id), alice.token), 409);
    expect(reused.source.pointer).toBe("/data/id");
    errorOf(await post(base(alice.list.id), "{nope", alice.token), 400);
    expect((await db.select().from(schema.donations)).length).toBe(before);
  });

  it("checks linked records: unknown 404, someone else's 403, another of the viewer's lists 400", async () => {
    const before = (await db.select().from(schema.donations)).length;
    const unknownDesignation = uuid();
    const notFound = errorOf(await post(base(alice.list.id), donationBody({ amount: 1, donation_date: "2026-01-01" }, { designation_account: unknownDesignation, donor_account: donor.id }), alice.token), 404);
    expect(notFound.detail).toBe(`Couldn't find DesignationAccount with 'id'=${unknownDesignation}`);
    const unknownDonor = uuid();
    const donorNotFound = errorOf(await post(base(alice.list.id), donationBody({ amount: 1, donation_date: "2026-01-01" }, { designation_account: designation.id, donor_account: unknownDonor }), alice.token), 404);
    expect(donorNotFound.detail).toBe(`Couldn't find DonorAccount with 'id'=${unknownDonor}`);
    const foreign = errorOf(await post(base(alice.list.id), donationBody({ amount: 1, donation_date: "2026-01-01" }, { designation_account: bobDesignation.id, donor_account: donor.id }), alice.token), 403);
    expect(foreign.detail).toBe(`Not allowed to perform that action on the resource with ID ${bobDesignation.id} of type designation_accounts`);
    const otherList = errorOf(await post(base(alice.list.id), donationBody({ amount: 1, donation_date: "2026-01-01" }, { designation_account: otherListDesignation.id, donor_account: donor.id }), alice.token), 400);
    expect(otherList).toMatchObject({ detail: "Designation account must belong to the same account list", source: { pointer: "/data/relationships/designation_account" } });
    const bobAppeal = await createAppealRow(bob.list.id);
    errorOf(await post(base(alice.list.id), donationBody({ amount: 1, donation_date: "2026-01-01" }, { ...complete(), appeal: bobAppeal.id }), alice.token), 403);
    expect((await db.select().from(schema.donations)).length).toBe(before);
  });

  it("needs a token, a visible list and write access", async () => {
    errorOf(await post(base(alice.list.id), donationBody({ amount: 1, donation_date: "2026-01-01" }, complete()), null), 401);
    const unknownList = uuid();
    expect(errorOf(await post(base(unknownList), donationBody({ amount: 1 }), alice.token), 404).detail).toBe(`Couldn't find AccountList with 'id'=${unknownList}`);
    errorOf(await post(base(bob.list.id), donationBody({ amount: 1, donation_date: "2026-01-01" }, { designation_account: bobDesignation.id, donor_account: donor.id }), alice.token), 403);
    const coach = await createUser();
    await addToList(alice.list.id, coach.id, "coach");
    errorOf(await post(base(alice.list.id), donationBody({ amount: 1, donation_date: "2026-01-01" }, complete()), coach.token), 403);
    expect((await get(base(alice.list.id), coach.token)).status).toBe(200);
    expect((await db.select().from(schema.donations).where(eq(schema.donations.accountListId, bob.list.id))).length).toBe(1);
  });
});

describe("the fields the web app's appeal page and gift form read", () => {
  it("stores and answers channel, payment type, the tendered gift and remote_id, and converts the appeal amount", async () => {
    const attributes = {
      amount: "10",
      currency: "EUR",
      appeal_amount: "5",
      donation_date: "2026-04-01",
      channel: "Recurring",
      payment_type: "EFT",
      tendered_amount: "12.50",
      tendered_currency: "CAD",
      remote_id: "R-77",
    };
    const created = await post(base(alice.list.id), donationBody(attributes, complete()), alice.token);
    expect(created.status, created.text).toBe(201);
    // 5 EUR at 0.8 EUR per USD is 6.25 USD, the list's currency.
    expect(created.body.data.attributes).toMatchObject({
      channel: "Recurring",
      payment_type: "EFT",
      tendered_amount: "12.5",
      tendered_currency: "CAD",
      remote_id: "R-77",
      converted_amount: "12.5",
      converted_appeal_amount: "6.25",
    });
    const id = created.body.data.id;
    expect(await storedRow(schema.donations, id)).toMatchObject({ channel: "Recurring", paymentType: "EFT", tenderedAmount: "12.5", tenderedCurrency: "CAD", remoteId: "R-77" });
    // remote_id is no foreign key: an update may change it (no 409).
    const updated = await put(`${base(alice.list.id)}/${id}`, { data: { type: "donations", id, attributes: { remote_id: "R-78", tendered_amount: "1.005", overwrite: true } } }, alice.token);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ remote_id: "R-78", tendered_amount: "1.005" });
    const bad = await put(`${base(alice.list.id)}/${id}`, { data: { type: "donations", id, attributes: { tendered_amount: "lots", overwrite: true } } }, alice.token);
    expect(errorOf(bad, 400).source).toEqual({ pointer: "/data/attributes/tendered_amount" });
    expect((await storedRow(schema.donations, id))?.tenderedAmount).toBe("1.005");
    // Without an appeal amount there is nothing to convert.
    const plain = await post(base(alice.list.id), donationBody({ amount: "3", donation_date: "2026-04-02" }, complete()), alice.token);
    expect(plain.body.data.attributes.converted_appeal_amount).toBeNull();
  });

  it("links the pledge a gift fulfils as the to-one pledge, beside pledges", async () => {
    const gift = await createDonationRow({ accountListId: alice.list.id, designationAccountId: designation.id, donorAccountId: donor.id });
    const pledge = await createPledgeRow({ accountListId: alice.list.id, contactId: aliceContact.id });
    await db.insert(schema.pledgeDonations).values({ pledgeId: pledge.id, donationId: gift.id });
    const shown = await get(`${base(alice.list.id)}/${gift.id}?include=pledge`, alice.token);
    expect(shown.body.data.relationships.pledge.data).toEqual({ type: "pledges", id: pledge.id });
    expect(shown.body.data.relationships.pledges.data).toEqual([{ type: "pledges", id: pledge.id }]);
    expect(shown.body.included.map((r: { id: string }) => r.id)).toEqual([pledge.id]);
    expect((await get(`${base(alice.list.id)}/${bobDonation.id}`, alice.token)).status).toBe(404);
  });
});

describe("listing donations", () => {
  let listId: string;
  let token: string;
  let funds: { a: string; b: string };
  let donors: { x: string; y: string };

  beforeAll(async () => {
    const carol = await createViewer({ currency: "USD" });
    listId = carol.list.id;
    token = carol.token;
    funds = { a: (await createDesignationAccount(listId)).id, b: (await createDesignationAccount(listId)).id };
    donors = { x: (await createDonorAccount(organizationId)).id, y: (await createDonorAccount(organizationId)).id };
    const rows: Array<[string, string, string, string, string]> = [
      ["2026-03-05", "100.0", "USD", funds.a, donors.x],
      ["2026-01-20", "10.0", "EUR", funds.a, donors.y],
      ["2026-02-10", "5.0", "CAD", funds.b, donors.x],
      ["2026-02-28", "0.3333", "USD", funds.b, donors.y],
    ];
    for (const [index, [donationDate, amount, currency, designationAccountId, donorAccountId]] of rows.entries()) {
      await createDonationRow({ accountListId: listId, designationAccountId, donorAccountId }, { donationDate, amount, currency, createdAt: `2026-01-0${index + 1}T00:00:00Z` });
    }
  });

  it("pages in created order and totals every matching donation per currency and converted", async () => {
    const response = await get(`${base(listId)}?per_page=2`, token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.map((d: { attributes: { donation_date: string } }) => d.attributes.donation_date)).toEqual(["2026-03-05", "2026-01-20"]);
    expect(response.body.meta.pagination).toEqual({ page: 1, per_page: 2, total_count: 4, total_pages: 2 });
    // 100 + 0.3333 USD, 10 EUR at 0.8 = 12.5 USD, 5 CAD at 1.25 = 4 USD: 116.8333, rounded to cents.
    expect(response.body.meta.totals).toEqual({
      currencies: [
        { currency: "CAD", total: "5.0" },
        { currency: "EUR", total: "10.0" },
        { currency: "USD", total: "100.3333" },
      ],
      total_currency: "USD",
      converted_total: "116.83",
    });
    expect(response.body.meta.sort).toBeNull();
    expect(Object.keys(response.body).sort()).toEqual(["data", "meta"]);
  });

  it("sorts by donation_date both ways and refuses other sorts", async () => {
    const ascending = await get(`${base(listId)}?sort=donation_date`, token);
    expect(ascending.body.data.map((d: { attributes: { donation_date: string } }) => d.attributes.donation_date)).toEqual(["2026-01-20", "2026-02-10", "2026-02-28", "2026-03-05"]);
    const descending = await get(`${base(listId)}?sort=-donation_date`, token);
    expect(descending.body.data[0].attributes.donation_date).toBe("2026-03-05");
    expect(descending.body.meta.sort).toBe("-donation_date");
    expect(errorOf(await get(`${base(listId)}?sort=amount`, token), 400).detail).toBe("Sorting by amount is not supported for this endpoint.");
  });

  it("filters by date range, designation account and donor account, and totals only what matches", async () => {
    const february = await get(`${base(listId)}?filter[donation_date]=2026-02-01..2026-02-28`, token);
    expect(february.body.data.map((d: { attributes: { amount: string } }) => d.attributes.amount).sort()).toEqual(["0.3333", "5.0"]);
    expect(february.body.meta.filter).toEqual({ donation_date: "2026-02-01..2026-02-28" });
    expect(february.body.meta.totals.converted_total).toBe("4.33");
    const exclusive = await get(`${base(listId)}?filter[donation_date]=2026-02-01...2026-02-28`, token);
    expect(exclusive.body.meta.pagination.total_count).toBe(1);
    const byFund = await get(`${base(listId)}?filter[designation_account_id]=${funds.b}`, token);
    expect(byFund.body.meta.pagination.total_count).toBe(2);
    const byDonors = await get(`${base(listId)}?filter[donorAccountId]=${donors.x},${donors.y.toUpperCase()}`, token);
    expect(byDonors.body.meta.pagination.total_count).toBe(4);
    const none = await get(`${base(listId)}?filter[donor_account_id]=${uuid()}`, token);
    expect(none.body.data).toEqual([]);
    expect(none.body.meta.totals).toEqual({ currencies: [], total_currency: "USD", converted_total: "0.0" });
    const all = (await get(base(listId), token)).body.meta.pagination.total_count;
    for (const blank of ["filter[donation_date]=", "filter[donation_date]=%20", "filter[designation_account_id]=", "filter[donor_account_id]=,"]) {
      const unfiltered = await get(`${base(listId)}?${blank}`, token);
      expect(unfiltered.status, blank).toBe(200);
      expect(unfiltered.body.meta.pagination.total_count, blank).toBe(all);
    }
    const badRange = errorOf(await get(`${base(listId)}?filter[donation_date]=yesterday`, token), 400);
    expect(badRange.source.parameter).toBe("filter[donation_date]");
  });

  it("reads with method override, sparse fieldsets and per_page=0", async () => {
    const override = await request("POST", base(listId), { token, headers: { "X-HTTP-Method-Override": "GET" }, body: { filter: { designation_account_id: funds.a }, fields: { donations: "amount,contact" } } });
    expect(override.status, override.text).toBe(200);
    expect(override.body.data).toHaveLength(2);
    expect(Object.keys(override.body.data[0].attributes)).toEqual(["amount"]);
    expect(Object.keys(override.body.data[0].relationships)).toEqual(["contact"]);
    const counted = await get(`${base(listId)}?per_page=0`, token);
    expect(counted.body.data).toEqual([]);
    expect(counted.body.meta.pagination.total_count).toBe(4);
  });

  it("shows nothing of other lists: another user's list is 403, an unknown one 404", async () => {
    const own = await get(base(alice.list.id), alice.token);
    expect(own.body.data.every((d: { relationships: { account_list: { data: { id: string } } } }) => d.relationships.account_list.data.id === alice.list.id)).toBe(true);
    errorOf(await get(base(listId), alice.token), 403);
    errorOf(await get(base(uuid()), alice.token), 404);
    errorOf(await get(base(listId), null), 401);
  });
});

describe("one donation", () => {
  it("shows one; someone else's is 404 under the viewer's list and 403 under theirs", async () => {
    const donation = await createDonationRow({ accountListId: alice.list.id, designationAccountId: designation.id, donorAccountId: donor.id }, { amount: "1.5" });
    const shown = await get(`${base(alice.list.id)}/${donation.id}?include=designation_account,contact,pledges`, alice.token);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.data.attributes.amount).toBe("1.5");
    expect(shown.body.included.map((resource: { type: string; id: string }) => `${resource.type}:${resource.id}`).sort()).toEqual(
      [`contacts:${aliceContact.id}`, `designation_accounts:${designation.id}`].sort(),
    );
    expect(errorOf(await get(`${base(alice.list.id)}/${bobDonation.id}`, alice.token), 404).detail).toBe(`Couldn't find Donation with 'id'=${bobDonation.id}`);
    errorOf(await get(`${base(bob.list.id)}/${bobDonation.id}`, alice.token), 403);
    errorOf(await get(`${base(alice.list.id)}/${uuid()}`, alice.token), 404);
    expect(errorOf(await get(`${base(alice.list.id)}/not-a-uuid`, alice.token), 404).detail).toBe("Route not found");
  });

  it("updates with the offline-sync check, keeps the list consistent and refuses someone else's", async () => {
    const donation = await createDonationRow({ accountListId: alice.list.id, designationAccountId: designation.id, donorAccountId: donor.id });
    const path = `${base(alice.list.id)}/${donation.id}`;
    const stale = errorOf(await put(path, donationBody({ amount: 20, updated_in_db_at: "2020-01-01T00:00:00Z" }), alice.token), 409);
    expect(stale.detail).toBe(`Updated in db at is not equal to the current value in the database (${donation.updatedAt})`);
    expect(await storedRow(schema.donations, donation.id)).toMatchObject({ amount: "10.0", updatedAt: donation.updatedAt });

    const moved = errorOf(await put(path, donationBody({ overwrite: true }, { designation_account: otherListDesignation.id }), alice.token), 400);
    expect(moved.source.pointer).toBe("/data/relationships/designation_account");
    expect(await storedRow(schema.donations, donation.id)).toMatchObject({ designationAccountId: designation.id, updatedAt: donation.updatedAt });

    // The list in the path is the donation's list: naming another of the viewer's lists changes nothing.
    const otherList = { account_list: { data: { type: "account_lists", id: aliceSecondList.id } } };
    const elsewhere = errorOf(await put(path, { data: { type: "donations", attributes: { amount: 30, overwrite: true }, relationships: otherList } }, alice.token), 400);
    expect(elsewhere).toMatchObject({ detail: "Account list must be the account list in the path", source: { pointer: "/data/relationships/account_list" } });
    expect(await storedRow(schema.donations, donation.id)).toMatchObject({ accountListId: alice.list.id, amount: "10.0", updatedAt: donation.updatedAt });

    const updated = await put(path, donationBody({ amount: "20.05", currency: "", memo: "Corrected", updated_in_db_at: donation.updatedAt }), alice.token);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ amount: "20.05", currency: "USD", memo: "Corrected" });
    const forced = await put(path, donationBody({ donation_date: "2026-04-01", overwrite: true }), alice.token);
    expect(forced.body.data.attributes.donation_date).toBe("2026-04-01");

    const bobBefore = await storedRow(schema.donations, bobDonation.id);
    errorOf(await put(`${base(bob.list.id)}/${bobDonation.id}`, donationBody({ amount: 1, overwrite: true }), alice.token), 403);
    errorOf(await put(`${base(alice.list.id)}/${bobDonation.id}`, donationBody({ amount: 1, overwrite: true }), alice.token), 404);
    expect(await storedRow(schema.donations, bobDonation.id)).toEqual(bobBefore);
  });

  it("deletes one; someone else's stays", async () => {
    const donation = await createDonationRow({ accountListId: alice.list.id, designationAccountId: designation.id, donorAccountId: donor.id });
    const deleted = await del(`${base(alice.list.id)}/${donation.id}`, alice.token);
    expect(deleted.status).toBe(204);
    expect(await storedRow(schema.donations, donation.id)).toBeUndefined();
    errorOf(await del(`${base(alice.list.id)}/${donation.id}`, alice.token), 404);
    errorOf(await del(`${base(bob.list.id)}/${bobDonation.id}`, alice.token), 403);
    errorOf(await del(`${base(alice.list.id)}/${bobDonation.id}`, null), 401);
    expect(await storedRow(schema.donations, bobDonation.id)).toBeDefined();
  });
});

describe("exact money", () => {
  it("totals 37 donations of 0.10 created through the API as exactly 3.7", async () => {
    const dana = await createViewer({ currency: "USD" });
    const fund = await createDesignationAccount(dana.list.id);
    const giver = await createDonorAccount(organizationId);
    await linkDonorAccount((await createContact(dana.list.id)).id, giver.id);
    for (let i = 0; i < 37; i++) {
      const created = await post(base(dana.list.id), donationBody({ amount: 0.1, donation_date: "2026-05-01" }, { designation_account: fund.id, donor_account: giver.id }), dana.token);
      expect(created.status, created.text).toBe(201);
    }
    const response = await get(`${base(dana.list.id)}?per_page=0`, dana.token);
    expect(response.body.meta.totals).toEqual({ currencies: [{ currency: "USD", total: "3.7" }], total_currency: "USD", converted_total: "3.7" });
  });
});
