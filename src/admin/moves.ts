/**
 * Moving an account list to another database while it is served and written. A queue job (`list-moves`) takes
 * it through its steps, a bounded amount of work per message, with where it stands kept in the directory's
 * placement row, so a job killed at any point goes on from there when its message comes again:
 *
 * 1. copying: the list's rows are copied table by table (src/db/list-tables.ts), parents first, each table walked
 *    in rowid order, while the list is read and written on its old database as usual. Triggers there record each
 *    row its writes touch (`list_changes`); a row whose parent has not been copied yet waits for that record. A row
 *    the new database cannot take, with no such record, fails the move at once (`refusedRows`).
 * 2. catching up (still copying): the recorded rows are copied again, or removed where they are gone, until few
 *    are left.
 * 3. switching: the old database refuses the list's writes (503 with Retry-After: 1), the last records are copied,
 *    the list's own row follows, and the directory places the list on the new database. Reads go on throughout.
 * 4. cleaning: once no request can still hold the old placement (the viewer cache's seconds), the old database's
 *    rows of the list are removed in chunks, and the list is placed.
 */
import { sql, type SQL } from "drizzle-orm";
import { accountLists, listPlacements } from "../../drizzle/schema";
import { database } from "../db/client";
import { databaseBinding, DIRECTORY, isListDatabase } from "../db/databases";
import { keptRowsOfListRemoved, keyOfRow, LIST_ROOT_TABLES, LIST_TABLES, rowKeyOf, type ListTable } from "../db/list-tables";
import { copyDirectoryRows, copyUsers, upsertRows } from "../db/mirrors";
import { jsonList } from "../db/sql";
import { rowsChanged, rowsOf, runAtomically, type Rows } from "../db/statements";
import { columnList, copyShared, fromJson, parentsPresent, slices } from "../db/row-copies";
import type { Bindings, Database } from "../env";
import { ApiError, conflict, recordNotFound } from "../jsonapi/errors";
import { nowTimestamp } from "../jsonapi/time";

export interface ListMoveMessage {
  accountListId: string;
}

/** Rows synced per statement while catching up. */
const COPY_ROWS = 500;
/**
 * Rowids a copying statement walks. A table is walked in rowid order whatever list a row belongs to, each row's
 * list checked by key: reading a list's rows through an index in rowid order would sort all of them again for
 * every chunk, reading the list's rows (and billing them) once per chunk; a walk reads each row of the table once.
 */
const COPY_ROWIDS = 5_000;
const CHANGES_PER_STEP = 500;
/** Switching begins once no more than this many changes wait. */
const SWITCH_BELOW = 100;
/** Statements a copying step may run (a Worker invocation on the Free plan makes at most 50 queries). */
const STATEMENTS_PER_STEP = 30;

/** The cursor's table once every table is copied: the recorded changes are applied. */
const CATCHING_UP = "$changes";

export interface Placement {
  account_list_id: string;
  database: string;
  state: string;
  other: string | null;
  cursor_table: string | null;
  cursor_key: string | null;
  rows_copied: number;
  started_at: string | null;
  switched_at: string | null;
  switch_ms: number | null;
  failure: string | null;
}

const on = (env: object, name: string): Database => database(databaseBinding(env, name));

/** The placement of a list without a row in list_placements: on the directory, not moving. */
function onTheDirectory(listId: string): Placement {
  return { account_list_id: listId, database: DIRECTORY, state: "placed", other: null, cursor_table: null, cursor_key: null, rows_copied: 0, started_at: null, switched_at: null, switch_ms: null, failure: null };
}

export async function placementOf(directory: Database, listId: string): Promise<Placement | undefined> {
  const [[list]] = await rowsOf(directory, [sql`SELECT id FROM account_lists WHERE id = ${listId}`]);
  if (!list) return undefined;
  const [[row]] = await rowsOf(directory, [sql`SELECT * FROM list_placements WHERE account_list_id = ${listId}`]);
  return row ? { ...onTheDirectory(listId), ...(row as unknown as Placement) } : onTheDirectory(listId);
}

/** Every list's placement, by list (lists without a row are on the directory). */
export async function everyPlacement(directory: Database): Promise<Placement[]> {
  const [lists] = await rowsOf(directory, [sql`SELECT id FROM account_lists ORDER BY id`]);
  const [rows] = await rowsOf(directory, [sql`SELECT * FROM list_placements`]);
  const byList = new Map(rows.map((row) => [String(row.account_list_id), row as unknown as Placement]));
  return lists.map((list) => {
    const id = String(list.id);
    return byList.get(id) ?? onTheDirectory(id);
  });
}

/** Starts moving the list to `target`; refuses an unknown list or database, the list's own database, a second move. */
export async function startMove(env: Bindings, directory: Database, listId: string, target: string): Promise<Placement> {
  const placement = await placementOf(directory, listId);
  if (!placement) throw recordNotFound("AccountList", listId);
  if (!isListDatabase(env, target)) throw new ApiError(400, [{ detail: `database ${target} is not a list database of this deployment`, source: { pointer: "/database" } }]);
  if (placement.state !== "placed") throw conflict(`The account list is already moving (${placement.state}, to ${placement.other})`);
  if (placement.database === target) throw conflict(`The account list is already on ${target}`);
  const now = nowTimestamp();
  // Recording starts before the first row is read, so no write made meanwhile goes unrecorded.
  await on(env, placement.database).run(sql`INSERT INTO moving_lists (account_list_id, state) VALUES (${listId}, 'copying') ON CONFLICT (account_list_id) DO UPDATE SET state = 'copying'`);
  const [started] = await rowsChanged(directory, [
    sql`INSERT INTO list_placements (account_list_id, database, state, other, cursor_table, cursor_key, rows_copied, started_at, switched_at, switch_ms, failure, updated_at)
      VALUES (${listId}, ${placement.database}, 'copying', ${target}, NULL, NULL, 0, ${now}, NULL, NULL, NULL, ${now})
      ON CONFLICT (account_list_id) DO UPDATE SET state = 'copying', other = excluded.other, cursor_table = NULL, cursor_key = NULL, rows_copied = 0,
        started_at = excluded.started_at, switched_at = NULL, switch_ms = NULL, failure = NULL, updated_at = excluded.updated_at
      WHERE list_placements.state = 'placed'`,
  ]);
  if (started === 0) throw conflict("The account list is already moving");
  await env.LIST_MOVE_QUEUE.send({ accountListId: listId });
  return (await placementOf(directory, listId))!;
}

export type MoveStep = { next: "again" } | { next: "later"; seconds: number } | { next: "done" };

/** How long a run of a step holds the move: longer than any step lasts. */
const LEASE_SECONDS = 60;

const isoAt = (ms: number) => new Date(ms).toISOString().slice(0, 19) + "Z";

/**
 * One step of the list's move, from where its placement says it stands. One run at a time: a second delivery of
 * a message (or a chain of messages started twice) finds the move held and comes back later.
 */
export async function moveStep(env: Bindings, listId: string, now = Date.now()): Promise<MoveStep> {
  const directory = database(env.DB);
  const [held] = await rowsChanged(directory, [
    sql`UPDATE ${listPlacements} SET lease_until = ${isoAt(now + LEASE_SECONDS * 1000)}
      WHERE account_list_id = ${listId} AND state <> 'placed' AND (lease_until IS NULL OR lease_until < ${isoAt(now)})`,
  ]);
  const placement = await placementOf(directory, listId);
  if (!placement || placement.state === "placed") return { next: "done" };
  if (held === 0) return { next: "later", seconds: LEASE_SECONDS };
  try {
    if (placement.state === "copying") return await copyStep(env, directory, placement);
    if (placement.state === "switching") return await switchStep(env, directory, placement);
    return await cleanStep(env, directory, placement, now);
  } finally {
    await directory.run(sql`UPDATE ${listPlacements} SET lease_until = NULL WHERE account_list_id = ${listId}`);
  }
}

/** A move's databases, as the steps that copy rows use them. */
interface Copying {
  directory: Database;
  source: Database;
  target: Database;
  listId: string;
  /** The target is the directory, which holds every user. */
  usersThere: boolean;
}

function copying(env: Bindings, directory: Database, placement: Placement): Copying {
  return { directory, source: on(env, placement.database), target: on(env, placement.other!), listId: placement.account_list_id, usersThere: placement.other === DIRECTORY };
}

/** The users rows point at (the list's members, and people who have left it), copied from the directory first. */
async function copyUsersOf(c: Copying, entry: ListTable, rows: Rows): Promise<void> {
  if (c.usersThere || !entry.columns.includes("user_id")) return;
  const ids = [...new Set(rows.map((row) => row.user_id).filter((id) => id !== null && id !== undefined).map(String))];
  if (ids.length === 0) return;
  const [present] = await rowsOf(c.target, [sql`SELECT id FROM users WHERE id IN ${jsonList(ids)}`]);
  const there = new Set(present.map((row) => String(row.id)));
  await copyUsers(c.directory, c.target, ids.filter((id) => !there.has(id)));
}

/** Of these keys (as `keyOfRow`), those the target does not hold as rows of the list: read in the batch that wrote them. */
function notPlaced(entry: ListTable, listId: string, keys: string[]): SQL {
  const match = entry.key.length === 1 ? `"t"."${entry.key[0]}" = "k"."value"` : entry.key.map((column, index) => `"t"."${column}" = json_extract("k"."value", '$[${index}]')`).join(" AND ");
  return sql`SELECT "k"."value" AS "key" FROM json_each(${JSON.stringify(keys)}) AS "k"
    WHERE NOT EXISTS (SELECT 1 FROM ${sql.identifier(entry.name)} AS "t" WHERE ${sql.raw(match)} AND ${sql.raw(entry.listOf('"t"'))} = ${listId})`;
}

/**
 * Of the rows the target could not take (a key to a row of another list, or a key another list's row holds there),
 * those no later write of the list has recorded: the list cannot move without leaving them behind. A recorded one
 * is copied again with its record (its parent, written after its table was copied, arrives with its own).
 */
async function refusedRows(source: Database, entry: ListTable, listId: string, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const [recorded] = await rowsOf(source, [
    sql`SELECT DISTINCT row_key FROM list_changes WHERE account_list_id = ${listId} AND table_name = ${entry.name} AND row_key IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`,
  ]);
  const later = new Set(recorded.map((row) => String(row.row_key)));
  return keys.filter((key) => !later.has(key)).map((key) => `${entry.name} ${key}`);
}

async function setCursor(directory: Database, placement: Placement, table: string | null, key: string | null, copied: number): Promise<boolean> {
  const [moved] = await rowsChanged(directory, [
    sql`UPDATE list_placements SET cursor_table = ${table}, cursor_key = ${key}, rows_copied = rows_copied + ${copied}, updated_at = ${nowTimestamp()}
      WHERE account_list_id = ${placement.account_list_id} AND state = 'copying' AND cursor_table IS ${placement.cursor_table} AND cursor_key IS ${placement.cursor_key}`,
  ]);
  return moved === 1;
}

async function copyStep(env: Bindings, directory: Database, placement: Placement): Promise<MoveStep> {
  const listId = placement.account_list_id;
  const c = copying(env, directory, placement);
  const { source, target } = c;
  if (placement.cursor_table === null) {
    // The directory rows the list's statements read, and the list's row, before any of its own.
    if (placement.other !== DIRECTORY) await copyDirectoryRows(directory, target, [listId]);
    // Until it switches, the rows arriving are copies: the webhook outbox records no events for them there.
    await target.run(sql`INSERT INTO moving_lists (account_list_id, state) VALUES (${listId}, 'arriving') ON CONFLICT (account_list_id) DO UPDATE SET state = 'arriving'`);
    return (await setCursor(directory, placement, LIST_TABLES[0].name, null, 0)) ? { next: "again" } : { next: "done" };
  }
  if (placement.cursor_table === CATCHING_UP) {
    const { left, refused } = await applyChanges(c, CHANGES_PER_STEP);
    if (refused.length > 0) return failMove(directory, source, placement, refused);
    if (left > SWITCH_BELOW) return { next: "again" };
    // From here the old database refuses the list's writes; what they wrote before is all recorded. The time it
    // began is kept in the cursor (unused while switching) to measure how long writes were refused.
    await source.run(sql`UPDATE moving_lists SET state = 'switching' WHERE account_list_id = ${listId}`);
    const [switching] = await rowsChanged(directory, [
      sql`UPDATE list_placements SET state = 'switching', cursor_key = ${String(Date.now())}, updated_at = ${nowTimestamp()} WHERE account_list_id = ${listId} AND state = 'copying'`,
    ]);
    return switching === 1 ? { next: "again" } : { next: "done" };
  }
  let table = placement.cursor_table;
  let after = placement.cursor_key === null ? 0 : Number(placement.cursor_key);
  let copied = 0;
  for (let statements = 0; statements < STATEMENTS_PER_STEP; statements += 2) {
    const entry = LIST_TABLES.find((candidate) => candidate.name === table)!;
    const { rows, last, refused } = await copyChunk(c, entry, after);
    if (refused.length > 0) return failMove(directory, source, placement, refused);
    copied += rows;
    if (last !== null) {
      after = last;
      continue;
    }
    const next = LIST_TABLES[LIST_TABLES.indexOf(entry) + 1];
    table = next ? next.name : CATCHING_UP;
    after = 0;
    if (!next) break;
  }
  const moved = await setCursor(directory, placement, table, table === CATCHING_UP || after === 0 ? null : String(after), copied);
  // Another run of this step moved the cursor first: that run goes on.
  return moved ? { next: "again" } : { next: "done" };
}

/**
 * The list's rows among the table's next `COPY_ROWIDS` rowids after `after` (gaps skipped); `last` is the rowid
 * the walk goes on from, null when the table is done.
 */
async function copyChunk(c: Copying, entry: ListTable, after: number): Promise<{ rows: number; last: number | null; refused: string[] }> {
  const { source, target, listId } = c;
  const table = sql.identifier(entry.name);
  const windowStart = sql`(SELECT min(rowid) FROM ${table} WHERE rowid > ${after})`;
  const [[bounds], rows] = await rowsOf(source, [
    sql`SELECT ${windowStart} AS "first", (SELECT max(rowid) FROM ${table}) AS "last"`,
    // NOT INDEXED: the rowid range is the walk; each row's list is looked up by key (src/db/list-tables.ts).
    sql`SELECT ${sql.raw(columnList(entry))} FROM ${table} NOT INDEXED
      WHERE rowid > ${after} AND rowid < ${windowStart} + ${COPY_ROWIDS} AND ${sql.raw(entry.listOf(`"${entry.name}"`))} = ${listId}`,
  ]);
  if (bounds.first === null) return { rows: 0, last: null, refused: [] };
  const windowEnd = Number(bounds.first) + COPY_ROWIDS - 1;
  const last = windowEnd >= Number(bounds.last) ? null : windowEnd;
  if (rows.length === 0) return { rows: 0, last, refused: [] };
  await copyUsersOf(c, entry, rows);
  await copyShared(source, target, entry, rows);
  const inserts = slices(rows).map(
    (slice) => sql`INSERT INTO ${sql.identifier(entry.name)} (${sql.raw(columnList(entry))}) SELECT * FROM (${fromJson(entry, slice)}) AS "row" WHERE ${sql.raw(parentsPresent(entry, '"row"'))} ON CONFLICT DO NOTHING`,
  );
  const written = await rowsOf(target, [...inserts, notPlaced(entry, listId, rows.map((row) => keyOfRow(entry, row)))]);
  const missing = written[written.length - 1].map((row) => String(row.key));
  return { rows: rows.length, last, refused: await refusedRows(source, entry, listId, missing) };
}

/**
 * Copies again the rows the list's writes touched (or removes those gone from the list), oldest records first, at
 * most `limit` records; answers how many records are left, and the rows the target could not take.
 */
async function applyChanges(c: Copying, limit: number): Promise<{ left: number; refused: string[] }> {
  const { source, listId } = c;
  const [changes] = await rowsOf(source, [sql`SELECT seq, table_name, row_key FROM list_changes WHERE account_list_id = ${listId} ORDER BY seq LIMIT ${limit}`]);
  const missing = new Map<ListTable, string[]>();
  if (changes.length > 0) {
    const keys = new Map<string, Set<string>>();
    for (const change of changes) keys.set(String(change.table_name), (keys.get(String(change.table_name)) ?? new Set()).add(String(change.row_key)));
    for (const entry of LIST_TABLES) {
      const touched = keys.get(entry.name);
      if (!touched) continue;
      const list = [...touched];
      for (let start = 0; start < list.length; start += COPY_ROWS) missing.set(entry, [...(missing.get(entry) ?? []), ...(await syncRows(c, entry, list.slice(start, start + COPY_ROWS)))]);
    }
    await source.run(sql`DELETE FROM list_changes WHERE account_list_id = ${listId} AND seq <= ${Number(changes[changes.length - 1].seq)}`);
  }
  const refused: string[] = [];
  for (const [entry, keys] of missing) refused.push(...(await refusedRows(source, entry, listId, keys)));
  const [[left]] = await rowsOf(source, [sql`SELECT count(*) AS n FROM list_changes WHERE account_list_id = ${listId}`]);
  return { left: Number(left.n), refused };
}

/**
 * These rows of the table as the source holds them within the list: written on the target, or removed from it;
 * answers the keys of those the target could not take.
 */
async function syncRows(c: Copying, entry: ListTable, keys: string[]): Promise<string[]> {
  const { source, target, listId } = c;
  const key = sql.raw(rowKeyOf(entry, entry.name));
  // Each row's list by key: the list's condition as a subquery would read all of its rows for every statement.
  const [rows] = await rowsOf(source, [sql`SELECT ${sql.raw(columnList(entry))} FROM ${sql.identifier(entry.name)} WHERE ${key} IN ${jsonList(keys)} AND ${sql.raw(entry.listOf(`"${entry.name}"`))} = ${listId}`]);
  const present = new Set(rows.map((row) => keyOfRow(entry, row)));
  const gone = keys.filter((candidate) => !present.has(candidate));
  const statements: SQL[] = [];
  if (gone.length > 0) statements.push(sql`DELETE FROM ${sql.identifier(entry.name)} WHERE ${key} IN ${jsonList(gone)}`);
  if (rows.length > 0) {
    await copyUsersOf(c, entry, rows);
    await copyShared(source, target, entry, rows);
    const updates = entry.columns.filter((column) => !entry.key.includes(column)).map((column) => `"${column}" = excluded."${column}"`);
    // Only a row of this list is written over: a row of another list with the same key is never taken.
    const ours = `${entry.listOf(`"${entry.name}"`)} = '${listId.replace(/'/g, "''")}'`;
    for (const slice of slices(rows)) {
      statements.push(
        sql`INSERT INTO ${sql.identifier(entry.name)} (${sql.raw(columnList(entry))}) SELECT * FROM (${fromJson(entry, slice)}) AS "row" WHERE ${sql.raw(parentsPresent(entry, '"row"'))}
          ON CONFLICT (${sql.raw(entry.key.map((column) => `"${column}"`).join(", "))}) DO ${sql.raw(updates.length ? `UPDATE SET ${updates.join(", ")} WHERE ${ours}` : "NOTHING")}`,
      );
    }
  }
  if (statements.length === 0) return [];
  if (present.size === 0) {
    await runAtomically(target, statements);
    return [];
  }
  const written = await rowsOf(target, [...statements, notPlaced(entry, listId, [...present])]);
  return written[written.length - 1].map((row) => String(row.key));
}

async function switchStep(env: Bindings, directory: Database, placement: Placement): Promise<MoveStep> {
  const listId = placement.account_list_id;
  const c = copying(env, directory, placement);
  const { source, target } = c;
  const began = Number(placement.cursor_key ?? Date.now());
  // Again, should the step that began switching have been cut short after the directory's change.
  await source.run(sql`UPDATE moving_lists SET state = 'switching' WHERE account_list_id = ${listId}`);
  // Memberships changed while copying (users the rows written meanwhile point at come with the rows).
  if (placement.other !== DIRECTORY) await copyDirectoryRows(directory, target, [listId]);
  // Nothing is left behind: every row copied or copied again is checked on the new database as it is written. A
  // row it could not take (one pointing at another list's rows, or whose key another list's row has there) fails
  // the move: the list stays where it is, and the new database's partial copy is removed.
  for (;;) {
    const { left, refused } = await applyChanges(c, CHANGES_PER_STEP);
    if (refused.length > 0) return failMove(directory, source, placement, refused);
    if (left === 0) break;
  }
  // The list's own row as its old database last held it (its appeal is now on the new one).
  const [[row]] = await rowsOf(source, [sql`SELECT * FROM ${accountLists} WHERE id = ${listId}`]);
  const upsert = row && placement.other !== placement.database ? upsertRows(accountLists, [row]) : undefined;
  if (upsert) await target.run(upsert);
  // From the switch on, writes reach the new database as the list's own: their events are recorded there.
  await target.run(sql`DELETE FROM moving_lists WHERE account_list_id = ${listId} AND state = 'arriving'`);
  const switchedAt = nowTimestamp();
  await runAtomically(directory, [
    sql`UPDATE ${listPlacements} SET database = other, other = database, state = 'cleaning', cursor_table = NULL, cursor_key = NULL,
      switched_at = ${switchedAt}, switch_ms = ${Date.now() - began}, updated_at = ${switchedAt}
      WHERE account_list_id = ${listId} AND state = 'switching'`,
  ]);
  // Requests that still hold the old placement (cached for a few seconds) are refused there, not lost.
  await source.run(sql`UPDATE moving_lists SET state = 'moved' WHERE account_list_id = ${listId}`);
  return { next: "again" };
}

/**
 * A move that cannot switch without leaving rows behind: the old database takes the list's writes again (and stops
 * recording them), and the new one's copy is removed as a moved list's old rows are, at once.
 */
async function failMove(directory: Database, source: Database, placement: Placement, refused: string[]): Promise<MoveStep> {
  const listId = placement.account_list_id;
  const shown = refused.slice(0, 10).join("; ");
  const failure = `rows the new database could not take: ${shown}${refused.length > 10 ? ` and ${refused.length - 10} more` : ""}`;
  await runAtomically(source, [sql`DELETE FROM moving_lists WHERE account_list_id = ${listId}`, sql`DELETE FROM list_changes WHERE account_list_id = ${listId}`]);
  await directory.run(
    sql`UPDATE ${listPlacements} SET state = 'cleaning', cursor_table = NULL, cursor_key = NULL, switched_at = ${isoAt(0)}, failure = ${failure}, updated_at = ${nowTimestamp()}
      WHERE account_list_id = ${listId} AND state IN ('copying', 'switching')`,
  );
  console.error(JSON.stringify({ level: "error", message: "list move failed", account_list_id: listId, from: placement.database, to: placement.other, failure }));
  return { next: "again" };
}

/** Seconds after switching before the old rows go: longer than any request can hold the old placement. */
export function cleanAfterSeconds(env: { VIEWER_CACHE_SECONDS?: string }): number {
  return Math.max(10, 2 * Number(env.VIEWER_CACHE_SECONDS ?? 0));
}

async function cleanStep(env: Bindings, directory: Database, placement: Placement, now: number): Promise<MoveStep> {
  const listId = placement.account_list_id;
  const waited = (now - Date.parse(placement.switched_at ?? new Date(now).toISOString())) / 1000;
  const wait = cleanAfterSeconds(env) - waited;
  if (wait > 0) return { next: "later", seconds: Math.ceil(wait) };
  const old = on(env, placement.other!);
  await old.run(sql`UPDATE moving_lists SET state = 'deleting' WHERE account_list_id = ${listId}`);
  let statements = 0;
  // Children go with their parents (the schema's cascades): the tables with the list's id, children last.
  for (const entry of LIST_ROOT_TABLES().reverse()) {
    for (;;) {
      if (++statements > STATEMENTS_PER_STEP) return { next: "again" };
      const [gone] = await rowsChanged(old, [
        sql`DELETE FROM ${sql.identifier(entry.name)} WHERE rowid IN (SELECT rowid FROM ${sql.identifier(entry.name)} WHERE account_list_id = ${listId} LIMIT ${COPY_ROWS * 2})`,
      ]);
      if (gone < COPY_ROWS * 2) break;
    }
  }
  await runAtomically(old, [
    ...(placement.other === DIRECTORY ? [] : [sql`DELETE FROM account_lists WHERE id = ${listId}`]),
    ...keptRowsOfListRemoved(listId),
    sql`DELETE FROM list_changes WHERE account_list_id = ${listId}`,
    sql`DELETE FROM moving_lists WHERE account_list_id = ${listId}`,
  ]);
  await directory.run(sql`UPDATE ${listPlacements} SET state = 'placed', other = NULL, updated_at = ${nowTimestamp()} WHERE account_list_id = ${listId} AND state = 'cleaning'`);
  return { next: "done" };
}

/**
 * Steps one message runs, one after another, while they last no longer than `STEP_SECONDS` in all: a message
 * waits for its delivery, so steps in a row copy faster. On the Free plan (50 D1 queries an invocation) set
 * MOVE_STEPS_PER_MESSAGE to 1.
 */
const STEPS_PER_MESSAGE = 8;
const STEP_SECONDS = 10;

function stepsPerMessage(env: { MOVE_STEPS_PER_MESSAGE?: string }): number {
  const steps = Number(env.MOVE_STEPS_PER_MESSAGE ?? STEPS_PER_MESSAGE);
  return Number.isInteger(steps) && steps > 0 ? steps : STEPS_PER_MESSAGE;
}

/** The list-moves queue's consumer: steps while a message's time lasts, then the next message (later, while waiting to clean). */
export async function consumeListMoves(batch: MessageBatch<unknown>, env: Bindings): Promise<void> {
  for (const message of batch.messages) {
    const listId = (message.body as Partial<ListMoveMessage> | null)?.accountListId;
    if (typeof listId !== "string") {
      message.ack();
      continue;
    }
    try {
      const began = Date.now();
      let step = await moveStep(env, listId);
      for (let steps = 1; step.next === "again"; steps++) {
        // Switching follows at once, in the same invocation, whatever the count: the list's writes are refused until it is done.
        const switching = (await placementOf(database(env.DB), listId))?.state === "switching";
        if (!switching && (steps >= stepsPerMessage(env) || Date.now() - began > STEP_SECONDS * 1000)) break;
        step = await moveStep(env, listId);
      }
      if (step.next === "again") await env.LIST_MOVE_QUEUE.send({ accountListId: listId });
      if (step.next === "later") await env.LIST_MOVE_QUEUE.send({ accountListId: listId }, { delaySeconds: step.seconds });
      message.ack();
      const placement = await placementOf(database(env.DB), listId);
      console.log(JSON.stringify({ level: "info", message: "list move", account_list_id: listId, state: placement?.state, database: placement?.database, rows_copied: placement?.rows_copied, next: step.next }));
    } catch (error) {
      console.error(error);
      message.retry({ delaySeconds: Math.min(60, 2 ** message.attempts) });
    }
  }
}

export const isListMoveQueue = (queue: string) => queue.startsWith("list-moves");
