/**
 * A contact's pledge at a moment: its row now, or the partner status log that holds it as it was before a later
 * change (`partner_status_logs`: a row per change, the values before it). Shared by the reports that count pledges
 * over past periods.
 */
import { sql, type SQL } from "drizzle-orm";
import { contacts, keptSums, partnerStatusLogs } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import type { Ratio } from "../../decimal";
import { FINANCIAL_PARTNER } from "../account-lists/totals";
import { converted, ZERO } from "./money";

export interface PledgeState {
  status: string | null;
  amount: bigint | null;
  frequency: string | null;
  currency: string | null;
  received: boolean;
}

export const stateOf = (row: Record<string, unknown>): PledgeState => ({
  status: (row.status as string | null) ?? null,
  amount: row.pledge_amount === null || row.pledge_amount === undefined ? null : BigInt(String(row.pledge_amount)),
  frequency: (row.pledge_frequency as string | null) ?? null,
  currency: (row.pledge_currency as string | null) ?? null,
  received: Boolean(row.pledge_received),
});

const STATE_COLUMNS = (table: typeof contacts | typeof partnerStatusLogs) =>
  sql`${q(table.status)} AS status, CAST(${q(table.pledgeAmount)} AS TEXT) AS pledge_amount, ${q(table.pledgeFrequency)} AS pledge_frequency,
    ${q(table.pledgeCurrency)} AS pledge_currency, ${q(table.pledgeReceived)} AS pledge_received`;

/** The list's contacts `where` selects, with their pledge now and when they were created. */
export const contactStates = (listId: string, where: SQL) =>
  sql`SELECT ${q(contacts.id)} AS id, ${q(contacts.createdAt)} AS created_at, ${STATE_COLUMNS(contacts)} FROM ${contacts}
    WHERE ${q(contacts.accountListId)} = ${listId} AND ${where}`;

/** The list's contacts with a status log recorded on or after `fromDay`: a range of kept rows (`status_logs_by_day`). */
export const loggedContacts = (listId: string, fromDay: string) =>
  sql`SELECT DISTINCT ${q(keptSums.key2)} FROM ${keptSums} WHERE ${q(keptSums.kind)} = 'status_logs_by_day' AND ${q(keptSums.ownerId)} = ${listId} AND ${q(keptSums.key1)} >= ${fromDay}`;

/** The logs of the list's contacts recorded on or after `fromDay`, oldest first. */
export const logsSince = (listId: string, fromDay: string) =>
  sql`SELECT ${q(partnerStatusLogs.contactId)} AS contact_id, ${q(partnerStatusLogs.recordedOn)} AS recorded_on, ${STATE_COLUMNS(partnerStatusLogs)}
    FROM ${partnerStatusLogs} WHERE ${q(partnerStatusLogs.contactId)} IN (${loggedContacts(listId, fromDay)})
    AND ${q(partnerStatusLogs.recordedOn)} >= ${fromDay} ORDER BY ${q(partnerStatusLogs.recordedOn)}, ${q(partnerStatusLogs.id)}`;

export type Logs = Map<string, Array<{ day: string; state: PledgeState }>>;

export function logsByContact(rows: Array<Record<string, unknown>>): Logs {
  const logs: Logs = new Map();
  for (const row of rows) {
    const list = logs.get(String(row.contact_id)) ?? [];
    list.push({ day: String(row.recorded_on).slice(0, 10), state: stateOf(row) });
    logs.set(String(row.contact_id), list);
  }
  return logs;
}

/** The first log after `day` (`strictly`) or on or after it: the state as it was at that day's end, or its start. */
export function loggedAfter(logs: Logs, contactId: string, day: string, strictly: boolean): PledgeState | undefined {
  return logs.get(contactId)?.find((log) => (strictly ? log.day > day : log.day >= day))?.state;
}

/** The monthly pledge of a state (`amount / frequency`, a missing frequency monthly), in `to`. */
export function monthlyPledge(state: PledgeState, to: string, listCurrency: string, rates: Map<string, Ratio>, financialOnly: boolean): Ratio {
  if (!state.amount || state.amount <= 0n || (financialOnly && state.status !== FINANCIAL_PARTNER)) return ZERO;
  const frequency = Number(state.frequency) > 0 ? Number(state.frequency) : 1;
  const perMonth = converted(state.amount, state.currency || listCurrency, to, rates);
  // Frequencies are keys with up to 14 places: scaled to an exact ratio.
  return { numerator: perMonth.numerator * 10n ** 14n, denominator: perMonth.denominator * BigInt(Math.round(frequency * 1e14)) };
}
