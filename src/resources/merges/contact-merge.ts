/**
 * What merging one contact into another writes, as the original's contact merge does it: the loser's records move
 * to the winner (people, donor accounts and so their gifts, task links, addresses, appeals, pledges, notifications,
 * referrals, tags), the winner's blank fields are filled from the loser's, then the loser is deleted (its
 * remaining links with it) and its deletion recorded for offline clients. Every step is one set-based statement
 * over the rows it moves, whatever their number: a merge costs no read per task or gift, and all of a request's
 * merges on one database run in one atomic batch, each pair's statements guarded by its own judgement in that batch. The pairs of duplicates naming the loser go with it (their
 * triggers, drizzle/duplicates.ts), and kept counts and sums follow the rows through theirs.
 */
import { sql, type SQL } from "drizzle-orm";
import { contacts } from "../../../drizzle/schema";
import { recordDeletionsWhere, deletionRecordOf } from "../../engine/deletions";
import { contactResource } from "../contacts/resource";

export interface MergeStamp {
  now: string;
  userId: string;
}

/** Columns copied from the loser where the winner's is blank (NULL or only spaces), in the original's list. */
const FILLED = [
  "name",
  "pledge_amount",
  "pledge_currency",
  "greeting",
  "envelope_greeting",
  "website",
  "pledge_frequency",
  "pledge_start_date",
  "next_ask",
  "likely_to_give",
  "church_name",
  "timezone",
  "locale",
  "preferred_contact_method",
  "relationship_code",
  "source",
  "avatar",
];

/** Flags the original copies when the winner's is false (Ruby takes false as blank): either's true is kept. */
const FLAGS = ["no_appeals", "direct_deposit", "magazine", "pledge_received"];

/** Whether a winner address and a loser address are one place (the original's `equal_to?`). */
function samePlace(winner: string, loser: string): string {
  return ["street", "city", "state", "country", "postal_code"]
    .map((column) => `lower(trim(COALESCE(${winner}.${column}, ''))) = lower(trim(COALESCE(${loser}.${column}, '')))`)
    .join(" AND ");
}

/** `send_newsletter`: Both when either is Both or one is Email and the other Physical, else whichever is set. */
const NEWSLETTER = `CASE
    WHEN contacts.send_newsletter = 'Both' OR l.send_newsletter = 'Both' THEN 'Both'
    WHEN (contacts.send_newsletter = 'Email' AND l.send_newsletter = 'Physical') OR (contacts.send_newsletter = 'Physical' AND l.send_newsletter = 'Email') THEN 'Both'
    ELSE COALESCE(NULLIF(trim(contacts.send_newsletter), ''), l.send_newsletter) END`;

/** The winner's own fields, filled and combined from the loser's. */
function fillWinner(winner: string, loser: string, stamp: MergeStamp, guard: SQL): SQL {
  const filled = FILLED.map((column) => `${column} = COALESCE(NULLIF(trim(contacts.${column}), ''), l.${column})`);
  const flags = FLAGS.map((column) => `${column} = max(contacts.${column}, l.${column})`);
  return sql`UPDATE contacts SET ${sql.raw(
    [
      ...filled,
      ...flags,
      `send_newsletter = ${NEWSLETTER}`,
      "status = CASE WHEN l.status = 'Partner - Financial' THEN l.status ELSE COALESCE(NULLIF(trim(contacts.status), ''), l.status) END",
      "notes = NULLIF(trim(COALESCE(contacts.notes, '') || char(10) || COALESCE(l.notes, '')), '')",
      "starred_at = COALESCE(contacts.starred_at, l.starred_at)",
    ].join(",\n      "),
  )}, updated_at = ${stamp.now}
    FROM (SELECT * FROM contacts WHERE id = ${loser}) AS l WHERE contacts.id = ${winner} AND ${guard}`;
}

/**
 * A merged pledge's status, recomputed: processed when its gifts (their part counted towards the appeal) now cover
 * its amount, else the further of the two pledges' statuses (a status is never taken back by a merge).
 */
function mergedPledgeStatus(winner: string, loser: string, stamp: MergeStamp, guard: SQL): SQL {
  const gifts = `(SELECT sum(COALESCE(d.appeal_amount, d.amount)) FROM pledge_donations x JOIN donations d ON d.id = x.donation_id WHERE x.pledge_id = pledges.id)`;
  return sql`UPDATE pledges SET status = CASE
        WHEN ${sql.raw(gifts)} >= pledges.amount OR 'processed' IN (pledges.status, l.status) THEN 'processed'
        WHEN 'received_not_processed' IN (pledges.status, l.status) THEN 'received_not_processed'
        ELSE 'not_received' END, updated_at = ${stamp.now}
      FROM (SELECT appeal_id, status FROM pledges WHERE contact_id = ${loser} AND appeal_id IS NOT NULL) AS l
      WHERE pledges.contact_id = ${winner} AND pledges.appeal_id = l.appeal_id AND ${guard}`;
}

/**
 * The winner's donor accounts of one number (of different organizations, or both moved from the loser) are made
 * one, as the original's `merge_donor_accounts` does, within the winner's list: its gifts and its contacts' links
 * to the others move to the oldest, and the others' links are removed. The donor accounts themselves are kept:
 * they are shared with other lists, whose gifts and links stay as they are.
 */
function sameNumberDonorAccounts(winner: string, stamp: MergeStamp, guard: SQL): SQL[] {
  // Each of the winner's donor accounts (`other`) with the oldest of its number (`kept`) beside it.
  const merged = sql`(SELECT x.donor_account_id AS other, (SELECT k.id FROM contact_donor_accounts y JOIN donor_accounts k ON k.id = y.donor_account_id
        WHERE y.contact_id = ${winner} AND k.account_number = d.account_number ORDER BY k.created_at, k.id LIMIT 1) AS kept
      FROM contact_donor_accounts x JOIN donor_accounts d ON d.id = x.donor_account_id WHERE x.contact_id = ${winner})`;
  const list = sql`(SELECT account_list_id FROM contacts WHERE id = ${winner})`;
  const others = sql`SELECT other FROM ${merged} WHERE other <> kept`;
  const listContact = sql`contact_id IN (SELECT c.id FROM contacts c WHERE c.id = contact_id AND c.account_list_id = ${list})`;
  return [
    sql`UPDATE donations SET donor_account_id = m.kept, updated_at = ${stamp.now} FROM ${merged} AS m
      WHERE m.other <> m.kept AND donations.donor_account_id = m.other AND donations.account_list_id = ${list} AND ${guard}`,
    sql`UPDATE OR IGNORE contact_donor_accounts SET donor_account_id = m.kept, updated_at = ${stamp.now} FROM ${merged} AS m
      WHERE m.other <> m.kept AND contact_donor_accounts.donor_account_id = m.other AND contact_donor_accounts.${listContact} AND ${guard}`,
    sql`DELETE FROM contact_donor_accounts WHERE donor_account_id IN (${others}) AND ${listContact} AND ${guard}`,
  ];
}

/**
 * The statements that merge `loser` into `winner` (two contacts of one list), in the order they must run; each
 * changes nothing unless `guard` (a condition of the batch's, the same for all of them) holds.
 */
export function contactMergeStatements(winner: string, loser: string, stamp: MergeStamp, guard: SQL): SQL[] {
  const deletion = deletionRecordOf(contactResource);
  return [
    // The winner's fields first, while the loser's are there to read.
    fillWinner(winner, loser, stamp, guard),
    sql`UPDATE people SET contact_id = ${winner}, updated_at = ${stamp.now} WHERE contact_id = ${loser} AND ${guard}`,
    // A donor account (and so its gifts) moves unless the winner already has one with the same number.
    sql`UPDATE OR IGNORE contact_donor_accounts SET contact_id = ${winner}, updated_at = ${stamp.now}
      WHERE contact_id = ${loser} AND (SELECT account_number FROM donor_accounts WHERE id = contact_donor_accounts.donor_account_id) NOT IN
        (SELECT d.account_number FROM contact_donor_accounts x JOIN donor_accounts d ON d.id = x.donor_account_id WHERE x.contact_id = ${winner}) AND ${guard}`,
    // A task moves unless the winner already has one with the same subject (the set of its subjects is built once).
    ...sameNumberDonorAccounts(winner, stamp, guard),
    sql`UPDATE OR IGNORE activity_contacts SET contact_id = ${winner}, updated_at = ${stamp.now}
      WHERE contact_id = ${loser} AND (SELECT COALESCE(subject, '') FROM tasks WHERE id = activity_contacts.task_id) NOT IN
        (SELECT COALESCE(t.subject, '') FROM activity_contacts x JOIN tasks t ON t.id = x.task_id WHERE x.contact_id = ${winner}) AND ${guard}`,
    // An address moves, not as the primary one, unless the winner has it already; then the winner's copy keeps
    // what the loser's adds (primary, a location, a source).
    sql`UPDATE addresses SET primary_mailing_address = max(addresses.primary_mailing_address, l.primary_mailing_address),
        location = COALESCE(NULLIF(addresses.location, ''), l.location), source = COALESCE(NULLIF(addresses.source, ''), l.source), updated_at = ${stamp.now}
      FROM (SELECT * FROM addresses WHERE contact_id = ${loser}) AS l
      WHERE addresses.contact_id = ${winner} AND ${sql.raw(samePlace("addresses", "l"))} AND ${guard}`,
    sql`UPDATE addresses SET contact_id = ${winner}, primary_mailing_address = 0, updated_at = ${stamp.now}
      WHERE contact_id = ${loser} AND NOT EXISTS (SELECT 1 FROM addresses w WHERE w.contact_id = ${winner} AND ${sql.raw(samePlace("w", "addresses"))}) AND ${guard}`,
    sql`UPDATE OR IGNORE appeal_contacts SET contact_id = ${winner}, updated_at = ${stamp.now} WHERE contact_id = ${loser} AND ${guard}`,
    sql`UPDATE OR IGNORE appeal_excluded_contacts SET contact_id = ${winner}, updated_at = ${stamp.now} WHERE contact_id = ${loser} AND ${guard}`,
    // A pledge to an appeal the winner also pledged to is merged into the winner's: its gifts move, and the larger
    // amount (with its currency and date) is kept. Other pledges move.
    sql`UPDATE OR IGNORE pledge_donations SET pledge_id = (SELECT w.id FROM pledges w JOIN pledges l ON l.appeal_id = w.appeal_id WHERE l.id = pledge_donations.pledge_id AND w.contact_id = ${winner})
      WHERE pledge_id IN (SELECT l.id FROM pledges l JOIN pledges w ON w.appeal_id = l.appeal_id AND w.contact_id = ${winner} WHERE l.contact_id = ${loser}) AND ${guard}`,
    sql`UPDATE pledges SET amount = l.amount, amount_currency = l.amount_currency, expected_date = l.expected_date, updated_at = ${stamp.now}
      FROM (SELECT * FROM pledges WHERE contact_id = ${loser} AND appeal_id IS NOT NULL) AS l
      WHERE pledges.contact_id = ${winner} AND pledges.appeal_id = l.appeal_id AND l.amount > pledges.amount AND ${guard}`,
    mergedPledgeStatus(winner, loser, stamp, guard),
    sql`UPDATE OR IGNORE pledges SET contact_id = ${winner}, updated_at = ${stamp.now} WHERE contact_id = ${loser} AND ${guard}`,
    sql`UPDATE notifications SET contact_id = ${winner}, updated_at = ${stamp.now} WHERE contact_id = ${loser} AND ${guard}`,
    // Referrals to the loser move unless the winner has one from the same referrer; referrals by it all move.
    sql`UPDATE OR IGNORE contact_referrals SET referred_to_id = ${winner}, updated_at = ${stamp.now} WHERE referred_to_id = ${loser} AND referred_by_id <> ${winner} AND ${guard}`,
    sql`UPDATE OR IGNORE contact_referrals SET referred_by_id = ${winner}, updated_at = ${stamp.now} WHERE referred_by_id = ${loser} AND referred_to_id <> ${winner} AND ${guard}`,
    sql`INSERT OR IGNORE INTO contact_tags (contact_id, name) SELECT ${winner}, name FROM contact_tags WHERE contact_id = ${loser} AND ${guard}`,
    recordDeletionsWhere(deletion, sql`${sql.identifier(contacts.id.name)} = ${loser} AND ${guard}`, stamp.now, stamp.userId),
    sql`DELETE FROM contacts WHERE id = ${loser} AND ${guard}`,
  ];
}
