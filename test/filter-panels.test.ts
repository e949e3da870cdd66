/**
 * The web app's filter panels, GET /api/v2/contacts/filters and /tasks/filters: the original's items with options
 * from the list's own data, and every option a value the list route's filter takes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { env } from "cloudflare:workers";
import { del, errorOf, get, post, put, request, type ApiResponse } from "./helpers/api";
import { expectKeptSumsExact, expectTriggersAsDeclared } from "./helpers/kept-sums";
import { withD1Counts } from "./helpers/d1-counts";
import { contactNameStampTriggers } from "../drizzle/contact-name-stamps";
import { placedUser, type PlacedUser } from "./helpers/placement";
import { expectAlike, fillLists } from "./helpers/summary-fixtures";
import { givingTo, insertAddress, insertAppeal, insertContact, insertTask } from "./helpers/contact-fixtures";
import { addToList, createUser, createViewer, db, timestamps, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;

interface Item {
  type: string;
  id: string;
  attributes: { name: string; title: string; type: string; priority: number; parent: string | null; default_selection: unknown; multiple?: boolean; options?: Array<{ name: string; id: string }> };
}

/**
 * The items carry an attribute named `type`, which JSON:API reserves but the web app draws its panels by: the
 * answer is read raw (the API description still checks it).
 */
const panel = async (path: string, token: string): Promise<ApiResponse & { items: Item[] }> => {
  const answer = await request("GET", path, { token, raw: true });
  return { ...answer, items: answer.body?.data ?? [] };
};
const optionIds = (items: Item[], name: string) => items.find((item) => item.attributes.name === name)?.attributes.options?.map((option) => option.id);

beforeAll(async () => {
  alice = await createViewer({ currency: "CAD" });
  bob = await createViewer();
  const giver = await insertContact(alice.list.id, "Giver, Gail", { pledgeAmount: "25", pledgeCurrency: "EUR", churchName: "Grace Chapel", timezone: "America/Chicago", locale: "fr" });
  const referred = await insertContact(alice.list.id, "Referred, Rae");
  await db.insert(schema.contactReferrals).values({ id: uuid(), referredById: giver.id, referredToId: referred.id, ...timestamps() });
  await insertAddress(giver.id, { city: "Springfield", state: "IL", country: "United States", region: "Midwest", metroArea: "Springfield Metro", primaryMailingAddress: true });
  await insertTask(alice.list.id, [giver.id], { activityType: "Call" });
  await insertAppeal(alice.list.id, "Year End");
  const giving = await givingTo(alice.list.id);
  await giving.give(giver.id, "12.5", "2026-01-15");
  const bobs = await insertContact(bob.list.id, "Bobs, Only", { churchName: "Bobs Church", pledgeAmount: "99" });
  await insertAddress(bobs.id, { city: "Shelbyville" });
});

describe("GET /api/v2/contacts/filters", () => {
  it("answers the original's items with options from the list's data, as the web app asks", async () => {
    const answer = await panel(`/api/v2/contacts/filters?filter%5Baccount_list_id%5D=${alice.list.id}`, alice.token);
    expect(answer.status, answer.text).toBe(200);
    const items = answer.items;
    expect(items.length).toBe(36);
    const status = items.find((item) => item.attributes.name === "status")!;
    expect(status).toMatchObject({ type: "contact_filters", id: "0", attributes: { title: "Status", type: "multiselect", priority: 0, parent: null, default_selection: "active, null", multiple: true } });
    expect(status.attributes.options!.slice(0, 3).map((option) => option.id)).toEqual(["active", "hidden", "null"]);
    const city = items.find((item) => item.attributes.name === "city")!;
    expect(city.attributes).toMatchObject({ title: "City", parent: "Contact Location", type: "multiselect" });
    expect(city.attributes.options).toEqual([{ name: "-- Any --", id: "", placeholder: "None" }, { name: "-- None --", id: "none" }, { name: "Springfield", id: "Springfield" }]);
    expect(optionIds(items, "church")).toEqual(["", "none", "Grace Chapel"]);
    expect(optionIds(items, "pledge_amount")).toEqual(["", "25.0"]);
    expect(optionIds(items, "pledge_currency")).toEqual(["", "CAD", "EUR"]);
    expect(optionIds(items, "timezone")).toEqual(["", "America/Chicago"]);
    expect(optionIds(items, "locale")).toEqual(["", "fr"]);
    expect(optionIds(items, "related_task_action")).toEqual(["", "none", "Call"]);
    expect(optionIds(items, "donation_amount")).toEqual(["", "12.5"]);
    expect(items.find((item) => item.attributes.name === "referrer")!.attributes.options!.at(-1)).toMatchObject({ name: "Giver, Gail" });
    expect(items.find((item) => item.attributes.name === "appeal")!.attributes.options!.at(-1)).toMatchObject({ name: "Year End" });
    expect(items.find((item) => item.attributes.name === "address_historic")!.attributes).toEqual({
      name: "address_historic", title: "Address No Longer Valid", type: "single_checkbox", priority: 14, parent: "Contact Location", default_selection: false,
    });
    // Nothing of another user's list.
    expect(answer.text).not.toContain("Shelbyville");
    expect(answer.text).not.toContain("Bobs Church");
  });

  it("offers only values the contacts list takes: every option of every item is accepted by its filter", async () => {
    const items = (await panel(`/api/v2/contacts/filters?filter[account_list_id]=${alice.list.id}`, alice.token)).items;
    await expectEveryOptionAccepted(items, "/api/v2/contacts", alice.list.id);
  });

  it("is for the list's users and coaches; another user's list is not found", async () => {
    const coach = await createUser();
    await addToList(alice.list.id, coach.id, "coach");
    const coached = await panel(`/api/v2/contacts/filters?filter[account_list_id]=${alice.list.id}`, coach.token);
    expect(coached.status).toBe(200);
    expect(optionIds(coached.items, "church")).toContain("Grace Chapel");
    errorOf(await get(`/api/v2/contacts/filters?filter[account_list_id]=${alice.list.id}`, bob.token), 404);
    errorOf(await get("/api/v2/contacts/filters"), 401);
  });
});

describe("GET /api/v2/tasks/filters", () => {
  it("names one list's contacts to its users and coaches only; another user's list is not found", async () => {
    const coach = await createUser();
    await addToList(alice.list.id, coach.id, "coach");
    const path = `/api/v2/tasks/filters?filter[account_list_id]=${alice.list.id}`;
    const names = (items: Item[]) => items.find((item) => item.attributes.name === "contact_ids")!.attributes.options!.map((option) => option.name);
    const own = await panel(path, alice.token);
    const coached = await panel(path, coach.token);
    expect(coached.status, coached.text).toBe(200);
    expect(names(coached.items)).toEqual(names(own.items));
    expect(names(own.items)).toContain("Giver, Gail");
    expect(names(own.items)).not.toContain("Bobs, Only");
    errorOf(await get(path, bob.token), 404);
    errorOf(await get(path), 401);
  });

  it("answers the task filters, the contact ones drawn from the contacts' panel, each option accepted by the task list", async () => {
    const answer = await panel(`/api/v2/tasks/filters?filter%5Baccount_list_id%5D=${alice.list.id}`, alice.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.items.map((item) => item.attributes.name).sort()).toEqual(
      [
        "activity_type", "contact_ids", "contact_church", "contact_city", "contact_country", "contact_info_addr", "contact_info_email", "contact_info_mobile",
        "contact_info_phone", "contact_info_work_phone", "contact_likely", "contact_metro_area", "contact_newsletter", "contact_pledge_frequency",
        "contact_referrer", "contact_region", "contact_state", "contact_status", "contact_timezone", "contact_type", "contact_designation_account_id",
      ].sort(),
    );
    expect(answer.items.find((item) => item.attributes.name === "contact_status")!.attributes.default_selection).toBe("");
    expect(optionIds(answer.items, "contact_city")).toEqual(["", "none", "Springfield"]);
    expect(optionIds(answer.items, "contact_ids")).toHaveLength(3);
    await expectEveryOptionAccepted(answer.items, "/api/v2/tasks", alice.list.id);
  });
});

describe("the panels of lists on several databases", () => {
  // The same data: one user's lists on one list database, another's spread over the directory and two more.
  let together: PlacedUser;
  let spread: PlacedUser;
  const raw = async (path: string, token: string) => request("GET", path, { token, raw: true });

  beforeAll(async () => {
    together = await placedUser(["LIST_DB_1", "LIST_DB_1", "LIST_DB_1"]);
    spread = await placedUser(["DB", "LIST_DB_1", "LIST_DB_2"]);
    await fillLists(together, 5);
    await fillLists(spread, 6);
  });

  it("answer the contacts' panel over every list as one database: each option once, in one order", async () => {
    const answer = (await expectAlike("/api/v2/contacts/filters", { user: together, digit: 5 }, { user: spread, digit: 6 }, raw)) as { data: Item[] };
    // Places of every list, those two lists share once; sorted across the lists, after the panel's own.
    expect(optionIds(answer.data, "city")).toEqual(["", "none", "Lyon", "Portland", "Springfield", "Toronto"]);
    expect(optionIds(answer.data, "region")).toEqual(["", "none", "Midwest", "Ontario", "West"]);
    expect(optionIds(answer.data, "church")).toEqual(["", "none", "Church A", "Church B", "Church C"]);
    expect(optionIds(answer.data, "pledge_amount")).toEqual(["", "10.0", "20.0", "30.0"]);
    // Each list's referrer, by name.
    const referrers = answer.data.find((item) => item.attributes.name === "referrer")!.attributes.options!;
    expect(referrers.slice(0, 3).map((option) => option.id)).toEqual(["", "none", "any"]);
    expect(referrers.slice(3).map((option) => option.name)).toEqual(["Anderson, Pat 00", "Carson, Pat 04", "Ellis, Pat 08"]);
    expect(answer.data.map((item) => item.attributes.name)).toEqual([...answer.data.map((item) => item.attributes.name)].sort((a, b) => a.localeCompare(b)));
    // Named, a list on another database answers its own alone.
    const third = await raw(`/api/v2/contacts/filters?filter[account_list_id]=${spread.lists[2]}`, spread.token);
    expect(third.body.data.find((item: Item) => item.attributes.name === "referrer").attributes.options.slice(3).map((option: { name: string }) => option.name)).toEqual(["Ellis, Pat 08"]);
  });

  it("answer the tasks' panel over every list as one database: every contact of the lists once, by name", async () => {
    const answer = (await expectAlike("/api/v2/tasks/filters", { user: together, digit: 5 }, { user: spread, digit: 6 }, raw)) as { data: Item[] };
    const contacts = answer.data.find((item) => item.attributes.name === "contact_ids")!.attributes.options!.slice(1);
    expect(contacts).toHaveLength(12);
    expect(contacts.map((option) => option.name)).toEqual(contacts.map((option) => option.name).sort());
    expect(optionIds(answer.data, "contact_city")).toEqual(["", "none", "Lyon", "Portland", "Springfield", "Toronto"]);
    // The web app's POST alike.
    const overridden = async (path: string, token: string) => request("POST", path, { token, raw: true, headers: { "X-HTTP-Method-Override": "GET" }, body: {} });
    expect(await expectAlike("/api/v2/tasks/filters", { user: together, digit: 5 }, { user: spread, digit: 6 }, overridden)).toEqual(answer);
  });

  it("order names across the lists as SQLite does: by code point, a character past U+FFFF after U+E000..U+FFFF", async () => {
    // UTF-16 puts the emoji (a surrogate pair) before the fullwidth letters; code points (UTF-8 bytes) after them.
    const names = ["\u{1F600} Smile", "\uFF3Aed, Fullwidth", "Zed, Plain", "\u00E9clair, Accent", "\uFB01ne, Ligature", "\u{1F600}", "Zed"];
    for (const [index, name] of names.entries()) {
      for (const user of [together, spread]) {
        const made = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: `Order ${name}` }, relationships: { account_list: { data: { type: "account_lists", id: user.lists[index % 3] } } } } }, user.token);
        expect(made.status, made.text).toBe(201);
      }
    }
    const bytes = (text: string) => [...new TextEncoder().encode(text)];
    const byBytes = (a: string, b: string) => {
      const [left, right] = [bytes(a), bytes(b)];
      for (let i = 0; i < Math.min(left.length, right.length); i++) if (left[i] !== right[i]) return left[i] - right[i];
      return left.length - right.length;
    };
    const expected = names.map((name) => `Order ${name}`).sort(byBytes);
    expect(expected.indexOf("Order \u{1F600}")).toBeGreaterThan(expected.indexOf("Order \uFF3Aed, Fullwidth"));
    for (const user of [together, spread]) {
      const answer = await raw("/api/v2/tasks/filters", user.token);
      const shown = (answer.body.data as Item[]).find((item) => item.attributes.name === "contact_ids")!.attributes.options!.map((option) => option.name).filter((name) => name.startsWith("Order "));
      expect(shown).toEqual(expected);
    }
  });

  it("answer one list's contact options, encoded by SQLite, as the same text the options of several lists are read into", async () => {
    // Names JSON escapes: quotes, a backslash, control characters (NUL too), a separator JavaScript leaves as it is, markup.
    const names = ['Quote "Q", Back\\slash', "Tab\tNew\nline\u0001 Nul\u0000", "Line\u2028Sep", "<b>Bold</b> & /", "\u{1F600} Smile", "\uFF3Aed"];
    for (const [index, name] of names.entries()) {
      for (const user of [together, spread]) {
        const made = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: `Encoded ${name}` }, relationships: { account_list: { data: { type: "account_lists", id: user.lists[index % 2] } } } } }, user.token);
        expect(made.status, made.text).toBe(201);
      }
    }
    const contactOptions = (text: string) => {
      const items = JSON.parse(text).data as Item[];
      return items.find((item) => item.attributes.name === "contact_ids")!.attributes.options as Array<Record<string, unknown>>;
    };
    // The text of an option as it stands in the answer: members in their order, characters as they were escaped.
    const optionTexts = (text: string) => {
      const start = text.indexOf('"name":"contact_ids"');
      const options = text.slice(text.indexOf('"options":[', start) + '"options":['.length);
      return options.slice(0, options.indexOf("]}")).split(/,(?=\{)/);
    };
    for (const user of [together, spread]) {
      const all = await raw("/api/v2/tasks/filters", user.token);
      expect(all.status, all.text).toBe(200);
      const allTexts = optionTexts(all.text);
      const allOptions = contactOptions(all.text);
      expect(allTexts).toHaveLength(allOptions.length);
      for (const list of user.lists.slice(0, 2)) {
        const one = await raw(`/api/v2/tasks/filters?filter[account_list_id]=${list}`, user.token);
        expect(one.status, one.text).toBe(200);
        expect(one.headers.get("ETag")).toMatch(/^"[0-9a-f]{40}"$/);
        const ofList = allTexts.filter((_, index) => index === 0 || allOptions[index].account_list_id === list);
        expect(optionTexts(one.text)).toEqual(ofList);
        expect(contactOptions(one.text).filter((option) => String(option.name).startsWith("Encoded "))).toHaveLength(3);
      }
    }

    // More options than one statement row holds: names shared by many contacts, so that ties cross the rows.
    const large = await placedUser(["LIST_DB_1", "LIST_DB_1"]);
    const many = Array.from({ length: 1_234 }, (_, index) => ({ id: uuid(), name: `Many ${index % 9}` }));
    const stamp = new Date().toISOString();
    await (env.LIST_DB_1 as D1Database).prepare("INSERT INTO contacts (id, account_list_id, name, created_at, updated_at) SELECT json_extract(value, '$.id'), ?, json_extract(value, '$.name'), ?, ? FROM json_each(?)")
      .bind(large.lists[0], stamp, stamp, JSON.stringify(many))
      .run();
    await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: "Many 4" }, relationships: { account_list: { data: { type: "account_lists", id: large.lists[1] } } } } }, large.token);
    const both = await raw("/api/v2/tasks/filters", large.token);
    const first = await raw(`/api/v2/tasks/filters?filter[account_list_id]=${large.lists[0]}`, large.token);
    expect(first.status, first.text).toBe(200);
    const bothOptions = contactOptions(both.text);
    expect(optionTexts(first.text)).toEqual(optionTexts(both.text).filter((_, index) => index === 0 || bothOptions[index].account_list_id === large.lists[0]));
    expect(contactOptions(first.text).slice(1).map((option) => option.id)).toEqual(many.sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1)).map((contact) => contact.id));
  });
});

describe("one list's contact options kept in the edge cache", () => {
  it("are read once while the list's contact names stay the same, and again after each change that shows", async () => {
    const user = await placedUser(["LIST_DB_1", "LIST_DB_1"]);
    const [list, other] = user.lists;
    const many = Array.from({ length: 300 }, (_, index) => ({ id: uuid(), name: `Kept ${String(index).padStart(3, "0")}` }));
    const stamp = new Date().toISOString();
    await (env.LIST_DB_1 as D1Database).prepare("INSERT INTO contacts (id, account_list_id, name, created_at, updated_at) SELECT json_extract(value, '$.id'), ?, json_extract(value, '$.name'), ?, ? FROM json_each(?)")
      .bind(list, stamp, stamp, JSON.stringify(many))
      .run();
    const path = `/api/v2/tasks/filters?filter[account_list_id]=${list}`;
    const read = async () => {
      const counted = await withD1Counts("GET", path, user.token);
      expect(counted.status, counted.text).toBe(200);
      const items = JSON.parse(counted.text).data as Item[];
      return { ...counted, names: items.find((item) => item.attributes.name === "contact_ids")!.attributes.options!.slice(1).map((option) => option.name) };
    };
    const first = await read();
    expect(first.names).toEqual(many.map((contact) => contact.name));
    const again = await read();
    expect(again.text).toBe(first.text);
    // The options were not read: the list's stamp was, with the rest of the panel.
    expect(again.rowsRead).toBeLessThanOrEqual(first.rowsRead - 300);
    // A change the options do not show keeps them.
    const unseen = await put(`/api/v2/contacts/${many[0].id}`, { data: { type: "contacts", id: many[0].id, attributes: { status: "Partner - Pray", overwrite: true } } }, user.token);
    expect(unseen.status, unseen.text).toBe(200);
    expect((await read()).rowsRead).toBe(again.rowsRead);

    // Each change they show is answered at once, and read once.
    const changes: Array<[string, () => Promise<ApiResponse>, (names: string[]) => string[]]> = [
      ["renamed", () => put(`/api/v2/contacts/${many[1].id}`, { data: { type: "contacts", id: many[1].id, attributes: { name: "Kept 001 renamed", overwrite: true } } }, user.token), (names) => names.map((name) => (name === "Kept 001" ? "Kept 001 renamed" : name))],
      ["added", () => post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: "Kept 150b" }, relationships: { account_list: { data: { type: "account_lists", id: list } } } } }, user.token), (names) => [...names, "Kept 150b"].sort()],
      ["removed", () => del(`/api/v2/contacts/${many[2].id}`, user.token), (names) => names.filter((name) => name !== "Kept 002")],
      ["moved to the other list", () => put(`/api/v2/contacts/${many[3].id}`, { data: { type: "contacts", id: many[3].id, attributes: { overwrite: true }, relationships: { account_list: { data: { type: "account_lists", id: other } } } } }, user.token), (names) => names.filter((name) => name !== "Kept 003")],
    ];
    let names = first.names;
    for (const [change, send, expected] of changes) {
      const sent = await send();
      expect(sent.status, `${change}: ${sent.text}`).toBeLessThan(300);
      names = expected(names);
      const after = await read();
      expect(after.names, change).toEqual(names);
      expect(after.rowsRead, change).toBeGreaterThanOrEqual(again.rowsRead + 290);
      const kept = await read();
      expect(kept.text, change).toBe(after.text);
      expect(kept.rowsRead, change).toBe(again.rowsRead);
    }
    // The other list's options were kept apart, and followed the contact that came.
    const otherNames = (JSON.parse((await withD1Counts("GET", `/api/v2/tasks/filters?filter[account_list_id]=${other}`, user.token)).text).data as Item[])
      .find((item) => item.attributes.name === "contact_ids")!.attributes.options!.map((option) => option.name);
    expect(otherNames).toEqual(["-- Any --", "Kept 003"]);
  });

  it("are stamped by exactly the declared triggers", async () => {
    await expectTriggersAsDeclared(["contact_name_stamps"], contactNameStampTriggers());
  });
});

describe("the kept values the panels read", () => {
  it("follow addresses and referrals added and removed, contacts moving to another list and a contact removed", async () => {
    const user = await placedUser(["LIST_DB_1", "LIST_DB_1"]);
    const [first, second] = user.lists;
    const storage = env.LIST_DB_1 as D1Database;
    const contact = async (list: string, name: string) => {
      const created = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name, status: "Never Contacted" }, relationships: { account_list: { data: { type: "account_lists", id: list } } } } }, user.token);
      expect(created.status, created.text).toBe(201);
      return created.body.data.id as string;
    };
    const address = async (contactId: string, city: string) => {
      const created = await post(`/api/v2/contacts/${contactId}/addresses`, { data: { type: "addresses", attributes: { city, state: "ST", country: "Country" } } }, user.token);
      expect(created.status, created.text).toBe(201);
      return created.body.data.id as string;
    };
    const options = async (list: string, name: string) => optionIds((await panel(`/api/v2/contacts/filters?filter[account_list_id]=${list}`, user.token)).items, name);
    // Today's referrals are in a period ending today (the default ends at the request's second).
    const today = new Date().toISOString().slice(0, 10);
    const analytics = async (list: string) => (await get(`/api/v2/account_lists/${list}/analytics?filter[start_date]=${today}&filter[end_date]=${today}`, user.token)).body.data.attributes.contacts;
    const kept = async (kind: string) => (await storage.prepare("SELECT owner_id, key1, rows FROM kept_sums WHERE kind = ? AND owner_id IN (?, ?) ORDER BY 1, 2").bind(kind, first, second).all()).results;

    const mover = await contact(first, "Mover, Max");
    const stayer = await contact(first, "Stayer, Sue");
    const referred = await contact(first, "Referred, Rae");
    const moverHome = await address(mover, "Springfield");
    await address(mover, "Shelbyville");
    await address(stayer, "Springfield");
    const referral = await post(`/api/v2/contacts/${mover}/referrals`, { data: { type: "contact_referrals", relationships: { referred_to: { data: { type: "contacts", id: referred } } } } }, user.token);
    expect(referral.status, referral.text).toBe(201);
    expect(await options(first, "city")).toEqual(["", "none", "Shelbyville", "Springfield"]);
    expect(await kept("address_city")).toEqual([
      { owner_id: first, key1: "Shelbyville", rows: 1 },
      { owner_id: first, key1: "Springfield", rows: 2 },
    ]);
    expect((await options(first, "referrer"))!.slice(3)).toEqual([mover]);
    expect(await analytics(first)).toEqual({ active: 3, referrals: 1, referrals_on_hand: 1 });
    await expectKeptSumsExact(storage);

    // A referrer renamed is offered by the new name.
    const renamed = await put(`/api/v2/contacts/${mover}`, { data: { type: "contacts", id: mover, attributes: { name: "Mover, Maxine", overwrite: true } } }, user.token);
    expect(renamed.status, renamed.text).toBe(200);
    const referrers = (await panel(`/api/v2/contacts/filters?filter[account_list_id]=${first}`, user.token)).items.find((item) => item.attributes.name === "referrer")!.attributes.options!;
    expect(referrers.slice(3)).toEqual([{ id: mover, name: "Mover, Maxine" }]);
    await expectKeptSumsExact(storage);

    // An address removed takes its value along only when it was the last one holding it.
    expect((await del(`/api/v2/contacts/${mover}/addresses/${moverHome}`, user.token)).status).toBe(204);
    expect(await kept("address_city")).toEqual([
      { owner_id: first, key1: "Shelbyville", rows: 1 },
      { owner_id: first, key1: "Springfield", rows: 1 },
    ]);

    // The referrer cannot move to the other list while whom it referred stays: nothing changes.
    const moveTo = (id: string, attributes: Record<string, unknown> = {}) =>
      put(`/api/v2/contacts/${id}`, { data: { type: "contacts", id, attributes: { ...attributes, overwrite: true }, relationships: { account_list: { data: { type: "account_lists", id: second } } } } }, user.token);
    const refused = await moveTo(mover);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.errors[0].detail).toContain("(1 referral)");
    expect(await options(first, "city")).toEqual(["", "none", "Shelbyville", "Springfield"]);
    expect(await kept("referrers")).toHaveLength(1);
    await expectKeptSumsExact(storage);

    // The referral removed, the referrer moves: its addresses go with it.
    expect((await del(`/api/v2/contacts/${mover}/referrals/${referral.body.data.id}`, user.token)).status).toBe(204);
    const moved = await moveTo(mover);
    expect(moved.status, moved.text).toBe(200);
    expect(await options(first, "city")).toEqual(["", "none", "Springfield"]);
    expect(await options(second, "city")).toEqual(["", "none", "Shelbyville"]);
    expect((await options(first, "referrer"))!.slice(3)).toEqual([]);
    expect(await analytics(first)).toEqual({ active: 2, referrals: 0, referrals_on_hand: 0 });
    await expectKeptSumsExact(storage);

    // The contact it referred follows, its status changed on the way, and is referred again there: counted in its
    // new list, by its status there.
    const referredMoved = await moveTo(referred, { status: "Partner - Pray" });
    expect(referredMoved.status, referredMoved.text).toBe(200);
    const referredAgain = await post(`/api/v2/contacts/${mover}/referrals`, { data: { type: "contact_referrals", relationships: { referred_to: { data: { type: "contacts", id: referred } } } } }, user.token);
    expect(referredAgain.status, referredAgain.text).toBe(201);
    expect((await options(second, "referrer"))!.slice(3)).toEqual([mover]);
    expect(await analytics(first)).toEqual({ active: 1, referrals: 0, referrals_on_hand: 0 });
    expect(await analytics(second)).toEqual({ active: 1, referrals: 1, referrals_on_hand: 0 });
    await expectKeptSumsExact(storage);

    // The referral removed, then the referrer removed: nothing of theirs is left.
    expect((await del(`/api/v2/contacts/${mover}/referrals/${referredAgain.body.data.id}`, user.token)).status).toBe(204);
    expect(await analytics(second)).toEqual({ active: 1, referrals: 0, referrals_on_hand: 0 });
    expect((await options(second, "referrer"))!.slice(3)).toEqual([]);
    const again = await post(`/api/v2/contacts/${mover}/referrals`, { data: { type: "contact_referrals", relationships: { referred_to: { data: { type: "contacts", id: referred } } } } }, user.token);
    expect(again.status, again.text).toBe(201);
    expect((await del(`/api/v2/contacts/${mover}`, user.token)).status).toBe(204);
    expect(await options(second, "city")).toEqual(["", "none"]);
    expect(await kept("address_city")).toEqual([{ owner_id: first, key1: "Springfield", rows: 1 }]);
    expect(await kept("referrers")).toEqual([]);
    expect(await kept("referrals_by_time")).toEqual([]);
    expect(await kept("referred_contacts")).toEqual([]);
    const [{ referrals_to_me }] = (await storage.prepare("SELECT referrals_to_me FROM contacts WHERE id = ?").bind(referred).all<{ referrals_to_me: number }>()).results;
    expect(referrals_to_me).toBe(0);
    await expectKeptSumsExact(storage);
  });
});

/** Each option's id sent to the list route as its item's filter answers 200. */
async function expectEveryOptionAccepted(items: Item[], listPath: string, listId: string): Promise<void> {
  for (const item of items) {
    const { name, type, options } = item.attributes;
    const values: string[] =
      type === "single_checkbox" ? ["true"] : type === "text" ? (options ?? []).map((option) => `[${option.id}]=1`) : (options ?? []).filter((option) => option.id !== "").map((option) => option.id);
    expect(values.length, name).toBeGreaterThan(0);
    for (const value of values) {
      const parameter = value.startsWith("[") ? `filter[${name}]${value}` : `filter[${name}]=${encodeURIComponent(value)}`;
      const answer = await get(`${listPath}?filter[account_list_id]=${listId}&${parameter}&per_page=1`, alice.token);
      expect(answer.status, `${parameter}: ${answer.text}`).toBe(200);
    }
  }
}
