import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { errorOf, get, request } from "./helpers/api";
import { addToList, createAccountList, createUser, createViewer, db, timestamps, uuid } from "./helpers/factories";

type TaskName = "callAnna" | "letterBen" | "newsPhysical" | "newsEmail" | "thankCleo" | "otherList";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
let secondList: { id: string };
let carol: Awaited<ReturnType<typeof createUser>>;
const task: Record<TaskName, string> = {
  callAnna: uuid(),
  letterBen: uuid(),
  newsPhysical: uuid(),
  newsEmail: uuid(),
  thankCleo: uuid(),
  otherList: uuid(),
};
const ALL = Object.keys(task) as TaskName[];
const contact = { anna: uuid(), ben: uuid(), cleo: uuid() };
const appealId = uuid();
const designationId = uuid();
let bobTaskId: string;

const nameOf = (id: string) => (Object.entries(task).find(([, value]) => value === id)?.[0] ?? id) as TaskName;

async function listed(query: string, token = alice.token): Promise<TaskName[]> {
  const response = await get(`/api/v2/tasks?per_page=100&${query}`, token);
  expect(response.status, response.text).toBe(200);
  return response.body.data.map((t: { id: string }) => nameOf(t.id));
}

const sorted = (names: TaskName[]) => [...names].sort();

/** The filter selects exactly `expected`, and its reverse exactly the other tasks of the viewer. */
async function expectFilter(name: string, value: string | string[], expected: TaskName[]) {
  const param = Array.isArray(value) ? value.map((v) => `filter[${name}][]=${encodeURIComponent(v)}`).join("&") : `filter[${name}]=${encodeURIComponent(value)}`;
  expect(sorted(await listed(param)), `${name}=${value}`).toEqual(sorted(expected));
  const reversed = ALL.filter((n) => !expected.includes(n));
  expect(sorted(await listed(`${param}&filter[reverse_${name}]=true`)), `reverse ${name}=${value}`).toEqual(sorted(reversed));
}

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  secondList = await createAccountList(alice.user);
  carol = await createUser();
  await addToList(alice.list.id, carol.id);
  const organizationId = uuid();
  const donorAccountId = uuid();
  await db.insert(schema.organizations).values({ id: organizationId, name: "Org", ...timestamps() });
  await db.insert(schema.contacts).values([
    {
      id: contact.anna,
      accountListId: alice.list.id,
      name: "Adams, Anna",
      status: "Partner - Financial",
      churchName: "First Church",
      likelyToGive: "Likely",
      sendNewsletter: "Email",
      pledgeFrequency: "1.0",
      timezone: "America/Chicago",
      ...timestamps(),
    },
    {
      id: contact.ben,
      accountListId: alice.list.id,
      name: "Brown Ltd",
      status: "Not Interested",
      likelyToGive: "Most Likely",
      sendNewsletter: "Physical",
      pledgeFrequency: "3.0",
      timezone: "Europe/London",
      isOrganization: true,
      ...timestamps(),
    },
    { id: contact.cleo, accountListId: alice.list.id, name: "Clark, Cleo", noAppeals: true, ...timestamps() },
  ]);
  await db.insert(schema.addresses).values([
    { id: uuid(), contactId: contact.anna, city: "Springfield", state: "IL", region: "Midwest", metroArea: "Chicago", country: "United States", ...timestamps() },
    { id: uuid(), contactId: contact.ben, city: "Leeds", country: "United Kingdom", ...timestamps() },
  ]);
  const annaPerson = uuid();
  const benPerson = uuid();
  await db.insert(schema.people).values([
    { id: annaPerson, contactId: contact.anna, firstName: "Anna", ...timestamps() },
    { id: benPerson, contactId: contact.ben, firstName: "Ben", ...timestamps() },
  ]);
  await db.insert(schema.emailAddresses).values({ id: uuid(), personId: annaPerson, email: "anna@example.org", ...timestamps() });
  await db.insert(schema.phoneNumbers).values([
    { id: uuid(), personId: annaPerson, number: "1", location: "mobile", ...timestamps() },
    { id: uuid(), personId: benPerson, number: "2", location: "home", ...timestamps() },
    { id: uuid(), personId: benPerson, number: "3", location: "work", ...timestamps() },
  ]);
  await db.insert(schema.contactReferrals).values({ id: uuid(), referredById: contact.anna, referredToId: contact.ben, ...timestamps() });
  await db.insert(schema.appeals).values({ id: appealId, accountListId: alice.list.id, name: "Winter", ...timestamps() });
  await db.insert(schema.appealContacts).values({ id: uuid(), appealId, contactId: contact.anna, ...timestamps() });
  await db.insert(schema.designationAccounts).values({ id: designationId, accountListId: alice.list.id, name: "Fund", ...timestamps() });
  await db.insert(schema.donorAccounts).values({ id: donorAccountId, organizationId, accountNumber: "A-1", ...timestamps() });
  await db.insert(schema.contactDonorAccounts).values({ id: uuid(), contactId: contact.anna, donorAccountId, ...timestamps() });
  await db.insert(schema.donations).values({
    id: uuid(),
    accountListId: alice.list.id,
    designationAccountId: designationId,
    donorAccountId,
    amount: "10.0",
    currency: "USD",
    donationDate: "2026-01-15",
    ...timestamps(),
  });

  const at = (date: string) => ({ createdAt: date, updatedAt: date });
  await db.insert(schema.tasks).values([
    {
      id: task.callAnna,
      accountListId: alice.list.id,
      userId: carol.id,
      subject: "Call Anna about her pledge",
      activityType: "Call",
      startAt: "2026-01-10T10:00:00Z",
      completed: true,
      completedAt: "2026-01-10T11:00:00Z",
      result: "Completed",
      nextAction: "Email",
      starred: true,
      ...at("2026-01-01T00:00:00Z"),
    },
    {
      id: task.letterBen,
      accountListId: alice.list.id,
      userId: alice.user.id,
      subject: "Letter to Ben",
      activityType: "Letter",
      startAt: "2026-02-10T10:00:00Z",
      nextAction: "Call",
      ...at("2026-02-01T00:00:00Z"),
    },
    { id: task.newsPhysical, accountListId: alice.list.id, subject: "Physical newsletter", activityType: "Newsletter - Physical", ...at("2026-03-01T00:00:00Z") },
    {
      id: task.newsEmail,
      accountListId: alice.list.id,
      subject: "Email Newsletter",
      activityType: "Newsletter - Email",
      startAt: "2026-03-10T10:00:00Z",
      ...at("2026-03-02T00:00:00Z"),
    },
    {
      id: task.thankCleo,
      accountListId: alice.list.id,
      subject: "Thank-you note for Cleo",
      activityType: "Thank",
      startAt: "2026-03-01T09:00:00Z",
      completed: true,
      completedAt: "2026-03-01T12:00:00Z",
      result: "Received",
      ...at("2026-04-02T00:00:00Z"),
    },
    { id: task.otherList, accountListId: secondList.id, subject: "In the second list", activityType: "To Do", startAt: "2030-01-01T00:00:00Z", ...at("2026-05-01T00:00:00Z") },
  ]);
  await db.insert(schema.activityContacts).values([
    { id: uuid(), taskId: task.callAnna, contactId: contact.anna, ...timestamps() },
    { id: uuid(), taskId: task.letterBen, contactId: contact.ben, ...timestamps() },
    { id: uuid(), taskId: task.newsEmail, contactId: contact.anna, ...timestamps() },
    { id: uuid(), taskId: task.newsEmail, contactId: contact.ben, ...timestamps() },
    { id: uuid(), taskId: task.thankCleo, contactId: contact.cleo, ...timestamps() },
  ]);
  await db.insert(schema.taskTags).values([
    { taskId: task.callAnna, name: "urgent" },
    { taskId: task.callAnna, name: "home" },
    { taskId: task.letterBen, name: "home" },
    { taskId: task.newsEmail, name: "later" },
  ]);
  bobTaskId = uuid();
  await db.insert(schema.tasks).values({ id: bobTaskId, accountListId: bob.list.id, subject: "Bob's newsletter", activityType: "Newsletter - Email", ...timestamps() });
});

describe("task filters on the task", () => {
  it("lists every task of the viewer's lists and nobody else's", async () => {
    expect(sorted(await listed(""))).toEqual(sorted(ALL));
    expect(await listed("", bob.token)).toEqual([bobTaskId]);
  });

  it("account_list_id limits to one list; a list the viewer cannot see is 404", async () => {
    expect(await listed(`filter[account_list_id]=${secondList.id}`)).toEqual(["otherList"]);
    const error = errorOf(await get(`/api/v2/tasks?filter[account_list_id]=${bob.list.id}`, alice.token), 404);
    expect(error.detail).toBe(`Resource 'AccountList' with id '${bob.list.id}' does not exist`);
  });

  it("reverse_account_list_id: the viewer's lists other than those named, never another user's; echoed as sent", async () => {
    const reversed = (lists: string) => `filter[account_list_id]=${lists}&filter[reverse_account_list_id]=true`;
    expect(sorted(await listed(reversed(secondList.id)))).toEqual(sorted(ALL.filter((name) => name !== "otherList")));
    expect(await listed(reversed(alice.list.id))).toEqual(["otherList"]);
    expect(await listed(reversed(`${alice.list.id},${secondList.id}`))).toEqual([]);
    const response = await get(`/api/v2/tasks?per_page=0&${reversed(secondList.id)}`, alice.token);
    expect(response.body.meta.pagination.total_count).toBe(ALL.length - 1);
    expect(response.body.meta.filter).toEqual({ account_list_id: secondList.id, reverse_account_list_id: "true" });
    // Read list by list (two lists left, in created order) as well as whole.
    const dave = await createViewer();
    const [second, third] = [await createAccountList(dave.user), await createAccountList(dave.user)];
    const daveTasks = [dave.list.id, second.id, third.id].map((accountListId, index) => ({ id: uuid(), accountListId, subject: `Task ${index}`, ...timestamps() }));
    await db.insert(schema.tasks).values(daveTasks);
    const byList = await get(`/api/v2/tasks?sort=created_at&${reversed(dave.list.id)}`, dave.token);
    expect(byList.body.data.map((t: { id: string }) => t.id)).toEqual([daveTasks[1].id, daveTasks[2].id]);
    const error = errorOf(await get(`/api/v2/tasks?${reversed(bob.list.id)}`, alice.token), 404);
    expect(error.detail).toBe(`Resource 'AccountList' with id '${bob.list.id}' does not exist`);
  });

  it("activity_type: several types, and Newsletter for both newsletter activities", async () => {
    await expectFilter("activity_type", "Newsletter", ["newsPhysical", "newsEmail"]);
    await expectFilter("activity_type", "Call,Letter", ["callAnna", "letterBen"]);
    await expectFilter("activity_type", "Newsletter - Email", ["newsEmail"]);
  });

  it("completed, starred and overdue", async () => {
    await expectFilter("completed", "true", ["callAnna", "thankCleo"]);
    await expectFilter("completed", "false", ["letterBen", "newsPhysical", "newsEmail", "otherList"]);
    await expectFilter("starred", "true", ["callAnna"]);
    await expectFilter("overdue", "true", ["letterBen", "newsEmail"]);
    await expectFilter("overdue", "false", ["callAnna", "newsPhysical", "thankCleo", "otherList"]);
  });

  it("date ranges on completed_at, created_at, updated_at and start_at", async () => {
    await expectFilter("completed_at", "2026-01-01..2026-01-31", ["callAnna"]);
    await expectFilter("created_at", "2026-03-01...2026-03-03", ["newsPhysical", "newsEmail"]);
    await expectFilter("created_at", "2026-03-01T00:00:00Z...2026-03-02T00:00:00Z", ["newsPhysical"]);
    await expectFilter("updated_at", "2026-04-02", ["thankCleo"]);
    await expectFilter("start_at", "2026-02-01..2026-03-01", ["letterBen", "thankCleo"]);
    const error = errorOf(await get("/api/v2/tasks?filter[start_at]=last tuesday", alice.token), 400);
    expect(error.detail).toBe(
      "Wrong format of date range for filter 'start_at', should follow 'YYYY-MM-DD...YYYY-MM-DD' for dates and 'YYYY-MM-DDThh:mm:ssZ...YYYY-MM-DDThh:mm:ssZ' for datetimes",
    );
  });

  it("ids, user_ids, next_action, result and wildcard_search", async () => {
    await expectFilter("ids", `${task.callAnna},${task.letterBen}`, ["callAnna", "letterBen"]);
    await expectFilter("user_ids", carol.id, ["callAnna"]);
    await expectFilter("user_ids", `${carol.id},${alice.user.id}`, ["callAnna", "letterBen"]);
    await expectFilter("next_action", "Email", ["callAnna"]);
    await expectFilter("result", "Received,Completed", ["callAnna", "thankCleo"]);
    await expectFilter("wildcard_search", "NEWSLETTER", ["newsPhysical", "newsEmail"]);
  });

  it("tags (all of them, or any with any_tags) and exclude_tags", async () => {
    await expectFilter("tags", "home,URGENT", ["callAnna"]);
    expect(sorted(await listed("filter[tags]=home,urgent&filter[any_tags]=true"))).toEqual(sorted(["callAnna", "letterBen"]));
    expect(sorted(await listed("filter[tags]=home,urgent&filter[any_tags]=true&filter[reverse_tags]=true"))).toEqual(
      sorted(["newsPhysical", "newsEmail", "thankCleo", "otherList"]),
    );
    await expectFilter("exclude_tags", "home,later", ["newsPhysical", "thankCleo", "otherList"]);
  });

  it("echoes the recognised filters as sent and ignores unknown ones", async () => {
    const response = await get("/api/v2/tasks?filter[tags]=home&filter[anyTags]=true&filter[reverse_completed]=true&filter[nonsense]=1", alice.token);
    expect(response.body.meta.filter).toEqual({ tags: "home", any_tags: "true", reverse_completed: "true" });
    expect(response.body.meta.sort).toBeNull();
  });

  it("reads filters from the body of a POST with X-HTTP-Method-Override: GET", async () => {
    const response = await request("POST", "/api/v2/tasks", {
      token: alice.token,
      body: { filter: { activity_type: "Newsletter", starred: "false" }, per_page: 1 },
      headers: { "X-HTTP-Method-Override": "GET" },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.meta.pagination).toEqual({ page: 1, per_page: 1, total_count: 2, total_pages: 2 });
  });
});

describe("task filters on the tasks' contacts", () => {
  it("contact_ids, contact_status and contact_type", async () => {
    await expectFilter("contact_ids", [contact.ben], ["letterBen", "newsEmail"]);
    await expectFilter("contact_status", "Not Interested", ["letterBen", "newsEmail"]);
    await expectFilter("contact_status", "active", ["callAnna", "newsEmail", "thankCleo"]);
    await expectFilter("contact_status", "hidden", ["letterBen", "newsEmail"]);
    await expectFilter("contact_type", "company", ["letterBen", "newsEmail"]);
    await expectFilter("contact_type", "person", ["callAnna", "newsEmail", "thankCleo"]);
  });

  it("contact_appeal, contact_designation_account_id and contact_referrer", async () => {
    await expectFilter("contact_appeal", appealId, ["callAnna", "newsEmail"]);
    await expectFilter("contact_appeal", "no_appeals", ["thankCleo"]);
    await expectFilter("contact_designation_account_id", designationId, ["callAnna", "newsEmail"]);
    await expectFilter("contact_referrer", contact.anna, ["letterBen", "newsEmail"]);
    await expectFilter("contact_referrer", "any", ["letterBen", "newsEmail"]);
    await expectFilter("contact_referrer", "none", ["callAnna", "newsEmail", "thankCleo"]);
  });

  it("contact_church and the address filters", async () => {
    await expectFilter("contact_church", "First Church", ["callAnna", "newsEmail"]);
    await expectFilter("contact_church", "none", ["letterBen", "newsEmail", "thankCleo"]);
    await expectFilter("contact_city", "Leeds,Nowhere", ["letterBen", "newsEmail"]);
    await expectFilter("contact_country", "United Kingdom", ["letterBen", "newsEmail"]);
    await expectFilter("contact_metro_area", "Chicago", ["callAnna", "newsEmail"]);
    await expectFilter("contact_region", "Midwest", ["callAnna", "newsEmail"]);
    await expectFilter("contact_state", "IL", ["callAnna", "newsEmail"]);
  });

  it("contact_info_* (Yes or No)", async () => {
    await expectFilter("contact_info_addr", "Yes", ["callAnna", "letterBen", "newsEmail"]);
    await expectFilter("contact_info_addr", "No", ["thankCleo"]);
    await expectFilter("contact_info_email", "Yes", ["callAnna", "newsEmail"]);
    await expectFilter("contact_info_mobile", "Yes", ["callAnna", "newsEmail"]);
    await expectFilter("contact_info_phone", "Yes", ["letterBen", "newsEmail"]);
    await expectFilter("contact_info_work_phone", "Yes", ["letterBen", "newsEmail"]);
  });

  it("contact_likely, contact_newsletter, contact_pledge_frequency and contact_timezone", async () => {
    await expectFilter("contact_likely", "Most Likely", ["letterBen", "newsEmail"]);
    await expectFilter("contact_likely", "none", ["thankCleo"]);
    await expectFilter("contact_newsletter", "email", ["callAnna", "newsEmail"]);
    await expectFilter("contact_newsletter", "address", ["letterBen", "newsEmail"]);
    await expectFilter("contact_pledge_frequency", "3", ["letterBen", "newsEmail"]);
    await expectFilter("contact_timezone", "Europe/London,America/Chicago", ["callAnna", "letterBen", "newsEmail"]);
  });

  it("combines contact and task filters", async () => {
    expect(await listed("filter[contact_ids]=" + contact.anna + "&filter[completed]=false")).toEqual(["newsEmail"]);
  });
});

describe("task sorting", () => {
  it("defaults to overdue first, then completed_at descending, then start_at ascending with empty dates last", async () => {
    expect(await listed("")).toEqual(["letterBen", "newsEmail", "otherList", "newsPhysical", "thankCleo", "callAnna"]);
    const page = await get("/api/v2/tasks?per_page=2&page=2", alice.token);
    expect(page.body.data.map((t: { id: string }) => nameOf(t.id))).toEqual(["otherList", "newsPhysical"]);
    expect(page.body.meta.pagination).toEqual({ page: 2, per_page: 2, total_count: 6, total_pages: 3 });
  });

  it("answers a page far past the end, in any order and however sent, as an empty page with the total", async () => {
    for (const query of ["page=999999999999999&per_page=25000", "page[number]=999999999999999&page[size]=25000", "page=999999999999999&per_page=25000&sort=start_at"]) {
      const response = await get(`/api/v2/tasks?${query}`, alice.token);
      expect(response.status, `${query}: ${response.text.slice(0, 300)}`).toBe(200);
      expect(response.body.data).toEqual([]);
      expect(response.body.meta.pagination).toEqual({ page: 999999999999999, per_page: 25000, total_count: 6, total_pages: 1 });
    }
    const overridden = await request("POST", "/api/v2/tasks", {
      token: alice.token,
      body: { page: 999999999999999, per_page: 25000 },
      headers: { "X-HTTP-Method-Override": "GET" },
    });
    expect(overridden.status, overridden.text.slice(0, 300)).toBe(200);
    expect(overridden.body.meta.pagination).toEqual({ page: 999999999999999, per_page: 25000, total_count: 6, total_pages: 1 });
  });

  it("sorts by start_at and completed_at, with nulls first or last", async () => {
    expect(await listed("sort=start_at -nulls")).toEqual(["callAnna", "letterBen", "thankCleo", "newsEmail", "otherList", "newsPhysical"]);
    expect(await listed("sort=start_at nulls")).toEqual(["newsPhysical", "callAnna", "letterBen", "thankCleo", "newsEmail", "otherList"]);
    expect(await listed("sort=-start_at -nulls")).toEqual(["otherList", "newsEmail", "thankCleo", "letterBen", "callAnna", "newsPhysical"]);
    expect((await listed("sort=-completed_at -nulls")).slice(0, 2)).toEqual(["thankCleo", "callAnna"]);
    expect(await listed("sort=created_at")).toEqual(["callAnna", "letterBen", "newsPhysical", "newsEmail", "thankCleo", "otherList"]);
    expect(await listed("sort=-updated_at")).toEqual(["otherList", "thankCleo", "newsEmail", "newsPhysical", "letterBen", "callAnna"]);
  });

  it("sorts by several fields at once", async () => {
    expect(await listed("sort=completed_at nulls,-start_at -nulls")).toEqual(["otherList", "newsEmail", "letterBen", "newsPhysical", "callAnna", "thankCleo"]);
    const response = await get("/api/v2/tasks?sort=completed_at,-created_at", alice.token);
    expect(response.body.meta.sort).toBe("completed_at,-created_at");
  });

  it("rejects unknown sort fields and malformed sorts", async () => {
    expect(errorOf(await get("/api/v2/tasks?sort=subject", alice.token), 400).detail).toBe("Sorting by subject is not supported for this endpoint.");
    expect(errorOf(await get("/api/v2/tasks?sort=start_at%20sideways", alice.token), 400).detail).toBe("Bad format for sort param.");
  });
});
