/**
 * GET /reports/donation_monthly_totals: for each month of `filter[month_range]` (required), the list's gifts by
 * currency, summed and converted into the list's currency: kept sums by month (./monthly-sums.ts). A month's sum
 * is converted at the rate of its 15th (the original converted each gift at its day's rate; the sums are kept by
 * month so the report never reads the gifts).
 */
import { badRequest } from "../../jsonapi/errors";
import { isBlankValue, parseDateRange } from "../../jsonapi/filter-values";
import { addDays } from "../../jsonapi/time";
import { datedRates, rateDayOfMonth } from "./dated-rates";
import { converted, moneyNumber } from "./money";
import { monthlySumReads, monthlySums } from "./monthly-sums";
import { endOfMonth, monthOf, monthsBetween } from "./periods";
import { defineReport } from "./report";

export const donationMonthlyTotals = defineReport({
  path: "donation_monthly_totals",
  type: "reports_donation_monthly_totals",
  id: "reports::donationmonthlytotals",
  coaches: false,
  linksList: false,
  attributes: async (request) => {
    const { list, filters, read } = request;
    if (isBlankValue(filters.month_range)) throw badRequest("Month range is required, YYYY-MM-DD..YYYY-MM-DD", { parameter: "filter[month_range]" });
    const range = parseDateRange("month_range", filters.month_range);
    const months = monthsBetween(range.fromDate, addDays(range.untilDate, -1));
    // Whole months, from the first's first day to the last's last.
    const reads = monthlySumReads(list.id, {}, months[0], addDays(endOfMonth(months.at(-1)!), 1));
    const sums = monthlySums(await read(reads));
    const rates = await datedRates(request, [list.currency, ...sums.keys()], rateDayOfMonth(months[0]), rateDayOfMonth(months.at(-1)!));
    return {
      donation_totals_by_month: months.map((month) => ({
        month,
        totals_by_currency: [...sums]
          .sort(([a], [b]) => a.localeCompare(b))
          .filter(([currency, byMonth]) => currency !== "" && byMonth.has(monthOf(month)))
          .map(([currency, byMonth]) => ({
            donor_currency: currency,
            total_in_donor_currency: moneyNumber(byMonth.get(monthOf(month))!),
            converted_total_in_salary_currency: moneyNumber(converted(byMonth.get(monthOf(month))!, currency, list.currency, rates.at(rateDayOfMonth(month)))),
          })),
      })),
    };
  },
});
