/**
 * A list's gifts summed by month and currency over a range of days: whole months from the kept rows
 * (`donations_by_month`, drizzle/kept-sums.ts), a row per month, currency and designation account, and the part
 * months at either end from the gifts themselves. A report over a year reads a few dozen rows, not the year's gifts.
 */
import { sql, type SQL } from "drizzle-orm";
import { donations, keptSums } from "../../../drizzle/schema";
import { inList, q } from "../../db/sql";
import type { ParamValue } from "../../jsonapi/params";
import { addMonths } from "../../jsonapi/time";
import { accountFilters, idFilter } from "./money";
import { monthOf } from "./periods";

/** Sums in money units by currency, then by month (`YYYY-MM`). */
export type MonthlySums = Map<string, Map<string, bigint>>;

const firstOfMonth = (day: string) => day.endsWith("-01");
const nextFirstOfMonth = (day: string) => (firstOfMonth(day) ? day : addMonths(`${monthOf(day)}-01`, 1));

function keptMonths(listId: string, filters: Record<string, ParamValue>, fromMonth: string, untilMonth: string): SQL {
  const designations = idFilter(filters, "designation_account_id");
  return sql`SELECT ${q(keptSums.key1)} AS month, ${q(keptSums.key2)} AS currency, CAST(SUM(${q(keptSums.units)}) AS TEXT) AS units FROM ${keptSums}
    WHERE ${q(keptSums.kind)} = 'donations_by_month' AND ${q(keptSums.ownerId)} = ${listId} AND ${q(keptSums.key1)} >= ${fromMonth} AND ${q(keptSums.key1)} < ${untilMonth}
    ${designations ? sql`AND ${inList(keptSums.key3, designations)}` : sql``} GROUP BY 1, 2`;
}

function giftMonths(listId: string, filters: Record<string, ParamValue>, fromDay: string, untilDay: string): SQL {
  return sql`SELECT substr(${q(donations.donationDate)}, 1, 7) AS month, upper(${q(donations.currency)}) AS currency, CAST(SUM(${q(donations.amount)}) AS TEXT) AS units
    FROM ${donations} WHERE ${q(donations.accountListId)} = ${listId} AND ${q(donations.donationDate)} >= ${fromDay} AND ${q(donations.donationDate)} < ${untilDay}
    ${accountFilters(filters)} GROUP BY 1, 2`;
}

/**
 * The statements whose rows `monthlySums` adds up, for the days [fromDay, untilDay). Gifts of some donor accounts
 * are read from the gifts (a contact's few), not the kept rows, which do not know the donor.
 */
export function monthlySumReads(listId: string, filters: Record<string, ParamValue>, fromDay: string, untilDay: string): SQL[] {
  if (idFilter(filters, "donor_account_id")) return [giftMonths(listId, filters, fromDay, untilDay)];
  const wholeFrom = nextFirstOfMonth(fromDay);
  const wholeUntil = `${monthOf(untilDay)}-01`;
  if (wholeFrom >= wholeUntil) return [giftMonths(listId, filters, fromDay, untilDay)];
  const reads = [keptMonths(listId, filters, monthOf(wholeFrom), monthOf(wholeUntil))];
  if (fromDay < wholeFrom) reads.push(giftMonths(listId, filters, fromDay, wholeFrom));
  if (wholeUntil < untilDay) reads.push(giftMonths(listId, filters, wholeUntil, untilDay));
  return reads;
}

export function monthlySums(results: Array<Array<Record<string, unknown>>>): MonthlySums {
  const sums: MonthlySums = new Map();
  for (const row of results.flat()) {
    const currency = String(row.currency ?? "");
    const byMonth = sums.get(currency) ?? new Map<string, bigint>();
    const month = String(row.month);
    byMonth.set(month, (byMonth.get(month) ?? 0n) + BigInt(String(row.units ?? "0")));
    sums.set(currency, byMonth);
  }
  return sums;
}
