/**
 * A viewer with many account lists. A list page may read its lists in parts, each a term of one compound SELECT (a
 * term per list, or per part of the order), and D1 refuses a compound SELECT of more than five terms: every page
 * must be answered however many lists the viewer has and however many of them a filter names, on one database and
 * over several.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { get, post, request, type ApiResponse } from "./helpers/api";
import { placedUser, type PlacedUser } from "./helpers/placement";
import { LISTS_ON } from "./helpers/storage";

const LISTS = 600;
/** The lists that hold records: more than five, spread through the viewer's lists. */
const FILLED = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 299, 599];
const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

let together: PlacedUser;
let spread: PlacedUser;

/** Two contacts and two tasks (one overdue, one not) in each filled list, named alike for both viewers. */
async function fill(user: PlacedUser): Promise<void> {
  for (const [k, listIndex] of FILLED.entries()) {
    const account_list = { data: { type: "account_lists", id: user.lists[listIndex] } };
    for (const n of [0, 1]) {
      const name = `${String.fromCharCode(90 - ((k * 7 + n * 3) % 26))}, Pat ${String(k).padStart(2, "0")}-${n}`;
      const contact = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name, status: n ? "Partner - Pray" : "Partner - Financial" }, relationships: { account_list } } }, user.token);
      expect(contact.status, contact.text).toBe(201);
      const task = { subject: `Task ${String(k).padStart(2, "0")}-${n}`, activity_type: "Call", start_at: `${day(n ? 3 + k : -3 - k)}T09:00:00Z` };
      const created = await post("/api/v2/tasks", { data: { type: "tasks", attributes: task, relationships: { account_list } } }, user.token);
      expect(created.status, created.text).toBe(201);
    }
  }
}

beforeAll(async () => {
  together = await placedUser(Array.from({ length: LISTS }, () => LISTS_ON));
  spread = await placedUser(Array.from({ length: LISTS }, (_, index) => ["DB", "LIST_DB_1", "LIST_DB_2"][index % 3]));
  await fill(together);
  await fill(spread);
}, 300_000);

/** The rows a page names (contacts by name, tasks by subject), its total, and its status. */
function named(answer: ApiResponse) {
  expect(answer.status, answer.text).toBe(200);
  const data = answer.body.data as Array<{ attributes: { name?: string; subject?: string } }>;
  return { names: data.map((row) => String(row.attributes.name ?? row.attributes.subject)), total: answer.body.meta.pagination.total_count };
}

/** The lists a filter names: seven of them, so that a page read list by list joins seven terms. */
const seven = (user: PlacedUser) => FILLED.slice(3, 10).map((index) => user.lists[index]).join(",");

/** Pages whose order is the same for both viewers (contacts made in the same second stand in the order of their random ids). */
const pages = (user: PlacedUser) => [
  "/api/v2/contacts?sort=name",
  "/api/v2/contacts?sort=-name&per_page=5&page=2",
  `/api/v2/contacts?filter[account_list_id]=${seven(user)}&sort=name&per_page=4&page=2`,
  `/api/v2/contacts?filter[account_list_id]=${seven(user)}&filter[status]=Partner%20-%20Pray&sort=-name`,
  "/api/v2/contacts?per_page=0",
  "/api/v2/tasks",
  "/api/v2/tasks?per_page=5&page=3",
  `/api/v2/tasks?filter[account_list_id]=${seven(user)}`,
  `/api/v2/tasks?filter[account_list_id]=${FILLED.slice(0, 5).map((index) => user.lists[index]).join(",")}&per_page=3`,
  "/api/v2/tasks?filter[date_range]=overdue",
];

describe(`a viewer with ${LISTS} account lists`, () => {
  it("is answered every page, on one database and over three alike", async () => {
    const togetherPages = pages(together);
    const spreadPages = pages(spread);
    for (const [index, path] of togetherPages.entries()) {
      const one = named(await get(path, together.token));
      expect(named(await get(spreadPages[index], spread.token)), spreadPages[index]).toEqual(one);
    }
  });

  it("pages through the lists' records in the order one sort of them gives", async () => {
    // per_page=1001 is past the rows a page reads in parts: the whole set in one sort, to check the parts against.
    for (const user of [together, spread]) {
      for (const [path, count] of [
        ["/api/v2/contacts?sort=name", FILLED.length * 2],
        ["/api/v2/contacts?sort=created_at", FILLED.length * 2],
        [`/api/v2/contacts?filter[account_list_id]=${seven(user)}`, 14],
        [`/api/v2/contacts?sort=name&filter[account_list_id]=${seven(user)}`, 14],
        [`/api/v2/tasks?filter[account_list_id]=${seven(user)}`, 14],
        ["/api/v2/tasks?fields[tasks]=subject", FILLED.length * 2],
      ] as const) {
        const whole = named(await get(`${path}&per_page=1001`, user.token));
        expect(whole.total).toBe(count);
        expect(whole.names).toHaveLength(count);
        const paged: string[] = [];
        for (let page = 1; page <= Math.ceil(count / 6); page++) paged.push(...named(await get(`${path}&per_page=6&page=${page}`, user.token)).names);
        expect(paged, path).toEqual(whole.names);
      }
    }
  });

  it("names the contacts in order and counts them by status", async () => {
    const all = named(await get("/api/v2/contacts?sort=name&per_page=100", spread.token));
    expect(all.names).toEqual([...all.names].sort((a, b) => a.localeCompare(b, "en")));
    const pray = named(await get(`/api/v2/contacts?filter[status]=Partner%20-%20Pray&filter[account_list_id]=${seven(spread)}`, spread.token));
    expect(pray.total).toBe(7);
    expect(pray.names.every((name) => name.endsWith("-1"))).toBe(true);
  });

  it("reads a list through the method override, every list named in the body", async () => {
    const body = { filter: { account_list_id: spread.lists.join(",") }, fields: { contacts: "name" }, sort: "name", per_page: 25 };
    const read = (user: PlacedUser) => request("POST", "/api/v2/contacts", { token: user.token, body: { ...body, filter: { account_list_id: user.lists.join(",") } }, headers: { "X-HTTP-Method-Override": "GET" } });
    const one = named(await read(together));
    expect(one.total).toBe(FILLED.length * 2);
    expect(named(await read(spread))).toEqual(one);
  });
});
