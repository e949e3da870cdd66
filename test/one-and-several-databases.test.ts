/**
 * Placement never shows: a viewer's lists answer the same, byte for byte, whether they share one database or are
 * spread over three. The same lists are read on one database, then moved apart (the operator's move, step by step),
 * and read again: lists (pages, sorts, filters, sparse fieldsets, includes, a streamed page, a page past the end),
 * the summaries, the tags and the user's lists.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { moveStep, placementOf } from "../src/admin/moves";
import { database } from "../src/db/client";
import type { Bindings } from "../src/env";
import { post, request } from "./helpers/api";
import { givingTo } from "./helpers/contact-fixtures";
import { on, operator, placedUser, type PlacedUser } from "./helpers/placement";

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const quiet = { ...(env as unknown as Bindings), LIST_MOVE_QUEUE: { send: async () => {} } as unknown as Bindings["LIST_MOVE_QUEUE"] };

const STATUSES = ["Partner - Financial", "Partner - Pray", "Never Contacted", "Never Ask"];

/** The reads compared: every kind of list run, over the lists of both databases' layouts, and records by id. */
const READS: string[] = [
  "/api/v2/contacts",
  "/api/v2/contacts?sort=-name&per_page=5&page=2",
  "/api/v2/contacts?sort=name&per_page=4&page=3&fields[contacts]=name,status",
  `/api/v2/contacts?filter[status]=${encodeURIComponent(STATUSES[0])}&include=people.email_addresses,addresses`,
  "/api/v2/contacts?filter[tags]=blue&include=tasks",
  "/api/v2/contacts?fields[contacts]=&per_page=7&page=2",
  "/api/v2/contacts?per_page=0",
  "/api/v2/contacts?per_page=300&include=people",
  "/api/v2/contacts?per_page=10&page=9",
  "/api/v2/tasks",
  "/api/v2/tasks?include=contacts&fields[tasks]=subject,start_at,contacts&per_page=6&page=2",
  "/api/v2/tasks?filter[completed]=false&sort=-created_at",
  "/api/v2/contacts/tags",
  "/api/v2/tasks/tags",
  "/api/v2/contacts/analytics",
  "/api/v2/tasks/analytics",
  "/api/v2/contacts/filters",
  "/api/v2/user?include=account_lists",
];

let owner: PlacedUser;
/** A contact of the second list, which moves to another database, and one of its people and tasks. */
let moved: { contact: string; person: string; task: string };

async function fill(listId: string, index: number): Promise<void> {
  const giving = await givingTo(listId, on("LIST_DB_1"));
  for (let n = 0; n < 6; n++) {
    const name = `${["Chan", "Adams", "Bell", "Zed", "Éclair", "apple"][(n + index) % 6]}, Partner ${index}-${n}`;
    const contact = await post(
      "/api/v2/contacts",
      {
        data: {
          type: "contacts",
          attributes: { name, status: STATUSES[(n + index) % STATUSES.length], tag_list: n % 2 === 0 ? "blue" : "green" },
          relationships: { account_list: { data: { type: "account_lists", id: listId } } },
        },
      },
      owner.token,
    );
    expect(contact.status, contact.text).toBe(201);
    const id = contact.body.data.id;
    const person = await post(`/api/v2/contacts/${id}/people`, { data: { type: "people", attributes: { first_name: `Person ${index}-${n}` } } }, owner.token);
    await post(`/api/v2/contacts/${id}/people/${person.body.data.id}/email_addresses`, { data: { type: "email_addresses", attributes: { email: `p${index}${n}@example.org`, primary: true } } }, owner.token);
    await post(`/api/v2/contacts/${id}/addresses`, { data: { type: "addresses", attributes: { city: `City ${n % 3}`, state: "ST" } } }, owner.token);
    const task = await post(
      "/api/v2/tasks",
      {
        data: {
          type: "tasks",
          attributes: { subject: `Call ${index}-${n}`, start_at: `${day((n % 5) - 2)}T10:00:00Z`, tag_list: n % 3 === 0 ? "blue" : "red" },
          relationships: { account_list: { data: { type: "account_lists", id: listId } }, contacts: { data: [{ type: "contacts", id }] } },
        },
      },
      owner.token,
    );
    expect(task.status, task.text).toBe(201);
    await giving.give(id, `${10 + n}`, day(-n));
  }
}

async function read(): Promise<Array<{ path: string; status: number; text: string }>> {
  const answers = [];
  for (const path of READS) {
    // As sent: the filter panels' items are the original's shape, not resource objects.
    const answer = await request("GET", path, { token: owner.token, raw: true });
    answers.push({ path, status: answer.status, text: answer.text });
  }
  return answers;
}

async function move(listId: string, to: string): Promise<void> {
  expect((await operator("POST", `/account_lists/${listId}/move`, { database: to })).status).toBe(202);
  for (let steps = 0; ; steps++) {
    if ((await moveStep(quiet, listId, Date.now() + 60_000)).next === "done") break;
    expect(steps).toBeLessThan(500);
  }
  expect(await placementOf(database(env.DB), listId)).toMatchObject({ database: to, state: "placed" });
}

beforeAll(async () => {
  owner = await placedUser(["LIST_DB_1", "LIST_DB_1", "LIST_DB_1"]);
  for (const [index, listId] of owner.lists.entries()) await fill(listId, index);
  const contacts = await request("GET", `/api/v2/contacts?filter[account_list_id]=${owner.lists[1]}&include=people,tasks&per_page=1`, { token: owner.token });
  const [contact] = contacts.body.data;
  moved = { contact: contact.id, person: contact.relationships.people.data[0].id, task: contact.relationships.tasks.data[0].id };
  const appeal = await post("/api/v2/appeals", { data: { type: "appeals", attributes: { name: "Year End", amount: "1000" }, relationships: { account_list: { data: { type: "account_lists", id: owner.lists[1] } } } } }, owner.token);
  expect(appeal.status, appeal.text).toBe(201);
  READS.push(
    `/api/v2/contacts/${moved.contact}?include=people.email_addresses,tasks`,
    `/api/v2/contacts/${moved.contact}/people`,
    `/api/v2/contacts/${moved.contact}/people/${moved.person}?include=email_addresses`,
    `/api/v2/contacts/${moved.contact}/addresses`,
    `/api/v2/contacts/${moved.contact}/referrers`,
    `/api/v2/tasks/${moved.task}?include=contacts`,
    `/api/v2/contacts/people/${moved.person}`,
    `/api/v2/appeals/${appeal.body.data.id}?include=contacts`,
    `/api/v2/appeals/${appeal.body.data.id}/appeal_contacts`,
    `/api/v2/appeals/${appeal.body.data.id}/nothing-here`,
    // A list that is not the viewer's, named alone or beside theirs, is not found (404), whatever the layout.
    "/api/v2/contacts/analytics?filter[account_list_id]=00000000-0000-4000-8000-00000000dead",
    `/api/v2/contacts/filters?filter[account_list_id]=${owner.lists[0]},00000000-0000-4000-8000-00000000dead`,
    `/api/v2/contacts?filter[account_list_id]=${owner.lists[2]},00000000-0000-4000-8000-00000000dead`,
    "/api/v2/contacts/00000000-0000-4000-8000-00000000dead",
    `/api/v2/contacts/00000000-0000-4000-8000-00000000dead/people`,
  );
});

describe("a viewer's lists on one database and on three", () => {
  it("answer every read alike, byte for byte", async () => {
    const together = await read();
    for (const answer of together) expect(answer.status, `${answer.path}: ${answer.text}`).toBe(/dead|nothing-here/.test(answer.path) ? 404 : 200);
    // Pages that hold rows of every list: the comparison is of a merge, not of one database's answer.
    const contacts = JSON.parse(together[0].text) as { data: Array<{ relationships: { account_list: { data: { id: string } } } }> };
    expect(new Set(contacts.data.map((row) => row.relationships.account_list.data.id)).size).toBe(3);
    await move(owner.lists[1], "LIST_DB_2");
    await move(owner.lists[2], "DB");
    const apart = await read();
    // Errors name the request's own id: compared without it.
    const comparable = (answer: { path: string; status: number; text: string }) => ({ ...answer, text: answer.text.replace(/"request_id":"[^"]+"/g, "") });
    for (const [index, answer] of apart.entries()) expect(comparable(answer)).toEqual(comparable(together[index]));
  });
});
