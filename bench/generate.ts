/** Fills the service's D1 with the generated dataset and reads back what the scenarios need. */
import { benchIds, datasetStatements } from "./dataset";
import type { GenerationStep, WriteCosts } from "./report";
import { migrationStatements, type D1Handle } from "./server";

/** The statement of refreshPlannerStatistics in src/db/maintenance.ts (which needs the Workers types to import). */
const PLANNER_STATISTICS = "PRAGMA optimize=0x10002";

/** Index statements (created, or dropped by a later migration) run last, in migration order. */
const isIndex = (sql: string) => /^(CREATE\s+(UNIQUE\s+)?|DROP\s+)INDEX/i.test(sql);

/**
 * The index statements, less those on a table a later migration drops and rebuilds (SQLite's way of changing a
 * table): the rebuilt table comes with its own indexes, and the dropped one's would clash with them.
 */
function builtIndexes(migration: string[]): string[] {
  const tableOf = (sql: string) => /\bON\s+[`"]?(\w+)[`"]?/i.exec(sql)?.[1];
  const droppedAfter = (table: string, position: number) =>
    migration.slice(position + 1).some((sql) => new RegExp(`^DROP\\s+TABLE\\s+[\`"]?${table}[\`"]?`, "i").test(sql));
  return migration.filter((sql, position) => isIndex(sql) && !(tableOf(sql) && droppedAfter(tableOf(sql)!, position)));
}

/**
 * What a migration builds from the rows already there: the kept counts, sums and marks (backfills), then the
 * triggers that keep them.
 */
const isKeeping = (sql: string) =>
  /^(INSERT\s+INTO\s+[`"]?(list_row_counts|kept_sums|person_days|contact_name_stamps)\b|UPDATE\s+activity_contacts\s+SET|UPDATE\s+contacts\s+SET\s+referrals_to_me\b|UPDATE\s+person_days\s+SET|(CREATE|DROP)\s+TRIGGER)/i.test(sql);

/**
 * Tables first, rows next, secondary indexes and then what keeps derived rows last: building an index, or a kept
 * total, once from the full table is several times faster than maintaining it row by row, and the end state is the
 * same migrated schema.
 */
/**
 * Inserts a financial partner with a pledge and a gift to a contact of list 1 that already gives, links a task to
 * the partner and completes it, reads the rows D1 reports written by each statement, and removes them again.
 */
async function writeCosts(db: D1Handle): Promise<Record<keyof WriteCosts, number>> {
  const stamp = "2026-01-01T00:00:00Z";
  const contact = await db
    .prepare(`INSERT INTO contacts (id, account_list_id, name, status, pledge_amount, pledge_frequency, pledge_received, pledge_currency, created_at, updated_at)
      VALUES ('00000000-0000-4000-8000-00000000c0de', '${benchIds.lists[0]}', 'Written, Probe', 'Partner - Financial', 1000000, '1.0', 1, 'USD', '${stamp}', '${stamp}')`)
    .run();
  const donation = await db
    .prepare(`INSERT INTO donations (id, account_list_id, designation_account_id, donor_account_id, amount, currency, donation_date, created_at, updated_at)
      SELECT '00000000-0000-4000-8000-00000000d0de', c.account_list_id, d.id, x.donor_account_id, 1000000, 'USD', date('now'), '${stamp}', '${stamp}'
      FROM contact_donor_accounts x JOIN contacts c ON c.id = x.contact_id JOIN designation_accounts d ON d.account_list_id = c.account_list_id
      WHERE c.account_list_id = '${benchIds.lists[0]}' LIMIT 1`)
    .run();
  // A task linked to the contact, then completed: the link carries the task's state (drizzle/task-link-copies.ts).
  await db
    .prepare(`INSERT INTO tasks (id, account_list_id, activity_type, subject, start_at, created_at, updated_at)
      VALUES ('00000000-0000-4000-8000-00000000a5c0', '${benchIds.lists[0]}', 'Call', 'Written, Probe', '${stamp}', '${stamp}', '${stamp}')`)
    .run();
  const link = await db
    .prepare(`INSERT INTO activity_contacts (id, task_id, contact_id, created_at, updated_at)
      VALUES ('00000000-0000-4000-8000-00000000a5c1', '00000000-0000-4000-8000-00000000a5c0', '00000000-0000-4000-8000-00000000c0de', '${stamp}', '${stamp}')`)
    .run();
  const completion = await db.prepare(`UPDATE tasks SET completed = 1, completed_at = '${stamp}' WHERE id = '00000000-0000-4000-8000-00000000a5c0'`).run();
  await db.prepare("DELETE FROM tasks WHERE id = '00000000-0000-4000-8000-00000000a5c0'").run();
  await db.prepare("DELETE FROM donations WHERE id = '00000000-0000-4000-8000-00000000d0de'").run();
  await db.prepare("DELETE FROM contacts WHERE id = '00000000-0000-4000-8000-00000000c0de'").run();
  const written = (result: { meta: { rows_written?: number } }) => result.meta.rows_written ?? 0;
  return { contact: written(contact), donation: written(donation), link: written(link), completion: written(completion) };
}

/**
 * Rows per statement of a backfill that updates a whole table: local D1 drops the connection of a statement that
 * runs for about 8 seconds ("fetch failed: other side closed"), and copying each task's state onto its 500,000 links
 * at 100,000 contacts took longer. Run in ranges of rowid, each statement's time stays bounded whatever the size.
 */
const UPDATE_ROWS = 50_000;

/** The statement with its parenthesized parts (subqueries, column lists) taken out: what is left is its top level. */
function topLevel(sql: string): string {
  let previous;
  do {
    previous = sql;
    sql = sql.replace(/\([^()]*\)/g, "");
  } while (sql !== previous);
  return sql;
}

/** A statement that keeps derived rows, a backfill UPDATE of a whole table split into rowid ranges. */
async function runKeeping(db: D1Handle, sql: string): Promise<number> {
  const table = /^UPDATE\s+[`"]?(\w+)[`"]?\s+SET\b/i.exec(sql)?.[1];
  if (!table) {
    const { meta } = await db.prepare(sql).run();
    // A trigger made or dropped writes no rows (and D1 may report the previous statement's count for it).
    return /^INSERT\b/i.test(sql) ? (meta.changes ?? 0) : 0;
  }
  const statement = sql.trim().replace(/;$/, "");
  const joiner = /\bWHERE\b/i.test(topLevel(statement)) ? "AND" : "WHERE";
  const { results } = await db.prepare(`SELECT min(rowid) AS first, max(rowid) AS last FROM ${table}`).all<{ first: number | null; last: number | null }>();
  let changes = 0;
  for (let from = results[0].first ?? 1; from <= (results[0].last ?? 0); from += UPDATE_ROWS) {
    changes += (await db.prepare(`${statement} ${joiner} rowid BETWEEN ${from} AND ${from + UPDATE_ROWS - 1}`).run()).meta.changes ?? 0;
  }
  return changes;
}

/** Each step of the dataset's generation, as it ends: its label, the rows it wrote and how long it took. */
export type StepReport = (step: GenerationStep) => void;

export async function generate(db: D1Handle, contacts: number, onStep: StepReport = () => {}): Promise<{ steps: GenerationStep[]; ms: number; writes: WriteCosts }> {
  const started = performance.now();
  const steps: GenerationStep[] = [];
  const ended = (step: GenerationStep) => {
    steps.push(step);
    onStep(step);
  };
  /** Runs one step (its statements one after another), timing it. */
  const step = async (label: string, run: () => Promise<number | void>) => {
    const stepStarted = performance.now();
    let rows;
    try {
      rows = await run();
    } catch (error) {
      throw new Error(`dataset step "${label}" failed after ${((performance.now() - stepStarted) / 1000).toFixed(1)} s: ${String(error)}`, { cause: error });
    }
    ended({ label, ms: performance.now() - stepStarted, rows: rows ?? 0 });
  };
  const migration = migrationStatements();
  await step("migrations: tables", async () => {
    await db.batch(migration.filter((sql) => !isIndex(sql) && !isKeeping(sql)).map((sql) => db.prepare(sql)));
  });
  // A label's statements (one per chunk of contacts) follow each other: they make one step.
  const labelled = new Map<string, string[]>();
  for (const statement of datasetStatements(contacts)) labelled.set(statement.label, [...(labelled.get(statement.label) ?? []), statement.sql]);
  for (const [label, statements] of labelled) {
    await step(label, async () => {
      let rows = 0;
      for (const sql of statements) {
        const result = await db.prepare(sql).run();
        rows += result.meta.changes ?? result.meta.rows_written ?? 0;
      }
      return rows;
    });
  }
  await step("migrations: indexes", async () => {
    for (const sql of builtIndexes(migration)) await db.prepare(sql).run();
  });
  const before = await writeCosts(db);
  await step("migrations: kept rows and their triggers", async () => {
    let rows = 0;
    for (const sql of migration.filter(isKeeping)) rows += await runKeeping(db, sql);
    return rows;
  });
  const after = await writeCosts(db);
  const writes = Object.fromEntries((Object.keys(before) as Array<keyof WriteCosts>).map((kind) => [kind, { before: before[kind], after: after[kind] }])) as unknown as WriteCosts;
  // What the daily cron runs (src/db/maintenance.ts): the planner gets the statistics a deployed database has.
  await step("planner statistics", async () => {
    await db.prepare(PLANNER_STATISTICS).run();
  });
  return { steps, ms: performance.now() - started, writes };
}

/** The database's size in bytes, as D1 reports it after a statement (what its 10 GB limit counts). */
export async function databaseBytes(db: D1Handle): Promise<number | undefined> {
  return (await db.prepare("SELECT 1").run()).meta.size_after;
}

const COUNTED_TABLES = ["contacts", "people", "addresses", "email_addresses", "phone_numbers", "contact_tags", "donations", "pledges", "appeals", "tasks", "activity_contacts"];

export async function tableRows(db: D1Handle): Promise<Record<string, number>> {
  const counts = (await db.batch(COUNTED_TABLES.map((t) => db.prepare(`SELECT count(*) AS n FROM ${t}`)))) as Array<{ results: Array<{ n: number }> }>;
  return Object.fromEntries(COUNTED_TABLES.map((t, i) => [t, counts[i].results[0].n]));
}

/** A contact of a list the viewer is a user of (not the coached one), for the write scenarios. */
export async function writableContact(db: D1Handle): Promise<string> {
  const lists = JSON.stringify(benchIds.viewerLists.slice(0, 2));
  const { results } = await db.prepare(`SELECT id FROM contacts WHERE account_list_id IN (SELECT value FROM json_each('${lists}')) ORDER BY created_at, id LIMIT 1`).all<{ id: string }>();
  return results[0].id;
}

/** Up to 150 contacts the viewer can read, spread over the whole dataset and over their lists. */
export async function sampleContacts(db: D1Handle, contacts: number): Promise<string[]> {
  const lists = JSON.stringify(benchIds.viewerLists);
  const step = Math.max(1, Math.floor((contacts * 0.9) / 150));
  const { results } = await db
    .prepare(
      `SELECT id FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS r FROM contacts WHERE account_list_id IN (SELECT value FROM json_each('${lists}')))
       WHERE r % ${step} = 0 LIMIT 150`,
    )
    .all<{ id: string }>();
  return results.map((r) => r.id);
}
