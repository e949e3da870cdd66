/**
 * Day boundaries on the days a DST change moves them. On America/Santiago 2026-09-06 and America/Havana
 * 2026-03-08 local midnight does not exist (clocks jump from 00:00 to 01:00), so the day starts at 01:00; on
 * America/Santiago 2026-04-05 clocks fall back at midnight and 2026-04-04 lasts 25 hours. Tasks half an hour either
 * side of each boundary are listed through `filter[date_range]=today|tomorrow`, with the clock set to that day.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { get } from "./helpers/api";
import { createViewer, db, timestamps, tokenFor, uuid } from "./helpers/factories";

type Viewer = Awaited<ReturnType<typeof createViewer>>;

async function viewerIn(timeZone: string, tasks: Record<string, string>): Promise<{ viewer: Viewer; names: Record<string, string> }> {
  const viewer = await createViewer();
  await db.update(schema.users).set({ timeZone }).where(eq(schema.users.id, viewer.user.id));
  const names: Record<string, string> = {};
  for (const [name, startAt] of Object.entries(tasks)) {
    const id = uuid();
    names[id] = name;
    await db.insert(schema.tasks).values({ id, accountListId: viewer.list.id, subject: name, startAt, ...timestamps() });
  }
  return { viewer, names };
}

async function listedAt(now: string, owner: { viewer: Viewer; names: Record<string, string> }, range: string): Promise<string[]> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(now));
  // Minted at the set time: a token dated after the service's clock is refused.
  const response = await get(`/api/v2/tasks?filter[date_range]=${range}`, await tokenFor(owner.viewer.user.id));
  vi.useRealTimers();
  expect(response.status, response.text).toBe(200);
  return response.body.data.map((task: { id: string }) => owner.names[task.id]).sort();
}

afterEach(() => vi.useRealTimers());

describe("a day whose local midnight does not exist starts at 01:00", () => {
  let santiago: Awaited<ReturnType<typeof viewerIn>>;
  let havana: Awaited<ReturnType<typeof viewerIn>>;

  beforeAll(async () => {
    // Santiago: 2026-09-05 is at -04:00, 2026-09-06 from 01:00 at -03:00 (04:00Z).
    santiago = await viewerIn("America/Santiago", {
      previousEvening: "2026-09-06T03:30:00Z", // 2026-09-05 23:30 -04:00
      firstHour: "2026-09-06T04:30:00Z", // 2026-09-06 01:30 -03:00
    });
    // Havana: 2026-03-07 is at -05:00, 2026-03-08 from 01:00 at -04:00 (05:00Z).
    havana = await viewerIn("America/Havana", {
      previousEvening: "2026-03-08T04:30:00Z", // 2026-03-07 23:30 -05:00
      firstHour: "2026-03-08T05:30:00Z", // 2026-03-08 01:30 -04:00
    });
  });

  it("America/Santiago 2026-09-06: today holds no hour of the day before", async () => {
    expect(await listedAt("2026-09-06T15:00:00Z", santiago, "today")).toEqual(["firstHour"]);
    expect(await listedAt("2026-09-05T15:00:00Z", santiago, "today")).toEqual(["previousEvening"]);
    expect(await listedAt("2026-09-05T15:00:00Z", santiago, "tomorrow")).toEqual(["firstHour"]);
  });

  it("America/Havana 2026-03-08: today holds no hour of the day before", async () => {
    expect(await listedAt("2026-03-08T15:00:00Z", havana, "today")).toEqual(["firstHour"]);
    expect(await listedAt("2026-03-07T15:00:00Z", havana, "today")).toEqual(["previousEvening"]);
    expect(await listedAt("2026-03-07T15:00:00Z", havana, "tomorrow")).toEqual(["firstHour"]);
  });
});

describe("the other side of a DST change: clocks fall back at midnight", () => {
  let santiago: Awaited<ReturnType<typeof viewerIn>>;

  beforeAll(async () => {
    // 2026-04-04 starts at 00:00 -03:00 (03:00Z) and, with 23:00-24:00 lived twice, ends at 04:00Z.
    santiago = await viewerIn("America/Santiago", {
      dayBefore: "2026-04-04T02:30:00Z", // 2026-04-03 23:30 -03:00
      firstHour: "2026-04-04T03:30:00Z", // 2026-04-04 00:30 -03:00
      repeatedHour: "2026-04-05T03:30:00Z", // 2026-04-04 23:30 -04:00, the second 23:30 of that day
      nextDay: "2026-04-05T04:30:00Z", // 2026-04-05 00:30 -04:00
    });
  });

  it("the 25-hour day holds both of its 23:00 hours, and the next day starts at its midnight", async () => {
    expect(await listedAt("2026-04-04T15:00:00Z", santiago, "today")).toEqual(["firstHour", "repeatedHour"]);
    expect(await listedAt("2026-04-04T15:00:00Z", santiago, "tomorrow")).toEqual(["nextDay"]);
    expect(await listedAt("2026-04-05T15:00:00Z", santiago, "today")).toEqual(["nextDay"]);
    expect(await listedAt("2026-04-03T15:00:00Z", santiago, "today")).toEqual(["dayBefore"]);
  });
});
