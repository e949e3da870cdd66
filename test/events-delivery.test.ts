/**
 * The channels of notifications under retries, redeliveries, overlapping runs and failures; e-mail timing; task
 * reminders; the run a donation write queues; the import entry point; and the notifications resource.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import * as schema from "../drizzle/schema";
import type { Bindings } from "../src/env";
import { raiseNotification } from "../src/events/raise";
import { del, errorOf, get, post, put } from "./helpers/api";
import { insertContact, insertTask } from "./helpers/contact-fixtures";
import { clockFixedAt, dailyRun, deliverRuns, fiveMinuteTicks, listWithPreference, recordingEnv, type RunRecord } from "./helpers/events";
import { addToList, createUser, createViewer, db, uuid } from "./helpers/factories";
import { storage } from "./helpers/storage";
import { onListDatabase } from "../src/db/list-env";

const RUN_AT = "2026-11-25T05:00:00Z";
// The runs take the later of their scheduled time and the clock: the clock is fixed at the run.
clockFixedAt(RUN_AT);
const FINANCIAL = { status: "Partner - Financial", pledgeReceived: true, pledgeCurrency: "USD", pledgeAmount: "100", pledgeFrequency: "1.0" } as const;

/** A list with one partner who missed a gift (last gift 2026-09-01). */
async function lateList(channels?: { app: boolean; email: boolean; task: boolean }) {
  const viewer = await listWithPreference("stopped_giving", channels);
  const late = await insertContact(viewer.list.id, `Late ${uuid().slice(0, 4)}`, FINANCIAL);
  await viewer.giving.give(late.id, "100", "2026-09-01");
  return { viewer, late };
}

const storedNotifications = (accountListId: string) => db.select().from(schema.notifications).where(eq(schema.notifications.accountListId, accountListId));
const storedTasks = (accountListId: string) => db.select().from(schema.tasks).where(eq(schema.tasks.accountListId, accountListId));
const emailsTo = (record: RunRecord, to: string) => record.emails.filter((email) => email.to === to);

describe("exactly once", () => {
  it("a second run, a redelivered message and two overlapping runs add no notification, task or e-mail", async () => {
    const { viewer } = await lateList();
    const first = await dailyRun(RUN_AT);
    expect(emailsTo(first, viewer.user.email)).toHaveLength(1);

    const second = await dailyRun(RUN_AT);
    const redelivered: RunRecord = { messages: [], emails: [] };
    const runEnv = recordingEnv(redelivered);
    await deliverRuns([{ accountListId: viewer.list.id, runAt: RUN_AT }], runEnv, { attempts: 2 });
    await Promise.all([
      deliverRuns([{ accountListId: viewer.list.id, runAt: "2026-11-25T05:00:00Z" }], runEnv),
      deliverRuns([{ accountListId: viewer.list.id, runAt: "2026-11-25T05:00:01Z" }], runEnv),
    ]);
    expect(await storedNotifications(viewer.list.id)).toHaveLength(1);
    expect(await storedTasks(viewer.list.id)).toHaveLength(1);
    expect(emailsTo(second, viewer.user.email)).toHaveLength(0);
    expect(emailsTo(redelivered, viewer.user.email)).toHaveLength(0);
    expect(await db.$count(schema.notificationOutbox, eq(schema.notificationOutbox.accountListId, viewer.list.id))).toBe(1);
  });

  it("overlapping runs of a list with new events make one task and one e-mail per event", async () => {
    const { viewer } = await lateList();
    const record: RunRecord = { messages: [], emails: [] };
    const runEnv = recordingEnv(record);
    await Promise.all(["05:00:00", "05:00:02", "05:00:04"].map((time) => deliverRuns([{ accountListId: viewer.list.id, runAt: `2026-11-25T${time}Z` }], runEnv)));
    expect(await storedNotifications(viewer.list.id)).toHaveLength(1);
    expect(await storedTasks(viewer.list.id)).toHaveLength(1);
    expect(emailsTo(record, viewer.user.email)).toHaveLength(1);
  });

  it("a cleared notification stays cleared, and clearing removes its open task", async () => {
    const { viewer } = await lateList();
    await dailyRun(RUN_AT);
    const [notification] = (await get(`/api/v2/account_lists/${viewer.list.id}/notifications`, viewer.token)).body.data;
    const cleared = await put(`/api/v2/account_lists/${viewer.list.id}/notifications/${notification.id}`, { data: { type: "notifications", id: notification.id, attributes: { cleared: true, updated_in_db_at: notification.attributes.updated_in_db_at } } }, viewer.token);
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.attributes.cleared).toBe(true);
    const [removedTask] = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.accountListId, viewer.list.id));
    expect(await storedTasks(viewer.list.id)).toHaveLength(0);
    // Offline clients learn the task went, removed by the user who cleared its notification.
    expect(removedTask).toMatchObject({ deletableType: "Activity", deletedById: viewer.user.id, deletedAt: expect.any(String) });

    await dailyRun("2026-11-26T05:00:00Z");
    const after = await storedNotifications(viewer.list.id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: notification.id, cleared: true });
    expect(await storedTasks(viewer.list.id)).toHaveLength(0);
  });

  it("a missed gift is cleared when the partner gives again: its open task goes, a completed one stays", async () => {
    const { viewer, late } = await lateList();
    const other = await insertContact(viewer.list.id, "Other Late", FINANCIAL);
    await viewer.giving.give(other.id, "100", "2026-08-01");
    await dailyRun(RUN_AT);
    const tasks = await storedTasks(viewer.list.id);
    expect(tasks).toHaveLength(2);
    const otherTask = tasks.find((task) => String(task.subject).includes("Other Late"))!;
    await db.update(schema.tasks).set({ completed: true, completedAt: "2026-11-25T09:00:00Z" }).where(eq(schema.tasks.id, otherTask.id));

    await viewer.giving.give(late.id, "100", "2026-11-25");
    await viewer.giving.give(other.id, "100", "2026-11-25");
    await dailyRun("2026-11-26T05:00:00Z");
    expect((await storedNotifications(viewer.list.id)).map((n) => n.cleared)).toEqual([true, true]);
    expect((await storedTasks(viewer.list.id)).map((task) => task.id)).toEqual([otherTask.id]);
    // The open task the run removed is a deletion offline clients learn of, by no one.
    const removed = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.accountListId, viewer.list.id));
    expect(removed).toEqual([expect.objectContaining({ deletableType: "Activity", deletedById: null, deletedAt: "2026-11-26T05:00:00Z" })]);
    expect(removed[0].deletableId).not.toBe(otherTask.id);
    const open = await get(`/api/v2/account_lists/${viewer.list.id}/notifications?filter[cleared]=false`, viewer.token);
    expect(open.body.data).toHaveLength(0);

    // Late again after that gift: a new event, raised anew.
    await dailyRun("2027-01-30T05:00:00Z");
    expect((await storedNotifications(viewer.list.id)).filter((n) => !n.cleared)).toHaveLength(2);
  });
});

describe("e-mail", () => {
  it("waits for the user's hour in their time zone, and is sent once", async () => {
    const viewer = await createViewer();
    await db.update(schema.users).set({ hourToSendNotifications: 9, timeZone: "America/New_York" }).where(eq(schema.users.id, viewer.user.id));
    const { late } = await (async () => {
      const list = await listWithPreference("stopped_giving", undefined, viewer);
      const contact = await insertContact(viewer.list.id, "Evening Late", FINANCIAL);
      await list.giving.give(contact.id, "100", "2026-09-01");
      return { late: contact };
    })();
    const run = await dailyRun(RUN_AT);
    expect(emailsTo(run, viewer.user.email)).toHaveLength(0);
    const [outbox] = await db.select().from(schema.notificationOutbox).where(eq(schema.notificationOutbox.userId, viewer.user.id));
    // 09:00 in New York on 2026-11-25 (EST, UTC-5).
    expect(outbox).toMatchObject({ dueAt: "2026-11-25T14:00:00Z", kind: "digest", channel: "email", sentAt: null });

    expect(emailsTo(await fiveMinuteTicks("2026-11-25T13:55:00Z"), viewer.user.email)).toHaveLength(0);
    const sent = emailsTo(await fiveMinuteTicks("2026-11-25T14:00:00Z", "2026-11-25T14:05:00Z"), viewer.user.email);
    expect(sent).toHaveLength(1);
    expect(sent[0].text).toContain(late.name);
    expect(sent[0].from).toEqual({ name: "Notifications", email: "notifications@example.org" });
    const [after] = await db.select().from(schema.notificationOutbox).where(eq(schema.notificationOutbox.id, outbox.id));
    expect(after.sentAt).toBe("2026-11-25T14:00:00Z");
    expect(after.messageId).toBeTruthy();
  });

  it("one digest per user of the list, naming every notification of the run", async () => {
    const { viewer, late } = await lateList();
    const second = await insertContact(viewer.list.id, "Second Late", FINANCIAL);
    await viewer.giving.give(second.id, "100", "2026-08-15");
    const colleague = await createUser();
    await addToList(viewer.list.id, colleague.id);
    const record = await dailyRun(RUN_AT);
    for (const to of [viewer.user.email, colleague.email]) {
      const [email] = emailsTo(record, to);
      expect(email.subject).toBe(`2 notifications for ${viewer.list.name}`);
      expect(email.text).toContain(late.name);
      expect(email.text).toContain("Second Late");
    }
  });

  it("a send the binding refuses is tried again later, and then sent once", async () => {
    const { viewer } = await lateList();
    const failed = await dailyRun(RUN_AT, { failEmail: true });
    expect(emailsTo(failed, viewer.user.email)).toHaveLength(0);
    const [row] = await db.select().from(schema.notificationOutbox).where(eq(schema.notificationOutbox.accountListId, viewer.list.id));
    expect(row).toMatchObject({ attemptedAt: null, sentAt: null });
    expect(row.error).toContain("unavailable");

    const later = new Date(Date.parse(row.dueAt) + 300_000).toISOString();
    expect(emailsTo(await fiveMinuteTicks(row.dueAt, later), viewer.user.email)).toHaveLength(1);
  });
});

describe("failures", () => {
  it("a list whose run fails is retried without holding up the others, and is recorded when dead-lettered", async () => {
    const broken = await lateList();
    const healthy = await lateList();
    await storage.prepare(
      `CREATE TRIGGER refuse_notifications BEFORE INSERT ON notifications WHEN NEW.account_list_id = '${broken.viewer.list.id}' BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
    ).run();
    try {
      const record: RunRecord = { messages: [], emails: [] };
      const runEnv = recordingEnv(record);
      const messages = [broken, healthy].map(({ viewer }) => ({ accountListId: viewer.list.id, runAt: RUN_AT }));
      const result = await deliverRuns(messages, runEnv);
      expect(result.retryMessages.map((message) => (message as unknown as { msgId: string }).msgId)).toHaveLength(1);
      expect(result.explicitAcks).toHaveLength(1);
      expect(await storedNotifications(broken.viewer.list.id)).toHaveLength(0);
      expect(await storedNotifications(healthy.viewer.list.id)).toHaveLength(1);

      await deliverRuns([messages[0]], runEnv, { queue: "notification-runs-dlq", attempts: 6 });
      await deliverRuns([messages[0]], runEnv, { queue: "notification-runs-dlq", attempts: 6 });
      const failures = await db.select().from(schema.notificationRunFailures).where(eq(schema.notificationRunFailures.accountListId, broken.viewer.list.id));
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatchObject({ runAt: RUN_AT, attempts: 6 });
    } finally {
      await storage.prepare("DROP TRIGGER refuse_notifications").run();
    }
  });
});

describe("task reminders", () => {
  it("come due at start_at less the time before, by e-mail once; mobile ones are recorded for a push provider", async () => {
    const viewer = await createViewer();
    const contact = await insertContact(viewer.list.id, "Reminded");
    const emailTask = await insertTask(viewer.list.id, [contact.id], { subject: "Call about the trip", startAt: "2026-11-25T15:00:00Z", notificationType: "both", notificationTimeBefore: 30, notificationTimeUnit: "minutes" });
    await insertTask(viewer.list.id, [contact.id], { subject: "Done already", startAt: "2026-11-25T15:00:00Z", notificationType: "email", notificationTimeBefore: 1, notificationTimeUnit: "hours", completed: true });
    expect(emailsTo(await fiveMinuteTicks("2026-11-25T14:25:00Z"), viewer.user.email)).toHaveLength(0);
    const sent = emailsTo(await fiveMinuteTicks("2026-11-25T14:30:00Z", "2026-11-25T14:35:00Z"), viewer.user.email);
    expect(sent).toHaveLength(1);
    expect(sent[0].subject).toBe("Reminder: Call about the trip");
    expect(sent[0].text).toContain("Reminded");
    const rows = await db.select().from(schema.notificationOutbox).where(eq(schema.notificationOutbox.taskId, emailTask.id));
    expect(rows.map((row) => [row.channel, row.dueAt, row.sentAt === null]).sort()).toEqual([
      ["email", "2026-11-25T14:30:00Z", false],
      ["mobile", "2026-11-25T14:30:00Z", true],
    ]);
  });
});

describe("a donation written through the API", () => {
  it("queues its list's run at once", async () => {
    const viewer = await listWithPreference("special_gift");
    const friend = await insertContact(viewer.list.id, "Spontaneous");
    const donorAccountId = await viewer.giving.donorAccountOf(friend.id);
    const today = new Date().toISOString().slice(0, 10);
    const created = await post(
      `/api/v2/account_lists/${viewer.list.id}/donations`,
      {
        data: {
          type: "donations",
          attributes: { amount: "75", currency: "USD", donation_date: today },
          relationships: { designation_account: { data: { type: "designation_accounts", id: viewer.giving.designation.id } }, donor_account: { data: { type: "donor_accounts", id: donorAccountId } } },
        },
      },
      viewer.token,
    );
    expect(created.status).toBe(201);
    await vi.waitUntil(async () => (await storedNotifications(viewer.list.id)).length === 1, { timeout: 15_000, interval: 50 });
    const [notification] = (await get(`/api/v2/account_lists/${viewer.list.id}/notifications`, viewer.token)).body.data;
    expect(notification.relationships.donation.data).toEqual({ type: "donations", id: created.body.data.id });
  });
});

describe("notifications raised by an import", () => {
  it("take the list's channels once per occurrence", async () => {
    const viewer = await listWithPreference("new_partner_no_duplicate");
    const contact = await insertContact(viewer.list.id, "Imported Partner");
    const record: RunRecord = { messages: [], emails: [] };
    // A job on a list runs with `DB` naming the list's database, as the service runs it.
    const runEnv: Bindings = await onListDatabase(recordingEnv(record), viewer.list.id);
    const event = { accountListId: viewer.list.id, contactId: contact.id, type: "new_partner_no_duplicate", occurrence: "import-42", at: RUN_AT } as const;
    expect(await raiseNotification(runEnv, event)).toBe(true);
    expect(await raiseNotification(runEnv, event)).toBe(false);
    // Another list's contact is never raised under this list.
    const stranger = await createViewer();
    const theirs = await insertContact(stranger.list.id, "Not Yours");
    expect(await raiseNotification(runEnv, { ...event, contactId: theirs.id })).toBe(false);

    expect(await storedNotifications(viewer.list.id)).toHaveLength(1);
    const [task] = await storedTasks(viewer.list.id);
    expect(task.subject).toContain("Imported Partner");
    expect(emailsTo(record, viewer.user.email)).toHaveLength(1);
  });
});

describe("/api/v2/account_lists/<id>/notifications", () => {
  it("shows the list's in-app notifications, filters them, and answers others as not found or forbidden", async () => {
    const { viewer } = await lateList();
    const { viewer: taskOnly } = await lateList({ app: false, email: false, task: true });
    await dailyRun(RUN_AT);
    const [notification] = (await get(`/api/v2/account_lists/${viewer.list.id}/notifications`, viewer.token)).body.data;
    const shown = await get(`/api/v2/account_lists/${viewer.list.id}/notifications/${notification.id}?include=contact`, viewer.token);
    expect(shown.status).toBe(200);
    expect(shown.body.included[0].type).toBe("contacts");

    const [hidden] = await storedNotifications(taskOnly.list.id);
    expect(errorOf(await get(`/api/v2/account_lists/${taskOnly.list.id}/notifications/${hidden.id}`, taskOnly.token), 404).detail).toBe(
      `Couldn't find Notification with 'id'=${hidden.id}`,
    );
    expect((await get(`/api/v2/account_lists/${viewer.list.id}/notifications`, taskOnly.token)).status).toBe(403);
    expect((await get(`/api/v2/account_lists/${taskOnly.list.id}/notifications/${notification.id}`, taskOnly.token)).status).toBe(404);
    expect((await get(`/api/v2/account_lists/${viewer.list.id}/notifications?filter[cleared]=true`, viewer.token)).body.data).toHaveLength(0);
    expect((await get(`/api/v2/account_lists/${viewer.list.id}/notifications?filter[event_date]=2026-11-25..2026-11-25`, viewer.token)).body.data).toHaveLength(1);

    const refused = errorOf(await put(`/api/v2/account_lists/${viewer.list.id}/notifications/${notification.id}`, { data: { type: "notifications", id: notification.id, attributes: { cleared: "maybe", updated_in_db_at: notification.attributes.updated_in_db_at } } }, viewer.token), 400);
    expect(refused.source).toEqual({ pointer: "/data/attributes/cleared" });
    expect((await storedNotifications(viewer.list.id))[0].cleared).toBe(false);

    expect((await del(`/api/v2/account_lists/${viewer.list.id}/notifications/${notification.id}`, taskOnly.token)).status).toBe(403);
    expect((await del(`/api/v2/account_lists/${viewer.list.id}/notifications/${notification.id}`, viewer.token)).status).toBe(204);
    expect(await storedNotifications(viewer.list.id)).toHaveLength(0);
  });
});
