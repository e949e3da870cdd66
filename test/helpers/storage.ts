/**
 * Where the tests' own rows are read and written: the storage of the layout the suite runs in.
 *
 * The suite runs in three layouts (vitest.config.ts). In the one-database layout every row is on `DB`. In the placed
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
 * The split layout (`TEST_LAYOUT=lists-split`), where each user's lists are on two list databases, has its own
 * binding: test/helpers/split-storage.ts.
 */
import { env } from "cloudflare:workers";
import { isWrite, tablesOf } from "./sql-text";
import { FIRST_LISTS_ON, databaseOfList, splitStorage } from "./split-storage";
import { DIRECTORY_COPIED, DIRECTORY_ONLY, PERSON_TABLES, placeNewLists, refusedForeignKey } from "./storage-tables";

export const PLACED_ON = "LIST_DB_1";

const layout = (env as unknown as { TEST_LAYOUT?: string }).TEST_LAYOUT;
export const listsPlaced = layout === "lists-placed";
export const listsSplit = layout === "lists-split";

/**
 * The binding of the database the tests' lists are on: what a test wraps to watch or break the lists' statements.
 * In the split layout, that of each user's first list; `databaseOfTestList` names that of any list.
 */
export const LISTS_ON = listsPlaced ? PLACED_ON : listsSplit ? FIRST_LISTS_ON : "DB";

/** The binding of the database a list is on, in the layout the suite runs in. */
export async function databaseOfTestList(listId: string): Promise<string> {
  return listsSplit ? databaseOfList(listId) : LISTS_ON;
}

/** Where a statement runs: its databases in order, the one whose answer is returned, and those allowed to refuse it. */
interface Route {
  databases: D1Database[];
  answer: D1Database;
  /** A person's row goes to the directory too only when the directory has what it points at (a user's person). */
  optional?: D1Database;
}

function routeOf(query: string): Route {
  const directory = env.DB;
  const list = env[PLACED_ON as "DB"] as D1Database;
  const tables = [...tablesOf(query)];
  const writes = isWrite(query);
  const onlyDirectory = tables.length > 0 && tables.every((table) => DIRECTORY_ONLY.has(table) || DIRECTORY_COPIED.has(table));
  if (tables.some((table) => DIRECTORY_ONLY.has(table)) && onlyDirectory) return { databases: [directory], answer: directory };
  if (!writes) return onlyDirectory ? { databases: [directory], answer: directory } : { databases: [list], answer: list };
  if (onlyDirectory) return { databases: [directory, list], answer: directory };
  // The directory's copy of a list takes what it can point at (not the list's primary appeal, say).
  const directoryTakes = tables.every((table) => table === "account_lists" || PERSON_TABLES.has(table) || DIRECTORY_COPIED.has(table));
  if (directoryTakes) return { databases: [list, directory], answer: list, optional: directory };
  return { databases: [list], answer: list };
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
    if (tablesOf(this.query).has("account_lists")) await placeNewLists(PLACED_ON);
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

/** The tests' storage: the directory alone in the one-database layout, routed in the others. */
export const storage: D1Database = listsPlaced ? routedStorage() : listsSplit ? splitStorage() : env.DB;
