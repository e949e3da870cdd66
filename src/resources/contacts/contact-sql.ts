/**
 * SQL fragments about one contact row (`contacts` of the enclosing statement), shared by the contact's
 * computed attributes and its filters. Every column is written through q() because these fragments run as
 * correlated subqueries, also inside other resources' statements (appeal and task filters on contacts).
 */
import { sql, type SQL } from "drizzle-orm";
import {
  activityContacts,
  contactDonorAccounts,
  contacts,
  donations,
  people,
  tasks,
} from "../../../drizzle/schema";
import { idArray, notIndexed, q } from "../../db/sql";

/** Donor accounts linked to the contact. */
export const donorAccountIdsOfContact = sql`SELECT ${q(contactDonorAccounts.donorAccountId)} FROM ${contactDonorAccounts} WHERE ${q(contactDonorAccounts.contactId)} = ${q(contacts.id)}`;

/**
 * The contact's donations: gifts of its donor accounts to its own account list. Served by
 * donations(donor_account_id, donation_date).
 */
export const isDonationOfContact = sql`${q(donations.donorAccountId)} IN (${donorAccountIdsOfContact}) AND ${notIndexed(donations.accountListId)} = ${q(contacts.accountListId)}`;

export function contactDonationsWhere(condition?: SQL): SQL {
  return condition ? sql`${isDonationOfContact} AND ${condition}` : isDonationOfContact;
}

/** `SELECT <expression> FROM donations WHERE <the contact's donations> [AND condition]`. */
export function selectFromContactDonations(expression: SQL, condition?: SQL): SQL {
  return sql`SELECT ${expression} FROM ${donations} WHERE ${contactDonationsWhere(condition)}`;
}

export function hasContactDonation(condition?: SQL): SQL {
  return sql`EXISTS (${selectFromContactDonations(sql`1`, condition)})`;
}

/** The contact's first gift date, and its latest (kept on the contact by triggers: drizzle/run-marks.ts). */
export const firstDonationDate = sql`(${selectFromContactDonations(sql`MIN(${q(donations.donationDate)})`)})`;
export const lastDonationDate = q(contacts.lastGiftOn);

const LAST_GIFTS_ORDER = sql`ORDER BY ${q(donations.donationDate)} DESC, ${q(donations.createdAt)} DESC, ${q(donations.id)} DESC`;

/**
 * The ids of the contact's latest `count` gifts, newest first. A contact with one donor account (almost every one)
 * reads them walking donations(donor_account_id, donation_date, ...) back from its end: `count` entries, however
 * many years of gifts it has; several donor accounts need every gift of theirs sorted.
 */
export function latestGiftIds(count: number): SQL {
  const donorAccounts = sql`SELECT 1 FROM ${contactDonorAccounts} WHERE ${q(contactDonorAccounts.contactId)} = ${q(contacts.id)} LIMIT 2`;
  const ofOne = sql`SELECT ${q(donations.id)} AS id FROM ${donations} WHERE ${q(donations.donorAccountId)} = (${donorAccountIdsOfContact})
    AND ${notIndexed(donations.accountListId)} = ${q(contacts.accountListId)} ${LAST_GIFTS_ORDER} LIMIT ${count}`;
  const ofSeveral = sql`${selectFromContactDonations(sql`${q(donations.id)} AS id`)} ${LAST_GIFTS_ORDER} LIMIT ${count}`;
  return sql`(CASE WHEN (SELECT count(*) FROM (${donorAccounts})) = 1 THEN ${idArray(ofOne)} ELSE ${idArray(ofSeveral)} END)`;
}

/** `SELECT <expression> FROM tasks of the contact [AND condition]` (through activity_contacts). */
export function selectFromContactTasks(expression: SQL, condition?: SQL): SQL {
  const extra = condition ? sql` AND ${condition}` : sql``;
  return sql`SELECT ${expression} FROM ${activityContacts} JOIN ${tasks} ON ${q(tasks.id)} = ${q(activityContacts.taskId)} WHERE ${q(activityContacts.contactId)} = ${q(contacts.id)}${extra}`;
}

export function hasContactTask(condition?: SQL): SQL {
  return sql`EXISTS (${selectFromContactTasks(sql`1`, condition)})`;
}

export const isOpenTask = sql`${q(tasks.completed)} = 0`;

/** `EXISTS (SELECT 1 FROM people of the contact [AND condition])`. */
export function hasContactPerson(condition?: SQL): SQL {
  const extra = condition ? sql` AND ${condition}` : sql``;
  return sql`EXISTS (SELECT 1 FROM ${people} WHERE ${q(people.contactId)} = ${q(contacts.id)}${extra})`;
}

/** People ids of the contact, to reach their e-mail addresses, phones and social accounts. */
export const personIdsOfContact = sql`SELECT ${q(people.id)} FROM ${people} WHERE ${q(people.contactId)} = ${q(contacts.id)}`;

/** Blank text: NULL or empty. */
export function isBlank(expression: SQL): SQL {
  return sql`COALESCE(${expression}, '') = ''`;
}
