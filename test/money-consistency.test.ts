/**
 * Writing donations and pledges through the API shows at once wherever they are summed: the appeal's totals
 * and currencies, and the contact's giving fields and filters.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { del, get, post, put } from "./helpers/api";
import { createViewer } from "./helpers/factories";
import { createAppealRow, createContact, createDesignationAccount, createDonationRow, createDonorAccount, createOrganization, linkDonorAccount, setRates } from "./helpers/money-records";

type Viewer = Awaited<ReturnType<typeof createViewer>>;
let viewer: Viewer;
let contact: { id: string };
let silentContact: { id: string };
let fund: { id: string };
let donor: { id: string };
let appeal: { id: string };

const donationsPath = () => `/api/v2/account_lists/${viewer.list.id}/donations`;
const pledgesPath = () => `/api/v2/account_lists/${viewer.list.id}/pledges`;

function donationBody(attributes: Record<string, unknown>, appealId?: string) {
  return {
    data: {
      type: "donations",
      attributes,
      relationships: {
        designation_account: { data: { type: "designation_accounts", id: fund.id } },
        donor_account: { data: { type: "donor_accounts", id: donor.id } },
        ...(appealId ? { appeal: { data: { type: "appeals", id: appealId } } } : {}),
      },
    },
  };
}

async function giving(contactId: string) {
  const response = await get(`/api/v2/contacts/${contactId}?fields[contacts]=lifetime_donations,last_donation`, viewer.token);
  expect(response.status, response.text).toBe(200);
  return response.body.data.attributes as { lifetime_donations: string; last_donation: string | null };
}

async function appealTotals() {
  const response = await get(`/api/v2/appeals/${appeal.id}`, viewer.token);
  expect(response.status, response.text).toBe(200);
  const { currencies, pledges_amount_total, pledges_amount_not_received_not_processed, pledges_amount_received_not_processed, pledges_amount_processed } =
    response.body.data.attributes;
  return {
    currencies,
    total: pledges_amount_total,
    not_received: pledges_amount_not_received_not_processed,
    received: pledges_amount_received_not_processed,
    processed: pledges_amount_processed,
  };
}

async function contactsGiving(choice: string): Promise<string[]> {
  const response = await get(`/api/v2/contacts?filter[donation]=${choice}&fields[contacts]=name`, viewer.token);
  return response.body.data.map((c: { id: string }) => c.id).sort();
}

beforeAll(async () => {
  viewer = await createViewer({ currency: "USD" });
  await setRates({ GBP: "0.8" });
  const organization = await createOrganization();
  fund = await createDesignationAccount(viewer.list.id);
  donor = await createDonorAccount(organization.id);
  contact = await createContact(viewer.list.id, { status: "Partner - Financial" });
  silentContact = await createContact(viewer.list.id, { status: "Partner - Financial" });
  await linkDonorAccount(contact.id, donor.id);
  appeal = await createAppealRow(viewer.list.id);
});

describe("donations and the contact's giving", () => {
  it("follows every create, change and delete", async () => {
    expect(await giving(contact.id)).toEqual({ lifetime_donations: "0.0", last_donation: null });
    expect(await contactsGiving("none")).toEqual([contact.id, silentContact.id].sort());

    const first = await post(donationsPath(), donationBody({ amount: "25.1", donation_date: "2026-03-01" }), viewer.token);
    expect(first.status, first.text).toBe(201);
    expect(first.body.data.relationships.contact.data).toEqual({ type: "contacts", id: contact.id });
    expect(await giving(contact.id)).toEqual({ lifetime_donations: "25.1", last_donation: "2026-03-01" });
    expect(await contactsGiving("one")).toEqual([contact.id]);

    const second = await post(donationsPath(), donationBody({ amount: 0.2, donation_date: "2026-04-15" }), viewer.token);
    expect(await giving(contact.id)).toEqual({ lifetime_donations: "25.3", last_donation: "2026-04-15" });

    const changed = await put(`${donationsPath()}/${second.body.data.id}`, donationBody({ amount: "1.7", donation_date: "2026-02-01", overwrite: true }), viewer.token);
    expect(changed.status, changed.text).toBe(200);
    expect(await giving(contact.id)).toEqual({ lifetime_donations: "26.8", last_donation: "2026-03-01" });

    expect((await del(`${donationsPath()}/${first.body.data.id}`, viewer.token)).status).toBe(204);
    expect(await giving(contact.id)).toEqual({ lifetime_donations: "1.7", last_donation: "2026-02-01" });
    expect((await del(`${donationsPath()}/${second.body.data.id}`, viewer.token)).status).toBe(204);
    expect(await giving(contact.id)).toEqual({ lifetime_donations: "0.0", last_donation: null });
    expect(await giving(silentContact.id)).toEqual({ lifetime_donations: "0.0", last_donation: null });
  });
});

describe("lifetime donations in several currencies", () => {
  it("converts each currency's exact sum into the list's currency and rounds once, to cents", async () => {
    const traveller = await createContact(viewer.list.id, { status: "Partner - Financial" });
    const travellerDonor = await createDonorAccount((await createOrganization()).id);
    await linkDonorAccount(traveller.id, travellerDonor.id);
    const record = { accountListId: viewer.list.id, designationAccountId: fund.id, donorAccountId: travellerDonor.id };
    // 10.01 USD + 3 × 0.1 GBP (0.3 GBP at 0.8 GBP per USD = 0.375 USD): 10.385 USD, answered as 10.39.
    await createDonationRow(record, { amount: "10.01", currency: "USD" });
    for (const day of ["2026-02-01", "2026-02-02", "2026-02-03"]) await createDonationRow(record, { amount: "0.1", currency: "GBP", donationDate: day });
    expect((await giving(traveller.id)).lifetime_donations).toBe("10.39");
  });
});

describe("pledges, donations and the appeal's totals", () => {
  it("moves pledges between the status totals as they change, converted into the list's currency", async () => {
    expect(await appealTotals()).toEqual({ currencies: [], total: "0.0", not_received: "0.0", received: "0.0", processed: "0.0" });

    const pledgeBody = (attributes: Record<string, unknown>, contactId: string) => ({
      data: {
        type: "pledges",
        attributes,
        relationships: { contact: { data: { type: "contacts", id: contactId } }, appeal: { data: { type: "appeals", id: appeal.id } } },
      },
    });
    const pounds = await post(pledgesPath(), pledgeBody({ amount: "20.0", amount_currency: "GBP" }, contact.id), viewer.token);
    expect(pounds.status, pounds.text).toBe(201);
    // 20 GBP at 0.8 per USD = 25 USD.
    expect(await appealTotals()).toMatchObject({ total: "25.0", not_received: "25.0", received: "0.0", processed: "0.0" });

    const dollars = await post(pledgesPath(), pledgeBody({ amount: 0.1, status: "processed" }, silentContact.id), viewer.token);
    expect(dollars.body.data.attributes.amount_currency).toBe("USD");
    expect(await appealTotals()).toMatchObject({ total: "25.1", not_received: "25.0", processed: "0.1" });

    await put(`${pledgesPath()}/${pounds.body.data.id}`, { data: { type: "pledges", attributes: { status: "received_not_processed", overwrite: true } } }, viewer.token);
    expect(await appealTotals()).toMatchObject({ total: "25.1", not_received: "0.0", received: "25.0", processed: "0.1" });

    await put(`${pledgesPath()}/${pounds.body.data.id}`, { data: { type: "pledges", attributes: { amount: "8", overwrite: true } } }, viewer.token);
    expect(await appealTotals()).toMatchObject({ total: "10.1", received: "10.0" });

    expect((await del(`${pledgesPath()}/${pounds.body.data.id}`, viewer.token)).status).toBe(204);
    expect(await appealTotals()).toMatchObject({ total: "0.1", not_received: "0.0", received: "0.0", processed: "0.1" });
  });

  it("lists the currencies of the appeal's donations as they come and go", async () => {
    const pounds = await post(donationsPath(), donationBody({ amount: 5, currency: "GBP", donation_date: "2026-05-01" }, appeal.id), viewer.token);
    expect(pounds.status, pounds.text).toBe(201);
    await post(donationsPath(), donationBody({ amount: 5, donation_date: "2026-05-02" }, appeal.id), viewer.token);
    expect((await appealTotals()).currencies).toEqual(["GBP", "USD"]);
    const detached = await put(`${donationsPath()}/${pounds.body.data.id}`, { data: { type: "donations", attributes: { overwrite: true }, relationships: { appeal: { data: null } } } }, viewer.token);
    expect(detached.body.data.relationships.appeal.data).toBeNull();
    expect((await appealTotals()).currencies).toEqual(["USD"]);
  });
});
