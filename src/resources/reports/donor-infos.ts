/**
 * The partners of a report's gifts as the original's donation reports describe them (`donor_infos`): their pledge as
 * stored, their status, whether they are late, and the numbers of their donor accounts.
 */
import { sql, type SQL } from "drizzle-orm";
import { contactDonorAccounts, contacts, donorAccounts } from "../../../drizzle/schema";
import { formatMoney } from "../../db/decimal";
import { inList, q } from "../../db/sql";
import { addDays } from "../../jsonapi/time";
import { FINANCIAL_PARTNER } from "../account-lists/totals";
import type { Gift } from "./money";

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

/** The contacts of these gifts (each once), in the list. */
export function donorInfoRead(listId: string, gifts: Gift[]): SQL {
  const ids = [...new Set(gifts.flatMap((gift) => (gift.contactId ? [gift.contactId] : [])))];
  return sql`SELECT ${q(contacts.id)} AS id, ${q(contacts.name)} AS name, ${q(contacts.status)} AS status, ${q(contacts.lateAt)} AS late_at,
    CAST(${q(contacts.pledgeAmount)} AS TEXT) AS pledge_amount, ${q(contacts.pledgeCurrency)} AS pledge_currency, ${q(contacts.pledgeFrequency)} AS pledge_frequency,
    (SELECT json_group_array(${q(donorAccounts.accountNumber)}) FROM ${contactDonorAccounts} JOIN ${donorAccounts} ON ${q(donorAccounts.id)} = ${q(contactDonorAccounts.donorAccountId)}
      WHERE ${q(contactDonorAccounts.contactId)} = ${q(contacts.id)}) AS account_numbers
    FROM ${contacts} WHERE ${inList(contacts.id, ids)} AND ${q(contacts.accountListId)} = ${listId}
    ORDER BY ${q(contacts.name)}, ${q(contacts.id)}`;
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
