/**
 * Lists over several account lists: a page whose conditions look at the row's own columns is read in parts up to
 * the page's end and merged: list by list (each list in index order), or, for the default task order, the overdue
 * tasks apart from the rest. Every page must be the slice of the one order that a single sort gives: checked
 * against per_page=1001, which is past the rows read per part and so is sorted in one piece (the default task order,
 * walked at every size, is checked against the order computed from the tasks' fields in task-order-walks).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { get } from "./helpers/api";
import * as schema from "../drizzle/schema";
import { insertContact, insertTask } from "./helpers/contact-fixtures";
import { addToList, createAccountList, createUser, createViewer, db, timestamps } from "./helpers/factories";
import { planOf, recordedGet } from "./helpers/recording-db";
import { storage } from "./helpers/storage";

type Listed = { data: Array<{ id: string; attributes: Record<string, unknown> }>; meta: { pagination: { total_count: number } } };

let viewer: Awaited<ReturnType<typeof createUser>>;
let lists: Array<{ id: string }>;
let outsider: Awaited<ReturnType<typeof createViewer>>;

const NAMES = ["Chan, Emily", "apple, Ann", "Zed, Zoe", "Éclair, Eve", "Chang, Edward", "Bell, Bo", "Chan, Gene", "Adams, Al"];
const STATUSES = ["Partner - Financial", "Never Ask", null, "Partner - Prayer"];

beforeAll(async () => {
  viewer = await createUser();
  const owner = await createUser();
  // Two lists of the viewer's own and one they coach.
  lists = [await createAccountList(viewer), await createAccountList(viewer), await createAccountList(owner)];
  await addToList(lists[2].id, viewer.id, "coach");
  outsider = await createViewer();
  // Names and statuses interleave across the lists; created_at and updated_at run in different orders.
  let n = 0;
  for (const name of NAMES) {
    for (const [index, list] of lists.entries()) {
      n += 1;
      const stamps = timestamps(1000 + ((n * 7) % 24) * 10);
      await insertContact(list.id, `${name} ${index}`, { status: STATUSES[n % STATUSES.length], ...stamps, updatedAt: timestamps(5000 - n).updatedAt });
      await insertTask(list.id, [], {
        subject: `Task ${n}`,
        completed: n % 3 === 0,
        completedAt: n % 3 === 0 ? `2026-0${1 + (n % 5)}-0${1 + (n % 7)}T10:00:00Z` : null,
        startAt: n % 4 === 0 ? null : `2026-${n % 2 === 0 ? "01" : "12"}-${String(1 + (n % 27)).padStart(2, "0")}T09:00:00Z`,
        ...stamps,
      });
    }
  }
  // Rows the usual shapes leave out: an open task with a completion date (overdue, and not), and a completed one without.
  await insertTask(lists[0].id, [], { subject: "Open, completed_at set", completed: false, completedAt: "2026-02-02T10:00:00Z", startAt: "2026-01-15T09:00:00Z" });
  await insertTask(lists[2].id, [], { subject: "Open, completed_at set, future", completed: false, completedAt: "2026-02-03T10:00:00Z", startAt: "2099-01-15T09:00:00Z" });
  await insertTask(lists[1].id, [], { subject: "Completed, no completed_at", completed: true, completedAt: null, startAt: "2026-01-10T09:00:00Z" });
  await insertContact(outsider.list.id, "Adams, Outsider");
});

async function ids(path: string, token = viewer.token): Promise<{ ids: string[]; total: number }> {
  const response = await get(path, token);
  expect(response.status).toBe(200);
  const body = response.body as Listed;
  return { ids: body.data.map((row) => row.id), total: body.meta.pagination.total_count };
}

/** Every page of `perPage` rows, concatenated, beside the one page of per_page=1001. */
async function pagedAndWhole(path: string, perPage: number) {
  const join = path.includes("?") ? "&" : "?";
  const whole = await ids(`${path}${join}per_page=1001`);
  const paged: string[] = [];
  for (let page = 1; page <= Math.ceil(whole.total / perPage) + 1; page++) {
    const slice = await ids(`${path}${join}per_page=${perPage}&page=${page}`);
    expect(slice.total).toBe(whole.total);
    paged.push(...slice.ids);
  }
  return { paged, whole: whole.ids };
}

describe("pages over several account lists", () => {
  it("slices the contacts' one order, for each sort, page size and own-column filter", async () => {
    const paths = [
      "/api/v2/contacts",
      "/api/v2/contacts?sort=name",
      "/api/v2/contacts?sort=-name",
      "/api/v2/contacts?sort=-created_at",
      "/api/v2/contacts?sort=updated_at",
      "/api/v2/contacts?filter[status]=Partner - Financial,Never Ask&sort=name",
      `/api/v2/contacts?filter[account_list_id]=${lists[0].id},${lists[2].id}&sort=-name`,
    ];
    for (const path of paths) {
      for (const perPage of [1, 5, 7]) {
        const { paged, whole } = await pagedAndWhole(path, perPage);
        expect(paged, `${path} per_page=${perPage}`).toEqual(whole);
      }
    }
  });

  it("answers the order itself: names bytewise over all three lists, hidden statuses left out", async () => {
    const response = await get("/api/v2/contacts?sort=name&per_page=6&page=2&fields[contacts]=name", viewer.token);
    const shown = NAMES.flatMap((name) => [0, 1, 2].map((index) => `${name} ${index}`));
    // The default filter hides "Never Ask": every fourth contact, by insertion (n % 4 === 1).
    const visible = shown.filter((_, position) => (position + 1) % STATUSES.length !== 1).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect((response.body as Listed).data.map((row) => row.attributes.name)).toEqual(visible.slice(6, 12));
    expect((response.body as Listed).meta.pagination.total_count).toBe(visible.length);
  });

  it("slices the tasks' default order and their sorts the same way", async () => {
    for (const path of ["/api/v2/tasks", "/api/v2/tasks?sort=start_at", "/api/v2/tasks?sort=-completed_at nulls,start_at", "/api/v2/tasks?filter[completed]=false"]) {
      for (const perPage of [1, 4, 7]) {
        const { paged, whole } = await pagedAndWhole(path, perPage);
        expect(paged, `${path} per_page=${perPage}`).toEqual(whole);
      }
    }
  });

  it("never reads another user's rows, nor a list the filter leaves out", async () => {
    const all = await ids("/api/v2/contacts?per_page=5&filter[status]=Partner - Prayer");
    const outsiders = await ids("/api/v2/contacts?per_page=1001", outsider.token);
    expect(outsiders.ids).toHaveLength(1);
    expect(all.ids).not.toContain(outsiders.ids[0]);
    const one = await ids(`/api/v2/contacts?per_page=3&filter[account_list_id]=${lists[1].id}&sort=name`);
    const ofList = await ids(`/api/v2/contacts?per_page=1001&filter[account_list_id]=${lists[1].id}&sort=name`);
    expect(one.ids).toEqual(ofList.ids.slice(0, 3));
  });

  it("reads each list in its own index range (the plan), not one sort of all the viewer's rows", async () => {
    const pagePlan = async (path: string) => {
      const { response, recorded } = await recordedGet(path, viewer.token);
      expect(response.status).toBe(200);
      // The page's statement on each database that holds some of the lists (the layout decides how many).
      const pages = new Map<D1Database, (typeof recorded)[number]>();
      for (const entry of recorded) if (entry.sql.includes('"page_id"') && !pages.has(entry.on)) pages.set(entry.on, entry);
      expect(pages.size).toBeGreaterThan(0);
      return (await Promise.all([...pages.values()].map(planOf))).flat();
    };
    const byName = await pagePlan("/api/v2/contacts?sort=name&per_page=5");
    expect(byName).toContain("COMPOUND QUERY");
    expect(byName.filter((detail) => /^SEARCH contacts USING (COVERING )?INDEX contacts_account_list_id_name_idx \(account_list_id=\?\)$/.test(detail))).toHaveLength(3);
    // Only the lists the filter names are read, and a reversed filter reads only the others.
    const perList = (plan: string[]) => plan.filter((detail) => /^SEARCH contacts USING (COVERING )?INDEX contacts_account_list_id_name_idx \(account_list_id=\?\)$/.test(detail));
    expect(perList(await pagePlan(`/api/v2/contacts?sort=name&per_page=5&filter[account_list_id]=${lists[0].id},${lists[2].id}`))).toHaveLength(2);
    const reversed = `/api/v2/contacts?sort=name&per_page=5&filter[account_list_id]=${lists[0].id}&filter[reverse_account_list_id]=true`;
    expect(perList(await pagePlan(reversed))).toHaveLength(2);
    // One list left of several is walked in its index range too, not sorted with the others' rows.
    const oneLeft = await pagePlan(`/api/v2/contacts?sort=name&per_page=5&filter[account_list_id]=${lists[0].id},${lists[1].id}&filter[reverse_account_list_id]=true`);
    const byList = oneLeft.filter((detail) => detail.startsWith("SEARCH contacts ") && detail.includes("account_list_id"));
    expect(byList.length).toBeGreaterThan(0);
    expect(byList.filter((detail) => perList([detail]).length === 0)).toEqual([]);
    const { paged, whole } = await pagedAndWhole(reversed.replace("&per_page=5", ""), 4);
    expect(paged).toEqual(whole);
    expect(whole).toHaveLength((await ids(`/api/v2/contacts?per_page=1001&filter[account_list_id]=${lists[1].id},${lists[2].id}`)).total);
    // The default task order is walked part by part (the overdue tasks, then the rest), each list in an index, the
    // lists merged, at any page size (test/task-order-walks.test.ts checks the order itself).
    for (const perPage of [5, 1001]) {
      const tasksPlan = await pagePlan(`/api/v2/tasks?per_page=${perPage}`);
      expect(tasksPlan).toContain("MERGE (UNION ALL)");
      expect(tasksPlan.filter((detail) => /USING (COVERING )?INDEX tasks_account_list_id_completed_start_at_idx \(account_list_id=\? AND completed=\? AND start_at<\?\)$/.test(detail)).length).toBeGreaterThan(0);
      expect(tasksPlan.filter((detail) => /^SCAN tasks\b/.test(detail))).toEqual([]);
    }
  });

  it("takes a default task page from the overdue tasks alone when they fill it", async () => {
    const { list, token } = await createViewer();
    const overdue = [];
    for (let i = 0; i < 5; i++) overdue.push(await insertTask(list.id, [], { subject: `Overdue ${i}`, startAt: `2026-01-0${5 - i}T09:00:00Z` }));
    for (let i = 0; i < 60; i++) {
      await insertTask(list.id, [], { subject: `Later ${i}`, completed: i % 2 === 0, completedAt: i % 2 === 0 ? `2026-03-${String(1 + (i % 28)).padStart(2, "0")}T10:00:00Z` : null, startAt: `2099-01-01T09:00:00Z` });
    }
    // Overdue first, by start; then the rest.
    const first = await ids("/api/v2/tasks?per_page=3", token);
    expect(first).toEqual({ ids: [overdue[4].id, overdue[3].id, overdue[2].id], total: 65 });
    const whole = await ids("/api/v2/tasks?per_page=1001", token);
    expect((await ids("/api/v2/tasks?per_page=4&page=2", token)).ids).toEqual(whole.ids.slice(4, 8));
    // The page reads the overdue tasks, not a sort of all 65 (the total still counts them once).
    const { recorded } = await recordedGet("/api/v2/tasks?per_page=3", token);
    const page = recorded.find((entry) => entry.sql.includes('"page_id"'))!;
    const { meta } = await page.on.prepare(page.sql).bind(...page.params).all();
    expect(meta.rows_read).toBeLessThan(65 * 2);
  });

  // Six lists bind more than the parts' parameters allowed when each list's id and bounds were bound per part.
  it.each([
    { lists: 2, perList: 400 },
    { lists: 6, perList: 150 },
  ])("walks each list's overdue tasks in the index up to the page's end instead of sorting them all ($lists lists)", async ({ lists: listCount, perList }) => {
    const { list, token, user } = await createViewer();
    const listIds = [list.id];
    while (listIds.length < listCount) listIds.push((await createAccountList(user)).id);
    const values = (listId: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: crypto.randomUUID(), accountListId: listId, subject: `Late ${i}`, startAt: `2025-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}T0${i % 10}:00:00Z`, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" }));
    for (const listId of listIds) {
      const rows = values(listId, perList);
      for (let i = 0; i < rows.length; i += 10) await db.insert(schema.tasks).values(rows.slice(i, i + 10));
    }
    const overdue = listCount * perList;
    // One open task with a completion time: after the other overdue ones, which fill every page here.
    const odd = await insertTask(list.id, [], { subject: "Late, completed_at set", completedAt: "2026-02-02T10:00:00Z", startAt: "2024-01-01T00:00:00Z" });
    const whole = await ids("/api/v2/tasks?per_page=1001", token);
    expect(whole.total).toBe(overdue + 1);
    expect(whole.ids.indexOf(odd.id)).toBe(overdue);
    for (const [perPage, page] of [[5, 1], [7, 3], [25, 2]]) {
      expect((await ids(`/api/v2/tasks?per_page=${perPage}&page=${page}`, token)).ids).toEqual(whole.ids.slice((page - 1) * perPage, page * perPage));
    }
    // With the table statistics the daily cron keeps (src/db/maintenance.ts), as a deployed database has them.
    await storage.prepare("PRAGMA optimize=0x10002").run();
    const { recorded } = await recordedGet("/api/v2/tasks?per_page=5", token);
    const pageStatement = recorded.find((entry) => entry.sql.includes('"page_id"'))!;
    const { meta } = await pageStatement.on.prepare(pageStatement.sql).bind(...pageStatement.params).all();
    // Each list's walk stops at the page's end (5), and so does counting the overdue ones for the parts after them;
    // sorting the 801 overdue tasks of two lists read 1,699 rows.
    expect(meta.rows_read).toBeLessThan(100 * listCount);
  });
});
