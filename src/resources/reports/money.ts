/**
 * Money in the reports: conversions with the stored rates (units per 1 USD: the rates now, or those of a day from
 * ./dated-rates.ts), answered as numbers rounded to cents where the original answered converted floats, and as
 * exact decimal strings where it answered stored decimals.
 */
import { sql, type SQL } from "drizzle-orm";
import { donations } from "../../../drizzle/schema";
import { PLEDGE_CURRENCIES } from "../../constants/currencies";
import { addRatios, exchangeRatio, formatMoney, multiplyRatios, rateFor, ratioToCents, type Ratio } from "../../decimal";
import { inList, q } from "../../db/sql";
import { listValue } from "../../jsonapi/filter-values";
import type { ParamValue } from "../../jsonapi/params";

export const ZERO: Ratio = { numerator: 0n, denominator: 1n };

/** `units` (1/10,000 of `from`) in `to`, exactly. */
export function converted(units: bigint, from: string | null | undefined, to: string, rates: Map<string, Ratio>): Ratio {
  return multiplyRatios({ numerator: units, denominator: 1n }, exchangeRatio(rateFor(rates, from), rateFor(rates, to)));
}

/** Exact sums, added as they come. */
export const sum = (values: Ratio[]): Ratio => values.reduce(addRatios, ZERO);

export const negated = (value: Ratio): Ratio => ({ numerator: -value.numerator, denominator: value.denominator });

/** Money units or an exact amount as a number rounded to cents (a converted amount, as the original's floats). */
export function moneyNumber(value: bigint | Ratio): number {
  const cents = typeof value === "bigint" ? ratioToCents({ numerator: value, denominator: 1n }) : ratioToCents(value);
  return Number(formatMoney(cents));
}

/** Money units as the stored decimal's string (`"100.0"`): a raw amount or sum of one currency. */
export const moneyText = (units: bigint): string => formatMoney(units)!;

/** The display symbol of a currency (CLDR, `$` for USD), else its code. */
export function symbolOf(code: string | null | undefined): string {
  const upper = (code ?? "").toUpperCase();
  return PLEDGE_CURRENCIES[upper.toLowerCase()]?.symbol ?? upper;
}

/** Ids of a `*_id` filter (comma-separated), lower-case; undefined when absent or blank. */
export function idFilter(filters: Record<string, ParamValue>, name: string): string[] | undefined {
  const ids = listValue(filters[name]).map((id) => id.trim().toLowerCase()).filter(Boolean);
  return ids.length > 0 ? ids : undefined;
}

/** The designation and donor account filters the donation reports take, as conditions on `donations`. */
export function accountFilters(filters: Record<string, ParamValue>): SQL {
  const designations = idFilter(filters, "designation_account_id");
  const donors = idFilter(filters, "donor_account_id");
  return sql`${designations ? sql` AND ${inList(donations.designationAccountId, designations)}` : sql``}${donors ? sql` AND ${inList(donations.donorAccountId, donors)}` : sql``}`;
}

/** A gift as the reports list it. */
export interface Gift {
  id: string;
  amount: bigint;
  currency: string;
  date: string;
  donorAccountId: string;
  paymentMethod: string | null;
  tenderedAmount: bigint | null;
  tenderedCurrency: string | null;
}

/** The list's gifts from `fromDay` on (and before `untilDay`), with the accounts filters, oldest first. */
export function giftsSince(listId: string, filters: Record<string, ParamValue>, fromDay: string, untilDay?: string): SQL {
  return sql`SELECT ${q(donations.id)} AS id, ${q(donations.amount)} AS amount, upper(${q(donations.currency)}) AS currency,
    ${q(donations.donationDate)} AS date, ${q(donations.donorAccountId)} AS donor_account_id, ${q(donations.paymentMethod)} AS payment_method,
    ${q(donations.tenderedAmount)} AS tendered_amount, ${q(donations.tenderedCurrency)} AS tendered_currency
    FROM ${donations} WHERE ${q(donations.accountListId)} = ${listId} AND ${q(donations.donationDate)} >= ${fromDay}
    ${untilDay ? sql`AND ${q(donations.donationDate)} < ${untilDay}` : sql``}${accountFilters(filters)}
    ORDER BY ${q(donations.donationDate)}, ${q(donations.id)}`;
}

export function giftOf(row: Record<string, unknown>): Gift {
  return {
    id: String(row.id),
    amount: BigInt(row.amount as number),
    currency: String(row.currency ?? ""),
    date: String(row.date),
    donorAccountId: String(row.donor_account_id),
    paymentMethod: (row.payment_method as string | null) ?? null,
    tenderedAmount: row.tendered_amount === null || row.tendered_amount === undefined ? null : BigInt(row.tendered_amount as number),
    tenderedCurrency: (row.tendered_currency as string | null) ?? null,
  };
}
