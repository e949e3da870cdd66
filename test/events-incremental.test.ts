/**
 * The daily run after a list's first looks only at the contacts changed since the last run and at those crossing a
 * rule's threshold of time (src/events/run.ts). This differential test builds generated histories, changes them day
 * by day as users do (gifts early, late and back-dated, pledges, statuses, tasks, people and their days, addresses,
 * e-mails, removals), and before every run asks each rule both ways: over every contact, as the first run does, and
 * over the candidates only. Both must find the same new notifications and the same ones to clear; then the run
 * itself goes ahead, and the next day builds on what it did.
 */
import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KEPT_SUMS, keptSumTriggers } from "../drizzle/kept-sums";
import { runMarkTriggers } from "../drizzle/run-marks";
import { webhookTriggers } from "../drizzle/webhook-triggers";
import * as schema from "../drizzle/schema";
import { PLEDGE_FREQUENCY_KEYS } from "../src/constants";
import { NOTIFICATION_TYPES } from "../src/constants/notifications";
import type { Bindings } from "../src/env";
import { EVENT_TYPE_BY_ID } from "../src/events/event-types";
import { previewRun, runListNotifications } from "../src/events/run";
import { addDays } from "../src/jsonapi/time";
import { givingTo, insertAddress, insertContact, insertEmail, insertPerson, insertTask } from "./helpers/contact-fixtures";
import { createViewer, db, uuid } from "./helpers/factories";
import { expectTriggersAsDeclared, migrationQueries } from "./helpers/kept-sums";
import { databaseOfTestList, storage } from "./helpers/storage";
import { databaseBinding } from "../src/db/databases";
import { onListDatabase } from "../src/db/list-env";

const bindings = env as unknown as Bindings;

/** A small deterministic generator, so that a failing history can be run again exactly. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (from: number, to: number) => from + Math.floor(next() * (to - from + 1));
  const pick = <T>(values: readonly T[]): T => values[int(0, values.length - 1)];
  return { next, int, pick, chance: (p: number) => next() < p };
}

const STATUSES = ["Partner - Financial", "Partner - Financial", "Partner - Financial", "Partner - Special", "Ask in Future"];
const NEWSLETTERS = [null, "Physical", "Email", "Both"];
const AMOUNTS = ["50", "100", "150", "300"];
const stampOf = (day: string) => `${day}T12:00:00Z`;

async function history(seed: number, start: string) {
  const random = generator(seed);
  const viewer = await createViewer();
  for (const type of NOTIFICATION_TYPES) {
    if (!EVENT_TYPE_BY_ID.get(type.id)?.detect) continue;
    await db.insert(schema.notificationPreferences).values({
      id: uuid(), accountListId: viewer.list.id, notificationTypeId: type.id, app: true, email: false, task: random.chance(0.5),
      createdAt: stampOf(start), updatedAt: stampOf(start),
    });
  }
  const giving = await givingTo(viewer.list.id);
  const contacts: string[] = [];
  const people: string[] = [];
  const gifts: string[] = [];
  const tasks: string[] = [];

  const gift = async (day: string) => {
    const contactId = random.pick(contacts);
    const row = await giving.give(contactId, random.pick(AMOUNTS), day, { createdAt: stampOf(day), updatedAt: stampOf(day) });
    gifts.push(row.id);
  };
  const person = async (contactId: string, day: string) => {
    const near = addDays(day, random.int(-3, 12));
    const [month, date] = [Number(near.slice(5, 7)), Number(near.slice(8, 10))];
    const row = await insertPerson(contactId, `Person ${people.length}`, {
      birthdayMonth: random.chance(0.8) ? month : random.int(1, 12), birthdayDay: random.chance(0.9) ? date : random.int(1, 31),
      anniversaryMonth: random.chance(0.5) ? month : null, anniversaryDay: random.chance(0.5) ? date : null, deceased: random.chance(0.05),
    });
    people.push(row.id);
    if (random.chance(0.6)) await insertEmail(row.id, `p${people.length}@example.org`, { valid: random.chance(0.8), historic: random.chance(0.1) });
  };
  const contact = async (day: string, createdDaysAgo: number) => {
    const row = await insertContact(viewer.list.id, `Partner ${contacts.length}`, {
      status: random.pick(STATUSES), pledgeAmount: random.pick(AMOUNTS), pledgeFrequency: random.pick(PLEDGE_FREQUENCY_KEYS),
      pledgeReceived: random.chance(0.7), pledgeStartDate: random.chance(0.7) ? addDays(day, -random.pick([random.int(0, 30), random.int(30, 400)])) : null,
      directDeposit: random.chance(0.2), sendNewsletter: random.pick(NEWSLETTERS), pledgeCurrency: "USD",
      createdAt: stampOf(addDays(day, -createdDaysAgo)), updatedAt: stampOf(day),
    });
    contacts.push(row.id);
    if (random.chance(0.7)) await person(row.id, day);
    if (random.chance(0.6)) await insertAddress(row.id, { city: "Springfield", historic: random.chance(0.2) });
    return row.id;
  };
  const task = async (day: string) => {
    const startsAt = addDays(day, -random.int(0, 380));
    const completed = random.chance(0.5);
    const row = await insertTask(viewer.list.id, [random.pick(contacts)], {
      activityType: random.pick(["Call", "Thank", "Email", "To Do"]), startAt: stampOf(startsAt),
      completed, completedAt: completed ? stampOf(addDays(startsAt, random.int(0, 20))) : null,
    });
    tasks.push(row.id);
  };

  // The history before the first run: partners known for a while, gifts over more than a year, tasks.
  for (let i = 0; i < 30; i++) await contact(start, random.int(5, 800));
  for (let i = 0; i < 150; i++) await gift(addDays(start, -random.int(0, 420)));
  for (let i = 0; i < 30; i++) await task(start);
  // Notifications of a year ago, which the rules raised at most once a year may raise again as they pass a year.
  const yearly = NOTIFICATION_TYPES.filter((type) => /newsletter|once_per_year/.test(type.key));
  for (let i = 0; i < 20; i++) {
    const type = random.pick(yearly);
    const eventDate = addDays(start, -365 + random.int(-3, 35));
    await db.insert(schema.notifications).values({
      id: uuid(), accountListId: viewer.list.id, contactId: random.pick(contacts), notificationTypeId: type.id, eventDate,
      eventKey: `${type.key}:${uuid()}:${eventDate}`, app: true, createdAt: stampOf(eventDate), updatedAt: stampOf(eventDate),
    });
  }

  /** What users do on a day: a few writes of every kind a rule reads. */
  async function changes(day: string) {
    for (let n = random.int(1, 6); n > 0; n--) {
      const which = random.int(0, 13);
      const someone = random.pick(contacts);
      if (which <= 2) await gift(addDays(day, random.int(-6, 3)));
      else if (which === 3) await gift(addDays(day, -random.int(25, 400)));
      else if (which === 4) await db.update(schema.contacts).set({ status: random.pick(STATUSES) }).where(eq(schema.contacts.id, someone));
      else if (which === 5) {
        await db.update(schema.contacts).set({
          pledgeAmount: random.pick(AMOUNTS), pledgeFrequency: random.pick(PLEDGE_FREQUENCY_KEYS), pledgeReceived: random.chance(0.7),
          pledgeStartDate: addDays(day, -random.int(0, 35)),
        }).where(eq(schema.contacts.id, someone));
      } else if (which === 6) await task(day);
      else if (which === 7 && tasks.length > 0) {
        await db.update(schema.tasks).set({ completed: true, completedAt: stampOf(addDays(day, -random.int(0, 370))) }).where(eq(schema.tasks.id, random.pick(tasks)));
      } else if (which === 8) await person(someone, day);
      else if (which === 9 && people.length > 0) {
        await db.update(schema.people).set({ birthdayMonth: random.int(1, 12), birthdayDay: random.int(1, 31), deceased: random.chance(0.1) }).where(eq(schema.people.id, random.pick(people)));
      } else if (which === 10) {
        const [address] = await db.select().from(schema.addresses).where(eq(schema.addresses.contactId, someone));
        if (address) await db.delete(schema.addresses).where(eq(schema.addresses.id, address.id));
        else await insertAddress(someone, { city: "Shelbyville" });
      } else if (which === 11 && gifts.length > 0) {
        const id = gifts.splice(random.int(0, gifts.length - 1), 1)[0];
        await db.delete(schema.donations).where(eq(schema.donations.id, id));
      } else if (which === 12) await contact(day, random.pick([0, 364, 365, 366, 500]));
      else {
        const [notification] = await db.select().from(schema.notifications).where(eq(schema.notifications.accountListId, viewer.list.id)).limit(1).offset(random.int(0, 5));
        if (notification) await db.delete(schema.notifications).where(eq(schema.notifications.id, notification.id));
        else await db.update(schema.contacts).set({ sendNewsletter: random.pick(NEWSLETTERS), deceased: random.chance(0.1) }).where(eq(schema.contacts.id, someone));
      }
    }
  }
  return { viewer, random, changes };
}

/** `contacts.last_gift_on` as the triggers keep it equals the latest gift of the contact to its list. */
async function expectLastGiftsExact(accountListId: string) {
  const wrong = await storage.prepare(
    `SELECT c.id, c.last_gift_on, (SELECT MAX(g.donation_date) FROM contact_donor_accounts x JOIN donations g ON g.donor_account_id = x.donor_account_id
      AND g.account_list_id = c.account_list_id WHERE x.contact_id = c.id) AS latest FROM contacts c WHERE c.account_list_id = ? AND c.last_gift_on IS NOT latest`,
  ).bind(accountListId).all();
  expect(wrong.results).toEqual([]);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a run after the list's first", () => {
  for (const [seed, start] of [
    [1, "2026-02-20"],
    [2, "2026-12-20"],
    [3, "2026-06-28"],
  ] as const) {
    it(`finds what a run over every contact finds (history ${seed}, from ${start})`, async () => {
      vi.setSystemTime(Date.parse(stampOf(start)));
      const { viewer, random, changes } = await history(seed, start);
      const raisedTypes = new Set<string>();
      let incrementalRuns = 0;
      let day: string = start;
      for (let step = 0; step < 36; step++) {
        const runAt = `${day}T05:00:00Z`;
        vi.setSystemTime(Date.parse(runAt));
        const run = { accountListId: viewer.list.id, runAt };
        const onList = await onListDatabase(bindings, viewer.list.id);
        const whole = await previewRun(onList, run, { whole: true });
        const candidates = await previewRun(onList, run);
        expect({ day, raised: candidates.raised, cleared: candidates.cleared }).toEqual({ day, raised: whole.raised, cleared: whole.cleared });
        if (candidates.incremental) incrementalRuns++;
        await runListNotifications(onList, run);
        for (const key of whole.raised) raisedTypes.add(key.slice(0, key.indexOf(":")));
        // Mostly the next day; sometimes the same day again, a few days on, or past the longest gap a run bridges.
        const gap = step === 20 ? 9 : random.pick([1, 1, 1, 1, 0, 2, 3]);
        day = addDays(day, gap);
        vi.setSystemTime(Date.parse(stampOf(day)) - 86_400_000);
        await changes(addDays(day, -1));
        await expectLastGiftsExact(viewer.list.id);
      }
      // The histories raise most kinds of event, and most runs looked only at candidates.
      expect(raisedTypes.size).toBeGreaterThanOrEqual(9);
      expect(incrementalRuns).toBeGreaterThanOrEqual(30);
    });
  }
});

describe("the marks the run reads", () => {
  /** person_days recounted from the people themselves: what the triggers must always agree with. */
  async function expectPersonDaysExact() {
    const kept = await storage.prepare("SELECT person_id, kind, account_list_id, month_day FROM person_days ORDER BY 1, 2").all();
    await storage.prepare("DELETE FROM person_days").run();
    const backfills = migrationQueries("daily_run_marks", (query) => query.includes("INSERT INTO person_days") && !query.includes("TRIGGER"));
    expect(backfills).toHaveLength(2);
    for (const query of backfills) await storage.prepare(query).run();
    const rebuilt = await storage.prepare("SELECT person_id, kind, account_list_id, month_day FROM person_days ORDER BY 1, 2").all();
    expect(kept.results).toEqual(rebuilt.results);
    return kept.results;
  }

  it("are kept by triggers in the writing statement: changed contacts, and people's days by list", async () => {
    const viewer = await createViewer();
    const other = await createViewer();
    const marked = async () =>
      (await storage.prepare("SELECT contact_id, account_list_id FROM changed_contacts WHERE account_list_id IN (?, ?) ORDER BY 1").bind(viewer.list.id, other.list.id).all()).results;
    const clear = () => storage.prepare("DELETE FROM changed_contacts").run();

    const contact = await insertContact(viewer.list.id, "Marked");
    expect(await marked()).toEqual([{ contact_id: contact.id, account_list_id: viewer.list.id }]);
    await clear();
    const person = await insertPerson(contact.id, "Pat", { birthdayMonth: 2, birthdayDay: 30, anniversaryMonth: 13, anniversaryDay: 1 });
    expect(await marked()).toHaveLength(1);
    // A day as entered (02-30 sorts where the rule finds it); a month that is none is no day.
    expect((await expectPersonDaysExact()).filter((row) => row.person_id === person.id)).toEqual([
      { person_id: person.id, kind: "birthday", account_list_id: viewer.list.id, month_day: "02-30" },
    ]);
    await clear();
    const giving = await givingTo(viewer.list.id);
    const gift = await giving.give(contact.id, "10", "2026-01-01");
    await clear();
    await db.update(schema.donations).set({ amount: "20" }).where(eq(schema.donations.id, gift.id));
    expect(await marked()).toHaveLength(1);
    await clear();
    const task = await insertTask(viewer.list.id, [contact.id], { activityType: "Call" });
    expect(await marked()).toHaveLength(1);
    await clear();
    // A task's subject is no rule's input; its completion is.
    await db.update(schema.tasks).set({ subject: "Renamed" }).where(eq(schema.tasks.id, task.id));
    expect(await marked()).toHaveLength(0);
    await db.update(schema.tasks).set({ completed: true, completedAt: "2026-01-02T00:00:00Z" }).where(eq(schema.tasks.id, task.id));
    expect(await marked()).toHaveLength(1);
    await clear();
    // A move to another list takes the contact's mark and its people's days along; its gifts stay with the list.
    expect((await db.select().from(schema.contacts).where(eq(schema.contacts.id, contact.id)))[0]).toMatchObject({ lastGiftOn: "2026-01-01", giftDueOn: null });
    await db.update(schema.contacts).set({ pledgeFrequency: "3.0" }).where(eq(schema.contacts.id, contact.id));
    expect((await db.select().from(schema.contacts).where(eq(schema.contacts.id, contact.id)))[0]).toMatchObject({ lastGiftOn: "2026-01-01", giftDueOn: "2026-04-01" });
    await db.update(schema.contacts).set({ accountListId: other.list.id }).where(eq(schema.contacts.id, contact.id));
    expect((await db.select().from(schema.contacts).where(eq(schema.contacts.id, contact.id)))[0]).toMatchObject({ lastGiftOn: null, giftDueOn: null });
    expect(await marked()).toEqual([{ contact_id: contact.id, account_list_id: other.list.id }]);
    expect((await expectPersonDaysExact()).find((row) => row.person_id === person.id)?.account_list_id).toBe(other.list.id);
    await db.update(schema.people).set({ birthdayMonth: 12, birthdayDay: 31, anniversaryMonth: 6, anniversaryDay: 1 }).where(eq(schema.people.id, person.id));
    expect((await expectPersonDaysExact()).filter((row) => row.person_id === person.id).map((row) => `${row.kind} ${row.month_day}`)).toEqual([
      "anniversary 06-01",
      "birthday 12-31",
    ]);
    // Removing the contact removes its people's days and its mark.
    await db.delete(schema.contacts).where(eq(schema.contacts.id, contact.id));
    expect(await marked()).toHaveLength(0);
    expect((await expectPersonDaysExact()).filter((row) => row.person_id === person.id)).toHaveLength(0);

    // The database's triggers are exactly the declared ones.
    // (Kept sums that follow a contact's last gift mention it too: drizzle/kept-sums.ts declares them; and the webhook
    // outbox's snapshots of a contact hold it: drizzle/webhook-triggers.ts.)
    const onLastGift = [...KEPT_SUMS.flatMap(keptSumTriggers), ...webhookTriggers()].filter((statement) => statement.includes("last_gift_on"));
    await expectTriggersAsDeclared(["changed_contacts", "person_days", "last_gift_on"], [...runMarkTriggers(), ...onLastGift]);
  });
});

describe("the triggers a gift fires", () => {
  it("read the gift's donor's contacts and gifts, not every contact of the list, with no planner statistics", async () => {
    const viewer = await createViewer();
    // A list database just made has no statistics for the planner (ANALYZE runs with the daily maintenance).
    const listDb = databaseBinding(env, await databaseOfTestList(viewer.list.id));
    const [stats] = (await listDb.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_stat1'").all<{ n: number }>()).results;
    expect(Number(stats.n)).toBe(0);
    await listDb
      .prepare(
        `INSERT INTO contacts (id, account_list_id, name, created_at, updated_at) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
          SELECT printf('00000000-0000-4000-8000-%012d', i), ?, 'Partner ' || i, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now') FROM n`,
      )
      .bind(viewer.list.id)
      .run();
    const contacts = [1, 2].map((i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}` }));
    const giving = await givingTo(viewer.list.id);
    // Gifts dated from the clock (the triggers never read it; the service may).
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    const [earlier, later] = [daysAgo(60), daysAgo(30)];
    const first = await giving.give(contacts[0].id, "10", earlier);
    const rowsRead = async (statement: D1PreparedStatement) => (await statement.run()).meta.rows_read;
    const gift = await rowsRead(
      listDb
        .prepare("INSERT INTO donations (id, account_list_id, designation_account_id, donor_account_id, amount, currency, donation_date, created_at, updated_at) VALUES (?, ?, ?, ?, '20', 'USD', ?, ?, ?)")
        .bind(uuid(), viewer.list.id, giving.designation.id, first.donorAccountId, later, `${later}T00:00:00Z`, `${later}T00:00:00Z`),
    );
    const link = await rowsRead(
      listDb.prepare("INSERT INTO contact_donor_accounts (id, contact_id, donor_account_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)").bind(uuid(), contacts[1].id, first.donorAccountId, `${later}T00:00:00Z`, `${later}T00:00:00Z`),
    );
    const removal = await rowsRead(listDb.prepare("DELETE FROM donations WHERE id = ?").bind(first.id));
    // A few rows each (the gift, its donor's two contacts and their gifts, the marks), where the list's index read all 300 contacts.
    for (const read of [gift, link, removal]) expect(read).toBeLessThan(60);
    const [latest] = await db.select({ lastGiftOn: schema.contacts.lastGiftOn }).from(schema.contacts).where(eq(schema.contacts.id, contacts[1].id));
    expect(latest.lastGiftOn).toBe(later);
  });
});
