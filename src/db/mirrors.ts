/**
 * A list database holds copies of the few directory rows its statements read beside the list's own: the list's
 * row, its users and coaches with their memberships (a task's user, a notification's recipients, who may be
 * assigned), the organizations and the currency rates. The directory stays the authority for all of them but the
 * list's row, which its list database keeps (its totals and settings are written there): the directory keeps a copy
 * of that one (for invites and the user's list of lists).
 *
 * Copies are written after the directory's change, by the request that made it (`mirrorLists`), and all of them
 * again by the daily job (`mirrorEveryList`), which repairs a copy a failed request left behind. A user comes with
 * their organization accounts, their own person, its details and master person (what `include=users.email_addresses` shows from any list's
 * database), and a copy names no row its database lacks: the default list stays in the directory, and a family
 * relationship is copied only with the person it relates to.
 */
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  accountListCoaches,
  accountListUsers,
  accountLists,
  currencyRates,
  emailAddresses,
  facebookAccounts,
  familyRelationships,
  linkedinAccounts,
  listPlacements,
  masterPeople,
  organizationAccounts,
  organizations,
  people,
  phoneNumbers,
  twitterAccounts,
  users,
  websites,
} from "../../drizzle/schema";
import type { Database } from "./client";
import { database } from "./client";
import { databaseBinding, DIRECTORY } from "./databases";
import { inList, jsonList, q } from "./sql";
import { insertRows, rowsOf, runAtomically, type Rows } from "./statements";

/** Inserts the rows, or updates every column of those whose key exists. */
export function upsertRows(table: SQLiteTable, rows: Rows, key = "id"): SQL | undefined {
  const insert = insertRows(table, rows);
  if (!insert) return undefined;
  const columns = Object.values(getTableColumns(table)).map((column) => column.name).filter((name) => name !== key && name in rows[0]);
  const updates = sql.join(columns.map((name) => sql`${sql.identifier(name)} = excluded.${sql.identifier(name)}`), sql`, `);
  // `WHERE true` tells SQLite the ON CONFLICT belongs to the INSERT, not to the SELECT's join.
  return sql`${insert} WHERE true ON CONFLICT (${sql.identifier(key)}) DO ${columns.length > 0 ? sql`UPDATE SET ${updates}` : sql`NOTHING`}`;
}

/** The database each of these lists is placed on (the directory for a list without a placement). */
export async function databasesOfLists(directory: Database, listIds: string[]): Promise<Map<string, string>> {
  const placed = new Map(listIds.map((id) => [id, DIRECTORY]));
  if (listIds.length === 0) return placed;
  const [rows] = await rowsOf(directory, [
    sql`SELECT ${q(listPlacements.accountListId)} AS "list", ${q(listPlacements.database)} AS "database" FROM ${listPlacements}
      WHERE ${inList(q(listPlacements.accountListId), listIds)}`,
  ]);
  for (const row of rows) placed.set(String(row.list), String(row.database));
  return placed;
}

/** The lists among `listIds` placed off the directory, by database. */
async function placedOff(directory: Database, listIds: string[]): Promise<Map<string, string[]>> {
  const byDatabase = new Map<string, string[]>();
  for (const [list, name] of await databasesOfLists(directory, listIds)) {
    if (name !== DIRECTORY) byDatabase.set(name, [...(byDatabase.get(name) ?? []), list]);
  }
  return byDatabase;
}

/** A user as a list database keeps them: without their default list, which only the directory holds. */
function userCopy(row: Record<string, unknown>): Record<string, unknown> {
  return { ...row, default_account_list_id: null };
}

/** The tables of a person's own details: a user's are shown with the user wherever the user is shown. */
const PERSON_DETAILS = [emailAddresses, phoneNumbers, facebookAccounts, linkedinAccounts, twitterAccounts, websites] as const;

/**
 * The statements that make `target`'s copies of these users (chosen by `userIds`, a subquery of ids) what the
 * directory holds: the users, their organization accounts, their master people, their own people with their
 * details, and the standalone people those relate to. Details the directory no longer has are removed from the copies.
 */
async function userCopyStatements(directory: Database, userIds: SQL): Promise<SQL[]> {
  const personIds = sql`SELECT ${q(users.personId)} FROM ${users} WHERE ${q(users.id)} IN (${userIds}) AND ${q(users.personId)} IS NOT NULL`;
  const [userRows, accountRows, masterRows, relationRows, personRows, ...detailRows] = await rowsOf(directory, [
    sql`SELECT * FROM ${users} WHERE ${q(users.id)} IN (${userIds})`,
    sql`SELECT * FROM ${organizationAccounts} WHERE ${q(organizationAccounts.userId)} IN (${userIds})`,
    sql`SELECT * FROM ${masterPeople} WHERE ${q(masterPeople.id)} IN (SELECT ${q(users.masterPersonId)} FROM ${users} WHERE ${q(users.id)} IN (${userIds}))`,
    sql`SELECT * FROM ${familyRelationships} WHERE ${q(familyRelationships.personId)} IN (${personIds})`,
    sql`SELECT * FROM ${people} WHERE ${q(people.id)} IN (${personIds})
      OR (${q(people.contactId)} IS NULL AND ${q(people.id)} IN (SELECT ${q(familyRelationships.relatedPersonId)} FROM ${familyRelationships} WHERE ${q(familyRelationships.personId)} IN (${personIds})))`,
    ...PERSON_DETAILS.map((table) => sql`SELECT * FROM ${table} WHERE ${q(table.personId)} IN (${personIds})`),
  ]);
  const copiedPeople = new Set(personRows.map((row) => row.id));
  const relations = relationRows.filter((row) => copiedPeople.has(row.related_person_id));
  const owners = jsonList(userRows.map((row) => row.person_id).filter((id) => id !== null));
  const replace = (table: (typeof PERSON_DETAILS)[number] | typeof familyRelationships, rows: Rows) => [
    sql`DELETE FROM ${table} WHERE ${q(table.personId)} IN ${owners} AND ${q(table.id)} NOT IN ${jsonList(rows.map((row) => row.id))}`,
    upsertRows(table, rows),
  ];
  return [
    upsertRows(masterPeople, masterRows),
    upsertRows(people, personRows),
    ...PERSON_DETAILS.flatMap((table, index) => replace(table, detailRows[index])),
    ...replace(familyRelationships, relations),
    upsertRows(users, userRows.map(userCopy)),
    sql`DELETE FROM ${organizationAccounts} WHERE ${q(organizationAccounts.userId)} IN ${jsonList(userRows.map((row) => row.id))}
      AND ${q(organizationAccounts.id)} NOT IN ${jsonList(accountRows.map((row) => row.id))}`,
    upsertRows(organizationAccounts, accountRows),
  ].filter((statement): statement is SQL => statement !== undefined);
}

/** Copies of these users (by id, from the directory) on `target`: the users rows of a list point at. */
export async function copyUsers(directory: Database, target: Database, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await runAtomically(target, await userCopyStatements(directory, sql`SELECT value FROM json_each(${JSON.stringify(userIds)})`));
}

/** Copies the directory rows of these lists to the database each is placed on (nothing for lists on the directory). */
export async function mirrorLists(env: object, directory: Database, listIds: string[]): Promise<void> {
  for (const [name, lists] of await placedOff(directory, [...new Set(listIds)])) {
    await copyDirectoryRows(directory, database(databaseBinding(env, name)), lists);
  }
}

/** The lists of these users (as users or coaches): whose copies hold the users. */
export async function listsOfUsers(directory: Database, userIds: string[]): Promise<string[]> {
  const [rows] = await rowsOf(directory, [
    sql`SELECT ${q(accountListUsers.accountListId)} AS "list" FROM ${accountListUsers} WHERE ${inList(q(accountListUsers.userId), userIds)}
      UNION SELECT ${q(accountListCoaches.accountListId)} FROM ${accountListCoaches} WHERE ${inList(q(accountListCoaches.userId), userIds)}`,
  ]);
  return rows.map((row) => String(row.list));
}

/** Every list placed off the directory, copied again (the daily job). */
export async function mirrorEveryList(env: object, directory: Database): Promise<number> {
  const [rows] = await rowsOf(directory, [sql`SELECT ${q(listPlacements.accountListId)} AS "list" FROM ${listPlacements} WHERE ${q(listPlacements.database)} <> ${DIRECTORY}`]);
  const lists = rows.map((row) => String(row.list));
  for (let start = 0; start < lists.length; start += 50) await mirrorLists(env, directory, lists.slice(start, start + 50));
  return lists.length;
}

export async function copyDirectoryRows(directory: Database, target: Database, listIds: string[]): Promise<void> {
  const lists = jsonList(listIds);
  const members = sql`SELECT ${q(accountListUsers.userId)} FROM ${accountListUsers} WHERE ${q(accountListUsers.accountListId)} IN ${lists}
    UNION SELECT ${q(accountListCoaches.userId)} FROM ${accountListCoaches} WHERE ${q(accountListCoaches.accountListId)} IN ${lists}`;
  const [organizationRows, rateRows, listRows, memberRows, coachRows] = await rowsOf(directory, [
    sql`SELECT * FROM ${organizations}`,
    sql`SELECT * FROM ${currencyRates}`,
    sql`SELECT * FROM ${accountLists} WHERE ${q(accountLists.id)} IN ${lists}`,
    sql`SELECT * FROM ${accountListUsers} WHERE ${q(accountListUsers.accountListId)} IN ${lists}`,
    sql`SELECT * FROM ${accountListCoaches} WHERE ${q(accountListCoaches.accountListId)} IN ${lists}`,
  ]);
  const userCopies = await userCopyStatements(directory, members);
  // The list's row is its database's once placed: a copy goes in only where the list has none yet.
  const newLists = listRows.map((row) => ({ ...row, primary_appeal_id: null }));
  const memberships = (table: typeof accountListUsers | typeof accountListCoaches, rows: Rows) => [
    sql`DELETE FROM ${table} WHERE ${q(table.accountListId)} IN ${lists} AND ${q(table.id)} NOT IN ${jsonList(rows.map((row) => row.id))}`,
    upsertRows(table, rows),
  ];
  const statements = [
    upsertRows(organizations, organizationRows),
    upsertRows(currencyRates, rateRows, "code"),
    ...userCopies,
    insertRows(accountLists, newLists) && sql`${insertRows(accountLists, newLists)} WHERE true ON CONFLICT (id) DO NOTHING`,
    ...memberships(accountListUsers, memberRows),
    ...memberships(accountListCoaches, coachRows),
  ].filter((statement): statement is SQL => statement !== undefined);
  await runAtomically(target, statements);
}

/** After the list's row changed on its list database: the directory's copy follows (its own links left as they are). */
export async function mirrorListRow(listDb: Database, directory: Database, listId: string): Promise<void> {
  if (listDb === directory) return;
  const [[row]] = await rowsOf(listDb, [sql`SELECT * FROM ${accountLists} WHERE ${q(accountLists.id)} = ${listId}`]);
  if (!row) return;
  const { primary_appeal_id: _kept, ...copy } = row;
  const statement = upsertRows(accountLists, [copy]);
  if (statement) await runAtomically(directory, [statement]);
}
