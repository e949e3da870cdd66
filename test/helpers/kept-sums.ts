/**
 * The kept rows (the list counts of drizzle/list-counts.ts, the totals of drizzle/kept-sums.ts, the task state of
 * drizzle/task-link-copies.ts) checked against their recount from the rows themselves, after whatever writes a test
 * made.
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { KEPT_SUMS, keptSumRecount } from "../../drizzle/kept-sums";
import { COPIED } from "../../drizzle/task-link-copies";
import { storage } from "./storage";

type KeptRow = [string, string, string, string, string, number, number];

const ORDER = " ORDER BY 1, 2, 3, 4, 5";

type CountRow = { table_name: string; account_list_id: string; bucket: string; rows: number };

/** The kept counts, leaving out buckets emptied to zero. */
export async function keptCounts(db: D1Database = storage): Promise<CountRow[]> {
  return (await db.prepare("SELECT table_name, account_list_id, bucket, rows FROM list_row_counts WHERE rows <> 0 ORDER BY 1, 2, 3").all<CountRow>()).results;
}

/** The same counts from the rows themselves. */
async function actualCounts(db: D1Database): Promise<CountRow[]> {
  const recount = `SELECT * FROM (
      SELECT 'contacts' AS table_name, account_list_id, COALESCE(status, '') AS bucket, count(*) AS rows FROM contacts GROUP BY 2, 3
      UNION ALL SELECT 'tasks', account_list_id, CAST(completed AS TEXT), count(*) FROM tasks GROUP BY 2, 3
    ) ORDER BY 1, 2, 3`;
  return (await db.prepare(recount).all<CountRow>()).results;
}

/** The kept counts and totals of a database (the directory's by default) equal their recount. */
export async function expectCountsKept(db: D1Database = storage): Promise<void> {
  const actual = await actualCounts(db);
  expect(actual.length).toBeGreaterThan(0);
  expect(await keptCounts(db)).toEqual(actual);
  // The kept totals too: partners' pledges by list, open tasks by start month and day; and the task state links carry.
  await expectKeptSumsExact(db);
  await expectTaskLinkCopiesExact(db);
}

/** Every task link carries its task's state (drizzle/task-link-copies.ts). */
export async function expectTaskLinkCopiesExact(db: D1Database = storage): Promise<void> {
  const differing = await db
    .prepare(`SELECT x.id FROM activity_contacts x JOIN tasks t ON t.id = x.task_id WHERE ${COPIED.map((column) => `x.task_${column} IS NOT t.${column}`).join(" OR ")}`)
    .all();
  expect(differing.results).toEqual([]);
}

export async function expectKeptSumsExact(db: D1Database = storage): Promise<void> {
  const kept = await db.prepare(`SELECT kind, owner_id, key1, key2, key3, units, rows FROM kept_sums${ORDER}`).raw<KeptRow>();
  // Each kind recounted apart (D1 allows a compound SELECT only a few terms), then ordered together.
  const recounted: KeptRow[] = [];
  for (const sum of KEPT_SUMS) recounted.push(...(await db.prepare(keptSumRecount(sum)).raw<KeptRow>()));
  const sortKey = (row: KeptRow) => JSON.stringify(row.slice(0, 5));
  const inOrder = (rows: KeptRow[]) => rows.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
  expect(inOrder(kept)).toEqual(inOrder(recounted));
}

/** The statements of the migration whose name contains `name` that `pick` selects (its backfills, say). */
export function migrationQueries(name: string, pick: (query: string) => boolean): string[] {
  const migration = env.TEST_MIGRATIONS.find((m) => m.name.includes(name));
  expect(migration, `a migration named like ${name}`).toBeDefined();
  return migration!.queries.filter(pick);
}

/** The database's triggers whose SQL mentions any of `mentions` are exactly the declared `CREATE TRIGGER` statements. */
export async function expectTriggersAsDeclared(mentions: string[], declared: string[]): Promise<void> {
  const where = mentions.map(() => "sql LIKE ?").join(" OR ");
  const triggers = await storage.prepare(`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND (${where})`)
    .bind(...mentions.map((text) => `%${text}%`))
    .raw<[string]>();
  const text = (statement: string) => statement.replace(/;\s*$/, "");
  const expected = declared.filter((statement) => statement.startsWith("CREATE TRIGGER"));
  expect(expected.length).toBeGreaterThan(0);
  expect(triggers.map(([sql]) => text(sql)).sort()).toEqual(expected.map(text).sort());
}
