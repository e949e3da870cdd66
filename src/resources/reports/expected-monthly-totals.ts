/**
 * GET /reports/expected_monthly_totals: this month's gifts received so far, and for each financial partner who has
 * not given all of their pledge this month whether more is likely, judged by their giving history as the original
 * judged it. Each partner's history is the one row of the partner: their gifts by month are kept on it
 * (`contacts.gift_months`, drizzle/run-marks.ts), so the report reads this month's gifts and the partners, not their
 * gifts.
 */
import { sql } from "drizzle-orm";
import { contactDonorAccounts, contacts, donations } from "../../../drizzle/schema";
import { PLEDGE_FREQUENCIES } from "../../constants/contacts";
import { q } from "../../db/sql";
import { compareKeys } from "../../db/sqlite-order";
import { addMonths } from "../../jsonapi/time";
import { FINANCIAL_PARTNER } from "../account-lists/totals";
import { donorInfoOf, giftPartners, type DonorInfo } from "./donor-infos";
import { accountFilters, converted, giftOf, giftsSince, idFilter, moneyNumber, symbolOf } from "./money";
import { endOfMonth, monthOf } from "./periods";
import { defineReport, type ReportRequest } from "./report";

/** The list's financial partners with a pledge (those who gave through the filtered accounts, when filtered), with their gifts by month. */
function partnersRead({ list, filters }: ReportRequest) {
  const narrowed = idFilter(filters, "designation_account_id") || idFilter(filters, "donor_account_id");
  const gaveThere = narrowed
    ? sql`AND EXISTS (SELECT 1 FROM ${contactDonorAccounts} AS n JOIN ${donations} ON ${q(donations.donorAccountId)} = n.donor_account_id
        WHERE n.contact_id = c.id AND ${q(donations.accountListId)} = ${list.id}${accountFilters(filters)})`
    : sql``;
  return sql`SELECT c.id, c.name, c.status, c.late_at, CAST(c.pledge_amount AS TEXT) AS pledge_amount, c.pledge_currency, c.pledge_frequency,
      c.pledge_received, c.last_gift_on, c.gift_months, '[]' AS account_numbers
      FROM ${contacts} AS c WHERE c.account_list_id = ${list.id} AND c.status = ${FINANCIAL_PARTNER} AND c.pledge_amount > 0 ${gaveThere}`;
}

/** A partner's kept gifts by month; the first month they gave is the least of its keys. */
function giftMonthsOf(text: unknown): { given: Map<string, bigint>; firstMonth: string | null } {
  const given = new Map<string, bigint>();
  for (const [month, units] of Object.entries(JSON.parse(typeof text === "string" && text !== "" ? text : "{}") as Record<string, number | string>)) {
    given.set(month, BigInt(units));
  }
  const months = [...given.keys()].sort();
  return { given, firstMonth: months[0] ?? null };
}

interface Partner {
  donor: DonorInfo;
  pledge: bigint;
  frequency: number;
  received: boolean;
  firstMonth: string | null;
  lastGiftOn: string | null;
  /** Gifts by month, `YYYY-MM`, in money units. */
  given: Map<string, bigint>;
}

const monthsBack = (month: string, count: number) => monthOf(addMonths(`${month}-01`, -count));
const monthsApart = (later: string, earlier: string) => (Number(later.slice(0, 4)) - Number(earlier.slice(0, 4))) * 12 + Number(later.slice(5, 7)) - Number(earlier.slice(5, 7));

/** How much more a partner is likely to give this month (money units), by the original's rules. */
function likelyMore(partner: Partner, thisMonth: string, today: string): bigint {
  const { pledge, frequency, given } = partner;
  if (!partner.received || pledge <= 0n || !partner.firstMonth || !partner.lastGiftOn || !frequency) return 0n;
  const gave = (month: string) => given.get(month) ?? 0n;
  const now = gave(thisMonth);
  const rest = now >= pledge ? 0n : pledge - now;
  if (frequency < 1) {
    // Weekly and every two weeks: as long as the last weeks' gifts came in full, the gifts left in the month.
    const weeks = frequency < 0.3 ? 1 : 2;
    if (now + gave(monthsBack(thisMonth, 1)) < 2n * pledge) return 0n;
    const daysLeft = (Date.parse(endOfMonth(today)) - Date.parse(today)) / 86_400_000;
    return BigInt(Math.floor(daysLeft / 7 / weeks)) * pledge;
  }
  if (now >= pledge) return 0n;
  if (frequency <= 1) {
    const lastThree = [1, 2, 3].map((back) => gave(monthsBack(thisMonth, back)));
    const since = monthsApart(thisMonth, partner.firstMonth);
    const short = lastThree.filter((amount) => amount < pledge).length;
    if (now > 0n && short > 0) return 0n;
    if (since >= 3 && short > 1) return 0n;
    const averaged = lastThree.slice(0, Math.min(3, since));
    if (averaged.length > 0 && averaged.reduce((a, b) => a + b, 0n) < pledge * BigInt(averaged.length)) return 0n;
    return rest;
  }
  if (frequency <= 3) return monthOf(partner.lastGiftOn) === monthsBack(thisMonth, frequency) ? rest : 0n;
  // Every six months or longer: the pledge met in each of the last two periods.
  const period = (index: number) =>
    Array.from({ length: frequency }, (_, n) => gave(monthsBack(thisMonth, index * frequency + n + 1))).reduce((a, b) => a + b, 0n);
  return period(0) >= pledge && period(1) >= pledge ? rest : 0n;
}

export const expectedMonthlyTotals = defineReport({
  path: "expected_monthly_totals",
  type: "reports_expected_monthly_totals",
  id: "reports::expectedmonthlytotals",
  coaches: false,
  attributes: async (request) => {
    const { list, rates, filters, today, read } = request;
    const thisMonth = monthOf(today);
    const [giftRows, partnerRows] = await read([giftsSince(list.id, filters, `${thisMonth}-01`), partnersRead(request)]);
    // The rows show no account numbers.
    const { partnerOf } = await giftPartners(request, giftRows.map(giftOf), { accountNumbers: false });
    const total = list.currency;
    const row = (donor: DonorInfo, type: string, amount: bigint, currency: string) => ({
      contact_id: donor.contact_id,
      contact_name: donor.contact_name,
      contact_status: donor.status,
      converted_amount: moneyNumber(converted(amount, currency, total, rates)),
      converted_currency: total,
      converted_currency_symbol: symbolOf(total),
      donation_amount: moneyNumber(amount),
      donation_currency: currency,
      donation_currency_symbol: symbolOf(currency),
      pledge_amount: donor.pledge_amount === null ? null : Number(donor.pledge_amount),
      pledge_currency: donor.pledge_currency ?? list.currency,
      pledge_currency_symbol: symbolOf(donor.pledge_currency ?? list.currency),
      pledge_frequency: donor.pledge_frequency ? (PLEDGE_FREQUENCIES as Record<string, string>)[donor.pledge_frequency] ?? null : null,
      type,
    });
    const received = giftRows.map(giftOf).flatMap((gift) => {
      const donor = partnerOf(gift);
      if (!donor) return [];
      return [row(donor, "received", gift.tenderedAmount ?? gift.amount, (gift.tenderedCurrency || gift.currency || list.currency).toUpperCase())];
    });
    // By name, then id, as SQLite orders them (sorted here: a sort in SQLite is billed as rows read again).
    const byName = [...partnerRows].sort((a, b) => compareKeys([a.name, a.id], [b.name, b.id]));
    const possible = byName.flatMap((entry) => {
      const donor = donorInfoOf(entry, today);
      const partner: Partner = {
        donor,
        pledge: BigInt(String(entry.pledge_amount)),
        frequency: Number(entry.pledge_frequency ?? 0),
        received: Boolean(entry.pledge_received),
        lastGiftOn: (entry.last_gift_on as string | null) ?? null,
        ...giftMonthsOf(entry.gift_months),
      };
      const more = likelyMore(partner, thisMonth, today);
      const currency = (donor.pledge_currency ?? list.currency).toUpperCase();
      if (more > 0n) return [row(donor, "likely", more, currency)];
      if ((partner.given.get(thisMonth) ?? 0n) === 0n) return [row(donor, "unlikely", partner.pledge, currency)];
      return [];
    });
    return { expected_donations: [...received, ...possible], total_currency: total, total_currency_symbol: symbolOf(total) };
  },
});

