/** Currency rates, read in the same D1 batch as the rows whose money they convert. */
import { sql, type SQL } from "drizzle-orm";
import { currencyRates } from "../../drizzle/schema";
import { q } from "../db/sql";
import { rowsOf } from "../db/statements";
import { ratioFromDecimalString, type Ratio } from "../decimal";
import type { Database } from "../env";
import type { Row } from "./define";

export type RateRow = { code: string; rate: string };

/** Currency rates keyed by upper-case code, from rows of currency_rates. */
export function ratesMap(rows: Array<{ code: string; rate: string }>): Map<string, Ratio> {
  return new Map(rows.map((r) => [r.code.toUpperCase(), ratioFromDecimalString(r.rate)]));
}

/** Every stored currency rate, for `ratesMap`; a statement of its own so it can join any round trip. */
export const RATES = sql`SELECT ${q(currencyRates.code)} AS "code", ${q(currencyRates.rate)} AS "rate" FROM ${currencyRates}`;

/** Runs a query, with the currency rates in the same D1 batch when they are wanted. */
export async function withRates(db: Database, query: SQL, wanted: boolean): Promise<[Row[], RateRow[]]> {
  const [rows, rates = []] = await rowsOf(db, wanted ? [query, RATES] : [query]);
  return [rows, rates as RateRow[]];
}
