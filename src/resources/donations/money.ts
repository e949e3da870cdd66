/**
 * Money shared by donations, pledges and appeals: sums per currency come from SQL as exact integer units
 * (CAST(SUM(..) AS TEXT)) and are converted into one currency here, exactly, rounding once to cents at the end
 * (as every converted amount of the API is).
 */
import { sql } from "drizzle-orm";
import { accountLists } from "../../../drizzle/schema";
import { addRatios, exchangeRatio, rateFor, ratioToCents, type Ratio } from "../../db/decimal";
import type { RequestContext } from "../../engine/define";

/** One currency's sum as SQL answers it: the code and the total in 1/10,000 units as text. */
export interface CurrencySum {
  currency: string;
  units: string;
}

/** The sums converted into `target` (rates are units per 1 USD; a missing rate counts as 1), in scaled units rounded to cents. */
export function convertedTotal(sums: CurrencySum[], target: string, rates: Map<string, Ratio>): bigint {
  const toRate = rateFor(rates, target);
  let total: Ratio = { numerator: 0n, denominator: 1n };
  for (const { currency, units } of sums) {
    const factor = exchangeRatio(rateFor(rates, currency), toRate);
    total = addRatios(total, { numerator: BigInt(units) * factor.numerator, denominator: factor.denominator });
  }
  return ratioToCents(total);
}

/** The currency an account list reports in. */
export async function listCurrency(listId: string, ctx: RequestContext): Promise<string> {
  const [list] = await ctx.db.select({ currency: accountLists.currency }).from(accountLists).where(sql`${accountLists.id} = ${listId}`).limit(1);
  return list?.currency ?? "USD";
}
