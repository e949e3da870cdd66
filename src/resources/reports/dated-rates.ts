/**
 * Conversions on a date, as the original's reports made them: a currency's rate on a day is the first rate taken on
 * or after that day, else the last taken before it (`currency_rate_history`, kept on the directory). A currency with
 * no rate in the history converts at its rate now (`currency_rates`), and one with neither at 1, as the original
 * did for a missing rate.
 *
 * A report asks once, after its own reads, for the currencies it found and the days it spans: one statement reads
 * their rates in that window and, for each currency, the nearest rate on either side of it. A report whose money is
 * all in the currency it answers in converts nothing and asks for nothing.
 */
import { sql } from "drizzle-orm";
import { currencyRateHistory } from "../../../drizzle/schema";
import { ratioFromDecimalString, type Ratio } from "../../decimal";
import { inList, q } from "../../db/sql";
import { rowsOf } from "../../db/statements";
import type { ReportRequest } from "./report";

/** The rates of the report's currencies on any day of its window, as a map like the current rates. */
export interface DatedRates {
  at(day: string): Map<string, Ratio>;
}

interface TakenRate {
  day: string;
  rate: Ratio;
}

/**
 * The rates of `codes` for days from `fromDay` to `untilDay` (both included), read from the directory in one
 * statement: the rates taken in the window, and each currency's last rate before it and first after it.
 */
export async function datedRates(request: ReportRequest, codes: Iterable<string>, fromDay: string, untilDay: string): Promise<DatedRates> {
  const wanted = [...new Set([...codes].map((code) => code.trim().toUpperCase()).filter(Boolean))].sort();
  // Money of one currency converted into itself needs no rate.
  if (wanted.length <= 1) return currentOnly(request);
  const h = currencyRateHistory;
  const edge = (condition: ReturnType<typeof sql>, order: ReturnType<typeof sql>) =>
    sql`(SELECT ${q(h.exchangedOn)} || ' ' || ${q(h.rate)} FROM ${h} WHERE ${q(h.code)} = codes.value AND ${condition} ORDER BY ${order} LIMIT 1)`;
  const [rows] = await rowsOf(request.ctx.directory ?? request.ctx.db, [
    sql`SELECT ${q(h.code)} AS code, ${q(h.exchangedOn)} || ' ' || ${q(h.rate)} AS taken FROM ${h}
      WHERE ${inList(q(h.code), wanted)} AND ${q(h.exchangedOn)} >= ${fromDay} AND ${q(h.exchangedOn)} <= ${untilDay}
      UNION ALL SELECT codes.value, ${edge(sql`${q(h.exchangedOn)} < ${fromDay}`, sql`${q(h.exchangedOn)} DESC`)} FROM json_each(${JSON.stringify(wanted)}) AS codes
      UNION ALL SELECT codes.value, ${edge(sql`${q(h.exchangedOn)} > ${untilDay}`, sql`${q(h.exchangedOn)}`)} FROM json_each(${JSON.stringify(wanted)}) AS codes`,
  ]);
  const taken = new Map<string, TakenRate[]>();
  for (const row of rows) {
    if (row.taken === null) continue;
    const [day, rate] = String(row.taken).split(" ");
    const list = taken.get(String(row.code)) ?? [];
    list.push({ day, rate: ratioFromDecimalString(rate) });
    taken.set(String(row.code), list);
  }
  for (const list of taken.values()) list.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const byDay = new Map<string, Map<string, Ratio>>();
  return {
    at(day) {
      let rates = byDay.get(day);
      if (!rates) {
        rates = new Map(request.rates);
        for (const [code, list] of taken) rates.set(code, rateOn(list, day));
        byDay.set(day, rates);
      }
      return rates;
    },
  };
}

function currentOnly(request: ReportRequest): DatedRates {
  return { at: () => request.rates };
}

/** The first rate taken on or after `day`, else the last before it (`taken` is in date order and not empty). */
function rateOn(taken: TakenRate[], day: string): Ratio {
  let low = 0;
  let high = taken.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (taken[middle].day < day) low = middle + 1;
    else high = middle;
  }
  return (taken[low] ?? taken[taken.length - 1]).rate;
}

/** The day whose rates convert a month's sum: its 15th, as the original's monthly reports took it. */
export const rateDayOfMonth = (month: string): string => `${month.slice(0, 7)}-15`;
