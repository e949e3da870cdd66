/**
 * The reports the web and mobile clients show on their main pages: GET /api/v2/reports/goal_progress and
 * /reports/monthly_giving_graph, as each client asks, in every storage layout; who may ask; bad input.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { errorOf, get, request } from "./helpers/api";
import { expectKeptSumsExact } from "./helpers/kept-sums";
import { dayOfMonth, monthStart, reportFixture, today } from "./helpers/report-fixtures";
import { addDays, addMonths } from "../src/jsonapi/time";

let f: Awaited<ReturnType<typeof reportFixture>>;

beforeAll(async () => {
  f = await reportFixture();
});

const endOfThisMonth = () => addDays(addMonths(monthStart(0), 1), -1);

describe("GET /api/v2/reports/goal_progress", () => {
  it("answers the goal, pledges and salary balance, as the web app's balance bar and the mobile dashboard ask", async () => {
    const response = await get(`/api/v2/reports/goal_progress?filter[account_list_id]=${f.alice.list.id}`, f.alice.token);
    expect(response.status, response.text).toBe(200);
    expect(Object.keys(response.body)).toEqual(["data"]);
    const { data } = response.body;
    expect(data.id).toBe("reports::goalprogress");
    expect(data.type).toBe("reports_goal_progresses");
    expect(data.relationships).toEqual({ account_list: { data: { id: f.alice.list.id, type: "account_lists" } } });
    const { created_at, ...attributes } = data.attributes;
    expect(created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    // 100 USD monthly, and 300 CAD a quarter = 100 CAD = 80 USD a month; only the first is received.
    expect(attributes).toEqual({
      monthly_goal: 5000,
      total_pledges: "180.0",
      received_pledges: "100.0",
      in_hand_percent: 2,
      pledged_percent: 3.6,
      // 1,234.50 USD and 100 CAD (80 USD), both of the salary organization.
      salary_balance: 1314.5,
      balance: 1314.5,
      salary_currency_or_default: "USD",
      default_currency: "USD",
      salary_organization_id: f.organization.id,
      updated_at: null,
      updated_in_db_at: null,
    });
  });

  it("covers the user's first list when none is named", async () => {
    const response = await get("/api/v2/reports/goal_progress", f.alice.token);
    expect(response.status).toBe(200);
    expect(response.body.data.relationships.account_list.data.id).toBe(f.alice.list.id);
    const second = await get(`/api/v2/reports/goal_progress?filter[account_list_id]=${f.other.id}`, f.alice.token);
    expect(second.status).toBe(200);
    expect(second.body.data.attributes).toMatchObject({ monthly_goal: null, in_hand_percent: null, total_pledges: "0.0", salary_currency_or_default: "CAD" });
  });

  it("is the owner's: a coach and a stranger are told the list does not exist", async () => {
    for (const token of [f.coach.token, f.stranger.token]) {
      const response = await get(`/api/v2/reports/goal_progress?filter[account_list_id]=${f.alice.list.id}`, token);
      expect(errorOf(response, 404).detail).toBe(`Resource 'AccountList' with id '${f.alice.list.id}' does not exist.`);
    }
  });
});

describe("GET /api/v2/reports/monthly_giving_graph", () => {
  const months = (from: number) => Array.from({ length: from + 1 }, (_, i) => monthStart(from - i));

  it("sums the gifts by currency and month, converted, as the web app's dashboard asks (13 months)", async () => {
    const query = `filter[account_list_id]=${f.alice.list.id}&filter[donation_date]=${monthStart(12)}..${endOfThisMonth()}`;
    const response = await get(`/api/v2/reports/monthly_giving_graph?${query}`, f.alice.token);
    expect(response.status, response.text).toBe(200);
    const { attributes } = response.body.data;
    expect(response.body.data.type).toBe("reports_monthly_giving_graphs");
    expect(attributes.months_to_dates).toEqual(months(12));
    const monthly = (byAgo: Record<number, [string, number]>) =>
      months(12).map((_, i) => {
        const [amount, converted] = byAgo[12 - i] ?? ["0.0", 0];
        return { amount, converted };
      });
    expect(attributes.totals).toEqual([
      { currency: "USD", total_amount: "400.0", total_converted: 400, month_totals: monthly({ 0: ["100.0", 100], 1: ["100.0", 100], 2: ["100.0", 100], 3: ["100.0", 100] }) },
      { currency: "CAD", total_amount: "250.0", total_converted: 200, month_totals: monthly({ 1: ["250.0", 200] }) },
      { currency: "EUR", total_amount: "40.0", total_converted: 50, month_totals: monthly({ 2: ["40.0", 50] }) },
    ]);
    // This month is not over: 550 over the twelve months before it.
    expect(attributes).toMatchObject({
      monthly_average: Math.trunc(550 / 12),
      pledges: 180,
      monthly_goal: 5000,
      multi_currency: true,
      salary_currency: "USD",
      salary_currency_symbol: "$",
      display_currency: "USD",
      display_currency_symbol: "$",
    });
  });

  it("reads part months at either end of the range from the gifts, and narrows by designation account", async () => {
    const range = `${dayOfMonth(3, 15)}..${dayOfMonth(1, 15)}`;
    const response = await get(`/api/v2/reports/monthly_giving_graph?filter[account_list_id]=${f.alice.list.id}&filter[donation_date]=${range}`, f.alice.token);
    const totals = response.body.data.attributes.totals.map((t: { currency: string; total_amount: string }) => [t.currency, t.total_amount]);
    expect(totals).toEqual([["USD", "200.0"], ["EUR", "40.0"]]);
    const narrowed = await get(`/api/v2/reports/monthly_giving_graph?filter[account_list_id]=${f.alice.list.id}&filter[designation_account_id]=${f.second.id}`, f.alice.token);
    expect(narrowed.body.data.attributes.totals.map((t: { currency: string }) => t.currency)).toEqual(["CAD"]);
  });

  it("answers a contact's gifts in its pledge currency, as the contact page asks (24 months)", async () => {
    const query = `filter[account_list_id]=${f.alice.list.id}&filter[donation_date]=${monthStart(23)}..${endOfThisMonth()}&filter[donor_account_id]=${f.jones.donor.id}&filter[display_currency]=CAD`;
    const response = await get(`/api/v2/reports/monthly_giving_graph?${query}`, f.coach.token);
    expect(response.status, response.text).toBe(200);
    const { attributes } = response.body.data;
    expect(attributes.months_to_dates).toHaveLength(24);
    expect(attributes.totals).toHaveLength(1);
    expect(attributes.totals[0]).toMatchObject({ currency: "USD", total_amount: "400.0", total_converted: 500 });
    expect(attributes).toMatchObject({ display_currency: "CAD", display_currency_symbol: "$" });
  });

  it("defaults to the twelve months up to the end of this one", async () => {
    const response = await get(`/api/v2/reports/monthly_giving_graph?filter[account_list_id]=${f.alice.list.id}`, f.alice.token);
    expect(response.body.data.attributes.months_to_dates).toEqual(months(11));
  });

  it("is a coach's too; a stranger is told the list does not exist", async () => {
    expect((await get(`/api/v2/reports/monthly_giving_graph?filter[account_list_id]=${f.alice.list.id}`, f.coach.token)).status).toBe(200);
    const refused = await get(`/api/v2/reports/monthly_giving_graph?filter[account_list_id]=${f.alice.list.id}`, f.stranger.token);
    expect(errorOf(refused, 404).detail).toBe(`Resource 'AccountList' with id '${f.alice.list.id}' does not exist.`);
  });

  it("refuses a malformed range or currency with a pointer to the parameter", async () => {
    const bad = await get(`/api/v2/reports/monthly_giving_graph?filter[account_list_id]=${f.alice.list.id}&filter[donation_date]=last-year`, f.alice.token);
    expect(errorOf(bad, 400).source).toEqual({ parameter: "filter[donation_date]" });
    const currency = await get(`/api/v2/reports/monthly_giving_graph?filter[account_list_id]=${f.alice.list.id}&filter[display_currency]=dollars`, f.alice.token);
    expect(errorOf(currency, 400).source).toEqual({ parameter: "filter[display_currency]" });
  });

  it("keeps its monthly sums through inserts, updates and deletes of gifts", async () => {
    const added = await f.gift(f.lee, dayOfMonth(4, 3), "12.5", "EUR");
    await f.gift(f.jones, today(), "7.0");
    await expectKeptSumsExact();
    const { db } = await import("./helpers/factories");
    const schema = await import("../drizzle/schema");
    const { eq } = await import("drizzle-orm");
    await db.update(schema.donations).set({ amount: "20.0", currency: "USD", donationDate: dayOfMonth(5, 1) }).where(eq(schema.donations.id, added.id));
    await expectKeptSumsExact();
    await db.delete(schema.donations).where(eq(schema.donations.id, added.id));
    await expectKeptSumsExact();
  });
});

describe("POST with X-HTTP-Method-Override: GET", () => {
  it("reads a report's parameters from the body", async () => {
    const response = await request("POST", "/api/v2/reports/goal_progress", {
      token: f.alice.token,
      headers: { "X-HTTP-Method-Override": "GET" },
      body: { filter: { account_list_id: f.other.id } },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.relationships.account_list.data.id).toBe(f.other.id);
  });
});
