/**
 * The period reports that sum kept rows by UTC month, day and hour (src/resources/reports/kept-by-time.ts): in any
 * time zone, whole or not, each period's counts are those of the rows themselves between its first instant and the
 * next period's, however the periods fall on the kept units.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { get } from "./helpers/api";
import { insertAppeal, insertTask } from "./helpers/contact-fixtures";
import { createViewer, db, uuid } from "./helpers/factories";
import { expectKeptSumsExact } from "./helpers/kept-sums";
import { createContact } from "./helpers/money-records";

/** Zones a whole number of hours from UTC and not, both ways, and one a day ahead of the dateline's other side. */
const ZONES = ["UTC", "America/Chicago", "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Tongatapu", "Pacific/Honolulu"];
/** The times of day the rows fall at: about midnight and every zone's midnight, on the hour and between hours. */
const TIMES = ["00:00:00", "00:10:00", "05:29:59", "05:30:00", "05:50:00", "06:00:00", "10:14:59", "11:00:00", "13:45:00", "18:05:00", "18:15:00", "18:30:00", "18:45:00", "23:59:59"];
const ACTIVITIES = ["Call", "Appointment", "Email", "Facebook Message", "Social Message"];

let viewer: Awaited<ReturnType<typeof createViewer>>;
/** A day `days` before today (UTC). */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const nextSecond = (stamp: string) => new Date(Date.parse(stamp) + 1000).toISOString().slice(0, 19) + "Z";

/**
 * Runs `add` at each of the times on every `step`-th day of the last `days` (and today's, up to now), with the
 * instant's number from 1: the rows of each test.
 */
async function atEachInstant(days: number, step: number, add: (at: string, n: number) => Promise<unknown>) {
  let n = 0;
  for (let back = days; back >= 0; back -= step) {
    for (const time of TIMES) {
      n += 1;
      const at = `${daysAgo(back)}T${time}Z`;
      if (Date.parse(at) <= Date.now()) await add(at, n);
    }
  }
}

beforeAll(async () => {
  viewer = await createViewer();
  // Tasks of a changing activity and completion.
  await atEachInstant(75, 3, (createdAt, n) =>
    insertTask(viewer.list.id, [], { activityType: ACTIVITIES[n % ACTIVITIES.length], completed: n % 3 === 0, createdAt, updatedAt: createdAt }),
  );
});

/** The tasks created from `from` up to `until`, counted by activity and completion, from the rows themselves. */
async function createdBetween(from: string, until: string): Promise<Record<string, number>> {
  const rows = await db.all<{ activity_type: string; completed: number; n: number }>(
    sql`SELECT activity_type, completed, count(*) AS n FROM tasks WHERE account_list_id = ${viewer.list.id} AND created_at >= ${from} AND created_at < ${until} GROUP BY 1, 2`,
  );
  const counts: Record<string, number> = {};
  for (const row of rows) {
    // A Social Message counts as the original's Facebook Message too.
    const names = [row.activity_type, ...(row.activity_type === "Social Message" ? ["Facebook Message"] : [])];
    for (const name of names) {
      const key = `${row.completed ? "completed" : "uncompleted"}_${name.toLowerCase().replace(/[^a-z0-9]+/g, "_")}`;
      counts[key] = (counts[key] ?? 0) + row.n;
    }
  }
  return counts;
}

describe("GET /api/v2/reports/activity_results, summed from kept rows", () => {
  for (const zone of ZONES) {
    it(`answers each period in ${zone} as the tasks themselves count`, async () => {
      await db.update(schema.users).set({ timeZone: zone }).where(eq(schema.users.id, viewer.user.id));
      for (const range of ["4w", "10d", "3m"]) {
        const response = await get(`/api/v2/reports/activity_results?filter[account_list_id]=${viewer.list.id}&filter[range]=${range}`, viewer.token);
        expect(response.status, response.text).toBe(200);
        for (const period of response.body.data as Array<{ id: string; attributes: Record<string, unknown> }>) {
          const { start_date: from, end_date: last } = period.attributes as { start_date: string; end_date: string };
          const expected = await createdBetween(from, nextSecond(last));
          const answered = Object.fromEntries(Object.entries(period.attributes).filter(([name, value]) => /^(un)?completed_/.test(name) && value !== 0));
          expect(answered, `${zone} ${range} ${period.id}`).toEqual(expected);
        }
      }
      await db.update(schema.users).set({ timeZone: "UTC" }).where(eq(schema.users.id, viewer.user.id));
    });
  }

  it("follows a task completed, retyped, moved in time and removed", async () => {
    // The two days' counts (not the answer's stamps, which move with the clock).
    const count = async () =>
      ((await get(`/api/v2/reports/activity_results?filter[account_list_id]=${viewer.list.id}&filter[range]=2d&filter[end_date]=${daysAgo(1)}`, viewer.token)).body.data as Array<{ attributes: Record<string, number> }>).map(
        (period) => ({ attributes: Object.fromEntries(Object.entries(period.attributes).filter(([name]) => /^(un)?completed_/.test(name))) }),
      );
    const before = await count();
    const task = await insertTask(viewer.list.id, [], { activityType: "Call", createdAt: `${daysAgo(2)}T05:40:00Z` });
    expect((await count())[1].attributes.uncompleted_call).toBe(before[1].attributes.uncompleted_call + 1);
    await db.update(schema.tasks).set({ completed: true, activityType: "Email" }).where(eq(schema.tasks.id, task.id));
    const after = await count();
    expect(after[1].attributes.completed_email).toBe(before[1].attributes.completed_email + 1);
    expect(after[1].attributes.uncompleted_call).toBe(before[1].attributes.uncompleted_call);
    await db.update(schema.tasks).set({ createdAt: `${daysAgo(1)}T12:00:00Z` }).where(eq(schema.tasks.id, task.id));
    const moved = await count();
    expect(moved[0].attributes.completed_email).toBe(before[0].attributes.completed_email + 1);
    expect(moved[1].attributes.completed_email).toBe(before[1].attributes.completed_email);
    await db.delete(schema.tasks).where(eq(schema.tasks.id, task.id));
    expect(await count()).toEqual(before);
    await expectKeptSumsExact();
  });
});

/** The local day of a UTC instant in `zone`. */
const dayIn = (zone: string, stamp: string) => new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(stamp));

/** Each zone in turn as the viewer's, then UTC again. */
async function inEachZone(user: string, run: (zone: string) => Promise<void>) {
  for (const zone of ZONES) {
    await db.update(schema.users).set({ timeZone: zone }).where(eq(schema.users.id, user));
    await run(zone);
  }
  await db.update(schema.users).set({ timeZone: "UTC" }).where(eq(schema.users.id, user));
}

describe("GET /api/v2/reports/pledge_histories, from the pledges now and those of contacts created or logged since", () => {
  let owner: Awaited<ReturnType<typeof createViewer>>;
  beforeAll(async () => {
    owner = await createViewer({ currency: "USD" });
    // Partners, some quarterly, some received; a few logged twenty days after they came.
    await atEachInstant(130, 5, async (createdAt, n) => {
      const contact = await createContact(owner.list.id, {
        status: "Partner - Financial", pledgeAmount: `${(n % 4) + 1}0.0`, pledgeFrequency: n % 5 === 0 ? "3.0" : "1.0", pledgeCurrency: "USD", pledgeReceived: n % 2 === 0, createdAt, updatedAt: createdAt,
      });
      if (n % 7 !== 0) return;
      const recordedOn = new Date(Math.min(Date.now(), Date.parse(createdAt) + 20 * 86_400_000)).toISOString().slice(0, 10);
      await db.insert(schema.partnerStatusLogs).values({
        id: uuid(), contactId: contact.id, recordedOn, status: "Partner - Financial", pledgeAmount: "7.0", pledgeFrequency: "1.0", pledgeCurrency: "USD", pledgeReceived: n % 3 === 0, createdAt, updatedAt: createdAt,
      });
    });
  });

  type State = { pledge_amount: number; pledge_frequency: string; pledge_received: number };
  /** The monthly pledges at the end of the period ending at `last` in `zone`, from every contact and its logs. */
  async function pledgesAt(zone: string, last: string) {
    const endDay = dayIn(zone, last);
    const contacts = await db.all<State & { id: string; created_at: string }>(
      sql`SELECT id, created_at, CAST(pledge_amount AS REAL) / 10000 AS pledge_amount, pledge_frequency, pledge_received FROM contacts WHERE account_list_id = ${owner.list.id}`,
    );
    const logs = await db.all<State & { contact_id: string; recorded_on: string }>(
      sql`SELECT contact_id, recorded_on, CAST(pledge_amount AS REAL) / 10000 AS pledge_amount, pledge_frequency, pledge_received FROM partner_status_logs
        WHERE contact_id IN (SELECT id FROM contacts WHERE account_list_id = ${owner.list.id}) ORDER BY recorded_on, id`,
    );
    const totals = { pledged: 0, received: 0 };
    for (const contact of contacts) {
      const log = logs.find((row) => row.contact_id === contact.id && row.recorded_on > endDay);
      const state = log ?? (contact.created_at <= last ? contact : undefined);
      if (state) totals[state.pledge_received ? "received" : "pledged"] += state.pledge_amount / Number(state.pledge_frequency);
    }
    return totals;
  }

  it("answers each period's end in every zone as the contacts and their logs have it", async () => {
    await inEachZone(owner.user.id, async (zone) => {
      for (const range of ["4m", "6w"]) {
        const response = await get(`/api/v2/reports/pledge_histories?filter[account_list_id]=${owner.list.id}&filter[range]=${range}`, owner.token);
        expect(response.status, response.text).toBe(200);
        for (const period of response.body.data as Array<{ id: string; attributes: { end_date: string; pledged: number; received: number } }>) {
          const expected = await pledgesAt(zone, period.attributes.end_date);
          expect(period.attributes.pledged, `${zone} ${range} ${period.id}`).toBeCloseTo(expected.pledged, 2);
          expect(period.attributes.received, `${zone} ${range} ${period.id}`).toBeCloseTo(expected.received, 2);
        }
      }
    });
  });
});

describe("GET /api/v2/reports/appointment_results, its appointments and appeal pledges from kept rows", () => {
  let owner: Awaited<ReturnType<typeof createViewer>>;
  beforeAll(async () => {
    owner = await createViewer({ currency: "USD" });
    const appeal = await insertAppeal(owner.list.id, "Primary");
    await db.update(schema.accountLists).set({ primaryAppealId: appeal.id }).where(eq(schema.accountLists.id, owner.list.id));
    const other = await insertAppeal(owner.list.id, "Other");
    // Appointments and calls, some held; pledges to the primary appeal and another.
    await atEachInstant(40, 2, async (at, n) => {
      await insertTask(owner.list.id, [], {
        activityType: n % 4 === 0 ? "Call" : "Appointment", startAt: at, completed: n % 3 === 0, result: n % 3 === 0 ? (n % 2 === 0 ? "Done" : "Attempted") : null,
      });
      if (n % 2 !== 0) return;
      const contact = await createContact(owner.list.id, { name: `Pledger ${n}` });
      await db.insert(schema.pledges).values({ id: uuid(), accountListId: owner.list.id, contactId: contact.id, appealId: n % 6 === 0 ? other.id : appeal.id, amount: `${n}.5`, createdAt: at, updatedAt: at });
    });
  });

  it("answers each period in every zone as the appointments and pledges themselves count", async () => {
    await inEachZone(owner.user.id, async (zone) => {
      for (const range of ["4w", "9d"]) {
        const response = await get(`/api/v2/reports/appointment_results?filter[account_list_id]=${owner.list.id}&filter[range]=${range}`, owner.token);
        expect(response.status, response.text).toBe(200);
        for (const period of response.body.data as Array<{ id: string; attributes: Record<string, number | string> }>) {
          // Plain dates for the mobile client: the period is its days in the viewer's zone.
          const [from, until] = [Date.parse(`${period.attributes.start_date}T00:00:00Z`), Date.parse(`${period.attributes.end_date}T00:00:00Z`) + 86_400_000];
          const inPeriod = (stamp: string) => {
            const day = dayIn(zone, stamp);
            return Date.parse(`${day}T00:00:00Z`) >= from && Date.parse(`${day}T00:00:00Z`) < until;
          };
          const tasks = (await db.all<{ start_at: string; completed: number; result: string | null }>(
            sql`SELECT start_at, completed, result FROM tasks WHERE account_list_id = ${owner.list.id} AND activity_type = 'Appointment'`,
          )).filter((task) => inPeriod(task.start_at));
          const pledges = (await db.all<{ created_at: string; amount: number }>(
            sql`SELECT p.created_at, CAST(p.amount AS REAL) / 10000 AS amount FROM pledges p JOIN account_lists l ON l.primary_appeal_id = p.appeal_id WHERE l.id = ${owner.list.id}`,
          )).filter((pledge) => inPeriod(pledge.created_at));
          expect(period.attributes, `${zone} ${range} ${period.id}`).toMatchObject({
            appointments_scheduled: tasks.length,
            individual_appointments: tasks.filter((task) => task.completed && ["Completed", "Done"].includes(String(task.result))).length,
            new_special_pledges: pledges.length,
          });
          expect(period.attributes.pledge_increase).toBeCloseTo(pledges.reduce((total, pledge) => total + pledge.amount, 0), 2);
        }
      }
    });
    await expectKeptSumsExact();
  });
});
