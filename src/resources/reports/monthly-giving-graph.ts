/**
 * GET /reports/monthly_giving_graph: the list's gifts by currency and month, converted into the display currency,
 * with the monthly average, pledges and goal (the web app's dashboard chart and a contact's donations tab). The
 * sums are kept rows by month (./monthly-sums.ts); a contact's gifts (`filter[donor_account_id]`) are read as such.
 */
import { sql } from "drizzle-orm";
import { contacts, designationAccounts } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import { distinctValues } from "../../read/filter-panels";
import { isBlankValue, parseDateRange } from "../../jsonapi/filter-values";
import { addDays, addMonths } from "../../jsonapi/time";
import { monthlyPledges, parseTotals } from "../account-lists/totals";
import { displayCurrency } from "./currency";
import { datedRates, rateDayOfMonth } from "./dated-rates";
import { converted, moneyNumber, moneyText, sum, symbolOf } from "./money";
import { monthlySumReads, monthlySums } from "./monthly-sums";
import { endOfMonth, monthOf, monthsBetween } from "./periods";
import { defineReport, type ReportRequest } from "./report";
import { listTotalsRead, monthlyGoal } from "./goal-progress";

/** `filter[donation_date]`, by default the twelve months up to the end of this one, as [first day, day after). */
function givingRange({ filters, today }: ReportRequest): { fromDay: string; untilDay: string } {
  if (isBlankValue(filters.donation_date)) return { fromDay: addMonths(`${monthOf(today)}-01`, -11), untilDay: addDays(endOfMonth(today), 1) };
  const range = parseDateRange("donation_date", filters.donation_date);
  return { fromDay: range.fromDate, untilDay: range.untilDate };
}

export const monthlyGivingGraph = defineReport({
  path: "monthly_giving_graph",
  type: "reports_monthly_giving_graphs",
  id: "reports::monthlygivinggraph",
  coaches: true,
  attributes: async (request) => {
    const { list, rates, filters, today, read } = request;
    const display = displayCurrency(request);
    const { fromDay, untilDay } = givingRange(request);
    const sumReads = monthlySumReads(list.id, filters, fromDay, untilDay);
    const results = await read([
      ...sumReads,
      listTotalsRead(list.id),
      distinctValues(contacts.pledgeCurrency, contacts.accountListId, list.id),
      sql`SELECT DISTINCT upper(${q(designationAccounts.currency)}) AS id FROM ${designationAccounts} WHERE ${q(designationAccounts.accountListId)} = ${list.id} AND ${q(designationAccounts.currency)} > ''`,
    ]);
    const sums = monthlySums(results.slice(0, sumReads.length));
    const [[totalsRow], pledgeCurrencies, accountCurrencies] = results.slice(sumReads.length);
    const months = monthsBetween(fromDay, addDays(untilDay, -1));
    const named = [...sums].filter(([currency]) => currency !== "");
    const monthRates = await datedRates(request, [display, ...named.map(([currency]) => currency)], rateDayOfMonth(months[0]), rateDayOfMonth(months.at(-1)!));
    // A month's sum is converted at the rate of its middle day, as the original did.
    const monthConverted = (byMonth: Map<string, bigint>, currency: string, month: string) =>
      converted(byMonth.get(monthOf(month)) ?? 0n, currency, display, monthRates.at(rateDayOfMonth(month)));
    const totals = named
      .map(([currency, byMonth]) => {
        const amounts = months.map((month) => byMonth.get(monthOf(month)) ?? 0n);
        const total = amounts.reduce((a, b) => a + b, 0n);
        return {
          currency,
          total_amount: moneyText(total),
          total_converted: moneyNumber(sum(months.map((month) => monthConverted(byMonth, currency, month)))),
          month_totals: months.map((month, index) => ({ amount: moneyText(amounts[index]), converted: moneyNumber(monthConverted(byMonth, currency, month)) })),
        };
      })
      .sort((a, b) => b.total_converted - a.total_converted);
    // A range that ends with this month leaves this month out of the average: it is not over.
    const averaged = months.filter((month) => !(addDays(untilDay, -1) === endOfMonth(today) && monthOf(month) === monthOf(today)));
    const averagedSum = sum(named.flatMap(([currency, byMonth]) => averaged.map((month) => monthConverted(byMonth, currency, month))));
    const currencies = new Set([list.currency, ...[...pledgeCurrencies, ...accountCurrencies].map((row) => String(row.id).toUpperCase())]);
    return {
      months_to_dates: months,
      totals,
      monthly_average: averaged.length > 0 ? Math.trunc(moneyNumber(averagedSum) / averaged.length) : 0,
      pledges: Math.trunc(Number(monthlyPledges(parseTotals(totalsRow?.totals).pledges, list.currency, rates, false)) / 10_000),
      monthly_goal: monthlyGoal(request),
      multi_currency: currencies.size > 1,
      salary_currency: list.currency,
      salary_currency_symbol: symbolOf(list.currency),
      display_currency: display,
      display_currency_symbol: symbolOf(display),
    };
  },
});
