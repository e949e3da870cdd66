/**
 * The reports of a list's gifts: the 14-month report (donor and salary currency), expected monthly totals, partner
 * giving analysis, year donations and donation monthly totals, as the clients ask for them, in every layout.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, addMonths } from "../src/jsonapi/time";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { errorOf, get, request } from "./helpers/api";
import { createViewer, db } from "./helpers/factories";
import { createContact, createDesignationAccount, createDonationRow, createDonorAccount, createOrganization, linkDonorAccount } from "./helpers/money-records";
import { dayOfMonth, monthStart, reportFixture } from "./helpers/report-fixtures";

let f: Awaited<ReturnType<typeof reportFixture>>;

beforeAll(async () => {
  f = await reportFixture();
});

const endOfThisMonth = () => addDays(addMonths(monthStart(0), 1), -1);
const months = (from: number) => Array.from({ length: from + 1 }, (_, i) => monthStart(from - i));

describe("GET /api/v2/reports/{salary,donor}_currency_donations", () => {
  it("answers the salary variant as the 14-month report of mpdx-react asks, the unclosed bracket included", async () => {
    const query = `filter[account_list_id]=${f.alice.list.id}&filter[designation_account_id=${f.fund.id},${f.second.id}&filter[month_range]=${monthStart(13)}...${endOfThisMonth()}`;
    const response = await get(`/api/v2/reports/salary_currency_donations?${query}`, f.alice.token);
    expect(response.status, response.text).toBe(200);
    const { data } = response.body;
    expect(data.type).toBe("reports_salary_currency_donations");
    expect(data.attributes.months).toEqual(months(13));
    expect(data.attributes).toMatchObject({ salary_currency: "USD", default_currency: "USD" });
    expect(data.attributes.donor_infos.map((donor: { contact_name: string }) => donor.contact_name)).toEqual(["Jones, Ann", "Lee, Cy", "Smith, Bo"]);
    expect(data.attributes.donor_infos[0]).toMatchObject({
      contact_id: f.jones.contact.id,
      pledge_amount: "100.0",
      pledge_currency: "USD",
      pledge_frequency: "1.0",
      status: "Partner - Financial",
      late_by_30_days: false,
      late_by_60_days: false,
      account_numbers: [f.jones.donor.accountNumber],
    });
    expect(Object.keys(data.attributes.currency_groups)).toEqual(["USD"]);
    const usd = data.attributes.currency_groups.USD;
    // 400 USD, 250 CAD (200 USD) and 40 EUR (50 USD), all in the list's currency.
    expect(usd.totals.year).toBe(650);
    expect(usd.totals.year_converted).toBe(650);
    expect(usd.totals.months.slice(-4)).toEqual([100, 150, 300, 100]);
    const smith = usd.donation_infos.find((info: { contact_id: string }) => info.contact_id === f.smith.contact.id);
    expect(smith).toMatchObject({ total: 200, average: 200, minimum: 200, maximum: 200 });
    const month = smith.months[12];
    expect(month.total).toBe(200);
    expect(month.donations).toEqual([
      expect.objectContaining({ amount: 250, currency: "CAD", converted_amount: 200, converted_currency: "USD", contact_name: "Smith, Bo", likelihood_type: "received" }),
    ]);
  });

  it("groups the donor variant by the gifts' currencies, over 13 months by default, as the web app asks", async () => {
    const response = await get(`/api/v2/reports/donor_currency_donations?filter[account_list_id]=${f.alice.list.id}`, f.alice.token);
    expect(response.status, response.text).toBe(200);
    const { attributes } = response.body.data;
    expect(attributes.months).toEqual(months(12));
    expect(Object.keys(attributes.currency_groups)).toEqual(["CAD", "EUR", "USD"]);
    expect(attributes.currency_groups.CAD.totals).toMatchObject({ year: 250, year_converted: 200 });
    expect(attributes.currency_groups.USD.donation_infos).toHaveLength(1);
    expect(attributes.currency_groups.USD.donation_infos[0]).toMatchObject({ contact_id: f.jones.contact.id, total: 400, average: 100 });
  });

  it("puts a donor account's gifts under the first (by creation) of the list's contacts linked to it", async () => {
    const own = await reportFixture();
    const jonesCreated = own.jones.contact.createdAt!;
    const shifted = (seconds: number) => new Date(Date.parse(jonesCreated) + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    // A later contact of the list, and a contact of Alice's other list, share Jones's donor account: Jones keeps the gifts.
    const later = await createContact(own.alice.list.id, { name: "Aaron, Later", createdAt: shifted(60) });
    await linkDonorAccount(later.id, own.jones.donor.id);
    const elsewhere = await createContact(own.other.id, { name: "Abe, Elsewhere", createdAt: shifted(-60) });
    await linkDonorAccount(elsewhere.id, own.jones.donor.id);
    const report = async () => {
      const response = await get(`/api/v2/reports/salary_currency_donations?filter[account_list_id]=${own.alice.list.id}`, own.alice.token);
      expect(response.status, response.text).toBe(200);
      const { donor_infos, currency_groups } = response.body.data.attributes as {
        donor_infos: Array<{ contact_id: string; contact_name: string; account_numbers: string[] }>;
        currency_groups: { USD: { donation_infos: Array<{ contact_id: string; total: number }> } };
      };
      return { names: donor_infos.map((donor) => donor.contact_name), donors: donor_infos, totals: currency_groups.USD.donation_infos };
    };
    const kept = await report();
    expect(kept.names).toEqual(["Jones, Ann", "Lee, Cy", "Smith, Bo"]);
    expect(kept.totals.find((info) => info.contact_id === own.jones.contact.id)?.total).toBe(400);

    // A contact of the list made before Jones takes them, with every account number of theirs.
    const earlier = await createContact(own.alice.list.id, { name: "Zed, Earlier", createdAt: shifted(-30) });
    await linkDonorAccount(earlier.id, own.jones.donor.id);
    await linkDonorAccount(earlier.id, own.smith.donor.id);
    const moved = await report();
    // Smith's donor account is now Earlier's too, and Earlier came first: Earlier has both partners' gifts.
    expect(moved.names).toEqual(["Lee, Cy", "Zed, Earlier"]);
    expect(moved.totals.find((info) => info.contact_id === earlier.id)?.total).toBe(600);
    expect(moved.donors.find((donor) => donor.contact_id === earlier.id)?.account_numbers.sort()).toEqual([own.jones.donor.accountNumber, own.smith.donor.accountNumber].sort());
  });

  it("refuses a month range that is not two dates joined by three dots", async () => {
    for (const range of [`${monthStart(2)}..${monthStart(0)}`, "soon...later"]) {
      const response = await get(`/api/v2/reports/donor_currency_donations?filter[account_list_id]=${f.alice.list.id}&filter[month_range]=${range}`, f.alice.token);
      expect(errorOf(response, 400).source).toEqual({ parameter: "filter[month_range]" });
    }
  });

  it("is the owner's: a coach and a stranger are told the list does not exist", async () => {
    for (const token of [f.coach.token, f.stranger.token]) {
      const response = await get(`/api/v2/reports/salary_currency_donations?filter[account_list_id]=${f.alice.list.id}`, token);
      expect(errorOf(response, 404).detail).toBe(`Resource 'AccountList' with id '${f.alice.list.id}' does not exist.`);
    }
  });
});

describe("GET /api/v2/reports/expected_monthly_totals", () => {
  it("lists this month's gifts and the partners yet to give, as both web clients ask", async () => {
    const response = await get(`/api/v2/reports/expected_monthly_totals?filter[account_list_id]=${f.alice.list.id}&filter[designation_account_id=${f.fund.id},${f.second.id}`, f.alice.token);
    expect(response.status, response.text).toBe(200);
    const { attributes } = response.body.data;
    expect(attributes).toMatchObject({ total_currency: "USD", total_currency_symbol: "$" });
    expect(attributes.expected_donations).toEqual([
      {
        contact_id: f.jones.contact.id,
        contact_name: "Jones, Ann",
        contact_status: "Partner - Financial",
        converted_amount: 100,
        converted_currency: "USD",
        converted_currency_symbol: "$",
        donation_amount: 100,
        donation_currency: "USD",
        donation_currency_symbol: "$",
        pledge_amount: 100,
        pledge_currency: "USD",
        pledge_currency_symbol: "$",
        pledge_frequency: "Monthly",
        type: "received",
      },
      // Smith's pledge has not come: unlikely, the whole pledge.
      expect.objectContaining({ contact_id: f.smith.contact.id, type: "unlikely", donation_amount: 300, donation_currency: "CAD", converted_amount: 240, pledge_frequency: "Quarterly" }),
    ]);
  });

  it("judges each partner by their gifts of the last months, kept on the partner through every write", async () => {
    const viewer = await createViewer({ currency: "USD" });
    const organization = await createOrganization();
    const fund = await createDesignationAccount(viewer.list.id, { organizationId: organization.id });
    const monthly = { status: "Partner - Financial", pledgeAmount: "50.0", pledgeFrequency: "1.0", pledgeCurrency: "USD", pledgeReceived: true };
    const partner = async (name: string) => {
      const contact = await createContact(viewer.list.id, { name, ...monthly });
      const donor = await createDonorAccount(organization.id);
      await linkDonorAccount(contact.id, donor.id);
      return { contact, donor };
    };
    const gift = (who: { donor: { id: string } }, donationDate: string, amount: string, tenderedAmount?: string) =>
      createDonationRow({ accountListId: viewer.list.id, designationAccountId: fund.id, donorAccountId: who.donor.id }, { donationDate, amount, tenderedAmount });
    const steady = await partner("Steady, Sam");
    const short = await partner("Short, Sue");
    for (const back of [1, 2, 3]) {
      await gift(steady, dayOfMonth(back, 5), "50.0");
      await gift(short, dayOfMonth(back, 5), "20.0");
    }
    // Two gifts in one month add up; a tendered amount counts in place of the amount.
    const late = await gift(steady, dayOfMonth(4, 5), "30.0");
    await gift(steady, dayOfMonth(4, 20), "99.0", "20.0");
    const kept = async (id: string) => JSON.parse((await db.select().from(schema.contacts).where(eq(schema.contacts.id, id)))[0].giftMonths ?? "{}");
    const month = (back: number) => monthStart(back).slice(0, 7);
    expect(await kept(steady.contact.id)).toEqual({ [month(4)]: 500000, [month(3)]: 500000, [month(2)]: 500000, [month(1)]: 500000 });

    const response = await get(`/api/v2/reports/expected_monthly_totals?filter[account_list_id]=${viewer.list.id}`, viewer.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.attributes.expected_donations.map((row: { contact_name: string; type: string; donation_amount: number }) => [row.contact_name, row.type, row.donation_amount])).toEqual([
      ["Short, Sue", "unlikely", 50],
      ["Steady, Sam", "likely", 50],
    ]);

    // A changed amount, a moved date, a removed gift and a donor account linked elsewhere are followed.
    await db.update(schema.donations).set({ amount: "10.0" }).where(eq(schema.donations.id, late.id));
    expect((await kept(steady.contact.id))[month(4)]).toBe(300000);
    await db.update(schema.donations).set({ donationDate: dayOfMonth(5, 5) }).where(eq(schema.donations.id, late.id));
    expect(await kept(steady.contact.id)).toMatchObject({ [month(5)]: 100000, [month(4)]: 200000 });
    await db.delete(schema.donations).where(eq(schema.donations.id, late.id));
    expect(Object.keys(await kept(steady.contact.id)).sort()).toEqual([month(4), month(3), month(2), month(1)]);
    await db.update(schema.contactDonorAccounts).set({ contactId: short.contact.id }).where(eq(schema.contactDonorAccounts.donorAccountId, steady.donor.id));
    expect(await kept(steady.contact.id)).toEqual({});
    expect(await kept(short.contact.id)).toEqual({ [month(4)]: 200000, [month(3)]: 700000, [month(2)]: 700000, [month(1)]: 700000 });
  });

  it("is the owner's", async () => {
    const response = await get(`/api/v2/reports/expected_monthly_totals?filter[account_list_id]=${f.alice.list.id}`, f.coach.token);
    expect(errorOf(response, 404).detail).toBe(`Resource 'AccountList' with id '${f.alice.list.id}' does not exist.`);
  });
});

describe("POST /api/v2/reports/partner_giving_analysis", () => {
  const body = (extra: Record<string, unknown> = {}) => ({
    data: { type: "partner_giving_analysis" },
    fields: { contacts: "donation_period_average,donation_period_count,donation_period_sum,last_donation_amount,last_donation_currency,last_donation_date,name,pledge_currency,total_donations" },
    filter: { account_list_id: f.alice.list.id, any_tags: false },
    page: 1,
    per_page: 10,
    sort: "-donation_period_sum",
    ...extra,
  });
  const ask = (sent: unknown, token = f.alice.token) =>
    request("POST", "/api/v2/reports/partner_giving_analysis", { token, headers: { "X-HTTP-Method-Override": "GET" }, body: sent });

  it("answers the givers with their figures, as mpdx-react asks", async () => {
    const response = await ask(body());
    expect(response.status, response.text).toBe(200);
    // The body's parameters are read as every read sent as POST reads them: values echoed as the query's would be.
    expect(response.body.meta).toEqual({ pagination: { page: 1, per_page: 10, total_count: 3, total_pages: 1 }, sort: "-donation_period_sum", filter: { account_list_id: f.alice.list.id, any_tags: "false" } });
    expect(response.body.data.map((contact: { attributes: { name: string } }) => contact.attributes.name)).toEqual(["Jones, Ann", "Smith, Bo", "Lee, Cy"]);
    expect(response.body.data[0]).toMatchObject({
      id: f.jones.contact.id,
      type: "contacts",
      attributes: { donation_period_count: 4, donation_period_sum: "400.0", donation_period_average: "100.0", total_donations: "455.0", last_donation_amount: "100.0", last_donation_currency: "USD", pledge_currency: "USD" },
    });
  });

  it("narrows by the contact filters and the figures' bounds, and searches names", async () => {
    const financial = await ask(body({ filter: { account_list_id: f.alice.list.id, any_tags: false, status: "Partner - Financial", donation_period_sum: { min: "300", max: "" } } }));
    expect(financial.body.data.map((contact: { id: string }) => contact.id)).toEqual([f.jones.contact.id]);
    const named = await ask(body({ filter: { account_list_id: f.alice.list.id, any_tags: false, name_like: "%smith%" } }));
    expect(named.body.data.map((contact: { id: string }) => contact.id)).toEqual([f.smith.contact.id]);
    const bad = await ask(body({ sort: "birthday" }));
    expect(errorOf(bad, 400).detail).toContain("Sorting by birthday is not supported");
  });

  it("is the owner's", async () => {
    const response = await ask(body(), f.stranger.token);
    expect(errorOf(response, 404).detail).toBe(`Resource 'AccountList' with id '${f.alice.list.id}' does not exist.`);
  });
});

describe("GET /api/v2/reports/year_donations and /reports/donation_monthly_totals", () => {
  it("lists the year's gifts with their partners", async () => {
    const response = await get(`/api/v2/reports/year_donations?filter[account_list_id]=${f.alice.list.id}`, f.alice.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.type).toBe("reports_year_donations");
    expect(response.body.data.attributes.donation_infos).toHaveLength(6);
    expect(response.body.data.attributes.donor_infos).toHaveLength(3);
  });

  it("sums each month's gifts by currency", async () => {
    const response = await get(`/api/v2/reports/donation_monthly_totals?filter[account_list_id]=${f.alice.list.id}&filter[month_range]=${monthStart(2)}..${endOfThisMonth()}`, f.alice.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.relationships).toBeUndefined();
    expect(response.body.data.attributes.donation_totals_by_month).toEqual([
      { month: monthStart(2), totals_by_currency: [{ donor_currency: "EUR", total_in_donor_currency: 40, converted_total_in_salary_currency: 50 }, { donor_currency: "USD", total_in_donor_currency: 100, converted_total_in_salary_currency: 100 }] },
      { month: monthStart(1), totals_by_currency: [{ donor_currency: "CAD", total_in_donor_currency: 250, converted_total_in_salary_currency: 200 }, { donor_currency: "USD", total_in_donor_currency: 100, converted_total_in_salary_currency: 100 }] },
      { month: monthStart(0), totals_by_currency: [{ donor_currency: "USD", total_in_donor_currency: 100, converted_total_in_salary_currency: 100 }] },
    ]);
    const missing = await get(`/api/v2/reports/donation_monthly_totals?filter[account_list_id]=${f.alice.list.id}`, f.alice.token);
    expect(errorOf(missing, 400).source).toEqual({ parameter: "filter[month_range]" });
  });
});
