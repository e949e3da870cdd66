/**
 * A record moving to another of the viewer's lists (its `account_list` changed): a contact with its people and
 * their details, addresses and tags, a task with its links, comments and tags, and so for every record a list owns.
 *
 * A record moves with what it owns, and only when nothing that stays in its old list links to it, nor it to such
 * a thing: a task of the old list naming the contact, an appeal holding it, a pledge, a notification, a referral
 * to or from another contact, a comment or a family relationship of one of its people. Links are kept within one
 * list everywhere else (a task's contacts must be of the task's list), and a move must not make one: other users of
 * the old list would keep records naming a contact they may no longer read. So such a move is refused (409, naming
 * what links it) until those links are removed, whichever databases the two lists are kept on.
 *
 * Between two lists on one database the move is the update itself. Between two databases it cannot be one atomic
 * write, so it goes in steps, each atomic on its database, recorded in the directory (`record_moves`) first:
 * 1. the record's rows are copied to the new database under the new list, its webhook events held back (they are
 *    copies arriving, as in a list's move);
 * 2. the update itself runs there, as on one database (its checks, side writes, events and answer);
 * 3. the old rows are removed from the old database, no deletion recorded (the record is not deleted), unless the
 *    record changed there meanwhile; then the copy is removed again and the client told to retry.
 * A failure at any step removes the copy again, so a refused move changes nothing. A run that dies between the steps
 * leaves its `record_moves` row, which the five-minute job settles (`settleRecordMoves`): the move is finished when
 * the old rows are gone, and undone otherwise.
 */
import { getTableName, sql, type SQL } from "drizzle-orm";
import { recordMoves } from "../../drizzle/placements";
import { reanchorStatement } from "./client-ids";
import { database } from "../db/client";
import { databaseBinding, DIRECTORY, listDatabaseNames } from "../db/databases";
import { LIST_TABLES, listTable, type ListTable } from "../db/list-tables";
import { copyUsers } from "../db/mirrors";
import { databaseOfList, viewerOn } from "../db/placement";
import { columnList, copyShared, fromJson, slices } from "../db/row-copies";
import { literal } from "../db/sql";
import { rowsChanged, rowsOf, type Rows } from "../db/statements";
import { failUnless, isGuardFailure, isUniqueViolation } from "../db/guard";
import type { Bindings, Database, Viewer } from "../env";
import { ApiError, conflict } from "../jsonapi/errors";
import type { ResourceInput } from "../jsonapi/request-document";
import { formatTimestamp, nowTimestamp } from "../jsonapi/time";
import { raceConflict, resourceFor, type RequestContext, type ResourceDef } from "./define";
import { nestedDestroyed } from "./sidepost";

/** A move between two databases left unsettled for this long was cut short: the five-minute job settles it. */
const UNSETTLED_AFTER_SECONDS = 120;

/** A table of rows the record owns, and the condition (over the table's own columns) that selects them. */
interface OwnRows {
  entry: ListTable;
  rows: SQL;
}

/**
 * The rows a record owns, table by table, parents first: the record's row, and every row owned through it (the
 * first key to a table of the list, src/db/list-tables.ts). `left`: ids of rows the write removes, left out with
 * what they own.
 */
function ownRows(root: ListTable, id: string, left: string[] = [], inList?: string): OwnRows[] {
  const ofList = inList === undefined ? sql`` : sql` AND "account_list_id" = ${literal(inList)}`;
  const own = new Map<string, OwnRows>([[root.name, { entry: root, rows: sql`${sql.identifier(root.key[0])} = ${literal(id)}${ofList}` }]]);
  const notLeft = (entry: ListTable) =>
    left.length > 0 && entry.key.length === 1 ? sql` AND ${sql.identifier(entry.key[0])} NOT IN (${sql.join(left.map((value) => literal(value)), sql`, `)})` : sql``;
  for (const entry of LIST_TABLES) {
    const owner = entry.parents.find((parent) => parent.owner);
    const parent = owner && own.get(owner.table);
    if (!owner || !parent || own.has(entry.name)) continue;
    own.set(entry.name, {
      entry,
      rows: sql`${sql.identifier(owner.column)} IN (SELECT ${sql.identifier(owner.references)} FROM ${sql.identifier(parent.entry.name)} WHERE ${parent.rows})${notLeft(entry)}`,
    });
  }
  return [...own.values()];
}

/** What a link from a table names, for the refusal: "2 tasks". */
const LINK_NAMES: Record<string, [string, string]> = {
  activity_contacts: ["task", "tasks"],
  appeal_contacts: ["appeal", "appeals"],
  appeal_excluded_contacts: ["appeal excluding it", "appeals excluding it"],
  pledges: ["pledge", "pledges"],
  notifications: ["notification", "notifications"],
  contact_referrals: ["referral", "referrals"],
  comments: ["comment", "comments"],
  family_relationships: ["family relationship", "family relationships"],
  tasks: ["task", "tasks"],
  contacts: ["contact", "contacts"],
  people: ["person", "people"],
  donations: ["donation", "donations"],
  webhook_deliveries: ["webhook delivery", "webhook deliveries"],
};

const linkName = (table: string, count: number) => {
  const [one, many] = LINK_NAMES[table] ?? [table.replaceAll("_", " "), table.replaceAll("_", " ")];
  return `${count} ${count === 1 ? one : many}`;
};

/**
 * The ids of rows a write removes (marked `_destroy` in a sideposted relationship) that are the record's own and may
 * name a list's row outside it (a task's activity contacts): they need not be copied to be removed, and cannot
 * always be (the contact they name stays behind). Other removals (a person, an unlinked donor account) are written
 * where the record goes, as any update writes them.
 */
function removedBy(def: ResourceDef, input: ResourceInput): string[] {
  return Object.entries(def.relationships).flatMap(([name, rel]) => {
    const table = rel.sidepost ? resourceFor(rel.resource ?? rel.type)?.table : undefined;
    const entry = table ? listTable(getTableName(table)) : undefined;
    const linksOutside = entry?.parents.some((parent) => !parent.owner && listTable(parent.table) !== undefined);
    return entry && linksOutside && entry.parents.some((parent) => parent.owner) ? nestedDestroyed(input, name) : [];
  });
}

/**
 * Counts, in SQL, of the links that would be left behind: rows outside what the record owns naming one of its rows,
 * and rows it owns naming a list's row outside it that is not of `toList` (not a user's person, say), each with
 * the table its refusal names.
 */
function linksLeftBehind(own: OwnRows[], toList: string): Array<{ table: string; count: SQL }> {
  const owned = new Map(own.map((rows) => [rows.entry.name, rows]));
  const counts: Array<{ table: string; count: SQL }> = [];
  for (const entry of LIST_TABLES) {
    const mine = owned.get(entry.name);
    for (const parent of entry.parents) {
      if (parent.owner) continue;
      const target = owned.get(parent.table);
      const targetEntry = listTable(parent.table);
      const column = sql.identifier(parent.column);
      if (target) {
        // Rows elsewhere naming one of the record's rows.
        const outside = mine ? sql` AND NOT (${mine.rows})` : sql``;
        counts.push({
          table: entry.name,
          count: sql`(SELECT count(*) FROM ${sql.identifier(entry.name)} WHERE ${column} IN (SELECT ${sql.identifier(parent.references)} FROM ${sql.identifier(parent.table)} WHERE ${target.rows})${outside})`,
        });
      }
      if (mine && targetEntry) {
        // The record's rows naming a row of a list that is not the record's own (a referral's other contact).
        const notOwn = target ? sql` AND "linking".${column} NOT IN (SELECT ${sql.identifier(parent.references)} FROM ${sql.identifier(parent.table)} WHERE ${target.rows})` : sql``;
        const listOfNamed = sql.raw(targetEntry.listOf('"named"'));
        counts.push({
          table: target ? entry.name : parent.table,
          count: sql`(SELECT count(*) FROM ${sql.identifier(entry.name)} AS "linking" WHERE ${mine.rows} AND "linking".${column} IS NOT NULL${notOwn}
            AND (SELECT ${listOfNamed} FROM ${sql.identifier(parent.table)} AS "named" WHERE "named".${sql.identifier(parent.references)} = "linking".${column}) <> ${literal(toList)})`,
        });
      }
    }
  }
  return counts;
}

/**
 * A statement failing its batch when links would be left behind as it runs: a one-database move's update carries
 * it, so a link made after the refusal's check cannot slip in (src/write/write.ts).
 */
export function noLinksLeftBehindGuard(def: ResourceDef, id: string, toList: string, input: ResourceInput): SQL | undefined {
  const root = listTable(getTableName(def.table));
  return root ? failUnless(noLinksLeftBehind(ownRows(root, id, removedBy(def, input)), toList)) : undefined;
}

/** All the links left behind, as one number (0 when none): for a statement that must find none. */
function noLinksLeftBehind(own: OwnRows[], toList: string): SQL {
  const counts = linksLeftBehind(own, toList);
  return counts.length === 0 ? sql`1` : sql`(${sql.join(counts.map((item) => item.count), sql` + `)}) = 0`;
}

/**
 * Refuses a record's move to `toList` while links would be left behind (`linksLeftBehind`); rows the write removes
 * do not count. One statement.
 */
export async function refuseLinksLeftBehind(def: ResourceDef, id: string, toList: string, input: ResourceInput, ctx: RequestContext): Promise<void> {
  const root = listTable(getTableName(def.table));
  if (!root) return;
  const counts = linksLeftBehind(ownRows(root, id, removedBy(def, input)), toList);
  if (counts.length === 0) return;
  const [[row]] = await rowsOf(ctx.db, [sql`SELECT ${sql.join(counts.map((item, index) => sql`${item.count} AS ${sql.identifier(`c${index}`)}`), sql`, `)}`]);
  const found = new Map<string, number>();
  counts.forEach((item, index) => {
    const count = Number(row[`c${index}`] ?? 0);
    if (count > 0) found.set(item.table, (found.get(item.table) ?? 0) + count);
  });
  if (found.size === 0) return;
  const named = [...found].map(([table, count]) => linkName(table, count)).join(", ");
  throw conflict(
    `The ${def.model.toLowerCase()} cannot move to account list ${toList} while records of its account list are linked with it (${named}): remove those links first`,
    { pointer: "/data/relationships/account_list/data" },
  );
}

/**
 * Thrown by the `account_list` check when the list named is another of the viewer's, kept on another database than
 * the request's: an update then moves the record there (`moveAcrossDatabases`); anything else answers its 409.
 */
export class ListOnAnotherDatabase extends ApiError {
  constructor(readonly listId: string) {
    super(409, [
      {
        detail: `The record cannot be linked to account list ${listId}: that list is kept on another database than the record`,
        source: { pointer: "/data/relationships/account_list/data" },
      },
    ]);
  }
}

/** The viewer with all their lists, wherever kept. */
function wholeViewer(viewer: Viewer): Viewer {
  return {
    ...viewer,
    readableListIds: viewer.allReadableListIds ?? viewer.readableListIds,
    writableListIds: viewer.allWritableListIds ?? viewer.writableListIds,
    allReadableListIds: undefined,
    allWritableListIds: undefined,
    createsIn: undefined,
  };
}

/** The request as run on database `name`, in its sessions. */
function contextOn(ctx: RequestContext, name: string): RequestContext {
  const db = ctx.databaseOn?.(name) ?? database(databaseBinding(ctx.env, name));
  return { ...ctx, db, databaseName: name, viewer: viewerOn(wholeViewer(ctx.viewer), name), idClaims: undefined };
}

/** The write without what it removes through sideposted relationships: those rows are not copied to be removed. */
function withoutRemoved(def: ResourceDef, input: ResourceInput, removed: string[]): ResourceInput {
  if (removed.length === 0) return input;
  const gone = (entry: unknown) => removed.includes(String((entry as { id?: unknown })?.id ?? "").toLowerCase());
  const relationships = { ...input.relationships };
  for (const [name, rel] of Object.entries(def.relationships)) {
    const value = relationships[name] as { data?: unknown } | undefined;
    if (rel.sidepost && Array.isArray(value?.data)) relationships[name] = { ...value, data: value.data.filter((entry) => !gone(entry)) };
  }
  return { ...input, relationships, included: input.included.filter((entry) => !gone(entry)) };
}

export interface MoveWrite {
  /** Writes the record on the new database's context, and answers as an update there does. */
  update: (input: ResourceInput, on: RequestContext) => Promise<unknown>;
  /** Checks the whole write as one database would, on the record's own database, writing nothing. */
  check: (input: ResourceInput, on: RequestContext) => Promise<void>;
}

/**
 * Moves record `id` of `def` (on the request's database) to list `toList` on another database, applying the rest of
 * `input` there; answers as the update on one database would.
 */
export async function moveAcrossDatabases(def: ResourceDef, id: string, input: ResourceInput, ctx: RequestContext, toList: string, write: MoveWrite): Promise<unknown> {
  const root = listTable(getTableName(def.table));
  const fromDatabase = ctx.databaseName ?? DIRECTORY;
  const toDatabase = databaseOfList(ctx.viewer, toList);
  if (!root || !ctx.databaseOn || !ctx.directory || toDatabase === fromDatabase) throw new ListOnAnotherDatabase(toList);
  // The list it is in, read before it is checked: the rows copied and removed must still be of that list.
  const [stored] = await rowsOf(ctx.db, [sql`SELECT "account_list_id" AS "list" FROM ${sql.identifier(root.name)} WHERE "id" = ${id}`]);
  // Every check of one database's update, where the record is: the new list taken as one of this database's.
  const checking = { ...ctx, movingTo: toList, viewer: { ...ctx.viewer, readableListIds: [...ctx.viewer.readableListIds, toList], writableListIds: [...ctx.viewer.writableListIds, toList] } };
  await write.check(input, checking);
  if (!stored[0]) throw changedWhileMoved();
  const fromList = String(stored[0].list);
  const target = contextOn(ctx, toDatabase);
  const startedAt = nowTimestamp();
  const move: Move = { table: root.name, id, fromList, toList, fromDatabase, toDatabase, startedAt };
  const [claimed] = await rowsChanged(ctx.directory, [
    sql`INSERT INTO ${recordMoves} (table_name, id, from_list, to_list, from_database, to_database, started_at)
      VALUES (${root.name}, ${id}, ${fromList}, ${toList}, ${fromDatabase}, ${toDatabase}, ${startedAt}) ON CONFLICT DO NOTHING`,
  ]);
  if (claimed === 0) throw new ApiError(409, [{ detail: "The record is being moved by another request; please retry" }]);
  const removed = removedBy(def, input);
  const own = ownRows(root, id, removed, fromList);
  let answer: unknown;
  try {
    const copied = await copyRecord(ctx, target.db, move, own);
    answer = await write.update(withoutRemoved(def, input, removed), target);
    await removeOldRows(ctx.db, move, own, copied);
  } catch (error) {
    await removeCopy(target.db, move);
    await settled(ctx.directory, move, false);
    throw error;
  }
  await settled(ctx.directory, move, true);
  ctx.alsoWrote?.(toDatabase);
  return answer;
}

interface Move {
  table: string;
  id: string;
  fromList: string;
  toList: string;
  fromDatabase: string;
  toDatabase: string;
  startedAt: string;
}

const changedWhileMoved = () => conflict("The record changed while it was moved to the other account list; please retry");

/**
 * What the record's rows are as read: each table's count of them, latest `updated_at` (which every write of the API
 * moves) and latest rowid. The old rows are removed only while this still holds.
 */
function stateOf(own: OwnRows[]): SQL {
  const parts = own.map(({ entry, rows }) => {
    const latest = entry.columns.includes("updated_at") ? sql`coalesce(max("updated_at"), '')` : sql`''`;
    // The latest rowid tells a row removed and another added (a tag swapped) from none.
    return sql`(SELECT count(*) || '/' || ${latest} || '/' || coalesce(max(rowid), '') FROM ${sql.identifier(entry.name)} WHERE ${rows})`;
  });
  return sql.join(parts, sql` || '|' || `);
}

/**
 * Copies the record's rows to the new database under the new list, in one batch: the users and shared rows they
 * name first. The list is marked `arriving` there meanwhile (refused when it is already moving), so no webhook event
 * is recorded for copies; the mark is gone when the batch ends. Answers the state of the rows copied.
 */
async function copyRecord(ctx: RequestContext, target: Database, move: Move, own: OwnRows[]): Promise<string> {
  const [state, ...read] = await rowsOf(ctx.db, [
    sql`SELECT ${stateOf(own)} AS "state"`,
    // In rowid order, so the copies keep the order rows were written in (what ties in an order falls back on).
    ...own.map(({ entry, rows }) => sql`SELECT ${sql.raw(columnList(entry))} FROM ${sql.identifier(entry.name)} WHERE ${rows} ORDER BY rowid`),
  ]);
  if (read[0].length === 0) throw changedWhileMoved();
  const users = new Set<string>();
  for (const [index, { entry }] of own.entries()) {
    const rows = read[index];
    for (const row of rows) if (typeof row.user_id === "string") users.add(row.user_id);
    await copyShared(ctx.db, target, entry, rows);
  }
  if (users.size > 0) {
    const [present] = await rowsOf(target, [sql`SELECT "id" FROM "users" WHERE "id" IN (SELECT value FROM json_each(${JSON.stringify([...users])}))`]);
    const there = new Set(present.map((row) => String(row.id)));
    await copyUsers(ctx.directory!, target, [...users].filter((user) => !there.has(user)));
  }
  read[0] = read[0].map((row) => ({ ...row, account_list_id: move.toList }));
  const inserts = own.flatMap(({ entry }, index) =>
    slices(read[index] as Rows).map((slice) => sql`INSERT INTO ${sql.identifier(entry.name)} (${sql.raw(columnList(entry))}) ${fromJson(entry, slice)}`),
  );
  await rowsChanged(target, [
    sql`INSERT INTO "moving_lists" ("account_list_id", "state") VALUES (${move.toList}, 'arriving')`,
    ...inserts,
    sql`DELETE FROM "moving_lists" WHERE "account_list_id" = ${move.toList} AND "state" = 'arriving'`,
  ]).catch(refuseWhenMoving);
  return String(state[0].state);
}

/**
 * A list already moving between databases is marked there: the record waits for it (503, as its writes do). Another
 * unique rule the copy meets (a list's one preference of a type) is the conflict one database's update answers.
 */
function refuseWhenMoving(error: unknown): never {
  if (String(error).includes("UNIQUE constraint failed: moving_lists")) throw listMoving();
  if (isUniqueViolation(error)) throw raceConflict(error);
  throw error;
}

const listMoving = () => new ApiError(503, [{ detail: "The account list is moving to another database: retry in a moment" }], { "Retry-After": "1" });

/**
 * Removes the record's old rows (they cascade from its row), unless they changed since they were copied or a link
 * to them was made meanwhile: then nothing is removed and the move is refused. The old list is marked `deleting`
 * meanwhile: no webhook event, as for a list's old rows once it moved.
 */
async function removeOldRows(source: Database, move: Move, own: OwnRows[], copied: string): Promise<void> {
  try {
    await rowsChanged(source, [
      failUnless(sql`${stateOf(own)} = ${copied} AND ${noLinksLeftBehind(own, move.toList)}`),
      sql`INSERT INTO "moving_lists" ("account_list_id", "state") VALUES (${move.fromList}, 'deleting')`,
      sql`DELETE FROM ${sql.identifier(move.table)} WHERE "id" = ${move.id} AND "account_list_id" = ${move.fromList}`,
      sql`DELETE FROM "moving_lists" WHERE "account_list_id" = ${move.fromList} AND "state" = 'deleting'`,
    ]);
  } catch (error) {
    if (isGuardFailure(error)) throw changedWhileMoved();
    refuseWhenMoving(error);
  }
}

/**
 * Removes the copy of a move that did not finish (nothing when it was never written), with the webhook events its
 * update recorded there: the record never arrived.
 */
async function removeCopy(target: Database, move: Move): Promise<void> {
  await rowsChanged(target, [
    sql`DELETE FROM "webhook_events" WHERE "account_list_id" = ${move.toList} AND "resource_id" = ${move.id} AND "created_at" >= ${move.startedAt}`,
    sql`INSERT INTO "moving_lists" ("account_list_id", "state") VALUES (${move.toList}, 'arriving') ON CONFLICT DO NOTHING`,
    sql`DELETE FROM ${sql.identifier(move.table)} WHERE "id" = ${move.id} AND "account_list_id" = ${move.toList}`,
    sql`DELETE FROM "moving_lists" WHERE "account_list_id" = ${move.toList} AND "state" = 'arriving'`,
  ]);
}

/** The move is over: its record; when done, the id's claim is the new list's (src/engine/client-ids.ts). */
async function settled(directory: Database, move: Move, done: boolean): Promise<void> {
  await rowsChanged(directory, [
    ...(done ? [reanchorStatement(move.table, move.id, move.fromList, move.toList)] : []),
    sql`DELETE FROM ${recordMoves} WHERE table_name = ${move.table} AND id = ${move.id}`,
  ]);
}

/**
 * The five-minute job: moves between databases left by a run that died. One whose old rows are gone is finished;
 * any other is undone (its copy removed), as the request that made it was never answered.
 */
export async function settleRecordMoves(env: Bindings, now = Date.now()): Promise<number> {
  const directory = database(env.DB);
  const before = formatTimestamp(new Date(now - UNSETTLED_AFTER_SECONDS * 1000));
  const [left] = await rowsOf(directory, [sql`SELECT * FROM ${recordMoves} WHERE started_at < ${before} LIMIT 100`]);
  const names = new Set(listDatabaseNames(env));
  for (const row of left) {
    const move: Move = {
      table: String(row.table_name),
      id: String(row.id),
      fromList: String(row.from_list),
      toList: String(row.to_list),
      fromDatabase: String(row.from_database),
      toDatabase: String(row.to_database),
      startedAt: String(row.started_at),
    };
    if (!names.has(move.fromDatabase) || !names.has(move.toDatabase) || !listTable(move.table)) continue;
    const source = database(databaseBinding(env, move.fromDatabase));
    const [still] = await rowsOf(source, [sql`SELECT 1 FROM ${sql.identifier(move.table)} WHERE "id" = ${move.id} AND "account_list_id" = ${move.fromList}`]);
    if (still.length > 0) await removeCopy(database(databaseBinding(env, move.toDatabase)), move);
    await settled(directory, move, still.length === 0);
    console.log(JSON.stringify({ level: "info", message: still.length > 0 ? "record move undone" : "record move finished", table: move.table, id: move.id }));
  }
  return left.length;
}
