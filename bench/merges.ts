/**
 * Merges and duplicates: what a merge of two large contacts and the duplicate finders cost in D1.
 *
 * - A merge of two contacts of list 1 with 1,000 tasks and 500 gifts each (through a donor account each), by the
 *   clients' POST /contacts/merges/bulk: its round trips, rows read and rows written (the service's own D1 metrics).
 *   The target: no read per task or gift (rows read well under the 3,000 records it moves), one atomic batch.
 * - The duplicate finders of list 1 (contacts, then people), asked as the web app's Merge tools ask them: the
 *   first listing finds and stores the pairs, the second only reads. Target: at most 2,000 rows read, or twice the
 *   rows the answer shows.
 */
import { randomUUID } from "node:crypto";
import { benchIds } from "./dataset";
import { probe, type Probe } from "./load";
import type { D1Handle } from "./server";

export interface MergeCost {
  name: string;
  status: number;
  roundTrips: number | null;
  rowsRead: string | null;
  rowsWritten: string | null;
  /** Pairs the answer counts (meta.pagination.total_count), for the finders. */
  pairs?: number;
  /** Rows the answer shows: pairs and their records. */
  shown?: number;
}

export interface MergeBench {
  costs: MergeCost[];
  error?: string;
}

const TASKS = 1_000;
const GIFTS = 500;
const STAMP = "2026-01-01T00:00:00Z";

/** A contact of list 1 with `TASKS` tasks and `GIFTS` gifts, written straight into the database. */
async function bigContact(db: D1Handle, name: string): Promise<string> {
  const list = benchIds.lists[0];
  const id = randomUUID();
  const donor = randomUUID();
  const [designation] = (await db.prepare(`SELECT id FROM designation_accounts WHERE account_list_id = '${list}' LIMIT 1`).all<{ id: string }>()).results;
  const [organization] = (await db.prepare("SELECT id FROM organizations LIMIT 1").all<{ id: string }>()).results;
  if (!designation || !organization) throw new Error("the dataset has no designation account or organization for list 1");
  const numbers = (count: number) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})`;
  await db.batch([
    db.prepare(`INSERT INTO contacts (id, account_list_id, name, created_at, updated_at) VALUES ('${id}', '${list}', '${name}', '${STAMP}', '${STAMP}')`),
    db.prepare(`${numbers(TASKS)} INSERT INTO tasks (id, account_list_id, subject, start_at, created_at, updated_at) SELECT '${id}-' || i, '${list}', '${name} task ' || i, '2026-06-01T10:00:00Z', '${STAMP}', '${STAMP}' FROM n`),
    db.prepare(`INSERT INTO activity_contacts (id, task_id, contact_id, created_at, updated_at) SELECT 'l-' || id, id, '${id}', '${STAMP}', '${STAMP}' FROM tasks WHERE id LIKE '${id}-%'`),
    db.prepare(`INSERT INTO donor_accounts (id, organization_id, account_number, created_at, updated_at) VALUES ('${donor}', '${organization.id}', '${donor.slice(0, 12)}', '${STAMP}', '${STAMP}')`),
    db.prepare(`INSERT INTO contact_donor_accounts (id, contact_id, donor_account_id, created_at, updated_at) VALUES ('${randomUUID()}', '${id}', '${donor}', '${STAMP}', '${STAMP}')`),
    db.prepare(
      `${numbers(GIFTS)} INSERT INTO donations (id, account_list_id, designation_account_id, donor_account_id, amount, currency, donation_date, created_at, updated_at)
        SELECT '${donor}-' || i, '${list}', '${designation.id}', '${donor}', 250000, 'USD', date('2025-01-01', '+' || i || ' days'), '${STAMP}', '${STAMP}' FROM n`,
    ),
  ]);
  return id;
}

function costOf(name: string, answer: Probe): MergeCost {
  return { name, status: answer.status, roundTrips: answer.roundTrips, rowsRead: answer.rowsRead, rowsWritten: answer.rowsWritten ?? null };
}

/** A finder's listing, as the web app's tool asks it (five pairs a page, their records included). */
async function listing(api: string, token: string, path: string, name: string): Promise<MergeCost> {
  const answer = await probe({ url: `${api}/api/v2/${path}?include=records&filter[account_list_id]=${benchIds.lists[0]}&filter[ignore]=false&per_page=5`, headers: { Authorization: `Bearer ${token}` } });
  const document = answer.status === 200 ? (JSON.parse(answer.body) as { data: unknown[]; included?: unknown[]; meta: { pagination: { total_count: number } } }) : undefined;
  return { ...costOf(name, answer), pairs: document?.meta.pagination.total_count, shown: document ? document.data.length + (document.included?.length ?? 0) : undefined };
}

export async function benchMerges(api: string, token: string, db: D1Handle): Promise<MergeBench> {
  const costs: MergeCost[] = [];
  try {
    const winner = await bigContact(db, "Merge, Winner");
    const loser = await bigContact(db, "Merge, Loser");
    const body = JSON.stringify({ data: [{ data: { type: "contacts", attributes: { winner_id: winner, loser_id: loser } } }] });
    const merged = await probe({ url: `${api}/api/v2/contacts/merges/bulk`, method: "POST", body, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/vnd.api+json" } });
    if (merged.status !== 200) throw new Error(`the merge answered ${merged.status}: ${merged.body.slice(0, 300)}`);
    costs.push(costOf(`merge of two contacts with ${TASKS} tasks and ${GIFTS} gifts each`, merged));
    costs.push(await listing(api, token, "contacts/duplicates", "contact duplicates, first listing (finds and stores)"));
    costs.push(await listing(api, token, "contacts/duplicates", "contact duplicates, listed again"));
    costs.push(await listing(api, token, "contacts/people/duplicates", "people duplicates, first listing (finds and stores)"));
    costs.push(await listing(api, token, "contacts/people/duplicates", "people duplicates, listed again"));
    return { costs };
  } catch (error) {
    return { costs, error: String(error) };
  }
}

export function renderMerges(bench: MergeBench | undefined): string {
  if (!bench) return "Merges and duplicates: not measured.";
  const rows = bench.costs.map(
    (cost) =>
      `| ${cost.name} | ${cost.status} | ${cost.roundTrips ?? "-"} | ${cost.rowsRead ?? "-"} | ${cost.rowsWritten ?? "-"} | ${cost.pairs === undefined ? "" : `${cost.pairs} pairs, ${cost.shown} rows shown`} |`,
  );
  return [
    "Merges and duplicates (list 1):",
    "",
    "| request | status | D1 round trips | rows read | rows written | answer |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    ...(bench.error ? ["", `Failed: ${bench.error}`] : []),
  ].join("\n");
}
