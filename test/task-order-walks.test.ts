/**
 * The default task order read by walking indexes (src/read/list-pages.ts, `walkedPage`): overdue tasks first by start
 * (those without a completion time, then those with one), then the rest by completion time descending (none
 * first), start ascending (none last) and id. Every page, whatever its size and depth, and the web app's "select
 * all", must be that order, here computed apart from the service from each task's own fields; and a page reads the
 * rows up to its end, not every task.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { get, request } from "./helpers/api";
import { insertTask } from "./helpers/contact-fixtures";
import { addToList, createAccountList, createUser } from "./helpers/factories";
import { planOf, recordedGet } from "./helpers/recording-db";

type Task = { id: string; attributes: { start_at: string | null; completed_at: string | null; completed: boolean; starred: boolean; activity_type: string | null } };

const DAY = 86_400_000;
/** The start of today (UTC, the viewer's zone) and a time `days` from it. */
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
const at = (days: number, hour = 9) => new Date(today + days * DAY + hour * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");

let viewer: Awaited<ReturnType<typeof createUser>>;

/** Tasks of every kind the order tells apart, with ties on start and on completion time. */
async function fill(list: string, count: number, salt: number) {
  for (let i = 0; i < count; i++) {
    const n = i + salt;
    const kind = n % 7;
    const base = { subject: `Task ${salt}-${i}`, activityType: ["Call", "Email", "Appointment", null][n % 4], starred: n % 5 === 0 };
    const fields =
      kind === 0 ? { startAt: at(-(n % 4) - 1) } // overdue, days tied
        : kind === 1 ? { startAt: at(n % 3) } // today or later
          : kind === 2 ? { startAt: null } // no start
            : kind === 3 ? { completed: true, completedAt: at(-(n % 3), 10), startAt: n % 2 === 0 ? null : at(-(n % 5)) } // completion times tied
              : kind === 4 ? { completed: true, completedAt: null, startAt: n % 2 === 0 ? null : at(-2) } // completed, no time
                : kind === 5 ? { completed: false, completedAt: at(-1, 10), startAt: n % 2 === 0 ? at(-3) : at(4) } // open with a completion time
                  : { startAt: at(-(n % 2)) }; // overdue or today
    await insertTask(list, [], { ...base, ...fields });
  }
}

beforeAll(async () => {
  viewer = await createUser();
  const owner = await createUser();
  const lists = [await createAccountList(viewer), await createAccountList(viewer), await createAccountList(owner)];
  await addToList(lists[2].id, viewer.id, "coach");
  for (const [index, list] of lists.entries()) await fill(list.id, 45, index * 11);
}, 60_000);

/** The default order, from the tasks' own fields. */
function compare(a: Task, b: Task): number {
  const rank = (task: Task) => {
    const { start_at, completed, completed_at } = task.attributes;
    const overdue = !completed && start_at !== null && start_at < at(0, 0);
    return overdue ? (completed_at === null ? 0 : 1) : 2;
  };
  const text = (x: string | null, y: string | null, nullsFirst: boolean) => (x === y ? 0 : x === null ? (nullsFirst ? -1 : 1) : y === null ? (nullsFirst ? 1 : -1) : x < y ? -1 : 1);
  return (
    rank(a) - rank(b) ||
    -text(a.attributes.completed_at, b.attributes.completed_at, false) ||
    text(a.attributes.start_at, b.attributes.start_at, false) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

async function listed(path: string): Promise<{ tasks: Task[]; total: number }> {
  const response = await get(path, viewer.token);
  expect(response.status, response.text.slice(0, 300)).toBe(200);
  return { tasks: response.body.data as Task[], total: response.body.meta.pagination.total_count as number };
}

const FIELDS = "fields[tasks]=start_at,completed_at,completed,starred,activity_type";

describe("the default task order", () => {
  it.each([
    ["", {}],
    ["filter[completed]=false", { completed: "false" }],
    ["filter[date_range]=overdue", { date_range: "overdue" }],
    ["filter[activity_type]=Call,Email&filter[starred]=false", { activity_type: "Call,Email", starred: "false" }],
  ])("is every page's order, and select all's, over three lists (%s)", async (query, filter) => {
    const join = query ? `&${query}` : "";
    const all = await listed(`/api/v2/tasks?per_page=1001&${FIELDS}${join}`);
    expect(all.tasks.length).toBe(all.total);
    expect(all.total).toBeGreaterThan(query ? 10 : 130);
    const expected = [...all.tasks].sort(compare).map((task) => task.id);
    expect(all.tasks.map((task) => task.id)).toEqual(expected);
    for (const perPage of [1, 7, 25]) {
      const paged: string[] = [];
      for (let page = 1; (page - 1) * perPage < all.total; page++) {
        const slice = await listed(`/api/v2/tasks?per_page=${perPage}&page=${page}&fields[tasks]=subject${join}`);
        expect(slice.total).toBe(all.total);
        paged.push(...slice.tasks.map((task) => task.id));
      }
      expect(paged, `per_page=${perPage}`).toEqual(expected);
    }
    // The web app's "select all", verbatim: its filter and fieldset in the body of a POST read.
    const selectAll = await request("POST", "/api/v2/tasks", {
      token: viewer.token,
      headers: { "X-HTTP-Method-Override": "GET" },
      body: { filter, fields: { tasks: "subject" }, per_page: 25000 },
    });
    expect(selectAll.status).toBe(200);
    expect((selectAll.body.data as Task[]).map((task) => task.id)).toEqual(expected);
    expect(selectAll.body.meta.pagination.total_count).toBe(all.total);
  });

  it("walks each list's indexes merged up to the page's end: a deep page reads the rows before it, not every task", async () => {
    const { response, recorded } = await recordedGet("/api/v2/tasks?per_page=5&page=4&fields[tasks]=subject", viewer.token);
    expect(response.status).toBe(200);
    const pages = recorded.filter((entry) => entry.sql.includes('"page_id"'));
    expect(pages.length).toBeGreaterThan(0);
    let rowsRead = 0;
    for (const page of pages) {
      const plan = await planOf(page);
      // Lists on one database are merged as they are walked; a database may hold one of them only.
      const listsWalked = new Set(page.sql.match(/"account_list_id" = '[0-9a-f-]{36}'/g));
      expect(listsWalked.size).toBeGreaterThan(0);
      if (listsWalked.size > 1) expect(plan).toContain("MERGE (UNION ALL)");
      expect(plan.some((detail) => detail.includes("INDEX tasks_account_list_id_default_order_idx"))).toBe(true);
      expect(plan.filter((detail) => /^SCAN tasks\b/.test(detail))).toEqual([]);
      rowsRead += (await page.on.prepare(page.sql).bind(...page.params).all()).meta.rows_read;
    }
    // The page ends at row 20 of 135: each database reads up to it in each part, and each list's walk one row ahead.
    expect(rowsRead).toBeLessThan(2 * 20 * pages.length + 40);
  });
});
