/**
 * A list's notification run, and the five-minute cron's reminders and e-mails, are SQL over indexes: every statement
 * they run is recorded, and none may scan a table that grows with the lists (contacts, their gifts, people, tasks,
 * notifications, the outbox) from end to end.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as schema from "../drizzle/schema";
import { NOTIFICATION_TYPES } from "../src/constants/notifications";
import { runListNotifications } from "../src/events/run";
import { recordDueReminders } from "../src/events/reminders";
import { sendDueEmails } from "../src/events/outbox";
import { givingTo, insertContact, insertPerson, insertTask } from "./helpers/contact-fixtures";
import { createViewer, db, timestamps, uuid } from "./helpers/factories";
import { planOf, recordingEnv, type Recorded } from "./helpers/recording-db";
import { onListDatabase } from "../src/db/list-env";

const GROWING = ["changed_contacts", "person_days", "contacts", "people", "addresses", "email_addresses", "contact_donor_accounts", "donations", "tasks", "activity_contacts", "notifications", "notification_outbox"];
const FULL_SCAN = new RegExp(`^SCAN (${GROWING.join("|")})(?: AS \\w+)?$`);

describe("a list's notification run", () => {
  // The runs are given their day; the rows they write and the e-mails they send read the clock, fixed to that day.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse("2026-11-25T05:00:00Z"));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads every table through an index", async () => {
    const viewer = await createViewer();
    for (const type of NOTIFICATION_TYPES) {
      await db.insert(schema.notificationPreferences).values({ id: uuid(), accountListId: viewer.list.id, notificationTypeId: type.id, app: true, email: true, task: true, ...timestamps() });
    }
    const giving = await givingTo(viewer.list.id);
    const partner = await insertContact(viewer.list.id, "Partner", { status: "Partner - Financial", pledgeAmount: "100", pledgeFrequency: "1.0", pledgeReceived: true, sendNewsletter: "Both" });
    await giving.give(partner.id, "100", "2026-09-01");
    await insertPerson(partner.id, "Pat", { birthdayMonth: 11, birthdayDay: 26 });

    const recorded: Recorded[] = [];
    const summary = await runListNotifications(await onListDatabase(recordingEnv(recorded), viewer.list.id), { accountListId: viewer.list.id, runAt: "2026-11-25T05:00:00Z" });
    expect(summary.notifications).toBeGreaterThan(0);
    // The next day's run looks at what changed or came due since: a gift given meanwhile, a birthday a week ahead.
    await giving.give(partner.id, "150", "2026-11-25");
    await insertPerson(partner.id, "Sam", { birthdayMonth: 12, birthdayDay: 3 });
    const next = await runListNotifications(await onListDatabase(recordingEnv(recorded), viewer.list.id), { accountListId: viewer.list.id, runAt: "2026-11-26T05:00:00Z" });
    expect(next.notifications).toBeGreaterThan(0);
    expect(recorded.some((statement) => statement.sql.includes("CROSS JOIN contacts c"))).toBe(true);
    // And the five-minute cron's work: reminders come due and e-mails due.
    await insertTask(viewer.list.id, [partner.id], { startAt: "2026-11-25T06:00:00Z", notificationType: "email", notificationTimeBefore: 1, notificationTimeUnit: "hours" });
    const cronEnv = await onListDatabase(recordingEnv(recorded), viewer.list.id);
    expect(await recordDueReminders(cronEnv, "2026-11-25T05:00:00Z")).toBe(1);
    expect(await sendDueEmails(cronEnv, "2026-11-25T05:00:00Z")).toBe(2);
    expect(recorded.length).toBeGreaterThan(5);
    for (const statement of recorded) {
      const scans = (await planOf(statement)).filter((step) => FULL_SCAN.test(step.trim()));
      expect(scans, statement.sql.slice(0, 400)).toEqual([]);
    }
  });
});
