/**
 * Counts kept per account list and bucket (contacts by status, tasks by completion) by triggers: they equal
 * count(*) after every kind of write, and list totals read them only when nothing else narrows the list.
 */
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { del, get, post, put, request } from "./helpers/api";
import { addToList, createAccountList, createViewer, db } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let second: Awaited<ReturnType<typeof createAccountList>>;
let coached: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;

beforeAll(async () => {
  alice = await createViewer();
  second = await createAccountList(alice.user);
  coached = await createViewer();
  await addToList(coached.list.id, alice.user.id, "coach");
  bob = await createViewer();
});

type CountRow = { table_name: string; account_list_id: string; bucket: string; rows: number };

/** The kept counts, leaving out buckets emptied to zero. */
async function keptCounts(): Promise<CountRow[]> {
  return db.all<CountRow>(sql`SELECT table_name, account_list_id, bucket, rows FROM list_row_counts WHERE rows <> 0 ORDER BY 1, 2, 3`);
}

/** The same counts from the rows themselves. */
async function actualCounts(): Promise<CountRow[]> {
  return db.all<CountRow>(sql`SELECT * FROM (
      SELECT 'contacts' AS table_name, account_list_id, COALESCE(status, '') AS bucket, count(*) AS rows FROM contacts GROUP BY 2, 3
      UNION ALL SELECT 'tasks', account_list_id, CAST(completed AS TEXT), count(*) FROM tasks GROUP BY 2, 3
    ) ORDER BY 1, 2, 3`);
}

async function expectCountsKept() {
  const actual = await actualCounts();
  expect(actual.length).toBeGreaterThan(0);
  expect(await keptCounts()).toEqual(actual);
}

const contactBody = (attributes: Record<string, unknown>, accountListId = alice.list.id) => ({
  data: { type: "contacts", attributes, relationships: { account_list: { data: { type: "account_lists", id: accountListId } } } },
});
const taskBody = (attributes: Record<string, unknown>, accountListId = alice.list.id) => ({
  data: { type: "tasks", attributes: { activity_type: "Call", ...attributes }, relationships: { account_list: { data: { type: "account_lists", id: accountListId } } } },
});

async function createContact(attributes: Record<string, unknown>, accountListId?: string): Promise<string> {
  const response = await post("/api/v2/contacts", contactBody({ create_default_person: false, ...attributes }, accountListId), alice.token);
  expect(response.status, response.text).toBe(201);
  return response.body.data.id;
}

async function createTask(attributes: Record<string, unknown>, accountListId?: string): Promise<string> {
  const response = await post("/api/v2/tasks", taskBody(attributes, accountListId), alice.token);
  expect(response.status, response.text).toBe(201);
  return response.body.data.id;
}

const total = async (path: string, token = alice.token) => {
  const response = await get(path, token);
  expect(response.status, response.text).toBe(200);
  return response.body.meta.pagination.total_count as number;
};

describe("kept counts", () => {
  it("equal count(*) after creates, updates, status changes, bulk writes, batch items and deletes", async () => {
    const partner = await createContact({ name: "Kept, Partner", status: "Partner - Financial" });
    const blank = await createContact({ name: "Kept, Blank" });
    const hidden = await createContact({ name: "Kept, Hidden", status: "Never Ask" });
    await createContact({ name: "Kept, Other list", status: "Call for Decision" }, second.id);
    const open = await createTask({ subject: "Open" });
    const done = await createTask({ subject: "Done", completed: true });
    await expectCountsKept();

    // Single updates: a status change, a status blanked, a completion and a re-opening.
    for (const [id, status] of [[partner, "Ask in Future"], [hidden, ""]] as const) {
      const response = await put(`/api/v2/contacts/${id}`, { data: { type: "contacts", id, attributes: { status, overwrite: true } } }, alice.token);
      expect(response.status, response.text).toBe(200);
    }
    for (const [id, completed] of [[open, true], [done, false]] as const) {
      const response = await put(`/api/v2/tasks/${id}`, { data: { type: "tasks", id, attributes: { completed, overwrite: true } } }, alice.token);
      expect(response.status, response.text).toBe(200);
    }
    await expectCountsKept();

    // A contact moved to another of the viewer's lists leaves one list's count for the other's.
    const moved = await put(
      `/api/v2/contacts/${blank}`,
      { data: { type: "contacts", id: blank, attributes: { overwrite: true }, relationships: { account_list: { data: { type: "account_lists", id: second.id } } } } },
      alice.token,
    );
    expect(moved.status, moved.text).toBe(200);
    await expectCountsKept();

    // Bulk writes.
    const bulkContacts = await request("PUT", "/api/v2/contacts/bulk", {
      token: alice.token,
      raw: true,
      body: { data: [partner, hidden].map((id) => ({ data: { type: "contacts", id, attributes: { status: "Not Interested", overwrite: true } } })) },
    });
    expect(bulkContacts.status, bulkContacts.text).toBe(200);
    const bulkTasks = await request("PUT", "/api/v2/tasks/bulk", {
      token: alice.token,
      raw: true,
      body: { data: [open, done].map((id) => ({ data: { type: "tasks", id, attributes: { completed: true, overwrite: true } } })) },
    });
    expect(bulkTasks.status, bulkTasks.text).toBe(200);
    await expectCountsKept();

    // Batch items run through the same writes.
    const batch = await request("POST", "/api/v2/batch", {
      token: alice.token,
      raw: true,
      body: { requests: [{ method: "POST", path: "/api/v2/tasks", body: taskBody({ subject: "From a batch" }) }, { method: "DELETE", path: `/api/v2/contacts/${hidden}` }] },
    });
    expect(batch.status, batch.text).toBe(200);
    expect(JSON.parse(batch.text).map((entry: { status: number }) => entry.status)).toEqual([201, 204]);
    await expectCountsKept();

    // Deletes, single and bulk.
    expect((await del(`/api/v2/contacts/${partner}`, alice.token)).status).toBe(204);
    expect((await del(`/api/v2/tasks/${done}`, alice.token)).status).toBe(204);
    const bulkDelete = await request("DELETE", "/api/v2/tasks/bulk", { token: alice.token, raw: true, body: { data: [{ type: "tasks", id: open }] } });
    expect(bulkDelete.status, bulkDelete.text).toBe(200);
    await expectCountsKept();
  });

  it("are unchanged by a refused write", async () => {
    const id = await createContact({ name: "Kept, Refused", status: "Partner - Special" });
    const before = await keptCounts();
    const refused = await put(`/api/v2/contacts/${id}`, { data: { type: "contacts", id, attributes: { status: "Not a status", overwrite: true } } }, alice.token);
    expect(refused.status).toBe(400);
    const stale = await put(`/api/v2/contacts/${id}`, { data: { type: "contacts", id, attributes: { status: "Never Ask", updated_in_db_at: "2001-01-01T00:00:00Z" } } }, alice.token);
    expect(stale.status).toBe(409);
    expect(await keptCounts()).toEqual(before);
  });

  it("are rebuilt from the rows by the migration that adds them", async () => {
    await createContact({ name: "Kept, Before migration", status: "Ask in Future" });
    const expected = await keptCounts();
    const migration = (env.TEST_MIGRATIONS as Array<{ name: string; queries: string[] }>).find((m) => m.name.includes("maintained_list_counts"));
    const backfills = migration!.queries.filter((query) => query.includes("INSERT INTO `list_row_counts`") && query.includes("GROUP BY") && !query.includes("TRIGGER"));
    expect(backfills).toHaveLength(2);
    await env.DB.prepare("DELETE FROM list_row_counts").run();
    for (const query of backfills) await env.DB.prepare(query).run();
    expect(await keptCounts()).toEqual(expected);
  });
});

describe("list totals from kept counts", () => {
  /** Adds `n` to a bucket's kept count: a total that moves with it was read from the kept counts. */
  async function skew(table: string, accountListId: string, bucket: string, n: number) {
    await env.DB.prepare("INSERT INTO list_row_counts (table_name, account_list_id, bucket, rows) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET rows = rows + excluded.rows")
      .bind(table, accountListId, bucket, n)
      .run();
  }

  it("read them for the default view, the counted column's filter and the account-list filter, and only then", async () => {
    const viewer = await createViewer();
    const other = await createAccountList(viewer.user);
    const asViewer = async (attributes: Record<string, unknown>, list: string) => {
      const response = await post("/api/v2/contacts", contactBody({ create_default_person: false, ...attributes }, list), viewer.token);
      expect(response.status, response.text).toBe(201);
    };
    await asViewer({ name: "Total, One", status: "Partner - Financial", starred_at: "2026-01-01T00:00:00Z" }, viewer.list.id);
    await asViewer({ name: "Total, Two" }, viewer.list.id);
    await asViewer({ name: "Total, Three", status: "Never Ask" }, viewer.list.id);
    await asViewer({ name: "Total, Four", status: "Partner - Financial" }, other.id);

    const paths = {
      default: "/api/v2/contacts",
      countOnly: "/api/v2/contacts?per_page=0",
      financial: "/api/v2/contacts?filter[status]=Partner%20-%20Financial",
      active: "/api/v2/contacts?filter[status]=active",
      hidden: "/api/v2/contacts?filter[status]=hidden",
      blank: "/api/v2/contacts?filter[status]=null",
      oneList: `/api/v2/contacts?filter[account_list_id]=${viewer.list.id}`,
      otherLists: `/api/v2/contacts?filter[account_list_id]=${viewer.list.id}&filter[reverse_account_list_id]=true`,
      starred: "/api/v2/contacts?filter[starred]=true",
      notFinancial: "/api/v2/contacts?filter[status]=Partner%20-%20Financial&filter[reverse_status]=true",
    };
    const exact = { default: 3, countOnly: 3, financial: 2, active: 3, hidden: 1, blank: 1, oneList: 2, otherLists: 1, starred: 1, notFinancial: 2 };
    const before: Record<string, number> = {};
    for (const [name, path] of Object.entries(paths)) before[name] = await total(path, viewer.token);
    expect(before).toEqual(exact);

    // Skew the viewer's first list: a blank-status contact counted 100 more, a hidden one 1,000 more.
    await skew("contacts", viewer.list.id, "", 100);
    await skew("contacts", viewer.list.id, "Never Ask", 1000);
    const after: Record<string, number> = {};
    for (const [name, path] of Object.entries(paths)) after[name] = await total(path, viewer.token);
    expect(after).toEqual({
      ...exact,
      default: 103,
      countOnly: 103,
      active: 103,
      hidden: 1001,
      blank: 101,
      oneList: 102,
      // Filters the counts cannot answer still count rows.
      starred: 1,
      notFinancial: 2,
    });
    // Another user's counts are theirs alone.
    expect(await total("/api/v2/contacts", bob.token)).toBe(0);
  });

  it("count tasks by completion, across the lists a viewer owns and coaches", async () => {
    await createTask({ subject: "Mine open" }, second.id);
    await createTask({ subject: "Mine done", completed: true }, second.id);
    const expected = await db.all<{ completed: number; n: number }>(sql`SELECT completed, count(*) AS n FROM tasks
      WHERE account_list_id IN (${alice.list.id}, ${second.id}, ${coached.list.id}) GROUP BY 1 ORDER BY 1`);
    const all = expected.reduce((sum, row) => sum + row.n, 0);
    expect(await total("/api/v2/tasks", alice.token)).toBe(all);
    await skew("tasks", coached.list.id, "1", 7);
    expect(await total("/api/v2/tasks", alice.token)).toBe(all + 7);
    expect(await total("/api/v2/tasks?filter[completed]=true", alice.token)).toBe((expected.find((r) => r.completed === 1)?.n ?? 0) + 7);
    expect(await total("/api/v2/tasks?filter[completed]=false", alice.token)).toBe(expected.find((r) => r.completed === 0)?.n ?? 0);
    // Under a filter the counts cannot answer, rows are counted.
    expect(await total("/api/v2/tasks?filter[starred]=false", alice.token)).toBe(all);
    await skew("tasks", coached.list.id, "1", -7);
  });
});

