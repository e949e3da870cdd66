/**
 * Erasing a user: the user, their memberships, and the account lists they alone are a user of, with everything in
 * them. Lists that other users share stay, without them. The work is done in bounded steps (a few hundred parent
 * rows a statement, a handful of statements a step), so that no step outgrows a Worker invocation; each step
 * reads where things stand from the data, so a run cut short is finished by running it again.
 *
 * Order matters for that: the user is disabled first (their tokens are refused from then on), their sole lists are
 * emptied table by table and deleted, and the user row goes last. Rows that hang off a list's rows (people, their
 * details, comments, ...) go with them through the schema's cascades.
 *
 * Memberships, identity links and the user are the directory's; each list's rows are on the database it is placed on, with the
 * copies of the user and memberships it keeps (src/db/mirrors.ts), which go with the user.
 */
import { getTableName, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { database } from "../db/client";
import { databaseBinding, DIRECTORY, listDatabaseNames } from "../db/databases";
import { databasesOfLists } from "../db/mirrors";
import { keptRowsOfListRemoved, LIST_ROOT_TABLES, LIST_TABLES, rowsOfListBound } from "../db/list-tables";
import { rowsOf, runAtomically } from "../db/statements";
import type { Database } from "../env";
import { conflict } from "../jsonapi/errors";
import { nowTimestamp } from "../jsonapi/time";

/**
 * Rows of a list's tables deleted per statement (each takes its people, details, ... with it) and per step, and
 * statements per step (under the 50 queries a Free plan invocation may make).
 */
const ROWS_PER_STATEMENT = 200;
const ROWS_PER_STEP = 1_000;
const STATEMENTS_PER_STEP = 40;

const name = (table: SQLiteTable) => sql.identifier(getTableName(table));

export interface ErasurePlan {
  user_id: string;
  /** Lists the user is a user or coach of that others share: they stay, without the user. */
  memberships: Array<{ account_list_id: string; role: "user" | "coach" }>;
  /** Lists the user alone is a user of: deleted, with their rows. */
  sole_lists: Array<{ account_list_id: string; rows: Record<string, number> }>;
  /** Referrals between a contact of those lists and a contact of another list: they go with the contact. */
  referrals_with_other_lists: number;
}

interface Membership {
  listId: string;
  role: "user" | "coach";
  sole: boolean;
  /** The database the list is placed on. */
  db: Database;
}

async function memberships(env: object, directory: Database, userId: string): Promise<Membership[]> {
  const [rows] = await rowsOf(directory, [
    sql`SELECT m.account_list_id AS list, 'user' AS role,
        (SELECT count(*) FROM account_list_users o WHERE o.account_list_id = m.account_list_id AND o.user_id <> ${userId}) AS others
      FROM account_list_users m WHERE m.user_id = ${userId}
      UNION ALL SELECT account_list_id, 'coach', 1 FROM account_list_coaches WHERE user_id = ${userId} ORDER BY 1`,
  ]);
  const placed = await databasesOfLists(directory, rows.map((row) => String(row.list)));
  return rows.map((row) => {
    const listId = String(row.list);
    const name = placed.get(listId) ?? DIRECTORY;
    return { listId, role: row.role as "user" | "coach", sole: Number(row.others) === 0, db: name === DIRECTORY ? directory : database(databaseBinding(env, name)) };
  });
}

/** The databases of these memberships' lists, each once. */
function databasesOf(lists: Membership[]): Database[] {
  return [...new Set(lists.map((list) => list.db))];
}

export async function erasurePlan(env: object, directory: Database, userId: string): Promise<ErasurePlan> {
  const lists = await memberships(env, directory, userId);
  const sole = lists.filter((list) => list.sole);
  const counts = await Promise.all(
    sole.map(async (list) => (await rowsOf(list.db, [sql`SELECT ${sql.join(LIST_TABLES.map((entry) => sql`(SELECT count(*) FROM ${name(entry.table)} WHERE ${rowsOfListBound(entry, list.listId)}) AS ${sql.identifier(entry.name)}`), sql`, `)}`]))[0]),
  );
  const soleIds = JSON.stringify(sole.map((list) => list.listId));
  let crossing = 0;
  for (const db of databasesOf(sole)) {
    const [[row]] = await rowsOf(db, [
      sql`SELECT count(*) AS n FROM contact_referrals r JOIN contacts a ON a.id = r.referred_by_id JOIN contacts b ON b.id = r.referred_to_id
        WHERE (a.account_list_id IN (SELECT value FROM json_each(${soleIds}))) <> (b.account_list_id IN (SELECT value FROM json_each(${soleIds})))`,
    ]);
    crossing += Number(row?.n ?? 0);
  }
  return {
    user_id: userId,
    referrals_with_other_lists: crossing,
    memberships: lists.filter((list) => !list.sole).map((list) => ({ account_list_id: list.listId, role: list.role })),
    sole_lists: sole.map((list, index) => ({
      account_list_id: list.listId,
      rows: Object.fromEntries(Object.entries(counts[index]?.[0] ?? {}).map(([table, rows]) => [table, Number(rows)]).filter(([, rows]) => (rows as number) > 0)),
    })),
  };
}

export interface ErasureStep {
  user_id: string;
  done: boolean;
  /** Rows deleted in this step by table (what cascades from them not counted). */
  deleted: Record<string, number>;
}

/** Uploaded files deleted per step (R2 deletes up to 1,000 keys a call). */
const FILES_PER_STEP = 500;

/**
 * The files the user uploaded, and those of the lists they alone are a user of, that are still stored: deleted from
 * R2 before the rows that name them go. Answers how many.
 */
async function eraseUploadedFiles(lists: Membership[], files: R2Bucket, userId: string): Promise<number> {
  const soleListIds = lists.filter((list) => list.sole).map((list) => list.listId);
  for (const db of databasesOf(lists)) {
    const erased = await eraseUploadedFilesOn(db, files, userId, soleListIds);
    if (erased > 0) return erased;
  }
  return 0;
}

async function eraseUploadedFilesOn(db: Database, files: R2Bucket, userId: string, soleListIds: string[]): Promise<number> {
  const [stored] = await rowsOf(db, [
    sql`SELECT id, file_key FROM imports WHERE file_key IS NOT NULL AND (user_id = ${userId} OR account_list_id IN (SELECT value FROM json_each(${JSON.stringify(soleListIds)})))
      LIMIT ${FILES_PER_STEP}`,
  ]);
  if (stored.length === 0) return 0;
  await files.delete(stored.map((row) => String(row.file_key)));
  await db.run(sql`UPDATE imports SET file_key = NULL WHERE id IN (SELECT value FROM json_each(${JSON.stringify(stored.map((row) => row.id))}))`);
  return stored.length;
}

/** One bounded step of erasing `userId`: answers what it deleted and whether everything is gone. */
export async function eraseStep(env: object, directory: Database, files: R2Bucket, userId: string): Promise<ErasureStep> {
  const deleted: Record<string, number> = {};
  const [[user]] = await rowsOf(directory, [sql`SELECT id, disabled_at FROM users WHERE id = ${userId}`]);
  if (!user) return { user_id: userId, done: true, deleted };
  const lists = await memberships(env, directory, userId);
  const soleLists = lists.filter((membership) => membership.sole);
  // A list on its way to another database has rows on both: erased once it is placed.
  const [moving] = await rowsOf(directory, [
    sql`SELECT account_list_id FROM list_placements WHERE state <> 'placed' AND account_list_id IN (SELECT value FROM json_each(${JSON.stringify(soleLists.map((list) => list.listId))}))`,
  ]);
  if (moving.length > 0) throw conflict(`The account list ${String(moving[0].account_list_id)} is moving to another database: erase the user once it is placed (npm run lists:placement)`);
  if (!user.disabled_at) await directory.run(sql`UPDATE users SET disabled_at = ${nowTimestamp()} WHERE id = ${userId}`);
  const filesDeleted = await eraseUploadedFiles(lists, files, userId);
  if (filesDeleted > 0) return { user_id: userId, done: false, deleted: { import_files: filesDeleted } };
  // The list's webhooks first: the erasure of its records is not sent to them as deletions.
  const roots = LIST_ROOT_TABLES();
  const direct = [...roots.filter((entry) => entry.name.startsWith("webhook")), ...roots.filter((entry) => !entry.name.startsWith("webhook"))].map((entry) => entry.table);
  let statements = STATEMENTS_PER_STEP;
  let rowsDeleted = 0;
  const spent = () => statements <= 0 || rowsDeleted >= ROWS_PER_STEP;
  for (const list of soleLists) {
    const db = list.db;
    for (const table of direct) {
      for (let rows = ROWS_PER_STATEMENT; rows === ROWS_PER_STATEMENT && !spent(); ) {
        statements--;
        // RETURNING counts the rows of this table (what cascades from them is not counted).
        const [gone] = await rowsOf(db, [
          sql`DELETE FROM ${name(table)} WHERE rowid IN (SELECT rowid FROM ${name(table)} WHERE account_list_id = ${list.listId} LIMIT ${ROWS_PER_STATEMENT}) RETURNING rowid`,
        ]);
        rows = gone.length;
        rowsDeleted += rows;
        if (rows > 0) deleted[getTableName(table)] = (deleted[getTableName(table)] ?? 0) + rows;
      }
      if (spent()) return { user_id: userId, done: false, deleted };
    }
    // Emptied: the list itself, with what cascades from it, its kept counts and its contacts' stamp (no key ties them to it).
    await runAtomically(db, [sql`DELETE FROM account_lists WHERE id = ${list.listId}`, ...keptRowsOfListRemoved(list.listId)]);
    // The directory's copy of the row, with its placement and memberships, last: until then the list is found again.
    if (db !== directory) await directory.run(sql`DELETE FROM account_lists WHERE id = ${list.listId}`);
    deleted.account_lists = (deleted.account_lists ?? 0) + 1;
    if (--statements <= 0) return { user_id: userId, done: false, deleted };
  }
  // Last, the user: memberships of shared lists and their own rows go with them; their own person row too. First the
  // copies every list database keeps: a list erased in an earlier step no longer names the database its copy is on.
  const userRows = [
    sql`DELETE FROM people WHERE id = (SELECT person_id FROM users WHERE id = ${userId}) AND contact_id IS NULL`,
    sql`DELETE FROM users WHERE id = ${userId}`,
  ];
  await Promise.all(listDatabaseNames(env).filter((name) => name !== DIRECTORY).map((name) => runAtomically(database(databaseBinding(env, name)), userRows)));
  // The directory alone links people at identity providers to users: with the links gone, signing in again finds
  // no one (and signs up by the deployment's policy).
  await runAtomically(directory, [sql`DELETE FROM identity_links WHERE user_id = ${userId}`, ...userRows]);
  deleted.users = 1;
  return { user_id: userId, done: true, deleted };
}
