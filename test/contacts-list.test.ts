/**
 * The contact list: scope, paging, sorting, includes, sparse fieldsets and reads sent with method override.
 */
import { and, eq, ne } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { errorOf, get, post } from "./helpers/api";
import { createViewer, db, timestamps, uuid } from "./helpers/factories";
import { planOf, recordedGet } from "./helpers/recording-db";
import {
  askInAppeal,
  excludeFromAppeal,
  givingTo,
  insertAddress,
  insertAppeal,
  insertContact,
  insertEmail,
  insertPerson,
  insertPhone,
  insertPledge,
  insertReferral,
  insertTask,
  listedNames,
} from "./helpers/contact-fixtures";
import { storage } from "./helpers/storage";

const CONTACTS = "/api/v2/contacts";
let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  // Inserted out of name order, with created_at in insertion order.
  for (const name of ["Chang, Edward", "apple, Ann", "Chan, Gene", "Zed, Zoe", "Chan, Emily", "Éclair, Eve"]) await insertContact(alice.list.id, name);
  await insertContact(bob.list.id, "Chan, Bob's");
});

const names = (body: { data: Array<{ attributes: { name: string } }> }) => body.data.map((c) => c.attributes.name);

describe("scope, paging and sorting", () => {
  it("sorts names bytewise, ascending and descending; default order is created_at", async () => {
    expect(await listedNames(alice.token, "")).toEqual(["Chan, Emily", "Chan, Gene", "Chang, Edward", "Zed, Zoe", "apple, Ann", "Éclair, Eve"]);
    const descending = await get(`${CONTACTS}?sort=-name`, alice.token);
    expect(names(descending.body)).toEqual(["Éclair, Eve", "apple, Ann", "Zed, Zoe", "Chang, Edward", "Chan, Gene", "Chan, Emily"]);
    expect(descending.body.meta.sort).toBe("-name");
    const unsorted = await get(CONTACTS, alice.token);
    expect(names(unsorted.body)).toEqual(["Chang, Edward", "apple, Ann", "Chan, Gene", "Zed, Zoe", "Chan, Emily", "Éclair, Eve"]);
    expect(unsorted.body.meta.sort).toBeNull();
    const byCreation = await get(`${CONTACTS}?sort=-created_at`, alice.token);
    expect(names(byCreation.body)[0]).toBe("Éclair, Eve");
    expect(errorOf(await get(`${CONTACTS}?sort=first_name`, alice.token), 400).detail).toBe("Sorting by first_name is not supported for this endpoint.");
    expect(errorOf(await get(`${CONTACTS}?sort=name,created_at`, alice.token), 400).detail).toBe("This endpoint does not support multiple sorting parameters.");
  });

  it("counts the matches however the total is taken, also past the last page", async () => {
    // Conditions on the contact's own columns: the total is its own count.
    const plain = await get(`${CONTACTS}?per_page=4&page=2`, alice.token);
    expect(plain.body.meta.pagination).toEqual({ page: 2, per_page: 4, total_count: 6, total_pages: 2 });
    const plainBeyond = await get(`${CONTACTS}?per_page=4&page=9`, alice.token);
    expect(plainBeyond.body.data).toEqual([]);
    expect(plainBeyond.body.meta.pagination).toEqual({ page: 9, per_page: 4, total_count: 6, total_pages: 2 });
    // The search reads other tables (people, e-mails, phones): the page counts its matches in the same pass.
    const searched = await get(`${CONTACTS}?filter[wildcard_search]=chan&sort=name&per_page=2&page=2`, alice.token);
    expect(names(searched.body)).toEqual(["Chang, Edward"]);
    expect(searched.body.meta.pagination).toEqual({ page: 2, per_page: 2, total_count: 3, total_pages: 2 });
    const searchedBeyond = await get(`${CONTACTS}?filter[wildcard_search]=chan&per_page=2&page=5`, alice.token);
    expect(searchedBeyond.body.data).toEqual([]);
    expect(searchedBeyond.body.meta.pagination).toEqual({ page: 5, per_page: 2, total_count: 3, total_pages: 2 });
  });

  it("counts the default list as its contacts less the hidden ones, however the total is taken", async () => {
    const { list, token } = await createViewer();
    const other = await createViewer();
    // Blank, missing and unknown statuses are not hidden; another user's hidden contacts are not counted against this list.
    for (const [name, status] of [["A, hidden", "Never Ask"], ["B, kept", "Partner - Financial"], ["C, hidden", "Not Interested"], ["D, blank", ""], ["E, none", null], ["F, unknown", "Legacy status"], ["G, kept", "Ask in Future"]] as const) {
      await insertContact(list.id, name, { status });
    }
    await insertContact(other.list.id, "Z, hidden elsewhere", { status: "Never Ask" });
    const kept = ["B, kept", "D, blank", "E, none", "F, unknown", "G, kept"];
    expect(await listedNames(token, "")).toEqual(kept);
    const second = await get(`${CONTACTS}?sort=name&per_page=2&page=2`, token);
    expect(names(second.body)).toEqual(["E, none", "F, unknown"]);
    expect(second.body.meta.pagination).toEqual({ page: 2, per_page: 2, total_count: 5, total_pages: 3 });
    expect((await get(`${CONTACTS}?per_page=0`, token)).body.meta.pagination.total_count).toBe(5);
    const beyond = await get(`${CONTACTS}?per_page=2&page=7`, token);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta.pagination.total_count).toBe(5);
    // With another condition, or with a status filter of its own, the total is counted row by row.
    expect((await get(`${CONTACTS}?filter[name_like]=b`, token)).body.meta.pagination.total_count).toBe(1);
    expect((await get(`${CONTACTS}?filter[name_like]=a`, token)).body.meta.pagination.total_count).toBe(0);
    expect((await get(`${CONTACTS}?filter[status]=hidden`, token)).body.meta.pagination.total_count).toBe(2);
    expect((await get(`${CONTACTS}?filter[status]=null`, token)).body.meta.pagination.total_count).toBe(2);
    // The total is read from the counts kept per list and status, not by reading the contacts.
    const { response, recorded } = await recordedGet("/api/v2/contacts?per_page=0", token);
    expect(response.status).toBe(200);
    const counted = recorded.find((statement) => /list_row_counts/.test(statement.sql))!;
    const plan = await planOf(counted);
    expect(plan.join("\n")).toMatch(/SEARCH list_row_counts USING .*INDEX .*\(table_name=\? AND account_list_id=\?\)/);
    expect(plan.join("\n")).not.toMatch(/\bcontacts\b/);
  });

  it("pages with page and per_page and answers the pagination meta; per_page=0 counts", async () => {
    const second = await get(`${CONTACTS}?sort=name&page=2&per_page=4`, alice.token);
    expect(names(second.body)).toEqual(["apple, Ann", "Éclair, Eve"]);
    expect(second.body.meta).toEqual({ pagination: { page: 2, per_page: 4, total_count: 6, total_pages: 2 }, sort: "name", filter: {} });
    const aliased = await get(`${CONTACTS}?sort=name&page[number]=3&page[size]=2`, alice.token);
    expect(names(aliased.body)).toEqual(["apple, Ann", "Éclair, Eve"]);
    const count = await get(`${CONTACTS}?per_page=0`, alice.token);
    expect(count.body.data).toEqual([]);
    expect(count.body.meta.pagination).toEqual({ page: 1, per_page: 0, total_count: 6, total_pages: 0 });
    expect(errorOf(await get(`${CONTACTS}?per_page=25001`, alice.token), 400).source).toEqual({ parameter: "per_page" });
  });

  it("answers a page far past the end, however far, as an empty page with the total", async () => {
    const empty = (page: number, perPage: number) => ({ page, per_page: perPage, total_count: 6, total_pages: Math.ceil(6 / perPage) });
    for (const [query, page, perPage] of [
      ["page=400000000000000", 400000000000000, 25],
      ["page=400000000000000&per_page=25000", 400000000000000, 25000],
      [`page=${Number.MAX_SAFE_INTEGER}&per_page=25000`, Number.MAX_SAFE_INTEGER, 25000],
      ["page[number]=999999999999999&page[size]=25000", 999999999999999, 25000],
      // The search reads other tables, so the page counts its matches in the same pass.
      ["page=999999999999999&per_page=25000&filter[wildcard_search]=e", 999999999999999, 25000],
    ] as const) {
      const response = await get(`${CONTACTS}?${query}`, alice.token);
      expect(response.status, `${query}: ${response.text.slice(0, 300)}`).toBe(200);
      expect(response.body.data).toEqual([]);
      if (!query.includes("wildcard")) expect(response.body.meta.pagination).toEqual(empty(page, perPage));
    }
    const overridden = await post(CONTACTS, { page: { number: "999999999999999", size: 25000 } }, alice.token, { headers: { "X-HTTP-Method-Override": "GET" } });
    expect(overridden.status, overridden.text.slice(0, 300)).toBe(200);
    expect(overridden.body.data).toEqual([]);
    expect(overridden.body.meta.pagination).toEqual(empty(999999999999999, 25000));
    // Past the largest exact whole number a page cannot be told from its neighbours: that is a bad value.
    expect(errorOf(await get(`${CONTACTS}?page=9007199254740993`, alice.token), 400).source).toEqual({ parameter: "page" });
  });

  it("never shows another user's contacts", async () => {
    expect(await listedNames(bob.token, "")).toEqual(["Chan, Bob's"]);
    expect(await listedNames(alice.token, "filter[name_like]=Chan")).toEqual(["Chan, Emily", "Chan, Gene", "Chang, Edward"]);
  });

  it("answers per_page=25000 with empty fieldsets (ids only)", async () => {
    const { list, token } = await createViewer();
    const rows = Array.from({ length: 300 }, (_, i) => ({ id: uuid(), accountListId: list.id, name: `Many, ${String(i).padStart(3, "0")}`, ...timestamps(i) }));
    for (let i = 0; i < rows.length; i += 5) await db.insert(schema.contacts).values(rows.slice(i, i + 5));
    const response = await get(`${CONTACTS}?per_page=25000&fields[contacts]=`, token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toHaveLength(300);
    expect(response.body.data[0]).toEqual({ id: rows[0].id, type: "contacts" });
    expect(response.body.meta.pagination).toEqual({ page: 1, per_page: 25000, total_count: 300, total_pages: 1 });
    const full = await get(`${CONTACTS}?per_page=25000`, token);
    expect(full.status).toBe(200);
    expect(full.body.data).toHaveLength(300);
  });

  it("answers per_page=25000 on a list of 25,000 contacts with ids only, and counts them with per_page=0", async () => {
    const { list, token } = await createViewer();
    // Generated in SQL: 25,000 single-row inserts would take longer than the request under test.
    await storage.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25000)
       INSERT INTO contacts (id, account_list_id, name, status, created_at, updated_at)
       SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
              ?, 'Bulk, ' || printf('%05d', i), 'Partner - Financial', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z' FROM n`,
    )
      .bind(list.id)
      .run();
    const response = await get(`${CONTACTS}?per_page=25000&fields[contacts]=`, token);
    expect(response.status, response.text.slice(0, 200)).toBe(200);
    expect(response.body.data).toHaveLength(25000);
    expect(Object.keys(response.body.data[0]).sort()).toEqual(["id", "type"]);
    expect(new Set(response.body.data.map((c: { id: string }) => c.id)).size).toBe(25000);
    expect(response.body.meta.pagination).toEqual({ page: 1, per_page: 25000, total_count: 25000, total_pages: 1 });
    const counted = await get(`${CONTACTS}?per_page=0`, token);
    expect(counted.body.data).toEqual([]);
    expect(counted.body.meta.pagination.total_count).toBe(25000);
    // 25,000 rows generated and answered: on a busy machine, past the default timeout.
  }, 60_000);

  it("reads lists sent as POST with X-HTTP-Method-Override: GET, parameters in the body", async () => {
    const response = await post(
      `${CONTACTS}?per_page=1`,
      { filter: { nameLike: "chan", reverse_name_like: false }, sort: "-name", per_page: 2, fields: { contacts: "name" } },
      alice.token,
      { headers: { "X-HTTP-Method-Override": "GET" } },
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toEqual([
      { id: expect.any(String), type: "contacts", attributes: { name: "Chang, Edward" } },
      { id: expect.any(String), type: "contacts", attributes: { name: "Chan, Gene" } },
    ]);
    expect(response.body.meta.filter).toEqual({ name_like: "chan", reverse_name_like: "false" });
  });
});

describe("relationships and includes", () => {
  it("links every relationship and includes them, each included resource once", async () => {
    const { user, list, token } = await createViewer();
    const contact = await insertContact(list.id, "Linked, Lou", { userId: user.id });
    const friend = await insertContact(list.id, "Linked, Friend");
    const first = await insertPerson(contact.id, "Lou", { lastName: "Linked", position: 0 });
    const primary = await insertPerson(contact.id, "Lia", { lastName: "Linked", position: 1, isPrimary: true });
    const email = await insertEmail(primary.id, "lia@example.org");
    const phone = await insertPhone(primary.id, "555-0199", "mobile");
    const address = await insertAddress(contact.id, { city: "Springfield" });
    const appeal = await insertAppeal(list.id, "Winter");
    const excludedFrom = await insertAppeal(list.id, "Summer");
    await askInAppeal(appeal.id, contact.id);
    await excludeFromAppeal(excludedFrom.id, contact.id);
    const pledge = await insertPledge(list.id, contact.id, { appealId: appeal.id });
    const task = await insertTask(list.id, [contact.id, friend.id], { activityType: "Call" });
    const byMe = await insertReferral(contact.id, friend.id);
    const toMe = await insertReferral(friend.id, contact.id);
    const giving = await givingTo(list.id);
    const gifts = [];
    for (let month = 1; month <= 7; month++) gifts.push(await giving.give(contact.id, `${month}.0`, `2025-0${month}-01`));
    const response = await get(`${CONTACTS}/${contact.id}?include=*`, token);
    expect(response.status, response.text).toBe(200);
    const rel = response.body.data.relationships;
    const link = (type: string, id: string) => ({ type, id });
    expect(rel.account_list.data).toEqual(link("account_lists", list.id));
    expect(rel.user.data).toEqual(link("users", user.id));
    expect(rel.people.data).toEqual([link("people", first.id), link("people", primary.id)]);
    expect(rel.primary_person.data).toEqual(link("people", primary.id));
    expect(rel.primary_or_first_person.data).toEqual(link("people", primary.id));
    expect(rel.spouse.data).toEqual(link("people", first.id));
    expect(rel.addresses.data).toEqual([link("addresses", address.id)]);
    expect(rel.donor_accounts.data).toEqual([link("donor_accounts", await giving.donorAccountOf(contact.id))]);
    expect(rel.appeals.data).toEqual([link("appeals", appeal.id)]);
    expect(rel.appeal_contacts.data).toHaveLength(1);
    expect(rel.excluded_appeal_contacts.data).toHaveLength(1);
    expect(rel.pledges.data).toEqual([link("pledges", pledge.id)]);
    expect(rel.tasks.data).toEqual([link("tasks", task.id)]);
    expect(rel.contact_referrals_by_me.data).toEqual([link("contact_referrals", byMe.id)]);
    expect(rel.contact_referrals_to_me.data).toEqual([link("contact_referrals", toMe.id)]);
    expect(rel.contacts_referred_by_me.data).toEqual([link("contacts", friend.id)]);
    expect(rel.contacts_that_referred_me.data).toEqual([link("contacts", friend.id)]);
    expect(rel.last_six_donations.data).toEqual(gifts.slice(1).reverse().map((gift) => link("donations", gift.id)));
    const included = response.body.included as Array<{ type: string; id: string; attributes: Record<string, unknown> }>;
    const keys = included.map((r) => `${r.type}:${r.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const expected of [
      `people:${primary.id}`,
      `addresses:${address.id}`,
      `appeals:${appeal.id}`,
      `pledges:${pledge.id}`,
      `tasks:${task.id}`,
      `contacts:${friend.id}`,
      `contact_referrals:${byMe.id}`,
      `donations:${gifts[6].id}`,
      `account_lists:${list.id}`,
      `users:${user.id}`,
    ]) {
      expect(keys).toContain(expected);
    }
    expect(included.find((r) => r.id === address.id)!.attributes).toMatchObject({ city: "Springfield", historic: false });

    const nested = await get(`${CONTACTS}?filter[ids]=${contact.id}&include=people.email_addresses,people.phone_numbers,donor_accounts&fields[people]=first_name,email_addresses,phone_numbers`, token);
    const nestedKeys = nested.body.included.map((r: { type: string; id: string }) => `${r.type}:${r.id}`);
    expect(nestedKeys).toEqual(
      expect.arrayContaining([`people:${first.id}`, `people:${primary.id}`, `email_addresses:${email.id}`, `phone_numbers:${phone.id}`, `donor_accounts:${await giving.donorAccountOf(contact.id)}`]),
    );
    const lia = nested.body.included.find((r: { id: string }) => r.id === primary.id);
    expect(lia).toEqual({
      id: primary.id,
      type: "people",
      attributes: { first_name: "Lia" },
      relationships: { email_addresses: { data: [link("email_addresses", email.id)] }, phone_numbers: { data: [link("phone_numbers", phone.id)] } },
    });
    expect(nested.body.included.find((r: { id: string }) => r.id === email.id).attributes).toMatchObject({ email: "lia@example.org", primary: false });
  });

  it("include=* alongside nested paths includes every relationship and the nested paths too, in any order", async () => {
    const { user, list, token } = await createViewer();
    // No user of its own: the list's users are included only through account_list.users.
    const contact = await insertContact(list.id, "Nested, Ned");
    const person = await insertPerson(contact.id, "Ned");
    const email = await insertEmail(person.id, "ned@example.org");
    const keysOf = (body: { included?: Array<{ type: string; id: string }> }) => (body.included ?? []).map((r) => `${r.type}:${r.id}`);
    const direct = [`account_lists:${list.id}`, `people:${person.id}`];
    const nested = [`users:${user.id}`, `email_addresses:${email.id}`];
    const star = await get(`${CONTACTS}/${contact.id}?include=*`, token);
    expect(keysOf(star.body)).toEqual(expect.arrayContaining(direct));
    for (const key of nested) expect(keysOf(star.body)).not.toContain(key);
    for (const include of ["*,account_list.users,people.email_addresses", "account_list.users,people.email_addresses,*"]) {
      const shown = await get(`${CONTACTS}/${contact.id}?include=${include}`, token);
      const listed = await get(`${CONTACTS}?filter[ids]=${contact.id}&include=${include}`, token);
      const overridden = await post(CONTACTS, { filter: { ids: contact.id }, include }, token, { headers: { "X-HTTP-Method-Override": "GET" } });
      for (const response of [shown, listed, overridden]) {
        expect(response.status, response.text.slice(0, 300)).toBe(200);
        const keys = keysOf(response.body);
        expect(keys, include).toEqual(expect.arrayContaining([...direct, ...nested]));
        expect(new Set(keys).size).toBe(keys.length);
      }
      const accountList = shown.body.included.find((r: { type: string }) => r.type === "account_lists");
      expect(accountList.relationships.users.data).toEqual([{ type: "users", id: user.id }]);
    }
  });

  it("keeps only the asked fields, and no attributes or relationships for an empty fieldset", async () => {
    const sparse = await get(`${CONTACTS}?sort=name&per_page=1&fields[contacts]=name,status,people`, alice.token);
    expect(sparse.body.data[0]).toEqual({ id: expect.any(String), type: "contacts", attributes: { name: "Chan, Emily", status: null }, relationships: { people: { data: [] } } });
    const empty = await get(`${CONTACTS}?sort=name&per_page=1&fields[contacts]=`, alice.token);
    expect(empty.body.data[0]).toEqual({ id: expect.any(String), type: "contacts" });
  });
});

describe("a contact's latest gifts", () => {
  it("come newest first across its donor accounts, of its own list only, with last_donation the newest", async () => {
    const viewer = await createViewer();
    const other = await createViewer();
    const contact = await insertContact(viewer.list.id, "Two Accounts");
    const giving = await givingTo(viewer.list.id);
    const elsewhere = await givingTo(other.list.id);
    const firstAccount = await giving.donorAccountOf(contact.id);
    const secondAccount = uuid();
    await db.insert(schema.donorAccounts).values({ id: secondAccount, organizationId: giving.organization.id, accountNumber: "SECOND", ...timestamps() });
    await db.insert(schema.contactDonorAccounts).values({ id: uuid(), contactId: contact.id, donorAccountId: secondAccount, ...timestamps() });
    const gifts = [];
    for (const [account, day] of [[firstAccount, "2026-01-05"], [secondAccount, "2026-02-05"], [firstAccount, "2026-03-05"], [secondAccount, "2026-04-05"], [firstAccount, "2026-05-05"], [secondAccount, "2026-06-05"], [firstAccount, "2026-07-05"]] as const) {
      gifts.push(await giving.give(contact.id, "10", day, { donorAccountId: account }));
    }
    // The same donor account's gift to another list is not this contact's.
    await elsewhere.give(contact.id, "10", "2026-08-05", { donorAccountId: secondAccount, designationAccountId: elsewhere.designation.id });
    const shown = async () => (await get(`${CONTACTS}/${contact.id}`, viewer.token)).body.data;
    let data = await shown();
    expect(data.relationships.last_six_donations.data.map((d: { id: string }) => d.id)).toEqual(gifts.slice(1).reverse().map((gift) => gift.id));
    expect(data.attributes.last_donation).toBe("2026-07-05");

    // With one donor account left, its own gifts, newest first; removing the newest gift moves last_donation back.
    await db.delete(schema.contactDonorAccounts).where(and(eq(schema.contactDonorAccounts.contactId, contact.id), ne(schema.contactDonorAccounts.donorAccountId, firstAccount)));
    expect(await db.select().from(schema.contactDonorAccounts).where(eq(schema.contactDonorAccounts.contactId, contact.id))).toHaveLength(1);
    await db.delete(schema.donations).where(eq(schema.donations.id, gifts[6].id));
    data = await shown();
    expect(data.relationships.last_six_donations.data.map((d: { id: string }) => d.id)).toEqual([gifts[4].id, gifts[2].id, gifts[0].id]);
    expect(data.attributes.last_donation).toBe("2026-05-05");
  });
});

describe("linkages read in one walk of the rows they share", () => {
  /** Each linkage as the statements that read it alone answered it (in their orders), for comparison. */
  async function linkagesReadAlone(contactId: string) {
    const ids = async (query: string) => (await storage.prepare(query).bind(contactId).all<{ id: string }>()).results.map((row) => row.id);
    const people = await ids("SELECT id FROM people WHERE contact_id = ? ORDER BY position, created_at, id");
    const [primary] = await ids("SELECT id FROM people WHERE contact_id = ? AND is_primary = 1 ORDER BY position, created_at, id LIMIT 1");
    const addressed = primary ?? people[0];
    return {
      people,
      primary_person: primary ?? null,
      primary_or_first_person: addressed ?? null,
      spouse: people.find((id) => id !== addressed) ?? null,
      tasks: await ids("SELECT task_id AS id FROM activity_contacts WHERE contact_id = ? ORDER BY task_id"),
      appeal_contacts: await ids("SELECT id FROM appeal_contacts WHERE contact_id = ? ORDER BY id"),
      appeals: await ids("SELECT appeal_id AS id FROM appeal_contacts WHERE contact_id = ? ORDER BY appeal_id"),
      contact_referrals_by_me: await ids("SELECT id FROM contact_referrals WHERE referred_by_id = ? ORDER BY id"),
      contacts_referred_by_me: await ids("SELECT referred_to_id AS id FROM contact_referrals WHERE referred_by_id = ? ORDER BY referred_to_id"),
      contact_referrals_to_me: await ids("SELECT id FROM contact_referrals WHERE referred_to_id = ? ORDER BY id"),
      contacts_that_referred_me: await ids("SELECT referred_by_id AS id FROM contact_referrals WHERE referred_to_id = ? ORDER BY referred_by_id"),
    };
  }

  const idsOf = (data: unknown) => (data === null ? null : Array.isArray(data) ? data.map((entry: { id: string }) => entry.id) : (data as { id: string }).id);

  it("answers people, the primary person, the spouse, tasks, appeals and referrals as each read alone did", async () => {
    const viewer = await createViewer();
    const list = viewer.list.id;
    const shapes = [
      // No people, tasks, appeals or referrals.
      await insertContact(list, "Empty, Contact"),
      // A primary person second by position, a spouse first; several of everything.
      await insertContact(list, "Full, Contact"),
      // People, none marked primary: the first is addressed, the second is the spouse.
      await insertContact(list, "Unmarked, Contact"),
    ];
    const [, full, unmarked] = shapes;
    await insertPerson(full.id, "Spouse", { position: 0 });
    await insertPerson(full.id, "Primary", { position: 1, isPrimary: true });
    await insertPerson(full.id, "Child", { position: 2 });
    await insertPerson(unmarked.id, "First", { position: 0 });
    await insertPerson(unmarked.id, "Second", { position: 1 });
    for (let i = 0; i < 3; i++) await insertTask(list, [full.id, ...(i === 0 ? [unmarked.id] : [])], { subject: `Task ${i}` });
    for (let i = 0; i < 3; i++) await askInAppeal((await insertAppeal(list, `Appeal ${i}`)).id, full.id);
    await insertReferral(full.id, unmarked.id);
    await insertReferral(unmarked.id, full.id);
    await insertReferral(shapes[0].id, full.id);
    const page = await get(`/api/v2/contacts?filter[account_list_id]=${list}&fields[contacts]=name,people,primary_person,primary_or_first_person,spouse,tasks,appeal_contacts,appeals,contact_referrals_by_me,contacts_referred_by_me,contact_referrals_to_me,contacts_that_referred_me`, viewer.token);
    expect(page.status, page.text).toBe(200);
    for (const contact of shapes) {
      const listed = page.body.data.find((entry: { id: string }) => entry.id === contact.id);
      const answered = Object.fromEntries(Object.entries(listed.relationships as Record<string, { data: unknown }>).map(([name, value]) => [name, idsOf(value.data)]));
      expect(answered, contact.name).toEqual(await linkagesReadAlone(contact.id));
      // The same for the contact on its own.
      const shown = await get(`/api/v2/contacts/${contact.id}?fields[contacts]=people,spouse,tasks,appeals,contacts_that_referred_me`, viewer.token);
      expect(idsOf(shown.body.data.relationships.spouse.data)).toEqual(answered.spouse);
      expect(idsOf(shown.body.data.relationships.contacts_that_referred_me.data)).toEqual(answered.contacts_that_referred_me);
    }
    expect((await linkagesReadAlone(full.id)).tasks).toHaveLength(3);
  });
});
