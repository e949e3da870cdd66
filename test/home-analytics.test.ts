/**
 * The home pages' analytics: GET /api/v2/tasks/analytics, /contacts/analytics (also as the web app's POST with
 * X-HTTP-Method-Override: GET) and /account_lists/<id>/analytics, each as its client sends it.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { ACTIVITIES } from "../src/constants";
import { errorOf, get, request } from "./helpers/api";
import { insertTask } from "./helpers/contact-fixtures";
import { addToList, createUser, createViewer, db } from "./helpers/factories";

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
