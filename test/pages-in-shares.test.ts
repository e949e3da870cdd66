/**
 * Large pages over lists on several databases. Each database first counts its rows, then names its share of the
 * page's rows, and is asked for more only while its rows may still reach into the page: the answer is the one
 * database's, to the byte, and the rows read stay near the page's, not the page's once per database.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { errorOf, request, type ApiResponse } from "./helpers/api";
import { placedUser, type PlacedUser } from "./helpers/placement";
import { withD1Counts } from "./helpers/d1-counts";

/** A start a number of hours from the hour the file began: the data is dated from the clock, alike for both users. */
const HOUR = 3_600_000;
const thisHour = Math.floor(Date.now() / HOUR) * HOUR;
const hoursFromNow = (hours: number) => new Date(thisHour + hours * HOUR).toISOString().replace(/\.\d{3}Z$/, "Z");

/** The tasks of each list: the first list the largest, as in a fundraiser's lists. */
const TASKS_PER_LIST = [360, 150, 90];

let together: PlacedUser;
let spread: PlacedUser;

/** A client id per user (its first digit) and task, so both layouts' ids sort alike. */
const idOf = (user: number, n: number) => `${user}0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/**
 * The tasks, spread through time so that the lists interleave in the default order, except that the second list's
 * tasks start before any other: sorted by start, its database holds the first 150 rows.
 */
async function fill(user: PlacedUser, digit: number): Promise<void> {
  let n = 0;
  const items = user.lists.flatMap((listId, listIndex) =>
    Array.from({ length: TASKS_PER_LIST[listIndex] }, (_, k) => {
      n += 1;
      const hours = listIndex === 1 ? -5000 + k : ((n * 37) % 600) - 300;
      return {
        data: {
          type: "tasks",
          id: idOf(digit, n),
          attributes: { subject: `Task ${String(n).padStart(3, "0")}`, activity_type: n % 2 ? "Call" : "Email", start_at: hoursFromNow(hours), completed: n % 5 === 0, ...(n % 5 === 0 ? { completed_at: hoursFromNow(hours + 1) } : {}) },
          relationships: { account_list: { data: { type: "account_lists", id: listId } } },
        },
      };
    }),
  );
  for (let start = 0; start < items.length; start += 200) {
    const created = await request("POST", "/api/v2/tasks/bulk", { token: user.token, body: { data: items.slice(start, start + 200) }, raw: true });
    expect(created.status, created.text).toBe(200);
    expect(created.body.every((answer: { data?: unknown }) => answer.data)).toBe(true);
  }
}

beforeAll(async () => {
  together = await placedUser(["LIST_DB_1", "LIST_DB_1", "LIST_DB_1"]);
  spread = await placedUser(["DB", "LIST_DB_1", "LIST_DB_2"]);
  await fill(together, 1);
  await fill(spread, 2);
}, 60_000);

/** An answer's text with its ids named in the order they first appear, and without the moments rows were written. */
function normalized(answer: ApiResponse): string {
  expect(answer.status, answer.text).toBe(200);
  const names = new Map<string, string>();
  return answer.text
    .replace(/"(created_at|updated_at|updated_in_db_at)":"[^"]*"/g, '"$1":"…"')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => names.get(id) ?? names.set(id, `id-${names.size}`).get(id)!);
}

async function alike(path: string): Promise<{ data: Array<{ id: string; attributes?: { subject: string } }>; meta: { pagination: Record<string, number> } }> {
  const one = normalized(await request("GET", path, { token: together.token }));
  const three = normalized(await request("GET", path, { token: spread.token }));
  const at = [...three].findIndex((character, index) => character !== one[index]);
  if (at !== -1 || three.length !== one.length) expect(three.slice(Math.max(0, at - 200), at + 200)).toBe(one.slice(Math.max(0, at - 200), at + 200));
  return JSON.parse(one);
}

async function counted(path: string, user: PlacedUser) {
  // A first request has the viewer cached; the second is counted.
  await request("GET", path, { token: user.token });
  const counts = await withD1Counts("GET", path, user.token);
  expect(counts.status).toBe(200);
  expect(Number.isFinite(counts.rowsRead)).toBe(true);
  return counts;
}

describe("a large page over three databases", () => {
  it("answers the page one database answers, to the byte, in the default order and by start, ids only or with fields", async () => {
    const all = await alike("/api/v2/tasks?per_page=25000&fields[tasks]=");
    expect(all.data).toHaveLength(600);
    expect(all.data.every((task) => task.attributes === undefined)).toBe(true);
    const byStart = await alike("/api/v2/tasks?per_page=300&sort=start_at&fields[tasks]=subject");
    expect(byStart.data).toHaveLength(300);
    expect(byStart.meta.pagination).toEqual({ page: 1, per_page: 300, total_count: 600, total_pages: 2 });
    // The second list's 150 tasks start first.
    expect(byStart.data.slice(0, 150).map((task) => task.attributes!.subject)).toEqual(Array.from({ length: 150 }, (_, k) => `Task ${String(361 + k).padStart(3, "0")}`));
    const deep = await alike("/api/v2/tasks?per_page=100&page=4&sort=-start_at&fields[tasks]=subject,start_at");
    expect(deep.data).toHaveLength(100);
    await alike("/api/v2/tasks?per_page=400&page=2&include=contacts");
    await alike("/api/v2/tasks?per_page=251&filter[activity_type]=Call&fields[tasks]=");
    await alike("/api/v2/tasks?per_page=1000&page=9&fields[tasks]=");
  });

  it("reads near the page's rows: each database names its share, counted once", async () => {
    const selectAll = "/api/v2/tasks?per_page=400&fields[tasks]=";
    const one = await counted(selectAll, together);
    const three = await counted(selectAll, spread);
    // Each names its share and a fifth more, and 50 rows: 338 of the first list's 360, all 150 and 90 of the others.
    expect(three.rowsRead).toBeLessThanOrEqual(one.rowsRead * 1.3);
    // The counts, then the names: ids only, the rows named are the answer's, rendered with nothing read again.
    expect(three.criticalPath).toBe(one.criticalPath + 1);
  });

  it("asks again only the database whose rows reach further into the page than its share", async () => {
    // By start, the second list holds the first 150 rows and names 140 as its share of 300: it is asked again, alone.
    const path = "/api/v2/tasks?per_page=300&sort=start_at&fields[tasks]=";
    const three = await counted(path, spread);
    const one = await counted(path, together);
    expect(three.criticalPath).toBe(one.criticalPath + 2);
    expect(three.rowsRead).toBeLessThan(one.rowsRead * 2);
  });

  it("refuses a large page's bad filter, or a list not the viewer's, as one database does", async () => {
    for (const path of ["/api/v2/tasks?per_page=300&filter[date_range]=someday", "/api/v2/tasks?per_page=300&page=0"]) {
      const one = await request("GET", path, { token: together.token });
      const three = await request("GET", path, { token: spread.token });
      expect(errorOf(three, 400)).toEqual(errorOf(one, 400));
    }
    // Another user's list named by a viewer whose lists are spread: not found, as it is for one database.
    const elsewhere = await request("GET", `/api/v2/tasks?per_page=300&filter[account_list_id]=${together.lists[0]}`, { token: spread.token });
    expect(errorOf(elsewhere, 404).detail).toContain(together.lists[0]);
    expect((await request("GET", "/api/v2/tasks?per_page=300")).status).toBe(401);
  });

  it("names no row of a page past the list's end: the counts settle it", async () => {
    const path = "/api/v2/tasks?per_page=300&page=5&include=contacts";
    const past = (await alike(path)) as { data: unknown[]; included?: unknown[]; meta: { pagination: Record<string, number> } };
    expect(past.data).toEqual([]);
    expect(past.included).toEqual([]);
    expect(past.meta.pagination).toEqual({ page: 5, per_page: 300, total_count: 600, total_pages: 2 });
    const three = await counted(path, spread);
    expect(three.rowsRead).toBeLessThan(100);
  });

  it("names the whole page on each database at once when it is short", async () => {
    const path = "/api/v2/tasks?per_page=250&sort=start_at&fields[tasks]=subject";
    await alike(path);
    const one = await counted(path, together);
    const three = await counted(path, spread);
    // The names, then the page's rows rendered: no count first.
    expect(three.criticalPath).toBe(one.criticalPath + 1);
  });
});
