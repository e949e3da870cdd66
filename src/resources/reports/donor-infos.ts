/**
 * The partners of a report's gifts as the original's donation reports describe them (`donor_infos`): their pledge as
 * stored, their status, whether they are late, and the numbers of their donor accounts.
 */
import { sql } from "drizzle-orm";
import { contactDonorAccounts, contacts, donorAccounts } from "../../../drizzle/schema";
import { formatMoney } from "../../decimal";
import { q } from "../../db/sql";
import { compareKeys } from "../../db/sqlite-order";
import { addDays } from "../../jsonapi/time";
import { FINANCIAL_PARTNER } from "../account-lists/totals";
import type { Gift } from "./money";
import type { ReportRequest } from "./report";

export interface DonorInfo {
  contact_id: string;
  contact_name: string;
  late_by_30_days: boolean;
  late_by_60_days: boolean;
  pledge_amount: string | null;
  pledge_currency: string | null;
  pledge_frequency: string | null;
  status: string | null;
  account_numbers: string[];
}

/**
 * The partners of these gifts (each once, by name) and the partner of each gift's donor account: the list's contact
 * a donor account's gifts are is the first (by creation) of the list's contacts linked to it. One statement reads
 * each linked contact of the list once, with the partners' account numbers; the first of each donor account is
 * chosen here (a sort in SQLite is billed as rows read again).
 */
export async function giftPartners(
  { list, today, read }: ReportRequest,
  gifts: Gift[],
  { accountNumbers = true }: { accountNumbers?: boolean } = {},
): Promise<{ donors: DonorInfo[]; partnerOf: (gift: Gift) => DonorInfo | undefined }> {
  if (gifts.length === 0) return { donors: [], partnerOf: () => undefined };
  const donorAccountIds = JSON.stringify([...new Set(gifts.map((gift) => gift.donorAccountId))]);
  // A partner's account numbers are rows of their own (each link and its donor account): read only for a report that shows them.
  const numbers = accountNumbers
    ? sql`(SELECT json_group_array(${q(donorAccounts.accountNumber)}) FROM ${contactDonorAccounts} JOIN ${donorAccounts} ON ${q(donorAccounts.id)} = ${q(contactDonorAccounts.donorAccountId)}
          WHERE ${q(contactDonorAccounts.contactId)} = c.id)`
    : sql`'[]'`;
  const [rows] = await read([
    sql`SELECT d.value AS donor_account_id, c.id, c.created_at, c.name, c.status, c.late_at, CAST(c.pledge_amount AS TEXT) AS pledge_amount, c.pledge_currency, c.pledge_frequency,
        ${numbers} AS account_numbers
      FROM json_each(${donorAccountIds}) AS d CROSS JOIN ${contactDonorAccounts} AS cda ON cda.donor_account_id = d.value CROSS JOIN ${contacts} AS c ON c.id = cda.contact_id
      WHERE c.account_list_id = ${list.id}`,
  ]);
  const first = new Map<string, Record<string, unknown>>();
  const earlier = (a: Record<string, unknown>, b: Record<string, unknown>) => compareKeys([a.created_at, a.id], [b.created_at, b.id]) < 0;
  for (const row of rows) {
    const donorAccount = String(row.donor_account_id);
    const known = first.get(donorAccount);
    if (!known || earlier(row, known)) first.set(donorAccount, row);
  }
  const byId = new Map<string, DonorInfo>();
  const contactOf = new Map<string, string>();
  for (const [donorAccount, row] of first) {
    const id = String(row.id);
    contactOf.set(donorAccount, id);
    if (!byId.has(id)) byId.set(id, donorInfoOf(row, today));
  }
  // By name, then id, as SQLite orders them.
  const donors = [...byId.values()].sort((a, b) => compareKeys([a.contact_name, a.contact_id], [b.contact_name, b.contact_id]));
  return { donors, partnerOf: (gift) => byId.get(contactOf.get(gift.donorAccountId) ?? "") };
}

/** A financial partner with a frequency whose gift has been due longer than `days` (the original's `late_by?`). */
function lateBy(row: Record<string, unknown>, today: string, fromDays: number, toDays?: number): boolean {
  const lateAt = row.late_at ? String(row.late_at).slice(0, 10) : null;
  if (row.status !== FINANCIAL_PARTNER || !row.pledge_frequency || !lateAt) return false;
  return lateAt < addDays(today, -fromDays) && (toDays === undefined || lateAt >= addDays(today, -toDays));
}

export function donorInfoOf(row: Record<string, unknown>, today: string): DonorInfo {
  return {
    contact_id: String(row.id),
    contact_name: String(row.name),
    late_by_30_days: lateBy(row, today, 30, 60),
    late_by_60_days: lateBy(row, today, 60),
    pledge_amount: row.pledge_amount === null ? null : formatMoney(BigInt(String(row.pledge_amount))),
    pledge_currency: (row.pledge_currency as string | null) ?? null,
    pledge_frequency: (row.pledge_frequency as string | null) ?? null,
    status: (row.status as string | null) ?? null,
    account_numbers: JSON.parse(String(row.account_numbers ?? "[]")) as string[],
  };
}
