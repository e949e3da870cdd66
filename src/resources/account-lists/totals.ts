/**
 * The money an account list answers about itself: monthly pledges of its financial partners and balances of its
 * designation accounts, both converted into the list's currency. The exact integer sums are kept by currency as
 * rows are written (drizzle/kept-sums.ts), so a list reads a few kept rows, not its partners; the conversion is
 * finished here with exact ratios and rounded once, to cents.
 */
import { sql, type SQL } from "drizzle-orm";
import { accountLists, keptSums } from "../../../drizzle/schema";
import {
  addRatios,
  exchangeRatio,
  formatMoney,
  multiplyRatios,
  ratioFromDecimalString,
  rateFor,
  ratioToCents,
  roundRatio,
  type Ratio,
} from "../../decimal";
import { q } from "../../db/sql";

export const FINANCIAL_PARTNER = "Partner - Financial";

const ZERO: Ratio = { numerator: 0n, denominator: 1n };

/**
 * A kept total's groups (drizzle/kept-sums.ts) as JSON rows, the blank currency read as the list's: `columns` is
 * what each row holds, over `k` (the kept row) and the list.
 */
const keptGroups = (kind: string, columns: SQL) =>
  sql`(SELECT json_group_array(json_array(${columns})) FROM ${keptSums} AS k WHERE k.kind = ${kind} AND k.owner_id = ${q(accountLists.id)})`;

const keptCurrency = sql`CASE k.key1 WHEN '' THEN upper(${q(accountLists.currency)}) ELSE k.key1 END`;

/** Pledge sums of the list's financial partners as JSON rows [currency, frequency, received (0/1), units]. */
const pledgeGroups = () => keptGroups("list_pledges", sql`${keptCurrency}, NULLIF(k.key2, ''), CAST(k.key3 AS INTEGER), CAST(k.units AS TEXT)`);

/**
 * Balance sums of the list's active designation accounts as JSON rows [currency, salary (0/1), units]. An account
 * counts towards `salary_balance` when its organization is the list's salary organization; a list without a
 * salary organization has a salary balance of 0.
 */
const balanceGroups = () =>
  keptGroups("list_balances", sql`${keptCurrency}, COALESCE(k.key2 <> '' AND k.key2 = ${q(accountLists.salaryOrganizationId)}, 0), CAST(k.units AS TEXT)`);

/** Both group sets in one value, which every total of the list reads. */
export const allGroups = () => sql`json_object('pledges', json(${pledgeGroups()}), 'balances', json(${balanceGroups()}))`;

type PledgeGroup = [string, string | null, number, string];
type BalanceGroup = [string, number, string];

export interface ListTotals {
  pledges: PledgeGroup[];
  balances: BalanceGroup[];
}

/** The groups `allGroups` selected. */
export function parseTotals(value: unknown): ListTotals {
  const parsed = (typeof value === "string" ? JSON.parse(value) : value ?? {}) as { pledges?: unknown; balances?: unknown };
  return { pledges: parseGroups<PledgeGroup>(parsed.pledges), balances: parseGroups<BalanceGroup>(parsed.balances) };
}

function parseGroups<T>(value: unknown): T[] {
  if (typeof value === "string") return JSON.parse(value) as T[];
  return Array.isArray(value) ? (value as T[]) : [];
}

/**
 * A pledge frequency key is the number of months between gifts ("0.23076923076923" is weekly). A missing or
 * unusable one counts as monthly.
 */
function frequencyRatio(frequency: string | null): Ratio {
  if (!frequency || !/^\d+(\.\d+)?$/.test(frequency.trim())) return { numerator: 1n, denominator: 1n };
  const ratio = ratioFromDecimalString(frequency);
  return ratio.numerator > 0n ? ratio : { numerator: 1n, denominator: 1n };
}

function converted(units: string, currency: string, listCurrency: string, rates: Map<string, Ratio>): Ratio {
  const amount: Ratio = { numerator: BigInt(units), denominator: 1n };
  return multiplyRatios(amount, exchangeRatio(rateFor(rates, currency), rateFor(rates, listCurrency)));
}

/** The monthly pledge total in the list's currency, in scaled units rounded to cents. */
export function monthlyPledges(groups: PledgeGroup[], listCurrency: string, rates: Map<string, Ratio>, receivedOnly: boolean): bigint {
  let total = ZERO;
  for (const [currency, frequency, received, units] of groups) {
    if (receivedOnly && !received) continue;
    const perMonth = frequencyRatio(frequency);
    const monthly = multiplyRatios(converted(units, currency, listCurrency, rates), { numerator: perMonth.denominator, denominator: perMonth.numerator });
    total = addRatios(total, monthly);
  }
  return ratioToCents(total);
}

/** The balance total of active designation accounts in the list's currency, in scaled units rounded to cents. */
export function balanceTotal(groups: BalanceGroup[], listCurrency: string, rates: Map<string, Ratio>, salaryOnly: boolean): bigint {
  let total = ZERO;
  for (const [currency, salary, units] of groups) {
    if (salaryOnly && !salary) continue;
    total = addRatios(total, converted(units, currency, listCurrency, rates));
  }
  return ratioToCents(total);
}

/** round(part * 100 / goal, 1) as a number; null without a (non-zero) goal. */
export function percentOf(part: bigint, goal: bigint | null): number | null {
  if (goal === null || goal === 0n) return null;
  return Number(roundRatio(part * 1000n, goal)) / 10;
}

export function progress({ pledges, balances }: ListTotals, listCurrency: string, monthlyGoal: bigint | null, rates: Map<string, Ratio>) {
  const committed = monthlyPledges(pledges, listCurrency, rates, false);
  const received = monthlyPledges(pledges, listCurrency, rates, true);
  return {
    monthly_goal: formatMoney(monthlyGoal),
    in_hand_percent: percentOf(received, monthlyGoal),
    pledged_percent: percentOf(committed, monthlyGoal),
    received_pledges: formatMoney(received),
    salary_balance: formatMoney(balanceTotal(balances, listCurrency, rates, true)),
    balance: formatMoney(balanceTotal(balances, listCurrency, rates, false)),
    total_pledges: formatMoney(committed),
  };
}

