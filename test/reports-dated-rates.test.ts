/**
 * Conversions on a date: the operator records rates by day (`rate:set`), and the reports convert a gift at the rate
 * of its day, a month's sum at the rate of its 15th, a period's pledges at the rate of its last day: the first rate
 * taken on or after the day, else the last before it. The latest rate recorded is every database's rate now.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { database } from "../src/db/client";
import { databaseBinding, listDatabaseNames } from "../src/db/databases";
import { get } from "./helpers/api";
import { admin } from "./helpers/admin";
import { createViewer } from "./helpers/factories";
import { createContact, createDesignationAccount, createDonationRow, createDonorAccount, createOrganization, linkDonorAccount, setRates } from "./helpers/money-records";
import { dayOfMonth, monthStart } from "./helpers/report-fixtures";

let alice: Awaited<ReturnType<typeof createViewer>>;

/** The CAD rate now, as each database holds it. */
async function currentCadRates(): Promise<Array<string | undefined>> {
  return Promise.all(
    listDatabaseNames(env).map(async (name) => {
      const [row] = await database(databaseBinding(env, name)).select().from(schema.currencyRates).where(eq(schema.currencyRates.code, "CAD"));
      return row?.rate;
    }),
  );
}

const history = () => database(env.DB).select().from(schema.currencyRateHistory).orderBy(schema.currencyRateHistory.exchangedOn);

beforeAll(async () => {
  await setRates({ CAD: "1.6" });
  alice = await createViewer({ currency: "USD" });
  const organization = await createOrganization();
  const fund = await createDesignationAccount(alice.list.id, { organizationId: organization.id });
  const contact = await createContact(alice.list.id, { name: "Maple, Jo" });
  const donor = await createDonorAccount(organization.id);
  await linkDonorAccount(contact.id, donor.id);
  await createContact(alice.list.id, {
    name: "Pledger, Al",
    pledgeAmount: "100.0",
    pledgeCurrency: "CAD",
    pledgeFrequency: "1.0",
    pledgeReceived: false,
    createdAt: `${monthStart(6)}T00:00:00.000Z`,
  });
  for (const monthsAgo of [3, 2, 1]) {
    await createDonationRow({ accountListId: alice.list.id, designationAccountId: fund.id, donorAccountId: donor.id }, { donationDate: dayOfMonth(monthsAgo, 10), amount: "100.0", currency: "CAD" });
  }
});

describe("recording a rate (POST /admin/currency_rates)", () => {
  it("keeps each day's rate, and the latest day's as the rate now on every database", async () => {
    const later = await admin("POST", "/currency_rates", { code: "cad", exchanged_on: dayOfMonth(1, 1), rate: "2.0" });
    expect(later.status, later.text).toBe(201);
    expect(later.body).toEqual({ code: "CAD", exchanged_on: dayOfMonth(1, 1), rate: "2.0", current_rate: "2.0" });
    // An earlier day goes into the history but leaves the rate now as it is.
    const earlier = await admin("POST", "/currency_rates", { code: "CAD", exchanged_on: dayOfMonth(2, 1), rate: "1.25" });
    expect(earlier.body).toEqual({ code: "CAD", exchanged_on: dayOfMonth(2, 1), rate: "1.25", current_rate: "2.0" });
    expect((await history()).map((row) => [row.code, row.exchangedOn, row.rate])).toEqual([
      ["CAD", dayOfMonth(2, 1), "1.25"],
      ["CAD", dayOfMonth(1, 1), "2.0"],
    ]);
    expect(await currentCadRates()).toEqual(listDatabaseNames(env).map(() => "2.0"));
  });

  it("refuses a bad code, day or rate with a pointer, storing nothing", async () => {
    const before = await history();
    for (const [body, pointer] of [
      [{ code: "ZZZ", exchanged_on: dayOfMonth(0, 1), rate: "1.1" }, "/code"],
      [{ code: "CAD", exchanged_on: "2026-02-30", rate: "1.1" }, "/exchanged_on"],
      [{ code: "CAD", exchanged_on: dayOfMonth(0, 1), rate: "0" }, "/rate"],
      [{ code: "CAD", exchanged_on: dayOfMonth(0, 1), rate: "-1.1" }, "/rate"],
      [{ code: "CAD", exchanged_on: dayOfMonth(0, 1), rate: 1.1 }, "/rate"],
    ] as const) {
      const answer = await admin("POST", "/currency_rates", body);
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.errors[0].source.pointer).toBe(pointer);
    }
    expect(await history()).toEqual(before);
    expect(await currentCadRates()).toEqual(listDatabaseNames(env).map(() => "2.0"));
    expect((await admin("POST", "/currency_rates", { code: "CAD", exchanged_on: dayOfMonth(0, 1), rate: "1.1" }, "wrong-secret-wrong-secret-wrong-secret")).status).toBe(401);
  });
});

describe("the reports convert at the rates of the right day", () => {
  it("converts each gift of the 14-month report at the first rate on or after its day, else the last before", async () => {
    const response = await get(`/api/v2/reports/salary_currency_donations?filter[account_list_id]=${alice.list.id}`, alice.token);
    expect(response.status, response.text).toBe(200);
    const group = response.body.data.attributes.currency_groups.USD;
    const gifts = group.donation_infos[0].months.flatMap((month: { donations: unknown[] }) => month.donations);
    // 3 months ago: the next rate is 1.25; 2 months ago: the next is 2.0; last month: none after, the last before is 2.0.
    expect(gifts.map((gift: { donation_date: string; converted_amount: number }) => [gift.donation_date, gift.converted_amount])).toEqual([
      [dayOfMonth(3, 10), 80],
      [dayOfMonth(2, 10), 50],
      [dayOfMonth(1, 10), 50],
    ]);
    expect(group.totals.year_converted).toBe(180);
  });

  it("converts a month's sum in the giving graph at the rate of its 15th", async () => {
    const range = `${monthStart(3)}..${dayOfMonth(1, 28)}`;
    const response = await get(`/api/v2/reports/monthly_giving_graph?filter[account_list_id]=${alice.list.id}&filter[donation_date]=${range}`, alice.token);
    expect(response.status, response.text).toBe(200);
    const [cad] = response.body.data.attributes.totals;
    expect(cad.currency).toBe("CAD");
    expect(cad.month_totals).toEqual([
      { amount: "100.0", converted: 80 },
      { amount: "100.0", converted: 50 },
      { amount: "100.0", converted: 50 },
    ]);
    expect(cad.total_converted).toBe(180);
  });

  it("converts each month of the donation monthly totals at its 15th", async () => {
    const response = await get(`/api/v2/reports/donation_monthly_totals?filter[account_list_id]=${alice.list.id}&filter[month_range]=${monthStart(3)}..${dayOfMonth(1, 28)}`, alice.token);
    expect(response.status, response.text).toBe(200);
    expect(
      response.body.data.attributes.donation_totals_by_month.map((month: { totals_by_currency: Array<{ converted_total_in_salary_currency: number }> }) => month.totals_by_currency[0].converted_total_in_salary_currency),
    ).toEqual([80, 50, 50]);
  });

  it("converts each period's pledges at the rates of its last day", async () => {
    const response = await get(`/api/v2/reports/pledge_histories?filter[account_list_id]=${alice.list.id}&filter[range]=4m`, alice.token);
    expect(response.status, response.text).toBe(200);
    // Newest first. This month and last end after the 2.0 was taken; two months ago ends the day before it, the first
    // taken on or after; three months ago ends before the 1.25, the first after it.
    expect(response.body.data.map((period: { attributes: { pledged: number } }) => period.attributes.pledged)).toEqual([50, 50, 50, 80]);
  });
});
