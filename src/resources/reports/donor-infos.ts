/**
 * The partners of a report's gifts as the original's donation reports describe them (`donor_infos`): their pledge as
 * stored, their status, whether they are late, and the numbers of their donor accounts.
 */
import { sql } from "drizzle-orm";
import { contactDonorAccounts, contacts, donorAccounts } from "../../../drizzle/schema";
import { formatMoney } from "../../decimal";
import { q } from "../../db/sql";
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
 * The list's contact a donor account's gifts are: the first (by creation) linked to it. Asked once a donor account,
 * not once a gift.
 */
const firstContact = (listId: string) =>
  sql`(SELECT c.id FROM ${contactDonorAccounts} AS cda JOIN ${contacts} AS c ON c.id = cda.contact_id
    WHERE cda.donor_account_id = d.value AND c.account_list_id = ${listId} ORDER BY c.created_at, c.id LIMIT 1)`;

/** The partners of these gifts (each once, by name) and the partner of each gift's donor account. */
export async function giftPartners({ list, today, read }: ReportRequest, gifts: Gift[]): Promise<{ donors: DonorInfo[]; partnerOf: (gift: Gift) => DonorInfo | undefined }> {
  const donorAccountIds = JSON.stringify([...new Set(gifts.map((gift) => gift.donorAccountId))]);
  if (gifts.length === 0) return { donors: [], partnerOf: () => undefined };
  const [mapping, rows] = await read([
    sql`SELECT d.value AS donor_account_id, ${firstContact(list.id)} AS contact_id FROM json_each(${donorAccountIds}) AS d`,
    sql`SELECT ${q(contacts.id)} AS id, ${q(contacts.name)} AS name, ${q(contacts.status)} AS status, ${q(contacts.lateAt)} AS late_at,
      CAST(${q(contacts.pledgeAmount)} AS TEXT) AS pledge_amount, ${q(contacts.pledgeCurrency)} AS pledge_currency, ${q(contacts.pledgeFrequency)} AS pledge_frequency,
      (SELECT json_group_array(${q(donorAccounts.accountNumber)}) FROM ${contactDonorAccounts} JOIN ${donorAccounts} ON ${q(donorAccounts.id)} = ${q(contactDonorAccounts.donorAccountId)}
        WHERE ${q(contactDonorAccounts.contactId)} = ${q(contacts.id)}) AS account_numbers
      FROM ${contacts} WHERE ${q(contacts.id)} IN (SELECT ${firstContact(list.id)} FROM json_each(${donorAccountIds}) AS d) AND ${q(contacts.accountListId)} = ${list.id}
      ORDER BY ${q(contacts.name)}, ${q(contacts.id)}`,
  ]);
  const donors = rows.map((row) => donorInfoOf(row, today));
  const byId = new Map(donors.map((donor) => [donor.contact_id, donor]));
  const contactOf = new Map(mapping.map((row) => [String(row.donor_account_id), String(row.contact_id)]));
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
