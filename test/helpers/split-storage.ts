/**
 * The tests' storage in the split layout (`TEST_LAYOUT=lists-split`): the directory on `DB`, and each user's lists
 * spread over the list databases `LIST_DB_1` and `LIST_DB_2`, as `npm run dev` places them. A user's n-th list
 * (counting from 0, as user or coach) is on `LIST_DB_1` for even n and on `LIST_DB_2` for odd n: every user's first
 * list shares `LIST_DB_1` with everyone else's, and a second list is apart.
 *
 * A list is placed on `LIST_DB_1` when its row is written, and moves to `LIST_DB_2` with its first membership when
 * that makes it an odd list of its user (it holds nothing yet then). Each statement then goes where this layout
 * keeps its rows:
 * - the directory's own rows on the directory;
 * - the rows the directory is the authority for (users, memberships, organizations, currency rates, master people,
 *   notification types) written on the directory and on every list database that can take them (a membership only
 *   where its list is; a user's copy without the default list, as the service copies users), read from the
 *   directory;
 * - a list's row on its list database, and a copy on the directory;
 * - any other row on its list's database: found by its `account_list_id`, else by the database that holds what its
 *   keys point at (a row is refused where its parent is missing). A user's own person and its details, and donor
 *   accounts, are kept on every database, as copies. Several rows of several lists in one INSERT are written a list
 *   at a time. UPDATE and DELETE run everywhere such rows may be;
 * - reads of those rows run on each list database and are put together: the rows of both (a copy held by both
 *   counted once), a plain aggregate combined (counts and sums added), ordered and limited again.
 */
import { env } from "cloudflare:workers";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { accountLists } from "../../drizzle/schema";
import { LIST_ROOT_TABLES, listTable } from "../../src/db/list-tables";
import { insertSelectKeeping, isSchemaChange, isWrite, readInsert, readSelect, tablesOf, writtenTable, type Aggregate, type Insert, type InsertRow, type SelectShape } from "./sql-text";
import { DIRECTORY_COPIED, DIRECTORY_ONLY, PERSON_TABLES, placeNewLists, refusedForeignKey } from "./storage-tables";

const DIRECTORY = "DB";
/** Where every user's first list is: the database of the tests' lists unless a test makes more than one. */
export const FIRST_LISTS_ON = "LIST_DB_1";
const SECOND_LISTS_ON = "LIST_DB_2";
const LIST_DATABASES = [FIRST_LISTS_ON, SECOND_LISTS_ON];

/** Rows every list database keeps a copy of, beside the lists' own: read from both, they are counted once. */
const COPIED_ON_LISTS = new Set([...PERSON_TABLES, "donor_accounts"]);
const MEMBERSHIPS = new Set(["account_list_users", "account_list_coaches"]);

const binding = (name: string) => env[name as "DB"] as D1Database;

/** A statement's answer from one or more databases, as columns and rows. */
interface Answer {
  columns: string[];
  rows: unknown[][];
  changes: number;
  meta: D1Meta & Record<string, unknown>;
}

async function readOn(name: string, query: string, params: unknown[]): Promise<Answer> {
  const started = Date.now();
  const [columns = [], ...rows] = (await binding(name).prepare(query).bind(...params).raw({ columnNames: true })) as [string[], ...unknown[][]];
  return { columns, rows, changes: 0, meta: meta(0, Date.now() - started) };
}

function meta(changes: number, duration: number): Answer["meta"] {
  return { changes, duration, last_row_id: 0, changed_db: changes > 0, size_after: 0, rows_read: 0, rows_written: changes };
}

function fromResult(result: D1Result<Record<string, unknown>>): Answer {
  const rows = result.results ?? [];
  const columns = rows.length > 0 ? Object.keys(rows[0]) : [];
  return { columns, rows: rows.map((row) => columns.map((column) => row[column])), changes: result.meta.changes, meta: result.meta as Answer["meta"] };
}

async function writeOn(name: string, query: string, params: unknown[]): Promise<Answer> {
  return fromResult(await binding(name).prepare(query).bind(...params).all());
}

/** The answers of a write that ran on several databases: its RETURNING rows, its changes added. */
function together(answers: Answer[]): Answer {
  if (answers.length === 0) return { columns: [], rows: [], changes: 0, meta: meta(0, 0) };
  const columns = answers.find((answer) => answer.columns.length > 0)?.columns ?? [];
  const changes = answers.reduce((sum, answer) => sum + answer.changes, 0);
  return { columns, rows: answers.flatMap((answer) => answer.rows), changes, meta: { ...answers[0].meta, changes, changed_db: changes > 0 } };
}

/**
 * Runs the write on each database; those in `optional` may refuse it for a missing parent. One database at least
 * must take it.
 */
async function writeWhereTaken(names: string[], query: string, params: unknown[], optional: Set<string>, run = writeOn): Promise<{ answers: Answer[]; taken: string[] }> {
  const answers: Answer[] = [];
  const taken: string[] = [];
  let refusal: unknown;
  for (const name of names) {
    try {
      answers.push(await run(name, query, params));
      taken.push(name);
    } catch (error) {
      if (!optional.has(name) || !refusedForeignKey(error)) throw error;
      refusal = error;
    }
  }
  if (taken.length === 0) throw refusal;
  return { answers, taken };
}

/** A user as list databases keep them: without the default list, which only the directory holds. */
async function writeUserCopy(name: string, query: string, params: unknown[]): Promise<Answer> {
  const database = binding(name);
  const [, result] = await database.batch([
    database.prepare("PRAGMA defer_foreign_keys = ON"),
    database.prepare(query).bind(...params),
    database.prepare("UPDATE users SET default_account_list_id = NULL WHERE default_account_list_id IS NOT NULL"),
  ]);
  return fromResult(result as D1Result<Record<string, unknown>>);
}

// ---- Where lists are ----

const placements = new Map<string, string>();

/** The database a list is placed on (the directory for a list without a placement). */
export async function databaseOfList(listId: string): Promise<string> {
  const known = placements.get(listId);
  if (known) return known;
  const row = await env.DB.prepare("SELECT database FROM list_placements WHERE account_list_id = ?").bind(listId).first<{ database: string }>();
  const name = row?.database ?? DIRECTORY;
  if (row) placements.set(listId, name);
  return name;
}

const LIST_COLUMNS = getTableConfig(accountLists)
  .columns.filter((column) => !(column as { generated?: unknown }).generated)
  .map((column) => column.name);

/** Lists placed on the first list database with their row, waiting for a first member to say whose n-th list they are. */
const unsettled = new Set<string>();

async function placeWritten(): Promise<void> {
  const { results } = await env.DB.prepare("SELECT id FROM account_lists WHERE id NOT IN (SELECT account_list_id FROM list_placements) ORDER BY rowid").all<{ id: string }>();
  for (const { id } of results) unsettled.add(id);
  await placeNewLists(FIRST_LISTS_ON);
}

/** Lists that have their first members now: an odd list of its first member moves to the second database. */
async function settleLists(): Promise<void> {
  if (unsettled.size === 0) return;
  const { results } = await env.DB.prepare(
    `SELECT account_list_id AS list, user_id AS user FROM (
       SELECT account_list_id, user_id, 0 AS kind, rowid AS r FROM account_list_users WHERE account_list_id IN (SELECT value FROM json_each(?1))
       UNION ALL SELECT account_list_id, user_id, 1, rowid FROM account_list_coaches WHERE account_list_id IN (SELECT value FROM json_each(?1))
     ) ORDER BY kind, r`,
  )
    .bind(JSON.stringify([...unsettled]))
    .all<{ list: string; user: string }>();
  for (const { list, user } of results) {
    if (!unsettled.has(list)) continue;
    const counted = await env.DB.prepare(
      `SELECT (SELECT count(*) FROM account_list_users WHERE user_id = ?1 AND account_list_id NOT IN (SELECT value FROM json_each(?2)))
        + (SELECT count(*) FROM account_list_coaches WHERE user_id = ?1 AND account_list_id NOT IN (SELECT value FROM json_each(?2))) AS n`,
    )
      .bind(user, JSON.stringify([...unsettled]))
      .first<{ n: number }>();
    unsettled.delete(list);
    if (counted!.n % 2 === 1) await moveToSecond(list);
  }
}

/** A list just placed, holding nothing yet, moved to the second list database. */
async function moveToSecond(listId: string): Promise<void> {
  const from = binding(FIRST_LISTS_ON);
  const to = binding(SECOND_LISTS_ON);
  const held = await from
    .prepare(`SELECT 1 WHERE ${LIST_ROOT_TABLES().map((table) => `EXISTS (SELECT 1 FROM ${table.name} WHERE account_list_id = ?1)`).join(" OR ")}`)
    .bind(listId)
    .first();
  if (held) throw new Error(`The split layout places a list with its first membership; list ${listId} already holds rows`);
  const list = await from.prepare(`SELECT ${LIST_COLUMNS.join(", ")} FROM account_lists WHERE id = ?`).bind(listId).first<Record<string, unknown>>();
  if (!list) return;
  await to
    .prepare(`INSERT INTO account_lists (${LIST_COLUMNS.join(", ")}) VALUES (${LIST_COLUMNS.map(() => "?").join(", ")})`)
    .bind(...LIST_COLUMNS.map((column) => list[column]))
    .run();
  await from.prepare("DELETE FROM account_lists WHERE id = ?").bind(listId).run();
  await env.DB.prepare("UPDATE list_placements SET database = ? WHERE account_list_id = ?").bind(SECOND_LISTS_ON, listId).run();
  placements.set(listId, SECOND_LISTS_ON);
}

// ---- Writes ----

/** Where the rows written here went, by table and id: what their children are written beside. */
const written = new Map<string, string[]>();

/**
 * The databases each row of a list-owned INSERT goes to: its list's, found by its `account_list_id`, else those that
 * hold the row its owner key points at. A row that points at no list's row (a user's own person and its details,
 * a donor account) is a copy every database keeps.
 */
async function databasesOfRows(insert: Insert): Promise<string[][]> {
  const { table, rows } = insert;
  const everywhere = PERSON_TABLES.has(table) ? [DIRECTORY, ...LIST_DATABASES] : LIST_DATABASES;
  if (rows.every((row) => typeof row.values.account_list_id === "string")) {
    return Promise.all(rows.map(async (row) => [await databaseOfList(row.values.account_list_id as string)]));
  }
  const owner = listTable(table)?.parents.find((parent) => parent.owner);
  if (!owner) return rows.map(() => everywhere);
  const holders = new Map<unknown, string[]>();
  for (const row of rows) {
    const known = owner.references === "id" ? written.get(`${owner.table}:${String(row.values[owner.column])}`) : undefined;
    if (known) holders.set(row.values[owner.column], known);
  }
  const keys = [...new Set(rows.map((row) => row.values[owner.column]).filter((key) => key !== null && key !== undefined && !holders.has(key)))];
  for (const name of everywhere) {
    if (keys.length === 0) break;
    const held = await binding(name)
      .prepare(`SELECT DISTINCT "${owner.references}" AS key FROM "${owner.table}" WHERE "${owner.references}" IN (${keys.map(() => "?").join(", ")})`)
      .bind(...keys)
      .all<{ key: unknown }>();
    for (const { key } of held.results) holders.set(key, [...(holders.get(key) ?? []), name]);
  }
  return rows.map((row) => {
    const key = row.values[owner.column];
    if (key === null || key === undefined) return everywhere;
    // A parent found nowhere: the first list database answers the missing key as any database would.
    return holders.get(key) ?? [FIRST_LISTS_ON];
  });
}

/** A list-owned INSERT: its rows on their databases, several rows of one database in one statement. */
async function insertListRows(insert: Insert, query: string, params: unknown[]): Promise<Answer> {
  const placed = await databasesOfRows(insert);
  const groups = new Map<string, InsertRow[]>();
  insert.rows.forEach((row, index) => {
    const key = placed[index].join(",");
    groups.set(key, [...(groups.get(key) ?? []), row]);
  });
  const answers: Answer[] = [];
  for (const [key, rows] of groups) {
    const statement = groups.size === 1 ? { query, params } : insert.of(rows);
    // A row copied to several databases is one row written: the first copy answers.
    const names = key.split(",");
    const [first, ...copies] = names;
    answers.push(await writeOn(first, statement.query, statement.params));
    for (const name of copies) await writeOn(name, statement.query, statement.params);
    for (const row of rows) if (typeof row.values.id === "string") written.set(`${insert.table}:${row.values.id}`, names);
  }
  return together(answers);
}

/**
 * An INSERT ... SELECT of a list's rows on each database that may hold them: each keeps the rows whose list, or
 * whose owner's row, it holds (a statement may write rows of several lists).
 */
async function insertSelectEverywhere(table: string, query: string, params: unknown[]): Promise<Answer> {
  const owner = listTable(table)?.parents.find((parent) => parent.owner);
  const kept =
    insertSelectKeeping(query, "account_list_id", (value) => `${value} IN (SELECT id FROM account_lists)`) ??
    (owner ? insertSelectKeeping(query, owner.column, (value) => `${value} IS NULL OR ${value} IN (SELECT "${owner.references}" FROM "${owner.table}")`) : null);
  const everywhere = PERSON_TABLES.has(table) ? [...LIST_DATABASES, DIRECTORY] : LIST_DATABASES;
  return together((await writeWhereTaken(everywhere, kept ?? query, params, new Set(everywhere))).answers);
}

async function write(query: string, params: unknown[]): Promise<Answer> {
  const table = writtenTable(query) ?? "";
  const inserts = /^\s*(insert|replace)\b/i.test(query);
  if (DIRECTORY_ONLY.has(table)) return writeOn(DIRECTORY, query, params);
  if (DIRECTORY_COPIED.has(table)) {
    const answer = await writeOn(DIRECTORY, query, params);
    if (MEMBERSHIPS.has(table)) await settleLists();
    // A membership is taken only where its list is; a user without their default list.
    const copy = table === "users" ? writeUserCopy : writeOn;
    await writeWhereTaken(LIST_DATABASES, query, params, new Set(LIST_DATABASES), copy).catch((error) => {
      if (!refusedForeignKey(error)) throw error;
    });
    return answer;
  }
  if (table === "account_lists") {
    // The directory's copy of a list takes what it can point at (not the list's primary appeal, say).
    const lists = inserts ? [FIRST_LISTS_ON] : LIST_DATABASES;
    const { answers } = await writeWhereTaken([...lists, DIRECTORY], query, params, new Set([DIRECTORY]));
    if (inserts) await placeWritten();
    return together(answers.filter((_, index) => index < lists.length));
  }
  if (inserts) {
    const insert = readInsert(query, params);
    return insert ? insertListRows(insert, query, params) : insertSelectEverywhere(table, query, params);
  }
  // UPDATE and DELETE: on every database that may hold such rows, each with its own rows.
  const everywhere = PERSON_TABLES.has(table) ? [...LIST_DATABASES, DIRECTORY] : LIST_DATABASES;
  return together((await writeWhereTaken(everywhere, query, params, new Set(everywhere))).answers);
}

// ---- Reads ----

function compare(a: unknown, b: unknown): number {
  // SQLite's order: NULL, numbers, text.
  const rank = (value: unknown) => (value === null || value === undefined ? 0 : typeof value === "number" || typeof value === "bigint" ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (rank(a) === 0) return 0;
  if (rank(a) === 1) return Number(a) - Number(b);
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** The rows of both list databases as one database would answer them. */
function combine(query: string, params: unknown[], answers: Answer[], copies: boolean): Answer {
  const shape = readSelect(query, params);
  const [first] = answers;
  const columns = answers.find((answer) => answer.columns.length > 0)?.columns ?? first.columns;
  const { aggregates } = shape;
  const from = answers.filter((answer) => answer.rows.length > 0);
  if (from.length < 2) return { ...first, columns, rows: from[0]?.rows ?? [] };
  if (aggregates?.some((kind) => kind !== null)) {
    if (!shape.grouped && !aggregates.every((kind) => kind !== null)) throw new Error(`The split layout cannot combine this aggregate of two databases: ${query}`);
    // A plain aggregate answers one row on each database; a grouped one a row a group: rows of one group are one.
    const groups = new Map<string, unknown[]>();
    for (const row of answers.flatMap((answer) => answer.rows)) {
      const key = JSON.stringify(row.filter((_, index) => aggregates[index] === null));
      const into = groups.get(key);
      groups.set(key, into ? into.map((value, index) => combineAggregate(aggregates[index], value, row[index])) : row);
    }
    return order(shape, columns, { ...first, columns, rows: [...groups.values()] }, query);
  }
  const seen = new Set<string>();
  const rows: unknown[][] = [];
  for (const answer of answers) {
    const here: string[] = [];
    for (const row of answer.rows) {
      const key = JSON.stringify(row);
      if (copies && seen.has(key)) continue;
      here.push(key);
      rows.push(row);
    }
    for (const key of here) seen.add(key);
  }
  return order(shape, columns, { ...first, columns, rows }, query);
}

function combineAggregate(kind: Aggregate | null, a: unknown, b: unknown): unknown {
  if (kind === null || b === null) return a;
  if (a === null) return b;
  if (kind === "sum") return Number(a) + Number(b);
  return compare(b, a) * (kind === "min" ? -1 : 1) > 0 ? b : a;
}

/** The rows of two databases ordered and limited again as one database would. */
function order(shape: SelectShape, columns: string[], answer: Answer, query: string): Answer {
  const rows = [...answer.rows];
  if (shape.order.length > 0) {
    const indexes = shape.order.map((term) => (typeof term.column === "number" ? term.column - 1 : term.column === null ? -1 : columns.indexOf(term.column)));
    if (indexes.includes(-1)) throw new Error(`The split layout cannot order the rows of two databases by this: ${query}`);
    rows.sort((a, b) => {
      for (const [position, index] of indexes.entries()) {
        const order = compare(a[index], b[index]);
        if (order !== 0) return shape.order[position].descending ? -order : order;
      }
      return 0;
    });
  }
  if (shape.limit) {
    if (shape.order.length === 0) throw new Error(`The split layout cannot limit the rows of two databases without an order: ${query}`);
    return { ...answer, rows: rows.slice(shape.limit.offset, shape.limit.offset + shape.limit.count) };
  }
  return { ...answer, rows };
}

async function read(query: string, params: unknown[]): Promise<Answer> {
  const tables = [...tablesOf(query)];
  if (tables.length > 0 && tables.every((table) => DIRECTORY_ONLY.has(table) || DIRECTORY_COPIED.has(table))) return readOn(DIRECTORY, query, params);
  // The schema itself, or no table at all: the same on each list database.
  if (isSchemaChange(query) || tables.length === 0) return readOn(FIRST_LISTS_ON, query, params);
  const answers = await Promise.all(LIST_DATABASES.map((name) => readOn(name, query, params)));
  return combine(query, params, answers, tables.some((table) => COPIED_ON_LISTS.has(table)));
}

async function answer(query: string, params: unknown[]): Promise<Answer> {
  if (isSchemaChange(query) && !isWrite(query)) {
    // Triggers, table changes, statistics: the list databases' own, on each of them.
    const answers = [];
    for (const name of LIST_DATABASES) answers.push(await writeOn(name, query, params));
    return answers[0];
  }
  return isWrite(query) ? write(query, params) : read(query, params);
}

// ---- The binding ----

const objects = ({ columns, rows }: Answer) => rows.map((row) => Object.fromEntries(columns.map((column, index) => [column, row[index]])));

class SplitStatement {
  constructor(
    readonly query: string,
    readonly params: unknown[] = [],
  ) {}

  bind(...params: unknown[]): SplitStatement {
    return new SplitStatement(this.query, params);
  }

  async all<T>(): Promise<D1Result<T>> {
    const result = await answer(this.query, this.params);
    return { results: objects(result) as T[], success: true, meta: result.meta };
  }
  run<T>(): Promise<D1Result<T>> {
    return this.all<T>();
  }
  async first<T>(column?: string): Promise<T | null> {
    const [row] = (await this.all<Record<string, unknown>>()).results;
    if (!row) return null;
    return (column === undefined ? row : row[column]) as T;
  }
  async raw<T>(options?: { columnNames?: boolean }): Promise<T[]> {
    const result = await answer(this.query, this.params);
    return (options?.columnNames ? [result.columns, ...result.rows] : result.rows) as T[];
  }
}

/** Statements one after another, in order (a copy may need the row a statement before it wrote). */
async function splitBatch(statements: SplitStatement[]): Promise<D1Result[]> {
  const results: D1Result[] = [];
  for (const statement of statements) results.push(await statement.all());
  return results;
}

export function splitStorage(): D1Database {
  return {
    prepare: (query: string) => new SplitStatement(query) as unknown as D1PreparedStatement,
    batch: (statements: D1PreparedStatement[]) => splitBatch(statements as unknown as SplitStatement[]),
    exec: async (query: string) => {
      await answer(query, []);
      return { count: 1, duration: 0 };
    },
  } as unknown as D1Database;
}
