/**
 * Account lists placed on several databases. The same data placed on one list database and spread over three
 * answers the same documents; each record lives on its list's database alone; a request never reaches a list of
 * another database through ids, includes, filters or batches; bookmarks name their databases.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../src/index";
import { runInBackground } from "./helpers/background";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { request, get, post, put, del, errorOf, type ApiResponse } from "./helpers/api";
import { copiesById, on, operator, placedUser, type PlacedUser } from "./helpers/placement";
import { tokenFor, uuid } from "./helpers/factories";
import { runCron } from "./helpers/events";
import { withD1Counts } from "./helpers/d1-counts";

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

/** One user's lists on one list database, another's (the same data) spread over the directory and two more. */
let together: PlacedUser;
let spread: PlacedUser;
/** The same data again, two lists on one list database and the third on another. */
let paired: PlacedUser;
let other: PlacedUser;

/** A client id per user (its first digit) and record, so both layouts' ids sort alike. */
const idOf = (user: number, kind: number, n: number) => `${user}0000000-0000-4000-8000-${String(kind).padStart(4, "0")}${String(n).padStart(8, "0")}`;

const STATUSES = ["Partner - Financial", "Partner - Special", "Partner - Pray", "Never Contacted", "Not Interested"];

async function fill(user: PlacedUser, digit: number): Promise<void> {
  for (const [listIndex, listId] of user.lists.entries()) {
    for (let n = 0; n < 7; n++) {
      const k = listIndex * 7 + n;
      const body = {
        data: {
          type: "contacts",
          id: idOf(digit, 1, k),
          attributes: { name: `${["Anderson", "Baker", "Carson", "Dawson"][k % 4]}, Pat ${String(k).padStart(2, "0")}`, status: STATUSES[k % STATUSES.length], pledge_amount: String(10 * (k % 5)), tag_list: k % 3 === 0 ? "prayer" : "monthly" },
          relationships: { account_list: { data: { type: "account_lists", id: listId } } },
        },
      };
      const created = await post("/api/v2/contacts", body, user.token);
      expect(created.status, created.text).toBe(201);
    }
  }
  // The tasks go in one bulk create whose items name lists on every database.
  const items = user.lists.flatMap((listId, listIndex) =>
    Array.from({ length: 5 }, (_, n) => {
      const k = listIndex * 5 + n;
      return {
        data: {
          type: "tasks",
          id: idOf(digit, 2, k),
          attributes: { subject: `Task ${String(k).padStart(2, "0")}`, activity_type: k % 2 ? "Call" : "Email", start_at: `${day((k % 7) - 3)}T09:00:00Z`, completed: k % 4 === 0, ...(k % 4 === 0 ? { completed_at: `${day(-1)}T12:00:${String(k).padStart(2, "0")}Z` } : {}) },
          relationships: {
            account_list: { data: { type: "account_lists", id: listId } },
            contacts: { data: [{ type: "contacts", id: idOf(digit, 1, listIndex * 7 + n) }] },
          },
        },
      };
    }),
  );
  const tasks = await request("POST", "/api/v2/tasks/bulk", { token: user.token, body: { data: items }, raw: true });
  expect(tasks.status, tasks.text).toBe(200);
  expect(tasks.body.map((answer: { data?: { id: string } }) => answer.data?.id)).toEqual(items.map((item) => item.data.id));
}

beforeAll(async () => {
  together = await placedUser(["LIST_DB_1", "LIST_DB_1", "LIST_DB_1"]);
  spread = await placedUser(["DB", "LIST_DB_1", "LIST_DB_2"]);
  paired = await placedUser(["LIST_DB_2", "LIST_DB_1", "LIST_DB_2"]);
  other = await placedUser(["LIST_DB_2"]);
  await fill(together, 1);
  await fill(spread, 2);
  await fill(paired, 3);
});

/** What a list answer shows, with ids read as what they name (the layouts' ids differ in their first digit). */
function shown(answer: ApiResponse) {
  expect(answer.status, answer.text).toBe(200);
  const label = (object: { type: string; id: string; attributes?: Record<string, unknown> }) =>
    `${object.type}:${object.attributes?.name ?? object.attributes?.subject ?? object.id.slice(1)}`;
  return {
    data: answer.body.data.map(label),
    attributes: answer.body.data.map((object: { attributes?: Record<string, unknown> }) => Object.keys(object.attributes ?? {}).sort()),
    meta: answer.body.meta,
    included: (answer.body.included ?? []).map(label).sort(),
  };
}

describe("the same data on one database and on three", () => {
  const queries = [
    "/api/v2/contacts",
    "/api/v2/contacts?sort=name&per_page=5&page=2",
    "/api/v2/contacts?sort=-name&per_page=7",
    "/api/v2/contacts?sort=created_at&per_page=4&page=3",
    "/api/v2/contacts?filter[status]=Partner%20-%20Financial,Partner%20-%20Special&include=account_list",
    "/api/v2/contacts?filter[status]=Not%20Interested&fields[contacts]=name,status",
    "/api/v2/contacts?filter[wildcard_search]=son&sort=name",
    "/api/v2/contacts?filter[tags]=prayer&per_page=3&page=2&sort=name",
    "/api/v2/contacts?per_page=0",
    "/api/v2/contacts?page=9",
    "/api/v2/tasks",
    "/api/v2/tasks?per_page=4&page=2",
    "/api/v2/tasks?sort=-start_at&per_page=6",
    "/api/v2/tasks?filter[completed]=false&include=contacts",
    "/api/v2/tasks?filter[date_range]=overdue",
    "/api/v2/tasks?filter[activity_type]=Call&fields[tasks]=subject",
    // A page whose parts would answer more rows than the merge takes unsorted: each database cuts its own.
    "/api/v2/tasks?per_page=700&fields[tasks]=subject",
    "/api/v2/contacts/tags",
    "/api/v2/tasks/tags",
  ];

  for (const query of queries) {
    it(`answer ${query} alike`, async () => {
      const one = shown(await get(query, together.token));
      const three = shown(await get(query, spread.token));
      expect(three).toEqual(one);
      // A database holding two of the lists names the rows of both, unsorted: the merge orders them.
      expect(shown(await get(query, paired.token))).toEqual(one);
    });
  }

  it("answer the account lists alike (made in the same second, their order is their random ids')", async () => {
    const names = async (token: string) => ((await get("/api/v2/account_lists", token)).body.data as Array<{ attributes: { name: string } }>).map((list) => list.attributes.name).sort();
    expect(await names(spread.token)).toEqual(await names(together.token));
  });

  it("answer a filter naming lists on several databases, HEAD and a blank page size alike", async () => {
    // The filter names each user's own lists: its echo differs, the rest is the same.
    const withoutEcho = (answer: ApiResponse) => ({ ...shown(answer), meta: { ...shown(answer).meta, filter: undefined } });
    const named = (user: PlacedUser) => `/api/v2/contacts?sort=name&filter[account_list_id]=${user.lists[0]},${user.lists[2]}`;
    const namedSpread = withoutEcho(await get(named(spread), spread.token));
    expect(namedSpread.data.length).toBeGreaterThan(0);
    expect(namedSpread).toEqual(withoutEcho(await get(named(together), together.token)));
    const reversed = (user: PlacedUser) => `/api/v2/tasks?filter[account_list_id]=${user.lists[1]}&filter[reverse_account_list_id]=true`;
    expect(withoutEcho(await get(reversed(spread), spread.token))).toEqual(withoutEcho(await get(reversed(together), together.token)));
    expect(shown(await get("/api/v2/contacts?per_page=&sort=name", spread.token))).toEqual(shown(await get("/api/v2/contacts?per_page=&sort=name", together.token)));
    const head = await request("HEAD", "/api/v2/contacts", { token: spread.token });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("answer a list read through the method override alike, its page in the body", async () => {
    const body = { filter: { status: "Partner - Financial,Partner - Pray" }, sort: "name", page: 2, per_page: 2 };
    const read = (token: string) => request("POST", "/api/v2/contacts", { token, body, headers: { "X-HTTP-Method-Override": "GET" } });
    expect(shown(await read(spread.token))).toEqual(shown(await read(together.token)));
  });

  it("keep each record on its list's database alone", async () => {
    for (const [index, name] of ["DB", "LIST_DB_1", "LIST_DB_2"].entries()) {
      const contact = idOf(2, 1, index * 7);
      expect(await copiesById("contacts", contact)).toEqual({ DB: 0, LIST_DB_1: 0, LIST_DB_2: 0, [name]: 1 });
      expect(await copiesById("tasks", idOf(2, 2, index * 5))).toEqual({ DB: 0, LIST_DB_1: 0, LIST_DB_2: 0, [name]: 1 });
    }
    // Kept counts on each database are those of its own lists.
    const [counted] = await on("LIST_DB_2").all<{ rows: number }>(
      sql`SELECT sum(rows) AS rows FROM list_row_counts WHERE table_name = 'contacts' AND account_list_id = ${spread.lists[2]}`,
    );
    expect(Number(counted.rows)).toBe(7);
  });

  it("ask the databases at once: a page over three takes one round trip more on its critical path, however many it makes", async () => {
    // The D1 counters load tests read (X-D1-*), after a first request has the viewer cached.
    const counted = async (path: string, token: string) => {
      await get(path, token);
      const counts = await withD1Counts("GET", path, token);
      expect(counts.status).toBe(200);
      return counts;
    };
    for (const path of ["/api/v2/contacts", "/api/v2/tasks"]) {
      const one = await counted(path, together.token);
      const three = await counted(path, spread.token);
      expect(one.criticalPath).toBeGreaterThan(0);
      expect(one.roundTrips).toBe(one.criticalPath);
      // Each database names its rows, then those that hold rows of the page render them: both at once.
      expect(three.criticalPath).toBe(one.criticalPath + 1);
      expect(three.roundTrips).toBeGreaterThanOrEqual(three.criticalPath + 4);
    }
  });

  /**
   * An answer's text with its ids named in the order they first appear, and without the moments its rows were
   * written: the layouts' users have ids of their own, and their data was written a moment apart.
   */
  const normalized = (answer: ApiResponse) => {
    expect(answer.status, answer.text).toBe(200);
    const names = new Map<string, string>();
    return answer.text.replace(/"(created_at|updated_at|updated_in_db_at)":"[^"]*"/g, '"$1":"…"').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => names.get(id) ?? names.set(id, `id-${names.size}`).get(id)!);
  };
  const alike = async (path: string, init: { method?: string; body?: unknown | ((user: PlacedUser) => unknown); headers?: Record<string, string> } = {}) => {
    const send = (user: PlacedUser) => request(init.method ?? "GET", path, { token: user.token, body: typeof init.body === "function" ? init.body(user) : init.body, headers: init.headers });
    const one = normalized(await send(together));
    for (const user of [spread, paired]) {
      const other = normalized(await send(user));
      // Where they part, with a little before it: a whole page would drown the difference.
      const at = [...other].findIndex((character, index) => character !== one[index]);
      if (at !== -1 || other.length !== one.length) expect(other.slice(Math.max(0, at - 200), at + 200)).toBe(one.slice(Math.max(0, at - 200), at + 200));
    }
    return JSON.parse(one);
  };

  it("answer every page one database answers, to the byte: the largest page, deep pages and pages past the end", async () => {
    const whole = await alike("/api/v2/contacts?per_page=25000&sort=name");
    // Of the 21 contacts, 4 have a status the list hides unless asked.
    expect(whole.data).toHaveLength(17);
    expect(whole.meta.pagination).toEqual({ page: 1, per_page: 25000, total_count: 17, total_pages: 1 });
    const past = await alike("/api/v2/contacts?page=9999&per_page=25");
    expect(past.data).toEqual([]);
    // Includes asked for a page past the end: an empty `included`, as one database answers it.
    expect((await alike("/api/v2/contacts?page=9999&per_page=25&include=people")).included).toEqual([]);
    expect(past.meta.pagination).toEqual({ page: 9999, per_page: 25, total_count: 17, total_pages: 1 });
    // A page ending past row 10,000 (each database reads its rows up to the page's end).
    const deep = await alike("/api/v2/tasks?page=401&per_page=25&sort=-start_at");
    expect(deep.data).toEqual([]);
    expect(deep.meta.pagination.total_count).toBe(15);
    await alike("/api/v2/tasks?per_page=25000&fields[tasks]=subject");
    // The lists were made in the same second: their order is their random ids', so their names are compared as a set.
    const lists = async (user: PlacedUser) => {
      const answer = await get("/api/v2/account_lists?per_page=25000", user.token);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.meta.pagination).toEqual({ page: 1, per_page: 25000, total_count: 3, total_pages: 1 });
      return answer.body.data.map((list: { attributes: { name: string } }) => list.attributes.name).sort();
    };
    expect(await lists(spread)).toEqual(await lists(together));
  });

  it("answer the web app's select-all requests to the byte, over any number of databases", async () => {
    // "Select all" in the contacts and tasks lists: the method override, the filter and a page of 25,000 in the body,
    // as the web app sends them (its filter names the lists shown, here two on two databases, or none).
    const selectAll = (resource: string, body: (user: PlacedUser) => Record<string, unknown>) =>
      alike(`/api/v2/${resource}`, { method: "POST", headers: { "X-HTTP-Method-Override": "GET" }, body });
    const shownLists = (user: PlacedUser) => `${user.lists[0]},${user.lists[2]}`;
    const contacts = await selectAll("contacts", (user) => ({ filter: { account_list_id: shownLists(user), status: "active" }, fields: { contacts: "" }, per_page: 25000 }));
    expect(contacts.data.length).toBeGreaterThan(0);
    expect(contacts.data.every((contact: { attributes?: object }) => contact.attributes === undefined || Object.keys(contact.attributes).length === 0)).toBe(true);
    const named = await selectAll("contacts", () => ({ filter: { status: "active" }, fields: { contacts: "name" }, per_page: 25000, sort: "name" }));
    expect(named.data.map((contact: { attributes: { name: string } }) => contact.attributes.name)).toEqual([...named.data.map((contact: { attributes: { name: string } }) => contact.attributes.name)].sort());
    const tasks = await selectAll("tasks", (user) => ({ filter: { account_list_id: shownLists(user), completed: "false" }, fields: { tasks: "subject,updated_in_db_at" }, per_page: 25000 }));
    expect(tasks.data.length).toBeGreaterThan(0);
  });

  it("answer every contact and task filter read with per_page=25000 alike, to the byte", async () => {
    const since = `${day(-30)}..${day(1)}`;
    const contactFilters = [
      "address_historic=true", "address_valid=false", "alma_mater=none", `anniversary=${since}`, `birthday=${since}`, "any_tags=true&filter[tags]=prayer,monthly",
      "appeal=no_appeals", "church=none", "city=none", "country=none", "metro_area=none", "region=none", "state=none", "contact_info_addr=No",
      "contact_info_email=No", "contact_info_facebook=No", "contact_info_mobile=No", "contact_info_phone=No", "contact_info_work_phone=No",
      "contact_type=person", `created_at=${since}`, "donation=none", "donation_amount=10", "donation_amount_range[min]=0&filter[donation_amount_range][max]=100",
      "exclude_tags=prayer", `gave_more_than_pledged_range=${since}`, `pledge_amount_increased_range=${since}`, `started_giving_range=${since}`,
      `stopped_giving_range=${since}`, "likely=none", "locale=none", "name_like=Ba", "newsletter=none", `next_ask=${since}`, "no_appeals=true",
      "notes[wildcard_note_search]=x", "opt_out=No", "pledge=outstanding", "pledge_amount=10.0,20", "pledge_currency=USD", "pledge_frequency=1.0",
      "pledge_late_by=30_60", "pledge_received=false", "primary_address=primary,null", "referrer=none", "related_task_action=none", "source=none",
      "starred=false", "status=active", "status=hidden", "status=null,Partner - Financial", "status_valid=true", "tags=monthly", "timezone=none",
      `updated_at=${since}`, "wildcard_search=Pat 1", "status=Partner - Pray&filter[reverse_status]=true",
    ];
    // Each filter as `name=value`, or `name[key]=value` for an object's key, with more filters after a `&`.
    const query = (filter: string) => {
      const [name, ...value] = filter.split("=");
      return `filter[${name.replace("[", "][").replace(/\]$/, "")}]=${value.join("=")}&per_page=25000`;
    };
    const nameOf = (filter: string) => filter.split(/[[=]/)[0];
    const seen = new Set<string>();
    for (const filter of contactFilters) {
      const answer = await alike(`/api/v2/contacts?${query(filter)}`);
      // The filter was applied, not passed over: its echo names it.
      expect(Object.keys(answer.meta.filter)).toContain(nameOf(filter));
      seen.add(JSON.stringify(answer.data.map((contact: { id: string }) => contact.id)));
    }
    // The filters chose different rows: the documents compared are not all one page.
    expect(seen.size).toBeGreaterThan(5);
    const taskFilters = [
      "activity_type=Call,Email", "any_tags=false", "completed=true", `completed_at=${since}`, "contact_appeal=no_appeals", "contact_church=none",
      "contact_city=none", "contact_info_email=No", "contact_likely=none", "contact_newsletter=none", "contact_pledge_frequency=1.0", "contact_referrer=none",
      "contact_status=active", "contact_timezone=none", "contact_type=person", `created_at=${since}`, "date_range=overdue", "date_range=upcoming",
      "date_range=no_date", "exclude_tags=x", "next_action=Call", "overdue=true", "result=none", "starred=false", `start_at=${since}`, `updated_at=${since}`,
      "wildcard_search=Task 1", "completed=false&filter[reverse_completed]=true",
    ];
    for (const filter of taskFilters) {
      const answer = await alike(`/api/v2/tasks?${query(filter)}`);
      expect(Object.keys(answer.meta.filter)).toContain(nameOf(filter));
    }
    // Some 250 requests: the time is theirs, not any one's.
  }, 120_000);

  it("answer a deep page narrowed to the lists of one database as the whole list answers it", async () => {
    const narrowed = await get(`/api/v2/contacts?page=101&per_page=100&filter[account_list_id]=${spread.lists[1]}`, spread.token);
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.meta.pagination.total_count).toBe(6);
  });
});

describe("records by id on the database that holds them", () => {
  it("show, update and delete a contact on any of the viewer's databases", async () => {
    const id = idOf(2, 1, 15);
    const shownContact = await get(`/api/v2/contacts/${id}?include=tasks`, spread.token);
    expect(shownContact.status).toBe(200);
    expect(shownContact.body.included.map((task: { attributes: { subject: string } }) => task.attributes.subject)).toEqual(["Task 11"]);
    const updated = await put(`/api/v2/contacts/${id}`, { data: { type: "contacts", id, attributes: { name: "Moved, Not", overwrite: true } } }, spread.token);
    expect(updated.status, updated.text).toBe(200);
    const [stored] = await on("LIST_DB_2").all<{ name: string }>(sql`SELECT name FROM contacts WHERE id = ${id}`);
    expect(stored.name).toBe("Moved, Not");
    const person = await post(`/api/v2/contacts/${id}/people`, { data: { type: "people", attributes: { first_name: "Nested" } } }, spread.token);
    expect(person.status, person.text).toBe(201);
    expect(await copiesById("people", person.body.data.id)).toEqual({ DB: 0, LIST_DB_1: 0, LIST_DB_2: 1 });
    expect((await del(`/api/v2/contacts/${id}`, spread.token)).status).toBe(204);
    expect(await copiesById("contacts", id)).toEqual({ DB: 0, LIST_DB_1: 0, LIST_DB_2: 0 });
    expect((await get(`/api/v2/contacts/${id}`, spread.token)).status).toBe(404);
  });

  it("write bulk items where each one's contact or list is, answering every item in order", async () => {
    const person = (id: string, contact: string) => ({ data: { type: "people", id, attributes: { first_name: "Bulk" }, relationships: { contact: { data: { type: "contacts", id: contact } } } } });
    const ids = [idOf(2, 3, 1), idOf(2, 3, 2), idOf(2, 3, 3)];
    const people = await request("POST", "/api/v2/contacts/people/bulk", {
      token: spread.token,
      raw: true,
      body: { data: [person(ids[0], idOf(2, 1, 1)), person(ids[1], idOf(2, 1, 20)), person(ids[2], "00000000-0000-4000-8000-000000000000")] },
    });
    expect(people.status, people.text).toBe(200);
    expect(people.body.map((item: { data?: { id: string }; errors?: Array<{ status: string }> }) => item.data?.id ?? item.errors?.[0].status)).toEqual([ids[0], ids[1], "404"]);
    expect(await copiesById("people", ids[0])).toEqual({ DB: 1, LIST_DB_1: 0, LIST_DB_2: 0 });
    expect(await copiesById("people", ids[1])).toEqual({ DB: 0, LIST_DB_1: 0, LIST_DB_2: 1 });
    // Tasks naming lists on two databases, one part refused whole (a clashing id): the other's items are stored.
    const task = (id: string, list: string, subject: string) => ({ data: { type: "tasks", id, attributes: { subject }, relationships: { account_list: { data: { type: "account_lists", id: list } } } } });
    const fresh = idOf(2, 4, 1);
    const answer = await request("POST", "/api/v2/tasks/bulk", {
      token: spread.token,
      raw: true,
      body: { data: [task(fresh, spread.lists[0], "Split, stored"), task(idOf(2, 2, 10), spread.lists[2], "Clash"), task(idOf(2, 2, 10), spread.lists[2], "Clash again")] },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body[0].data?.id).toBe(fresh);
    expect(answer.body[1].errors?.length).toBeGreaterThan(0);
    expect(await copiesById("tasks", fresh)).toEqual({ DB: 1, LIST_DB_1: 0, LIST_DB_2: 0 });
  });

  it("create where the body names the list, or in the default list", async () => {
    const named = await post(
      "/api/v2/contacts",
      { data: { type: "contacts", attributes: { name: "Named, List" }, relationships: { account_list: { data: { type: "account_lists", id: spread.lists[2] } } } } },
      spread.token,
    );
    expect(await copiesById("contacts", named.body.data.id)).toEqual({ DB: 0, LIST_DB_1: 0, LIST_DB_2: 1 });
    const defaulted = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: "Default, List" } } }, spread.token);
    expect(defaulted.status, defaulted.text).toBe(201);
    expect(defaulted.body.data.relationships.account_list.data.id).toBe(spread.lists[0]);
    expect(await copiesById("contacts", defaulted.body.data.id)).toEqual({ DB: 1, LIST_DB_1: 0, LIST_DB_2: 0 });
  });
});

describe("isolation between databases", () => {
  it("never shows another user's list on another database, whatever the request names", async () => {
    const theirs = idOf(2, 1, 16);
    // Refused as another user's, as one database refuses it, whether or not the viewer has a list on its database.
    const refused = `Not allowed to perform that action on the resource with ID ${theirs} of type contacts`;
    for (const viewer of [other, together]) {
      const shown = await get(`/api/v2/contacts/${theirs}`, viewer.token);
      expect(shown.status).toBe(403);
      expect(shown.body.errors[0].detail).toBe(refused);
      expect(shown.text).not.toContain("Pat");
      expect((await put(`/api/v2/contacts/${theirs}`, { data: { type: "contacts", id: theirs, attributes: { name: "Taken, Over" } } }, viewer.token)).status).toBe(403);
      expect((await request("HEAD", `/api/v2/contacts/${theirs}`, { token: viewer.token })).status).toBe(403);
      expect((await get(`/api/v2/contacts/${theirs}/people`, viewer.token)).status).toBe(403);
    }
    expect((await del(`/api/v2/contacts/${theirs}`, together.token)).status).toBe(403);
    // Bulk items alike: each one names its own refusal, and nothing is written.
    const unknownItem = "00000000-0000-4000-8000-00000000beef";
    const bulk = await request("PUT", "/api/v2/contacts/bulk", {
      token: together.token,
      raw: true,
      body: { data: [theirs, unknownItem].map((id) => ({ data: { type: "contacts", id, attributes: { name: "Bulk, Takeover", overwrite: true } } })) },
    });
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body[0]).toEqual({ errors: [{ status: "403", title: "Forbidden", detail: refused }], meta: { id: theirs } });
    expect(bulk.body[1].errors[0]).toMatchObject({ status: "404", detail: `Couldn't find Contact with 'id'=${unknownItem}` });
    // An id no database holds is not found, and a refusal never names another record than the one missed.
    const unknown = "00000000-0000-4000-8000-00000000dead";
    const missing = await get(`/api/v2/contacts/${unknown}`, together.token);
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].detail).toBe(`Couldn't find Contact with 'id'=${unknown}`);
    const nested = await get(`/api/v2/account_lists/${spread.lists[2]}/donations`, other.token);
    expect(nested.status).toBe(403);
    expect(nested.text).not.toContain("Pat");
    // A record of the viewer's own, asked for under a filter that routes to another of their databases, is not
    // there (404), as that database answers: held elsewhere in the viewer's own list, it is not refused.
    const mine = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: "Mine, Elsewhere" }, relationships: { account_list: { data: { type: "account_lists", id: spread.lists[2] } } } } }, spread.token);
    expect(mine.status, mine.text).toBe(201);
    const routedAway = await get(`/api/v2/contacts/${mine.body.data.id}?filter[account_list_id]=${spread.lists[1]}`, spread.token);
    expect(routedAway.status, routedAway.text).toBe(404);
    const filtered = await get(`/api/v2/contacts?filter[account_list_id]=${spread.lists[2]}`, other.token);
    expect(filtered.body.data ?? []).toEqual([]);
    const linked = await post(
      "/api/v2/tasks",
      { data: { type: "tasks", attributes: { subject: "Sneak" }, relationships: { contacts: { data: [{ type: "contacts", id: theirs }] } } } },
      other.token,
    );
    expect(linked.status).toBeGreaterThanOrEqual(400);
    const batched = await request("POST", "/api/v2/batch", { token: other.token, raw: true, body: { requests: [{ method: "GET", path: `/api/v2/contacts/${theirs}` }] } });
    expect(batched.body[0].status).toBe(403);
    const [name] = await on("LIST_DB_2").all<{ name: string }>(sql`SELECT name FROM contacts WHERE id = ${theirs}`);
    expect(name.name).not.toBe("Taken, Over");
  });

  it("never reaches another database's list from a background request either", async () => {
    const theirs = idOf(2, 1, 17);
    const id = await runInBackground(together.token, [
      { path: `api/v2/contacts/${theirs}`, request_method: "GET" },
      { path: `api/v2/contacts/${theirs}`, request_method: "PUT", request_body: JSON.stringify({ data: { type: "contacts", id: theirs, attributes: { name: "Background, Takeover" } } }) },
    ]);
    const stored = await on("DB").all<{ response_status: number; response_body: string }>(
      sql`SELECT response_status, response_body FROM background_batch_requests WHERE background_batch_id = ${id} ORDER BY created_at, id`,
    );
    expect(stored.map((row) => row.response_status)).toEqual([403, 403]);
    for (const row of stored) expect(row.response_body).not.toContain("Pat");
    const [name] = await on("LIST_DB_2").all<{ name: string }>(sql`SELECT name FROM contacts WHERE id = ${theirs}`);
    expect(name.name).not.toBe("Background, Takeover");
  });

  it("keep copies of a list's row, users and memberships on its database, and follow membership changes", async () => {
    const coach = await placedUser(["LIST_DB_1"]);
    expect((await operator("PUT", `/account_lists/${spread.lists[2]}/members/${coach.id}`, { coach: true })).status).toBe(200);
    const [copy] = await on("LIST_DB_2").all<{ n: number }>(sql`SELECT count(*) AS n FROM account_list_coaches WHERE account_list_id = ${spread.lists[2]} AND user_id = ${coach.id}`);
    expect(Number(copy.n)).toBe(1);
    // The coach reads the list on its database, beside their own on another.
    const read = await get(`/api/v2/contacts?filter[account_list_id]=${spread.lists[2]}&per_page=0`, coach.token);
    const owners = await get(`/api/v2/contacts?filter[account_list_id]=${spread.lists[2]}&per_page=0`, spread.token);
    expect(read.body.meta.pagination.total_count).toBe(owners.body.meta.pagination.total_count);
    expect(read.body.meta.pagination.total_count).toBeGreaterThan(0);
    expect((await operator("DELETE", `/account_lists/${spread.lists[2]}/members/${coach.id}`)).status).toBe(200);
    const [gone] = await on("LIST_DB_2").all<{ n: number }>(sql`SELECT count(*) AS n FROM account_list_coaches WHERE account_list_id = ${spread.lists[2]}`);
    expect(Number(gone.n)).toBe(0);
    // A change of the list's row on its database reaches the directory's copy.
    const list = await get(`/api/v2/account_lists/${spread.lists[2]}`, spread.token);
    const renamed = await put(`/api/v2/account_lists/${spread.lists[2]}`, { data: { type: "account_lists", id: spread.lists[2], attributes: { name: "Renamed", updated_in_db_at: list.body.data.attributes.updated_in_db_at } } }, spread.token);
    expect(renamed.status, renamed.text).toBe(200);
    const [directoryCopy] = await on("DB").all<{ name: string }>(sql`SELECT name FROM account_lists WHERE id = ${spread.lists[2]}`);
    expect(directoryCopy.name).toBe("Renamed");
  });
});

describe("a user's own details on every database", () => {
  it("show with the user from a list on a list database as from the directory, and follow the directory's changes", async () => {
    const user = await operator("POST", "/users", { email: `details-${uuid().slice(0, 8)}@example.org`, first_name: "Vera", last_name: "Details" });
    expect(user.status).toBe(201);
    const [personId, relativeId, masterId, emailId, phoneId, relationId] = [uuid(), uuid(), uuid(), uuid(), uuid(), uuid()];
    const at = "2026-01-01T00:00:00Z";
    await on("DB").run(sql`INSERT INTO master_people (id, created_at, updated_at) VALUES (${masterId}, ${at}, ${at})`);
    await on("DB").run(sql`INSERT INTO people (id, first_name, created_at, updated_at) VALUES (${personId}, 'Vera', ${at}, ${at}), (${relativeId}, 'Sam', ${at}, ${at})`);
    await on("DB").run(sql`INSERT INTO email_addresses (id, person_id, email, created_at, updated_at) VALUES (${emailId}, ${personId}, 'vera@example.org', ${at}, ${at})`);
    await on("DB").run(sql`INSERT INTO phone_numbers (id, person_id, number, created_at, updated_at) VALUES (${phoneId}, ${personId}, '555-0100', ${at}, ${at})`);
    await on("DB").run(sql`INSERT INTO family_relationships (id, person_id, related_person_id, relationship, created_at, updated_at) VALUES (${relationId}, ${personId}, ${relativeId}, 'Son', ${at}, ${at})`);
    await on("DB").run(sql`UPDATE users SET person_id = ${personId}, master_person_id = ${masterId} WHERE id = ${user.body.id}`);
    const lists: Record<string, string> = {};
    for (const name of ["DB", "LIST_DB_1"]) {
      const list = await operator("POST", "/account_lists", { user: user.body.id, name: `On ${name}`, currency: "USD", database: name });
      expect(list.status).toBe(201);
      lists[name] = list.body.id;
    }
    const token = await tokenFor(user.body.id);
    const include = "include=users.email_addresses,users.phone_numbers,users.family_relationships,users.master_person";
    const shownFrom = async (name: string) => {
      const answer = await get(`/api/v2/account_lists/${lists[name]}?${include}`, token);
      expect(answer.status, answer.text).toBe(200);
      return answer.body.included.map((object: { type: string; id: string; attributes: object; relationships?: object }) => [object.type, object.id, object.attributes, object.relationships]);
    };
    const fromDirectory = await shownFrom("DB");
    expect(fromDirectory.map(([type, id]: [string, string]) => `${type}:${id}`).sort()).toEqual(
      [`users:${user.body.id}`, `email_addresses:${emailId}`, `phone_numbers:${phoneId}`, `family_relationships:${relationId}`, `master_people:${masterId}`].sort(),
    );
    expect(await shownFrom("LIST_DB_1")).toEqual(fromDirectory);
    // The directory's details change (an operator's load); the daily copy brings the list database along.
    const [replacementId] = [uuid()];
    await on("DB").run(sql`DELETE FROM email_addresses WHERE id = ${emailId}`);
    await on("DB").run(sql`INSERT INTO email_addresses (id, person_id, email, created_at, updated_at) VALUES (${replacementId}, ${personId}, 'vera@example.com', ${at}, ${at})`);
    await runCron("23 3 * * *", Date.now(), env);
    expect(await copiesById("email_addresses", emailId)).toEqual({ DB: 0, LIST_DB_1: 0, LIST_DB_2: 0 });
    expect(await copiesById("email_addresses", replacementId)).toEqual({ DB: 1, LIST_DB_1: 1, LIST_DB_2: 0 });
    expect(await shownFrom("LIST_DB_1")).toEqual(await shownFrom("DB"));
    // Erasing the user takes the copies of their person and its details with them.
    expect(await copiesById("people", personId)).toEqual({ DB: 1, LIST_DB_1: 1, LIST_DB_2: 0 });
    for (let step = 0; step < 20; step++) {
      const erased = await operator("POST", `/users/${user.body.id}/erasure`);
      expect(erased.status).toBe(200);
      if (erased.body.done) break;
    }
    for (const [table, id] of [["users", user.body.id], ["people", personId], ["email_addresses", replacementId], ["phone_numbers", phoneId]]) {
      expect(await copiesById(table, id), table).toEqual({ DB: 0, LIST_DB_1: 0, LIST_DB_2: 0 });
    }
  });
});

describe("erasing a user whose list on a list database went in an earlier step", () => {
  it("removes the user's copy there too, though no list of theirs names that database any more", async () => {
    const user = await operator("POST", "/users", { email: `erased-${uuid().slice(0, 8)}@example.org`, first_name: "Eve", last_name: "Erased" });
    expect(user.status).toBe(201);
    const list = await operator("POST", "/account_lists", { user: user.body.id, name: "On LIST_DB_1", currency: "USD", database: "LIST_DB_1" });
    expect(list.status).toBe(201);
    expect(await copiesById("users", user.body.id)).toEqual({ DB: 1, LIST_DB_1: 1, LIST_DB_2: 0 });
    // Where an erasure step that ended right after removing the list leaves things: the list gone from both
    // databases (and its memberships with it), the user disabled, their copy still on the list's database.
    await on("DB").run(sql`UPDATE users SET disabled_at = ${new Date().toISOString()} WHERE id = ${user.body.id}`);
    await on("LIST_DB_1").run(sql`DELETE FROM account_lists WHERE id = ${list.body.id}`);
    await on("DB").run(sql`DELETE FROM account_lists WHERE id = ${list.body.id}`);
    const erased = await operator("POST", `/users/${user.body.id}/erasure`);
    expect(erased.status).toBe(200);
    expect(erased.body.done).toBe(true);
    expect(await copiesById("users", user.body.id)).toEqual({ DB: 0, LIST_DB_1: 0, LIST_DB_2: 0 });
  });
});

describe("the signed-in user's lists where they are", () => {
  it("include each list as its own database answers it, with what is included under it", async () => {
    const user = await placedUser(["DB", "LIST_DB_1", "LIST_DB_2"]);
    for (const [index, listId] of user.lists.entries()) {
      const body = { data: { type: "contacts", attributes: { name: `Giver ${index}`, status: "Partner - Financial", pledge_amount: String(100 * (index + 1)), pledge_frequency: "1" }, relationships: { account_list: { data: { type: "account_lists", id: listId } } } } };
      expect((await post("/api/v2/contacts", body, user.token)).status).toBe(201);
    }
    const answer = await get("/api/v2/user?include=account_lists,account_lists.users&fields[account_lists]=name,committed,users", user.token);
    expect(answer.status, answer.text).toBe(200);
    const included = answer.body.included as Array<{ type: string; id: string; attributes: Record<string, unknown> }>;
    expect(included.filter((resource) => resource.type === "users")).toEqual([]);
    for (const [index, listId] of user.lists.entries()) {
      const own = await get(`/api/v2/account_lists/${listId}?include=users&fields[account_lists]=name,committed,users`, user.token);
      expect(included.find((resource) => resource.type === "account_lists" && resource.id === listId), listId).toEqual(own.body.data);
      expect(Number(own.body.data.attributes.committed)).toBe(100 * (index + 1));
    }
    // A bookmark for each database the answer was read from.
    expect(answer.headers.get("X-D1-Bookmark")?.split(",").map((part: string) => part.split(":")[0]).sort()).toEqual(["DB", "LIST_DB_1", "LIST_DB_2"]);
    // An update of the user answers its lists as a read does.
    const updated = await request("PATCH", "/api/v2/user?include=account_lists,account_lists.users&fields[account_lists]=name,committed,users", {
      token: user.token,
      body: { data: { type: "users", attributes: { first_name: "Renamed", overwrite: true } } },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.included).toEqual(included);
    // A list database that fails fails the answer, rather than show the directory's copy without its totals.
    const failing = new Proxy(env.LIST_DB_2!, {
      get(target, property) {
        if (property === "prepare" || property === "batch" || property === "withSession") return () => {
          throw new Error("the list database is unavailable");
        };
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const ctx = createExecutionContext();
    const broken = await worker.fetch!(
      new Request("https://api.example.org/api/v2/user?include=account_lists", { headers: { Authorization: `Bearer ${user.token}`, Accept: "application/vnd.api+json" } }),
      { ...env, LIST_DB_2: failing } as never,
      ctx,
    );
    expect(broken.status).toBe(500);
    expect(broken.headers.get("Content-Type")).toContain("application/vnd.api+json");
    expect(((await broken.json()) as { errors: Array<{ status: string }> }).errors[0].status).toBe("500");
  });
});

describe("where new lists go", () => {
  const addList = async (user: string, environment: Record<string, unknown> = {}) => {
    const response = await worker.fetch!(
      new Request("https://api.example.org/admin/account_lists", {
        method: "POST",
        headers: { Authorization: `Bearer ${env.ADMIN_SECRET}`, "Content-Type": "application/json" },
        body: JSON.stringify({ user, name: "Placed by room", currency: "USD" }),
      }),
      { ...env, ...environment },
      createExecutionContext(),
    );
    expect(response.status).toBe(201);
    return ((await response.json()) as { database: string }).database;
  };

  it("go to the open list database with the most room, as D1 reports each one's size", async () => {
    // LIST_DB_2 grows well past LIST_DB_1: the next list goes to LIST_DB_1.
    await on("LIST_DB_2").run(sql`CREATE TABLE IF NOT EXISTS ballast (b BLOB)`);
    await on("LIST_DB_2").run(sql`INSERT INTO ballast SELECT randomblob(1000000) FROM (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3)`);
    expect(await addList(other.id)).toBe("LIST_DB_1");
    // Closed to new lists, a database takes none; with every list database closed, the directory does.
    expect(await addList(other.id, { CLOSED_LIST_DATABASES: "LIST_DB_1" })).toBe("LIST_DB_2");
    expect(await addList(other.id, { CLOSED_LIST_DATABASES: "LIST_DB_1, LIST_DB_2" })).toBe("DB");
    await on("LIST_DB_2").run(sql`DROP TABLE ballast`);
  });
});

describe("bookmarks per database", () => {
  it("name each database the request touched, read one's own writes when sent back, and refuse others", async () => {
    const created = await post(
      "/api/v2/contacts",
      { data: { type: "contacts", attributes: { name: "Bookmark, Two" }, relationships: { account_list: { data: { type: "account_lists", id: spread.lists[2] } } } } },
      spread.token,
    );
    const bookmark = created.headers.get("X-D1-Bookmark")!;
    expect(bookmark).toMatch(/^DB:[0-9a-f-]+,LIST_DB_2:[0-9a-f-]+$/);
    const read = await get(`/api/v2/contacts/${created.body.data.id}`, spread.token, { headers: { "X-D1-Bookmark": bookmark } });
    expect(read.status).toBe(200);
    // A record by id is looked for on each of the viewer's databases: the answer names all three.
    expect(read.headers.get("X-D1-Bookmark")).toMatch(/^DB:[0-9a-f-]+,LIST_DB_1:[0-9a-f-]+,LIST_DB_2:[0-9a-f-]+$/);
    // What was sent comes back, with what the request touched.
    const lone = await placedUser(["LIST_DB_2"]);
    const elsewhere = await get("/api/v2/contacts?per_page=1", lone.token, { headers: { "X-D1-Bookmark": bookmark } });
    expect(elsewhere.headers.get("X-D1-Bookmark")).toMatch(/^DB:[0-9a-f-]+,LIST_DB_2:[0-9a-f-]+$/);
    const listed = await get("/api/v2/contacts?per_page=1", spread.token, { headers: { "X-D1-Bookmark": bookmark } });
    expect(listed.headers.get("X-D1-Bookmark")).toMatch(/^DB:[0-9a-f-]+,LIST_DB_1:[0-9a-f-]+,LIST_DB_2:[0-9a-f-]+$/);
    const [, second] = bookmark.split(",");
    for (const bad of [`LIST_DB_9:${second.split(":")[1]}`, `${bookmark},${second}`, "DB:nope", `lIST:${second}`, `${second.split(":")[1]},${second.split(":")[1]}`]) {
      const refused = await get("/api/v2/contacts", spread.token, { headers: { "X-D1-Bookmark": bad } });
      expect(errorOf(refused, 400).detail).toBe("X-D1-Bookmark is not a bookmark this service answered");
    }
  });
});

it("binds the databases this file expects", () => {
  expect(Object.keys(env).filter((name) => name === "DB" || name.startsWith("LIST_DB_")).sort()).toEqual(["DB", "LIST_DB_1", "LIST_DB_2"]);
});
