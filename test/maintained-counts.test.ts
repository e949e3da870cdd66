/**
 * Counts kept per account list and bucket (contacts by status, tasks by completion) by triggers: they equal
 * count(*) after every kind of write, and list totals read them only when nothing else narrows the list.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { del, get, post, put, request } from "./helpers/api";
import { addToList, createAccountList, createViewer, db } from "./helpers/factories";
import { expectCountsKept, expectKeptSumsExact, expectTaskLinkCopiesExact, expectTriggersAsDeclared, keptCounts, migrationQueries } from "./helpers/kept-sums";
import { givingTo } from "./helpers/contact-fixtures";
import { duplicateInputTriggers } from "../drizzle/duplicates";
import { KEPT_SUMS, keptSumTriggers } from "../drizzle/kept-sums";
import { webhookTriggers } from "../drizzle/webhook-triggers";
import { taskLinkCopyTriggers } from "../drizzle/task-link-copies";
import { storage } from "./helpers/storage";

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
    const pledge = { pledge_amount: "120.5", pledge_currency: "cad", pledge_frequency: "3.0", pledge_received: true };
    const partner = await createContact({ name: "Kept, Partner", status: "Partner - Financial", ...pledge });
    const blank = await createContact({ name: "Kept, Blank", status: "Partner - Financial", pledge_amount: "40" });
    const hidden = await createContact({ name: "Kept, Hidden", status: "Never Ask" });
    await createContact({ name: "Kept, Other list", status: "Partner - Financial", pledge_amount: "10" }, second.id);
    const open = await createTask({ subject: "Open", start_at: "2026-03-04T10:00:00Z" });
    const done = await createTask({ subject: "Done", completed: true, start_at: "2026-03-05T10:00:00Z" });
    await createTask({ subject: "Open later", start_at: "2026-04-01T00:00:00Z" });
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
    // A pledge changed in amount, currency and receipt; a task moved to another day.
    const repledged = await put(`/api/v2/contacts/${blank}`, { data: { type: "contacts", id: blank, attributes: { pledge_amount: "45.25", pledge_currency: "USD", pledge_received: true, overwrite: true } } }, alice.token);
    expect(repledged.status, repledged.text).toBe(200);
    const rescheduled = await put(`/api/v2/tasks/${done}`, { data: { type: "tasks", id: done, attributes: { start_at: "2026-05-06T08:00:00Z", overwrite: true } } }, alice.token);
    expect(rescheduled.status, rescheduled.text).toBe(200);
    await expectCountsKept();

    // A contact moved to another of the viewer's lists leaves one list's count for the other's, wherever the two
    // lists are kept.
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

  it("kept totals follow designation accounts and appeal pledges, and are rebuilt by their migration", async () => {
    const giving = await givingTo(alice.list.id);
    const accounts = await request("GET", `/api/v2/account_lists/${alice.list.id}/designation_accounts`, { token: alice.token });
    expect(accounts.body.data).toHaveLength(1);
    await db.run(sql`UPDATE designation_accounts SET balance = 1234500, currency = 'EUR' WHERE id = ${giving.designation.id}`);
    await expectKeptSumsExact();
    const contact = await createContact({ name: "Kept, Appeal partner" });
    const appeal = await post("/api/v2/appeals", { data: { type: "appeals", attributes: { name: "Kept appeal" }, relationships: { account_list: { data: { type: "account_lists", id: alice.list.id } } } } }, alice.token);
    expect(appeal.status, appeal.text).toBe(201);
    const pledge = await post(
      `/api/v2/account_lists/${alice.list.id}/pledges`,
      {
        data: {
          type: "pledges",
          attributes: { amount: "75.5", expected_date: "2026-12-01" },
          relationships: { appeal: { data: { type: "appeals", id: appeal.body.data.id } }, contact: { data: { type: "contacts", id: contact } } },
        },
      },
      alice.token,
    );
    expect(pledge.status, pledge.text).toBe(201);
    await expectKeptSumsExact();
    const processed = await put(
      `/api/v2/account_lists/${alice.list.id}/pledges/${pledge.body.data.id}`,
      { data: { type: "pledges", id: pledge.body.data.id, attributes: { status: "processed", amount: "80", overwrite: true } } },
      alice.token,
    );
    expect(processed.status, processed.text).toBe(200);
    await db.run(sql`UPDATE designation_accounts SET active = 0 WHERE id = ${giving.designation.id}`);
    await expectKeptSumsExact();
    expect((await del(`/api/v2/appeals/${appeal.body.data.id}`, alice.token)).status).toBe(204);
    await expectKeptSumsExact();

    // The migration builds them from the rows already there, and its triggers are the declarations' own.
    const kept = await db.all(sql`SELECT * FROM kept_sums ORDER BY 1, 2, 3, 4, 5`);
    expect(kept.length).toBeGreaterThan(3);
    await storage.prepare("DELETE FROM kept_sums").run();
    const isBackfill = (query: string) => query.includes("INSERT INTO kept_sums") && query.includes("GROUP BY") && !query.includes("TRIGGER");
    // The kinds the home pages, the duplicate finders and the reports read came later, with their own migrations.
    const backfills = [...migrationQueries("kept_sums", isBackfill), ...migrationQueries("home_page_triggers", isBackfill), ...migrationQueries("home_page_counts", isBackfill), ...migrationQueries("duplicate_keys", isBackfill), ...migrationQueries("report_sums", isBackfill), ...migrationQueries("person_contact_keys", isBackfill), ...migrationQueries("tools_counts", isBackfill), ...migrationQueries("report_time_sums", isBackfill)];
    expect(backfills).toHaveLength(KEPT_SUMS.length);
    for (const query of backfills) await storage.prepare(query).run();
    expect(await db.all(sql`SELECT * FROM kept_sums ORDER BY 1, 2, 3, 4, 5`)).toEqual(kept);
    // (The duplicate finder's checks count changes to some kept rows, with triggers of their own.)
    await expectTriggersAsDeclared(["kept_sums"], [...KEPT_SUMS.flatMap(keptSumTriggers), ...duplicateInputTriggers().filter((statement) => statement.includes("ON kept_sums"))]);
  });

  it("are rebuilt from the rows by the migration that adds them", async () => {
    await createContact({ name: "Kept, Before migration", status: "Ask in Future" });
    const expected = await keptCounts();
    const backfills = migrationQueries("maintained_list_counts", (query) => query.includes("INSERT INTO `list_row_counts`") && query.includes("GROUP BY") && !query.includes("TRIGGER"));
    expect(backfills).toHaveLength(2);
    await storage.prepare("DELETE FROM list_row_counts").run();
    for (const query of backfills) await storage.prepare(query).run();
    expect(await keptCounts()).toEqual(expected);
  });
});

describe("task links", () => {
  /** A completion time `days` before today (the copies and the summary never look at the clock; the service may). */
  const daysAgo = (days: number, time: string) => `${new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)}T${time}Z`;
  const [called, met, metAgain, before] = [daysAgo(40, "10:00:00"), daysAgo(20, "09:00:00"), daysAgo(19, "09:00:00"), daysAgo(60, "08:00:00")];
  const day = (stamp: string) => stamp.slice(0, 10);
  const linked = (attributes: Record<string, unknown>, contactIds: string[]) => ({
    data: {
      type: "tasks",
      attributes: { activity_type: "Call", ...attributes },
      relationships: {
        account_list: { data: { type: "account_lists", id: alice.list.id } },
        contacts: { data: contactIds.map((id) => ({ type: "contacts", id })) },
      },
    },
  });
  /** A contact's task summary as shown, beside the same read from the tasks themselves. */
  async function summaries(contactId: string) {
    const shown = await get(`/api/v2/contacts/${contactId}?fields[contacts]=last_activity,last_phone_call,last_thank,last_appointment,uncompleted_tasks_count,tasks`, alice.token);
    expect(shown.status, shown.text).toBe(200);
    const latest = async (types: string[]) =>
      (
        await storage
          .prepare(
            `SELECT substr(MAX(t.completed_at), 1, 10) AS at FROM activity_contacts x JOIN tasks t ON t.id = x.task_id WHERE x.contact_id = ? AND t.completed = 1${types.length ? ` AND t.activity_type IN (${types.map(() => "?").join(",")})` : ""}`,
          )
          .bind(contactId, ...types)
          .first<{ at: string | null }>()
      )!.at;
    const open = (await storage.prepare("SELECT count(*) AS n FROM activity_contacts x JOIN tasks t ON t.id = x.task_id WHERE x.contact_id = ? AND t.completed = 0").bind(contactId).first<{ n: number }>())!.n;
    const { tasks, ...attributes } = { ...shown.body.data.attributes, tasks: shown.body.data.relationships.tasks.data.length };
    expect(attributes).toEqual({
      last_activity: await latest([]),
      last_phone_call: await latest(["Call"]),
      last_thank: await latest(["Thank"]),
      last_appointment: await latest(["Appointment"]),
      uncompleted_tasks_count: open,
    });
    return { ...attributes, tasks };
  }

  it("carry their task's state through every kind of write, and the contact's task summary reads it", async () => {
    const [first, other] = [await createContact({ name: "Linked, First" }), await createContact({ name: "Linked, Other" })];
    const created = await post("/api/v2/tasks", linked({ subject: "Call them" }, [first]), alice.token);
    expect(created.status, created.text).toBe(201);
    const task = created.body.data.id;
    expect(await summaries(first)).toMatchObject({ last_phone_call: null, uncompleted_tasks_count: 1, tasks: 1 });
    await expectCountsKept();

    const completed = await put(`/api/v2/tasks/${task}`, { data: { type: "tasks", id: task, attributes: { completed: true, completed_at: called, overwrite: true } } }, alice.token);
    expect(completed.status, completed.text).toBe(200);
    expect(await summaries(first)).toMatchObject({ last_phone_call: day(called), last_activity: day(called), uncompleted_tasks_count: 0 });
    const retyped = await put(`/api/v2/tasks/${task}`, { data: { type: "tasks", id: task, attributes: { activity_type: "Thank", overwrite: true } } }, alice.token);
    expect(retyped.status, retyped.text).toBe(200);
    expect(await summaries(first)).toMatchObject({ last_phone_call: null, last_thank: day(called) });
    // Linked to a second contact: the new link takes the task's state.
    const relinked = await put(`/api/v2/tasks/${task}`, linked({ activity_type: "Thank", overwrite: true }, [first, other]), alice.token);
    expect(relinked.status, relinked.text).toBe(200);
    expect(await summaries(other)).toMatchObject({ last_thank: day(called), tasks: 1 });
    await expectCountsKept();

    // Bulk, a batch item, a write straight to the table (as an operator's load would) and a refused write.
    const bulk = await request("PUT", "/api/v2/tasks/bulk", { token: alice.token, raw: true, body: { data: [{ data: { type: "tasks", id: task, attributes: { completed: false, overwrite: true } } }] } });
    expect(bulk.status, bulk.text).toBe(200);
    const batch = await request("POST", "/api/v2/batch", {
      token: alice.token,
      raw: true,
      body: { requests: [{ method: "POST", path: "/api/v2/tasks", body: linked({ subject: "Met", activity_type: "Appointment", completed: true, completed_at: met }, [other]) }] },
    });
    expect(JSON.parse(batch.text).map((entry: { status: number }) => entry.status)).toEqual([201]);
    await storage.prepare("UPDATE tasks SET completed_at = ? WHERE id IN (SELECT task_id FROM activity_contacts WHERE contact_id = ?) AND activity_type = 'Appointment'").bind(metAgain, other).run();
    const refused = await put(`/api/v2/tasks/${task}`, { data: { type: "tasks", id: task, attributes: { completed: "sometimes", overwrite: true } } }, alice.token);
    expect(refused.status).toBe(400);
    expect(await summaries(other)).toMatchObject({ last_appointment: day(metAgain), last_thank: null, uncompleted_tasks_count: 1, tasks: 2 });
    expect(await summaries(first)).toMatchObject({ uncompleted_tasks_count: 1, tasks: 1 });
    await expectCountsKept();

    expect((await del(`/api/v2/tasks/${task}`, alice.token)).status).toBe(204);
    expect(await summaries(first)).toMatchObject({ uncompleted_tasks_count: 0, tasks: 0 });
    await expectCountsKept();
  });

  it("are filled by the migration that adds their copies, whose triggers are the declarations' own", async () => {
    const contact = await createContact({ name: "Linked, Before migration" });
    const created = await post("/api/v2/tasks", linked({ subject: "Done before", completed: true, completed_at: before }, [contact]), alice.token);
    expect(created.status, created.text).toBe(201);
    await storage.prepare("UPDATE activity_contacts SET task_completed = 0, task_activity_type = NULL, task_completed_at = NULL").run();
    const backfills = migrationQueries("task_link_copies", (query) => query.includes("UPDATE activity_contacts SET") && !query.includes("TRIGGER"));
    expect(backfills).toHaveLength(1);
    await storage.prepare(backfills[0]).run();
    await expectTaskLinkCopiesExact();
    expect(await summaries(contact)).toMatchObject({ last_phone_call: day(before) });
    // (LIKE's `_` matches the `.` of the webhook outbox's `task.completed` too: drizzle/webhook-triggers.ts declares those.)
    await expectTriggersAsDeclared(["task_completed"], [...taskLinkCopyTriggers(), ...webhookTriggers().filter((statement) => /task.completed/i.test(statement))]);
  });
});

describe("list totals from kept counts", () => {
  /** Adds `n` to a bucket's kept count: a total that moves with it was read from the kept counts. */
  async function skew(table: string, accountListId: string, bucket: string, n: number) {
    await storage.prepare("INSERT INTO list_row_counts (table_name, account_list_id, bucket, rows) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET rows = rows + excluded.rows")
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

  it("answer the overdue total from the open tasks kept by month and day, exact across the day the viewer's today starts in", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-06-15T12:00:00Z") });
    try {
      const viewer = await createViewer();
      await db.run(sql`UPDATE users SET time_zone = 'America/New_York' WHERE id = ${viewer.user.id}`);
      const task = async (start_at: string, completed = false) => {
        const response = await post("/api/v2/tasks", taskBody({ subject: `At ${start_at}`, start_at, completed }, viewer.list.id), viewer.token);
        expect(response.status, response.text).toBe(201);
      };
      // Today in New York starts at 04:00Z: earlier months, earlier days of June, the early hours of the 15th
      // (UTC) before that start, and tasks from then on; one completed.
      for (const start of ["2025-12-31T23:00:00Z", "2026-05-01T00:00:00Z", "2026-06-01T10:00:00Z", "2026-06-14T23:59:00Z", "2026-06-15T03:59:00Z"]) await task(start);
      await task("2026-06-15T04:00:00Z");
      await task("2026-06-20T00:00:00Z");
      await task("2026-06-10T00:00:00Z", true);
      const overdue = "/api/v2/tasks?filter[date_range]=overdue";
      expect(await total(overdue, viewer.token)).toBe(5);
      expect((await get(`${overdue}&per_page=100`, viewer.token)).body.data).toHaveLength(5);
      // Read from the kept rows: a past month skewed by 10 moves the total by 10, a future day by nothing.
      await storage.prepare("UPDATE kept_sums SET rows = rows + 10 WHERE kind = 'open_tasks_by_month' AND owner_id = ? AND key1 = '2026-05'").bind(viewer.list.id).run();
      await storage.prepare("UPDATE kept_sums SET rows = rows + 7 WHERE kind = 'open_tasks_by_day' AND owner_id = ? AND key1 = '2026-06-20'").bind(viewer.list.id).run();
      expect(await total(overdue, viewer.token)).toBe(15);
    } finally {
      vi.useRealTimers();
    }
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

