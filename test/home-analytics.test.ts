/**
 * The home pages' analytics: GET /api/v2/tasks/analytics, /contacts/analytics (also as the web app's POST with
 * X-HTTP-Method-Override: GET) and /account_lists/<id>/analytics, each as its client sends it.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { ACTIVITIES } from "../src/constants";
import { addDays } from "../src/jsonapi/time";
import { errorOf, get, request } from "./helpers/api";
import { givingTo, insertContact, insertEmail, insertPerson, insertTask } from "./helpers/contact-fixtures";
import { addToList, createUser, createViewer, db } from "./helpers/factories";
import { placedUser, type PlacedUser } from "./helpers/placement";
import { expectAlike, fillLists, normalized } from "./helpers/summary-fixtures";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
let coach: Awaited<ReturnType<typeof createUser>>;

/** Alice's zone, fourteen hours ahead of UTC: her today ends at 10:00 UTC of her date. */
const ZONE = "Pacific/Kiritimati";
const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString().slice(0, 19) + "Z";
function endOfAlicesToday(): number {
  const [year, month, day] = new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(new Date()).split("-").map(Number);
  return Date.UTC(year, month - 1, day + 1) - 14 * HOUR;
}

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  await db.update(schema.users).set({ timeZone: ZONE }).where(eq(schema.users.id, alice.user.id));
  coach = await createUser({ timeZone: ZONE });
  await addToList(alice.list.id, coach.id, "coach");
});

describe("GET /api/v2/tasks/analytics", () => {
  it("counts the tasks due by the end of the user's today by activity, zeros included, as the web app asks", async () => {
    const end = endOfAlicesToday();
    const open = (activityType: string | null, startAt: string) => insertTask(alice.list.id, [], { activityType, startAt });
    await open("Call", at(end - 60_000));
    await open("Call", at(end + 60_000));
    await open("Thank", at(end - 95 * 24 * HOUR));
    await open("Email", at(end - 5 * 24 * HOUR));
    await open(null, at(end - 2 * 24 * HOUR));
    await insertTask(alice.list.id, [], { activityType: "Call", startAt: at(end - 24 * HOUR), completed: true, completedAt: at(end - 24 * HOUR) });
    await insertTask(alice.list.id, [], { activityType: "Newsletter - Email", completed: true, completedAt: "2026-03-01T10:00:00Z" });
    await insertTask(alice.list.id, [], { activityType: "Newsletter - Email", completed: true, completedAt: "2026-05-01T10:00:00Z" });
    await insertTask(bob.list.id, [], { activityType: "Call", startAt: at(end - 24 * HOUR) });

    const answer = await get(`/api/v2/tasks/analytics?filter%5Baccount_list_id%5D=${alice.list.id}`, alice.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.type).toBe("task_analytics");
    const counts = answer.body.data.attributes.tasks_overdue_or_due_today_counts;
    expect(counts.map((entry: { label: string }) => entry.label)).toEqual([...ACTIVITIES]);
    const expected: Record<string, number> = { Call: 1, Thank: 1, Email: 1 };
    expect(counts).toEqual(ACTIVITIES.map((label) => ({ label, count: expected[label] ?? 0 })));
    expect(answer.body.data.attributes).toMatchObject({
      total_tasks_due_count: 4,
      last_electronic_newsletter_completed_at: "2026-05-01T10:00:00Z",
      last_physical_newsletter_completed_at: null,
    });

    // A coach reads it; another user's list is not found; without the filter, every list of the viewer's.
    const coached = await get(`/api/v2/tasks/analytics?filter[account_list_id]=${alice.list.id}`, coach.token);
    expect(coached.body.data.attributes.total_tasks_due_count).toBe(4);
    errorOf(await get(`/api/v2/tasks/analytics?filter[account_list_id]=${alice.list.id}`, bob.token), 404);
    const bobs = await get("/api/v2/tasks/analytics", bob.token);
    expect(bobs.body.data.attributes.total_tasks_due_count).toBe(1);
    errorOf(await get("/api/v2/tasks/analytics"), 401);
    errorOf(await request("POST", "/api/v2/tasks/analytics", { token: alice.token, body: {} }), 405);
  });
});

/** Alice's today, as a date. */
const alicesToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(new Date());
const monthDay = (date: string) => ({ month: Number(date.slice(5, 7)), day: Number(date.slice(8, 10)) });
const WEEKLY = "0.23076923076923";
/** The web app's POST for a read, its parameters in the body with the `data` it adds (src/common/api/api.service.ts). */
const overriddenGet = (path: string, params: Record<string, unknown>, token: string) =>
  request("POST", path, { token, headers: { "X-HTTP-Method-Override": "GET" }, body: { ...params, data: { type: path.split("/").pop() } } });

describe("GET /api/v2/contacts/analytics", () => {
  it("counts first gifts not come and partners 30, 60 and 90 days late by the events' rule (the commitments card, verbatim)", async () => {
    const viewer = await createViewer();
    const giving = await givingTo(viewer.list.id);
    const today = new Date().toISOString().slice(0, 10);
    /** A weekly partner whose next gift was due `daysAgo` days ago. */
    const partnerDue = async (daysAgo: number, overrides: Record<string, unknown> = {}) => {
      const contact = await insertContact(viewer.list.id, `Partner ${daysAgo}`, { status: "Partner - Financial", pledgeReceived: true, pledgeAmount: "10", pledgeFrequency: WEEKLY, ...overrides });
      await giving.give(contact.id, "10", addDays(today, -daysAgo - 7));
      return contact;
    };
    await partnerDue(10);
    await partnerDue(35);
    await partnerDue(45);
    await partnerDue(75);
    await partnerDue(200);
    await partnerDue(400);
    // A pledge begun under 30 days ago is not late yet, whatever its last gift.
    await partnerDue(45, { pledgeStartDate: addDays(today, -5) });
    await insertContact(viewer.list.id, "Waiting, First", { status: "Partner - Financial", pledgeReceived: false });
    await insertContact(viewer.list.id, "Waiting, Second", { status: "Partner - Financial", pledgeReceived: false });
    await insertContact(viewer.list.id, "Not a partner", { status: "Ask in Future", pledgeReceived: false });

    const answer = await overriddenGet("/api/v2/contacts/analytics", { filter: { account_list_id: viewer.list.id } }, viewer.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.type).toBe("contact_analytics");
    expect(answer.body.data.attributes).toMatchObject({
      first_gift_not_received_count: 2,
      partners_30_days_late_count: 2,
      partners_60_days_late_count: 1,
      partners_90_days_late_count: 2,
    });
    errorOf(await overriddenGet("/api/v2/contacts/analytics", { filter: { account_list_id: viewer.list.id } }, bob.token), 404);
  });

  it("answers this week's birthdays with their contacts and anniversaries once per contact, as the birthday and anniversary cards ask", async () => {
    const today = monthDay(alicesToday());
    const nextWeek = monthDay(addDays(alicesToday(), 7));
    const family = await insertContact(alice.list.id, "Family, The", { status: "Partner - Pray" });
    const birthday = await insertPerson(family.id, "Bea", { birthdayMonth: today.month, birthdayDay: today.day, birthdayYear: 1990 });
    await insertEmail(birthday.id, "bea@example.org", { primary: true });
    await insertPerson(family.id, "Late", { birthdayMonth: today.month, birthdayDay: today.day, deceased: true });
    await insertPerson(family.id, "Later", { birthdayMonth: nextWeek.month, birthdayDay: nextWeek.day });
    const hidden = await insertContact(alice.list.id, "Hidden, Not", { status: "Not Interested" });
    await insertPerson(hidden.id, "Hidden", { birthdayMonth: today.month, birthdayDay: today.day });
    const couple = await insertContact(alice.list.id, "Couple, The", { status: "Partner - Financial" });
    await insertPerson(couple.id, "One", { anniversaryMonth: today.month, anniversaryDay: today.day });
    await insertPerson(couple.id, "Two", { anniversaryMonth: today.month, anniversaryDay: today.day });
    const bobs = await insertContact(bob.list.id, "Bobs, Contact", { status: "Partner - Financial" });
    await insertPerson(bobs.id, "Bobs", { birthdayMonth: today.month, birthdayDay: today.day, anniversaryMonth: today.month, anniversaryDay: today.day });

    const birthdays = await overriddenGet(
      "/api/v2/contacts/analytics",
      {
        include:
          "birthdays_this_week,birthdays_this_week.facebook_accounts,birthdays_this_week.twitter_accounts,birthdays_this_week.email_addresses,birthdays_this_week.parent_contact",
        fields: {
          contact_analytics: "birthdays_this_week",
          people: "birthday_day,birthday_month,birthday_year,facebook_accounts,first_name,last_name,twitter_accounts,email_addresses,parent_contact",
          email_addresses: "email,primary",
          facebook_accounts: "username",
          twitter_accounts: "screen_name",
          contact: "",
        },
        filter: { account_list_id: alice.list.id },
      },
      alice.token,
    );
    expect(birthdays.status, birthdays.text).toBe(200);
    expect(birthdays.body.data.attributes ?? {}).toEqual({});
    expect(birthdays.body.data.relationships).toEqual({ birthdays_this_week: { data: [{ type: "people", id: birthday.id }] } });
    const person = birthdays.body.included.find((item: { type: string }) => item.type === "people");
    expect(person.attributes).toMatchObject({ first_name: "Bea", birthday_day: today.day, birthday_month: today.month, birthday_year: 1990 });
    expect(person.relationships.parent_contact.data).toEqual({ type: "contacts", id: family.id });
    expect(birthdays.body.included.some((item: { type: string; attributes: { email?: string } }) => item.type === "email_addresses" && item.attributes.email === "bea@example.org")).toBe(true);
    expect(birthdays.body.included.some((item: { type: string; id: string }) => item.type === "contacts" && item.id === family.id)).toBe(true);

    const anniversaries = await overriddenGet(
      "/api/v2/contacts/analytics",
      {
        include:
          "anniversaries_this_week,anniversaries_this_week.people,anniversaries_this_week.people.facebook_accounts,anniversaries_this_week.people.twitter_accounts,anniversaries_this_week.people.email_addresses,",
        fields: {
          contact_analytics: "anniversaries_this_week",
          contacts: "name,people",
          people: "anniversary_day,anniversary_month,anniversary_year,facebook_accounts,first_name,last_name,twitter_accounts,email_addresses,parent_contact",
          email_addresses: "email,primary",
          facebook_accounts: "username",
          twitter_accounts: "screen_name",
        },
        filter: { account_list_id: alice.list.id },
      },
      alice.token,
    );
    expect(anniversaries.status, anniversaries.text).toBe(200);
    expect(anniversaries.body.data.relationships).toEqual({ anniversaries_this_week: { data: [{ type: "contacts", id: couple.id }] } });
    const contact = anniversaries.body.included.find((item: { type: string }) => item.type === "contacts");
    expect(contact.attributes).toEqual({ name: "Couple, The" });
    expect(contact.relationships.people.data).toHaveLength(2);

    // A coach reads the list's; GET answers the same.
    const coached = await get(`/api/v2/contacts/analytics?filter[account_list_id]=${alice.list.id}`, coach.token);
    expect(coached.body.data.relationships.birthdays_this_week.data).toEqual([{ type: "people", id: birthday.id }]);

    // The week follows what it shows as it changes: a hidden contact shown again, a person who died, a name that
    // orders the day anew (each day's copy of them, kept by triggers).
    const week = async () => ((await get(`/api/v2/contacts/analytics?filter[account_list_id]=${alice.list.id}`, alice.token)).body.data.relationships.birthdays_this_week.data as Array<{ id: string }>).map((person) => person.id);
    const shown = await request("PUT", `/api/v2/contacts/${hidden.id}`, { token: alice.token, body: { data: { type: "contacts", id: hidden.id, attributes: { status: "Partner - Pray", overwrite: true } } } });
    expect(shown.status, shown.text).toBe(200);
    const [hiddenPerson] = await db.select().from(schema.people).where(eq(schema.people.contactId, hidden.id));
    expect(await week()).toEqual([birthday.id, hiddenPerson.id]);
    const renamed = await request("PUT", `/api/v2/contacts/${hidden.id}/people/${hiddenPerson.id}`, { token: alice.token, body: { data: { type: "people", id: hiddenPerson.id, attributes: { first_name: "Abe", overwrite: true } } } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await week()).toEqual([hiddenPerson.id, birthday.id]);
    const died = await request("PUT", `/api/v2/contacts/${family.id}/people/${birthday.id}`, { token: alice.token, body: { data: { type: "people", id: birthday.id, attributes: { deceased: true, overwrite: true } } } });
    expect(died.status, died.text).toBe(200);
    expect(await week()).toEqual([hiddenPerson.id]);
  });
});

describe("GET /api/v2/account_lists/<id>/analytics", () => {
  it("counts the period's completed tasks and the list's referrals as the web app's home page asks", async () => {
    const viewer = await createViewer();
    const now = Date.now();
    const day = 24 * HOUR;
    const done = (activityType: string, result: string | null, daysAgo = 3, nextAction: string | null = null) =>
      insertTask(viewer.list.id, [], { activityType, result, nextAction, completed: true, completedAt: at(now - daysAgo * day), startAt: at(now - daysAgo * day) });
    await done("Appointment", "Completed");
    await done("Call", "Done");
    await done("Call", "Attempted - Left Message");
    await done("Call", "Received");
    await done("Call", "Completed", 3, "Appointment");
    await done("Talk to In Person", null, 3, "Appointment");
    await done("Email", "Received");
    await done("Email", "Completed");
    await done("Social Message", "Done");
    await done("Text Message", "Received", 3, "Appointment");
    await done("Pre Call Letter", "Completed");
    await done("Thank", "Done");
    await done("Thank", "Done", 60);
    await insertTask(viewer.list.id, [], { activityType: "Call", startAt: at(now - day) });
    await insertTask(bob.list.id, [], { activityType: "Call", result: "Done", completed: true, completedAt: at(now - day) });
    await insertContact(viewer.list.id, "Never, One", { status: "Never Contacted" });
    await insertContact(viewer.list.id, "Never, Two", { status: "Never Contacted" });
    const referrer = await insertContact(viewer.list.id, "Referrer, The", { status: "Partner - Financial" });
    const referred = await insertContact(viewer.list.id, "Referred, Newly", { status: "Contact for Appointment" });
    const older = await insertContact(viewer.list.id, "Referred, Long ago", { status: "Partner - Pray" });
    await db.insert(schema.contactReferrals).values([
      { id: crypto.randomUUID(), referredById: referrer.id, referredToId: referred.id, createdAt: at(now - day), updatedAt: at(now - day) },
      { id: crypto.randomUUID(), referredById: referrer.id, referredToId: older.id, createdAt: at(now - 90 * day), updatedAt: at(now - 90 * day) },
    ]);

    const range = `${at(now - 30 * day).slice(0, 10)}..${at(now).slice(0, 10)}`;
    const answer = await get(`/api/v2/account_lists/${viewer.list.id}/analytics?filter%5Bdate_range%5D=${range}`, viewer.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.type).toBe("account_list_analytics");
    expect(answer.body.data.attributes).toMatchObject({
      appointments: { completed: 1 },
      contacts: { active: 3, referrals: 1, referrals_on_hand: 1 },
      correspondence: { precall: 1, reminders: 0, support_letters: 0, thank_yous: 1 },
      electronic: { appointments: 1, received: 2, sent: 2 },
      email: { received: 1, sent: 1 },
      facebook: { received: 0, sent: 1 },
      phone: { appointments: 2, attempted: 1, completed: 2, received: 1, talktoinperson: 1 },
      text_message: { received: 1, sent: 0 },
      start_date: `${range.slice(0, 10)}T00:00:00Z`,
      end_date: `${range.slice(12)}T23:59:59Z`,
    });

    // start_date and end_date; by default the month up to now, which leaves out the thank-you of 60 days ago.
    // The period's first second counts, the second before it does not: the part days at its ends are read from
    // the tasks, the whole months and days between from the kept counts.
    const thanked = (completedAt: string) => insertTask(viewer.list.id, [], { activityType: "Thank", result: "Done", completed: true, completedAt, startAt: completedAt });
    await thanked(at(now - 90 * day));
    await thanked(at(now - 90 * day - 1000));
    const between = await get(`/api/v2/account_lists/${viewer.list.id}/analytics?filter[start_date]=${at(now - 90 * day)}&filter[end_date]=${at(now)}`, viewer.token);
    expect(between.body.data.attributes.correspondence.thank_yous).toBe(3);
    const kept = await get(`/api/v2/account_lists/${viewer.list.id}/analytics?filter[start_date]=${at(now - 90 * day - 1000).slice(0, 10)}&filter[end_date]=${at(now)}`, viewer.token);
    expect(kept.body.data.attributes.correspondence.thank_yous).toBe(4);
    expect(between.body.data.attributes.contacts.referrals).toBe(2);
    const byDefault = await get(`/api/v2/account_lists/${viewer.list.id}/analytics`, viewer.token);
    expect(byDefault.body.data.attributes.correspondence.thank_yous).toBe(1);
    errorOf(await get(`/api/v2/account_lists/${viewer.list.id}/analytics?filter[date_range]=last-month`, viewer.token), 400);

    // A coach reads it; to another user it is not there, as a list they do not know of; nor is a list that is not.
    const coach = await createUser();
    await addToList(viewer.list.id, coach.id, "coach");
    expect((await get(`/api/v2/account_lists/${viewer.list.id}/analytics`, coach.token)).status).toBe(200);
    const hidden = errorOf(await get(`/api/v2/account_lists/${viewer.list.id}/analytics`, bob.token), 404);
    const unknown = errorOf(await get(`/api/v2/account_lists/${crypto.randomUUID()}/analytics`, bob.token), 404);
    expect(hidden.title).toBe(unknown.title);
    expect(hidden.detail).toContain(viewer.list.id);
    const overridden = await overriddenGet(`/api/v2/account_lists/${viewer.list.id}/analytics`, {}, bob.token);
    errorOf(overridden, 404);
  });
});

describe("lists on several databases", () => {
  it("reads a summary where its named lists are, the web app's body filter too, and over every database otherwise", async () => {
    const spread = await placedUser(["DB", "LIST_DB_1", "LIST_DB_2"]);
    const [, onFirst, onSecond] = spread.lists;
    const created = await request("POST", "/api/v2/contacts", {
      token: spread.token,
      body: { data: { type: "contacts", attributes: { name: "Waiting, Placed", status: "Partner - Financial", pledge_received: false }, relationships: { account_list: { data: { type: "account_lists", id: onSecond } } } } },
    });
    expect(created.status, created.text).toBe(201);
    const second = await overriddenGet("/api/v2/contacts/analytics", { filter: { account_list_id: onSecond } }, spread.token);
    expect(second.status, second.text).toBe(200);
    expect(second.body.data.attributes.first_gift_not_received_count).toBe(1);
    const first = await get(`/api/v2/contacts/analytics?filter[account_list_id]=${onFirst}`, spread.token);
    expect(first.body.data.attributes.first_gift_not_received_count).toBe(0);
    // Unnamed, every list is summed, as one database sums them (below).
    const unnamed = await get("/api/v2/contacts/analytics", spread.token);
    expect(unnamed.status, unnamed.text).toBe(200);
    expect(unnamed.body.data.attributes.first_gift_not_received_count).toBe(1);

    // Deletions on each database are listed together.
    expect((await request("DELETE", `/api/v2/contacts/${created.body.data.id}`, { token: spread.token })).status).toBe(204);
    const deleted = await get("/api/v2/deleted_records?filter[types]=Contact", spread.token);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.data.map((item: { attributes: { deletable_id: string } }) => item.attributes.deletable_id)).toEqual([created.body.data.id]);
  });
});

describe("a summary of lists on several databases", () => {
  // The same data: one user's lists on one list database, another's spread over the directory and two more.
  let together: PlacedUser;
  let spread: PlacedUser;
  const one = () => ({ user: together, digit: 7 });
  const three = () => ({ user: spread, digit: 8 });

  beforeAll(async () => {
    together = await placedUser(["LIST_DB_1", "LIST_DB_1", "LIST_DB_1"]);
    spread = await placedUser(["DB", "LIST_DB_1", "LIST_DB_2"]);
    await fillLists(together, 7);
    await fillLists(spread, 8);
  });

  it("answers the tasks' analytics over every list as one database: counts added, the latest newsletter", async () => {
    const answer = (await expectAlike("/api/v2/tasks/analytics", one(), three())) as { data: { attributes: Record<string, any> } };
    expect(answer.data.attributes.total_tasks_due_count).toBe(6);
    expect(answer.data.attributes.tasks_overdue_or_due_today_counts.find((entry: { label: string }) => entry.label === "Call").count).toBe(4);
    // The third list's, ten days ago, the latest of the three.
    expect(answer.data.attributes.last_electronic_newsletter_completed_at).toBe(`${new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10)}T10:00:00Z`);
  });

  it("answers the contacts' analytics over every list as one database: counts added, the week's days in one order", async () => {
    const path = "/api/v2/contacts/analytics?include=birthdays_this_week,anniversaries_this_week";
    const answer = (await expectAlike(path, one(), three())) as { data: { attributes: Record<string, number>; relationships: Record<string, { data: Array<{ id: string }> }> }; included: unknown[] };
    // Two financial partners of each list await their first gift.
    expect(answer.data.attributes.first_gift_not_received_count).toBe(3);
    expect(answer.data.relationships.birthdays_this_week.data).toHaveLength(12);
    expect(answer.data.relationships.anniversaries_this_week.data).toHaveLength(12);
    // People by day, then first name, then id; contacts by day, then id: across the databases as within one.
    const people = answer.data.relationships.birthdays_this_week.data.map((person) => person.id);
    expect(people).not.toEqual([...people].sort());
    expect(answer.included.length).toBeGreaterThanOrEqual(24);
    // The web app's POST alike, and sparse fieldsets.
    await expectAlike("/api/v2/contacts/analytics", one(), three(), (asked, token) => overriddenGet(asked, {}, token));
    await expectAlike("/api/v2/contacts/analytics?fields[contact_analytics]=partners_30_days_late_count,birthdays_this_week", one(), three());
  });

  it("answers lists named on several databases as one database answers them, leaving out the others", async () => {
    // The first and third lists: on the directory and LIST_DB_2 for one user, both on LIST_DB_1 for the other.
    const named = (user: PlacedUser) => `/api/v2/contacts/analytics?include=birthdays_this_week&filter[account_list_id]=${user.lists[0]},${user.lists[2]}`;
    const expected = normalized(await get(named(together), together.token), together, 7) as { data: { attributes: Record<string, number>; relationships: Record<string, { data: unknown[] }> } };
    expect(normalized(await get(named(spread), spread.token), spread, 8)).toEqual(expected);
    expect(expected.data.attributes.first_gift_not_received_count).toBe(2);
    expect(expected.data.relationships.birthdays_this_week.data).toHaveLength(8);
    // The web app's POST names them in its body.
    const body = (user: PlacedUser) => ({ filter: { account_list_id: `${user.lists[0]},${user.lists[2]}` } });
    const posted = normalized(await overriddenGet("/api/v2/contacts/analytics", body(spread), spread.token), spread, 8);
    expect(posted).toEqual(normalized(await overriddenGet("/api/v2/contacts/analytics", body(together), together.token), together, 7));
  });
});
