/**
 * date_range and overdue are evaluated in the viewer's time zone. The viewer here lives at UTC+14, where a local
 * day runs from 10:00 UTC of the day before to 10:00 UTC: a task at 00:30 and one at 23:30 local time of the
 * same day start on two different UTC dates, so only the local calendar puts both in "today".
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { addDays, addMonths, startOfDayUtc, todayIn } from "../src/jsonapi/time";
import { errorOf, get, request } from "./helpers/api";
import { createViewer, db, timestamps, uuid } from "./helpers/factories";

const ZONE = "Pacific/Kiritimati";
let viewer: Awaited<ReturnType<typeof createViewer>>;
const ids: Record<string, string> = {};
const starts: Record<string, string | null> = {};

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19) + "Z";
const plusMinutes = (timestamp: string, minutes: number) => iso(Date.parse(timestamp) + minutes * 60_000);

async function listed(query: string): Promise<string[]> {
  const response = await get(`/api/v2/tasks?per_page=100&${query}`, viewer.token);
  expect(response.status, response.text).toBe(200);
  const byId = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
  return response.body.data.map((t: { id: string }) => byId[t.id]).sort();
}

async function expectRange(value: string, expected: string[]) {
  expect(await listed(`filter[date_range]=${value}`), value).toEqual([...expected].sort());
  const others = Object.keys(ids).filter((name) => !expected.includes(name));
  expect(await listed(`filter[date_range]=${value}&filter[reverse_date_range]=true`), `reverse ${value}`).toEqual(others.sort());
}

beforeAll(async () => {
  viewer = await createViewer();
  await db.update(schema.users).set({ timeZone: ZONE }).where(eq(schema.users.id, viewer.user.id));
  const today = todayIn(ZONE);
  const dayStart = (days: number) => startOfDayUtc(addDays(today, days), ZONE);
  const now = Date.now();
  const completedAgo = (days: number) => iso(now - days * 86_400_000);
  const completedOn = (date: string) => plusMinutes(startOfDayUtc(date, ZONE), 60);
  const open: Record<string, string | null> = {
    yesterdayLate: plusMinutes(dayStart(0), -30),
    todayEarly: plusMinutes(dayStart(0), 30),
    todayLate: plusMinutes(dayStart(1), -30),
    tomorrowEarly: plusMinutes(dayStart(1), 30),
    tomorrowLate: plusMinutes(dayStart(2), -30),
    later: plusMinutes(dayStart(3), 60),
    undated: null,
  };
  const done: Record<string, string> = {
    doneThisWeek: completedAgo(3),
    doneThisMonth: completedAgo(20),
    doneThisYear: completedAgo(200),
    doneTwoYears: completedAgo(500),
    doneLongAgo: completedAgo(1000),
    // Just inside and just outside the start of the period "a month ago" in the viewer's calendar.
    doneMonthEdge: completedOn(addMonths(today, -1)),
    doneBeforeMonth: plusMinutes(startOfDayUtc(addMonths(today, -1), ZONE), -60),
  };
  for (const [name, startAt] of Object.entries(open)) {
    ids[name] = uuid();
    starts[name] = startAt;
    await db.insert(schema.tasks).values({ id: ids[name], accountListId: viewer.list.id, subject: name, startAt, ...timestamps() });
  }
  for (const [name, completedAt] of Object.entries(done)) {
    ids[name] = uuid();
    starts[name] = completedAt;
    await db.insert(schema.tasks).values({ id: ids[name], accountListId: viewer.list.id, subject: name, startAt: completedAt, completed: true, completedAt, ...timestamps() });
  }
});

describe("date_range in the viewer's time zone", () => {
  it("today and tomorrow follow the local calendar", async () => {
    await expectRange("today", ["todayEarly", "todayLate"]);
    await expectRange("tomorrow", ["tomorrowEarly", "tomorrowLate"]);
  });

  it("overdue: open tasks starting before the local today", async () => {
    await expectRange("overdue", ["yesterdayLate"]);
    expect(await listed("filter[overdue]=true")).toEqual(["yesterdayLate"]);
  });

  it("future starts after now, upcoming after today, no_date has no start", async () => {
    const now = new Date().toISOString().slice(0, 19) + "Z";
    const future = Object.entries(starts).filter(([, start]) => start !== null && start > now).map(([name]) => name);
    expect(future).toEqual(expect.arrayContaining(["tomorrowEarly", "tomorrowLate", "later"]));
    await expectRange("future", future);
    await expectRange("upcoming", ["tomorrowEarly", "tomorrowLate", "later"]);
    await expectRange("no_date", ["undated"]);
  });

  it("last_week, last_month, last_year and last_two_years select tasks completed in that period", async () => {
    await expectRange("last_week", ["doneThisWeek"]);
    await expectRange("last_month", ["doneThisWeek", "doneThisMonth", "doneMonthEdge"]);
    await expectRange("last_year", ["doneThisWeek", "doneThisMonth", "doneMonthEdge", "doneBeforeMonth", "doneThisYear"]);
    await expectRange("last_two_years", ["doneThisWeek", "doneThisMonth", "doneMonthEdge", "doneBeforeMonth", "doneThisYear", "doneTwoYears"]);
  });

  it("several named periods are alternatives; an explicit range applies to start_at", async () => {
    await expectRange("today,no_date", ["todayEarly", "todayLate", "undated"]);
    const from = starts.todayEarly!;
    const until = starts.todayLate!;
    await expectRange(`${from}..${until}`, ["todayEarly", "todayLate"]);
  });

  it("refuses any other value, an unknown period too, with the date-range error of every _range filter", async () => {
    const values = ["someday", "garbage", "today,garbage", "garbage,today", "2024-01-01..garbage", "2024-13-01", "today..tomorrow"];
    const queries = [
      ...values.map((value) => `filter[date_range]=${encodeURIComponent(value)}`),
      "filter[date_range][]=today&filter[date_range][]=garbage",
      "filter[date_range]=garbage&filter[reverse_date_range]=true",
    ];
    for (const query of queries) {
      const error = errorOf(await get(`/api/v2/tasks?${query}`, viewer.token), 400);
      expect(error.source, query).toEqual({ parameter: "filter[date_range]" });
      expect(error.detail, query).toBe(
        "Wrong format of date range for filter 'date_range', should follow 'YYYY-MM-DD...YYYY-MM-DD' for dates and 'YYYY-MM-DDThh:mm:ssZ...YYYY-MM-DDThh:mm:ssZ' for datetimes",
      );
    }
    const overridden = await request("POST", "/api/v2/tasks", {
      token: viewer.token,
      body: { filter: { date_range: "today,garbage" } },
      headers: { "X-HTTP-Method-Override": "GET" },
    });
    expect(errorOf(overridden, 400).source).toEqual({ parameter: "filter[date_range]" });
  });
});
