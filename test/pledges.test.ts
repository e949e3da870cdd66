import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { del, errorOf, get, patch, post, put } from "./helpers/api";
import { addToList, createAccountList, createUser, createViewer, db, uuid } from "./helpers/factories";
import {
  createAppealRow,
  createContact,
  createDesignationAccount,
  createDonationRow,
  createDonorAccount,
  createOrganization,
  createPledgeRow,
  storedRow,
} from "./helpers/money-records";

type Viewer = Awaited<ReturnType<typeof createViewer>>;
let alice: Viewer;
let bob: Viewer;
let contact: { id: string };
let secondContact: { id: string };
let otherListContact: { id: string };
let bobContact: { id: string };
let appeal: { id: string };
let bobAppeal: { id: string };
let donationIds: string[];
let otherListDonation: { id: string };
let bobDonation: { id: string };
let bobPledge: { id: string };

const base = (listId: string) => `/api/v2/account_lists/${listId}/pledges`;

function pledgeBody(attributes: Record<string, unknown>, links: { contact?: string | null; appeal?: string | null; donations?: string[] } = {}, id?: string) {
  const relationships: Record<string, unknown> = {};
  if (links.contact !== undefined) relationships.contact = { data: links.contact ? { type: "contacts", id: links.contact } : null };
  if (links.appeal !== undefined) relationships.appeal = { data: links.appeal ? { type: "appeals", id: links.appeal } : null };
  if (links.donations) relationships.donations = { data: links.donations.map((donation) => ({ type: "donations", id: donation })) };
  return { data: { type: "pledges", ...(id ? { id } : {}), attributes, relationships } };
}

async function linkedDonations(pledgeId: string): Promise<string[]> {
  const rows = await db.select().from(schema.pledgeDonations).where(eq(schema.pledgeDonations.pledgeId, pledgeId));
  return rows.map((row) => row.donationId).sort();
}

beforeAll(async () => {
  alice = await createViewer({ currency: "CAD" });
  bob = await createViewer();
  const otherList = await createAccountList(alice.user);
  contact = await createContact(alice.list.id);
  secondContact = await createContact(alice.list.id);
  otherListContact = await createContact(otherList.id);
  bobContact = await createContact(bob.list.id);
  appeal = await createAppealRow(alice.list.id);
  bobAppeal = await createAppealRow(bob.list.id);
  const organization = await createOrganization();
  const donor = await createDonorAccount(organization.id);
  const fund = await createDesignationAccount(alice.list.id);
  const otherFund = await createDesignationAccount(otherList.id);
  const bobFund = await createDesignationAccount(bob.list.id);
  donationIds = [];
  for (let i = 0; i < 3; i++) donationIds.push((await createDonationRow({ accountListId: alice.list.id, designationAccountId: fund.id, donorAccountId: donor.id })).id);
  donationIds.sort();
  otherListDonation = await createDonationRow({ accountListId: otherList.id, designationAccountId: otherFund.id, donorAccountId: donor.id });
  bobDonation = await createDonationRow({ accountListId: bob.list.id, designationAccountId: bobFund.id, donorAccountId: donor.id });
  bobPledge = await createPledgeRow({ accountListId: bob.list.id, contactId: bobContact.id }, { appealId: bobAppeal.id, amount: "50.0", amountCurrency: "USD" });
});

describe("creating pledges", () => {
  it("creates one with its contact, appeal and donations, defaulting currency and status", async () => {
    const id = uuid();
    const response = await post(
      `${base(alice.list.id)}?include=donations`,
      pledgeBody({ amount: "125.5", expected_date: "2026-06-01" }, { contact: contact.id, appeal: appeal.id, donations: [donationIds[1], donationIds[0]] }, id),
      alice.token,
    );
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get("location")).toBe(`https://api.example.org${base(alice.list.id)}/${id}`);
    expect(response.body.data.attributes).toMatchObject({ amount: "125.5", amount_currency: "CAD", expected_date: "2026-06-01", status: "not_received" });
    expect(response.body.data.relationships).toMatchObject({
      account_list: { data: { type: "account_lists", id: alice.list.id } },
      contact: { data: { type: "contacts", id: contact.id } },
      appeal: { data: { type: "appeals", id: appeal.id } },
      donations: { data: [donationIds[0], donationIds[1]].map((donation) => ({ type: "donations", id: donation })) },
    });
    expect(response.body.included.map((included: { id: string }) => included.id).sort()).toEqual([donationIds[0], donationIds[1]]);
    expect(await linkedDonations(id)).toEqual([donationIds[0], donationIds[1]]);
    const donation = await get(`/api/v2/account_lists/${alice.list.id}/donations/${donationIds[0]}`, alice.token);
    expect(donation.body.data.relationships.pledges.data).toEqual([{ type: "pledges", id }]);
  });

  it("refuses a second pledge of a contact to the same appeal, and bad bodies, storing nothing", async () => {
    const before = (await db.select().from(schema.pledges)).length;
    const duplicate = errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1 }, { contact: contact.id, appeal: appeal.id }), alice.token), 400);
    expect(duplicate).toMatchObject({ detail: "Contact already has a pledge for this appeal", source: { pointer: "/data/relationships/contact" } });
    const noContact = errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1 }), alice.token), 400);
    expect(noContact).toMatchObject({ detail: "Contact can't be blank", source: { pointer: "/data/relationships/contact" } });
    const noAmount = errorOf(await post(base(alice.list.id), pledgeBody({}, { contact: contact.id }), alice.token), 400);
    expect(noAmount).toMatchObject({ detail: "Amount can't be blank", source: { pointer: "/data/attributes/amount" } });
    const badStatus = errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1, status: "asked" }, { contact: contact.id }), alice.token), 400);
    expect(badStatus).toMatchObject({ detail: "Status is not included in the list", source: { pointer: "/data/attributes/status" } });
    const badCurrency = errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1, amount_currency: "DOLLARS" }, { contact: contact.id }), alice.token), 400);
    expect(badCurrency.source.pointer).toBe("/data/attributes/amount_currency");
    const badDate = errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1, expected_date: "soon" }, { contact: contact.id }), alice.token), 400);
    expect(badDate.source.pointer).toBe("/data/attributes/expected_date");
    const badDonations = errorOf(await post(base(alice.list.id), { data: { type: "pledges", attributes: { amount: 1 }, relationships: { contact: { data: { type: "contacts", id: contact.id } }, donations: { data: { type: "donations", id: donationIds[0] } } } } }, alice.token), 400);
    expect(badDonations.source.pointer).toBe("/data/relationships/donations");
    const wrongDonationType = errorOf(await post(base(alice.list.id), { data: { type: "pledges", attributes: { amount: 1 }, relationships: { contact: { data: { type: "contacts", id: contact.id } }, donations: { data: [{ type: "pledges", id: donationIds[0] }] } } } }, alice.token), 409);
    expect(wrongDonationType.source.pointer).toBe("/data/relationships/donations/data/0/type");
    const contactId = errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1, contact_id: contact.id }), alice.token), 409);
    expect(contactId.source.pointer).toBe("/data/attributes/contact_id");
    errorOf(await post(base(alice.list.id), { data: { type: "donations", attributes: {} } }, alice.token), 409);
    expect((await db.select().from(schema.pledges)).length).toBe(before);
  });

  it("checks every linked record: unknown 404, someone else's 403, another of the viewer's lists 400", async () => {
    const before = (await db.select().from(schema.pledges)).length;
    const unknown = uuid();
    expect(errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1 }, { contact: unknown }), alice.token), 404).detail).toBe(`Couldn't find Contact with 'id'=${unknown}`);
    expect(errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1 }, { contact: bobContact.id }), alice.token), 403).detail).toBe(
      `Not allowed to perform that action on the resource with ID ${bobContact.id} of type contacts`,
    );
    expect(errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1 }, { contact: otherListContact.id }), alice.token), 400).source.pointer).toBe("/data/relationships/contact");
    errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1 }, { contact: secondContact.id, appeal: bobAppeal.id }), alice.token), 403);
    errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1 }, { contact: secondContact.id, appeal: uuid() }), alice.token), 404);
    errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1 }, { contact: secondContact.id, donations: [donationIds[2], bobDonation.id] }), alice.token), 403);
    const otherListGift = errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1 }, { contact: secondContact.id, donations: [otherListDonation.id] }), alice.token), 400);
    expect(otherListGift).toMatchObject({ detail: "Donations must belong to the same account list", source: { pointer: "/data/relationships/donations" } });
    errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1 }, { contact: secondContact.id, donations: [uuid()] }), alice.token), 404);
    expect((await db.select().from(schema.pledges)).length).toBe(before);
  });

  it("needs a token, the viewer's list and write access", async () => {
    errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1 }, { contact: secondContact.id }), null), 401);
    errorOf(await post(base(bob.list.id), pledgeBody({ amount: 1 }, { contact: bobContact.id }), alice.token), 403);
    errorOf(await post(base(uuid()), pledgeBody({ amount: 1 }, { contact: bobContact.id }), alice.token), 404);
    const coach = await createUser();
    await addToList(alice.list.id, coach.id, "coach");
    errorOf(await post(base(alice.list.id), pledgeBody({ amount: 1 }, { contact: secondContact.id }), coach.token), 403);
    expect((await get(base(alice.list.id), coach.token)).status).toBe(200);
  });
});

describe("reading pledges", () => {
  it("lists the list's pledges with filters and never another user's", async () => {
    const listed = await get(base(alice.list.id), alice.token);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.length).toBeGreaterThan(0);
    expect(listed.body.data.map((p: { id: string }) => p.id)).not.toContain(bobPledge.id);
    const pledge = await createPledgeRow({ accountListId: alice.list.id, contactId: secondContact.id }, { status: "processed" });
    const processed = await get(`${base(alice.list.id)}?filter[status]=processed,received_not_processed`, alice.token);
    expect(processed.body.data.map((p: { id: string }) => p.id)).toEqual([pledge.id]);
    const byAppeal = await get(`${base(alice.list.id)}?filter[appeal_id]=${appeal.id}`, alice.token);
    expect(byAppeal.body.data.map((p: { relationships: { appeal: { data: { id: string } } } }) => p.relationships.appeal.data.id)).toEqual([appeal.id]);
    const byContact = await get(`${base(alice.list.id)}?filter[contact_id]=${secondContact.id}&fields[pledges]=status`, alice.token);
    expect(byContact.body.data).toEqual([{ id: pledge.id, type: "pledges", attributes: { status: "processed" } }]);
    errorOf(await get(base(bob.list.id), alice.token), 403);
    errorOf(await get(base(alice.list.id), null), 401);
  });

  it("shows one; someone else's is 404 under the viewer's list and 403 under theirs", async () => {
    const pledge = await createPledgeRow({ accountListId: alice.list.id, contactId: secondContact.id }, { amount: "0.5" });
    const shown = await get(`${base(alice.list.id)}/${pledge.id}`, alice.token);
    expect(shown.body.data.attributes).toMatchObject({ amount: "0.5", amount_currency: null, status: "not_received" });
    errorOf(await get(`${base(alice.list.id)}/${bobPledge.id}`, alice.token), 404);
    errorOf(await get(`${base(bob.list.id)}/${bobPledge.id}`, alice.token), 403);
    expect(errorOf(await get(`${base(alice.list.id)}/${uuid()}`, alice.token), 404).detail).toMatch(/^Couldn't find Pledge with 'id'=/);
  });
});

describe("changing pledges", () => {
  it("updates status and replaces its donations, with the offline-sync check", async () => {
    const pledge = await createPledgeRow({ accountListId: alice.list.id, contactId: contact.id }, { amount: "10.0", amountCurrency: "USD" });
    await db.insert(schema.pledgeDonations).values({ pledgeId: pledge.id, donationId: donationIds[0] });
    const path = `${base(alice.list.id)}/${pledge.id}`;
    const stale = errorOf(await put(path, pledgeBody({ status: "processed" }), alice.token), 409);
    expect(stale.meta).toEqual({ updated_in_db_at: pledge.updatedAt });
    expect(await storedRow(schema.pledges, pledge.id)).toMatchObject({ status: "not_received", updatedAt: pledge.updatedAt });

    const updated = await patch(path, pledgeBody({ status: "received_not_processed", amount_currency: "", updated_in_db_at: pledge.updatedAt }, { donations: [donationIds[2], donationIds[1]] }), alice.token);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ status: "received_not_processed", amount_currency: "CAD", amount: "10.0" });
    expect(await linkedDonations(pledge.id)).toEqual([donationIds[1], donationIds[2]]);

    const untouched = await put(path, pledgeBody({ amount: "11", overwrite: true }), alice.token);
    expect(untouched.body.data.attributes.amount).toBe("11.0");
    expect(await linkedDonations(pledge.id)).toEqual([donationIds[1], donationIds[2]]);
    const cleared = await put(path, pledgeBody({ overwrite: true }, { donations: [] }), alice.token);
    expect(cleared.body.data.relationships.donations.data).toEqual([]);

    const taken = errorOf(await put(path, pledgeBody({ overwrite: true }, { appeal: appeal.id }), alice.token), 400);
    expect(taken.source.pointer).toBe("/data/relationships/contact");
    const blankContact = errorOf(await put(path, pledgeBody({ overwrite: true }, { contact: null }), alice.token), 400);
    expect(blankContact.source.pointer).toBe("/data/relationships/contact/data");
    const badDonation = errorOf(await put(path, pledgeBody({ overwrite: true, status: "processed" }, { donations: [bobDonation.id] }), alice.token), 403);
    expect(badDonation.detail).toContain(bobDonation.id);
    expect(await storedRow(schema.pledges, pledge.id)).toMatchObject({ status: "received_not_processed", appealId: null });
  });

  it("refuses changes to someone else's pledge and leaves it as it was", async () => {
    const before = await storedRow(schema.pledges, bobPledge.id);
    errorOf(await put(`${base(bob.list.id)}/${bobPledge.id}`, pledgeBody({ amount: 1, overwrite: true }), alice.token), 403);
    errorOf(await put(`${base(alice.list.id)}/${bobPledge.id}`, pledgeBody({ amount: 1, overwrite: true }), alice.token), 404);
    errorOf(await del(`${base(bob.list.id)}/${bobPledge.id}`, alice.token), 403);
    errorOf(await del(`${base(alice.list.id)}/${bobPledge.id}`, alice.token), 404);
    expect(await storedRow(schema.pledges, bobPledge.id)).toEqual(before);
  });

  it("deletes one with its donation links, keeping the donations", async () => {
    const pledge = await createPledgeRow({ accountListId: alice.list.id, contactId: secondContact.id });
    await db.insert(schema.pledgeDonations).values({ pledgeId: pledge.id, donationId: donationIds[2] });
    expect((await del(`${base(alice.list.id)}/${pledge.id}`, alice.token)).status).toBe(204);
    expect(await storedRow(schema.pledges, pledge.id)).toBeUndefined();
    expect(await linkedDonations(pledge.id)).toEqual([]);
    expect(await storedRow(schema.donations, donationIds[2])).toBeDefined();
    errorOf(await del(`${base(alice.list.id)}/${pledge.id}`, alice.token), 404);
    errorOf(await del(`${base(alice.list.id)}/${pledge.id}`, null), 401);
  });
});
