/**
 * Where the tests' own rows are read and written: the storage of the layout the suite runs in.
 *
 * The suite runs twice (vitest.config.ts). In the one-database layout every row is on `DB`. In the placed
 * layout (`TEST_LAYOUT=lists-placed`) the service has the directory on `DB` and every account list placed on the
 * list database `LIST_DB_1`, as a deployment that has moved its lists off the directory. The tests build their
 * data and look at what was stored as they always do; this binding puts each statement where that layout keeps
 * its rows, the way an operator's load would:
 * - the directory's own rows (invites, background batches, announcements, placements) on the directory;
 * - the rows the directory is the authority for and list databases keep copies of (users, memberships,
 *   organizations and organization accounts, currency rates, master people) written on both and read from the
 *   directory;
 * - account lists, people and their details written on the list database and, where the directory can take them
 *   (a list's row without links to the list's own records, a user's own person), on the directory too; read from
 *   the list database (a list's own database holds its settings and totals). A new list is placed on the list
 *   database;
 * - everything else a list owns on the list database.
 */
import { env } from "cloudflare:workers";
import { getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../drizzle/schema";

export const PLACED_ON = "LIST_DB_1";

export const listsPlaced = (env as unknown as { TEST_LAYOUT?: string }).TEST_LAYOUT === "lists-placed";

/** The binding of the database the tests' lists are on: what a test wraps to watch or break the lists' statements. */
export const LISTS_ON = listsPlaced ? PLACED_ON : "DB";

const DIRECTORY_ONLY = new Set(["account_list_invites", "announcements", "announcement_actions", "background_batches", "background_batch_requests", "client_ids", "identity_links", "list_placements"]);
const DIRECTORY_COPIED = new Set(["users", "account_list_users", "account_list_coaches", "organizations", "organization_accounts", "currency_rates", "master_people", "notification_types"]);
/** A user's own person and its details are the directory's; a contact's people and theirs are the list's. */
const PERSON_TABLES = new Set(["people", "email_addresses", "phone_numbers", "facebook_accounts", "linkedin_accounts", "twitter_accounts", "websites", "family_relationships"]);

/** Where a statement runs: its databases in order, the one whose answer is returned, and those allowed to refuse it. */
interface Route {
  databases: D1Database[];
  answer: D1Database;
  /** A person's row goes to the directory too only when the directory has what it points at (a user's person). */
  optional?: D1Database;
}

const TABLES = new Set(Object.values(schema).filter((value) => is(value, SQLiteTable)).map((table) => getTableName(table as SQLiteTable)));

/** The tables a statement names (not its common table expressions or table-valued functions). */
function tablesOf(query: string): Set<string> {
  const tables = new Set<string>();
  for (const match of query.matchAll(/\b(?:from|join|into|update)\s+"?([a-z_0-9]+)"?/gi)) if (TABLES.has(match[1].toLowerCase())) tables.add(match[1].toLowerCase());
  return tables;
}

function routeOf(query: string): Route {
  const directory = env.DB;
  const list = env[PLACED_ON as "DB"] as D1Database;
  const tables = [...tablesOf(query)];
  const writes = /\b(insert\s+(or\s+\w+\s+)?into|replace\s+into|delete\s+from|update\s+"?\w+"?\s+set)\b/i.test(query);
  const onlyDirectory = tables.length > 0 && tables.every((table) => DIRECTORY_ONLY.has(table) || DIRECTORY_COPIED.has(table));
  if (tables.some((table) => DIRECTORY_ONLY.has(table)) && onlyDirectory) return { databases: [directory], answer: directory };
  if (!writes) return onlyDirectory ? { databases: [directory], answer: directory } : { databases: [list], answer: list };
  if (onlyDirectory) return { databases: [directory, list], answer: directory };
  // The directory's copy of a list takes what it can point at (not the list's primary appeal, say).
  const directoryTakes = tables.every((table) => table === "account_lists" || PERSON_TABLES.has(table) || DIRECTORY_COPIED.has(table));
  if (directoryTakes) return { databases: [list, directory], answer: list, optional: directory };
  return { databases: [list], answer: list };
}

const refusedForeignKey = (error: unknown) => String(error).includes("FOREIGN KEY constraint failed");

/** New lists on the directory are placed on the list database, as a move would leave them. */
async function placeNewLists(): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO list_placements (account_list_id, database, state, updated_at)
       SELECT id, ?1, 'placed', strftime('%Y-%m-%dT%H:%M:%SZ', 'now') FROM account_lists WHERE id NOT IN (SELECT account_list_id FROM list_placements)`,
  )
    .bind(PLACED_ON)
    .run();
}

class RoutedStatement {
  constructor(
    readonly query: string,
    readonly params: unknown[] = [],
  ) {}

  bind(...params: unknown[]): RoutedStatement {
    return new RoutedStatement(this.query, params);
  }

  on(database: D1Database): D1PreparedStatement {
    return database.prepare(this.query).bind(...this.params);
  }

  private async each<T>(run: (statement: D1PreparedStatement) => Promise<T>): Promise<T> {
    const route = routeOf(this.query);
    let answer: T | undefined;
    for (const database of route.databases) {
      try {
        const result = await run(this.on(database));
        if (database === route.answer) answer = result;
      } catch (error) {
        if (database === route.optional && refusedForeignKey(error)) continue;
        throw error;
      }
    }
    if (tablesOf(this.query).has("account_lists")) await placeNewLists();
    return answer as T;
  }

  first<T>(column?: string): Promise<T | null> {
    return this.each((statement) => (column === undefined ? statement.first<T>() : statement.first<T>(column)));
  }
  run<T>(): Promise<D1Result<T>> {
    return this.each((statement) => statement.run<T>());
  }
  all<T>(): Promise<D1Result<T>> {
    return this.each((statement) => statement.all<T>());
  }
  raw<T>(options?: { columnNames?: boolean }): Promise<T[]> {
    return this.each((statement) => (options?.columnNames ? (statement.raw<T>({ columnNames: true }) as Promise<T[]>) : statement.raw<T>()));
  }
}

/**
 * A batch whose statements all go to one database stays one transaction there. One that spans both runs statement
 * by statement in its order (a copy on the directory may need the row a statement before it wrote there).
 */
async function routedBatch(statements: RoutedStatement[]): Promise<D1Result[]> {
  const routes = statements.map((statement) => routeOf(statement.query));
  const [first] = routes;
  if (first && routes.every((route) => route.databases.length === 1 && route.databases[0] === first.databases[0])) {
    return first.databases[0].batch(statements.map((statement) => statement.on(first.databases[0])));
  }
  const results: D1Result[] = [];
  for (const statement of statements) results.push(await statement.all());
  return results;
}

function routedStorage(): D1Database {
  return {
    prepare: (query: string) => new RoutedStatement(query) as unknown as D1PreparedStatement,
    batch: (statements: D1PreparedStatement[]) => routedBatch(statements as unknown as RoutedStatement[]),
    exec: async (query: string) => {
      let answer: D1ExecResult | undefined;
      for (const database of routeOf(query).databases) answer = await database.exec(query);
      return answer!;
    },
  } as unknown as D1Database;
}

/** The tests' storage: the directory alone in the one-database layout, routed in the placed one. */
export const storage: D1Database = listsPlaced ? routedStorage() : env.DB;
