/**
 * Every detected notification type: the history is built in the tables, the daily cron runs through the
 * scheduled handler and the queue handler, and each type's notification is read through /notifications, its task
 * through /tasks and its e-mail at the binding. Each list has a preference for one type only, so what a list
 * shows is that type's doing.
 */
import { describe, expect, it } from "vitest";
import { NOTIFICATION_TYPE_IDS, type NotificationTypeKey } from "../src/constants/notifications";
import { EVENT_TYPE_BY_KEY } from "../src/events/event-types";
import { get } from "./helpers/api";
import { givingTo, insertAddress, insertContact, insertEmail, insertPerson, insertTask } from "./helpers/contact-fixtures";
import { clockFixedAt, dailyRun, listWithPreference, type RunRecord } from "./helpers/events";
import { createViewer } from "./helpers/factories";

const RUN_AT = "2026-11-25T05:00:00Z";
// The runs take the later of their scheduled time and the clock: the clock is fixed at the run.
clockFixedAt(RUN_AT);
const FINANCIAL = { status: "Partner - Financial", pledgeReceived: true, pledgeCurrency: "USD" } as const;

type Viewer = Awaited<ReturnType<typeof createViewer>>;

async function notificationsOf(viewer: Viewer) {
  const response = await get(`/api/v2/account_lists/${viewer.list.id}/notifications?include=notification_type`, viewer.token);
  expect(response.status).toBe(200);
  return response.body;
}

async function tasksOf(viewer: Viewer) {
  const response = await get(`/api/v2/tasks?filter[account_list_id]=${viewer.list.id}`, viewer.token);
  expect(response.status).toBe(200);
  return response.body.data as Array<{ id: string; attributes: Record<string, unknown>; relationships: { contacts: { data: Array<{ id: string }> } } }>;
}

/** The type's notification for the contact, its task and its e-mail, each exactly once. */
async function expectRaised(viewer: Viewer, type: NotificationTypeKey, contact: { id: string; name: string }, record: RunRecord, extra: { donationId?: string; eventDate?: string; runAt?: string } = {}) {
  const runAt = extra.runAt ?? RUN_AT;
  const document = await notificationsOf(viewer);
  expect(document.data).toHaveLength(1);
  const [notification] = document.data;
  expect(notification.attributes).toMatchObject({ cleared: false, event_date: extra.eventDate ?? runAt.slice(0, 10) });
  expect(notification.relationships.contact.data).toEqual({ type: "contacts", id: contact.id });
  expect(notification.relationships.notification_type.data).toEqual({ type: "notification_type", id: NOTIFICATION_TYPE_IDS[type] });
  expect(notification.relationships.donation.data).toEqual(extra.donationId ? { type: "donations", id: extra.donationId } : null);
  expect(document.included[0].attributes.key).toBe(type);

  const tasks = await tasksOf(viewer);
  expect(tasks).toHaveLength(1);
  expect(tasks[0].attributes).toMatchObject({ activity_type: EVENT_TYPE_BY_KEY.get(type)!.activity, start_at: runAt, completed: false });
  expect(String(tasks[0].attributes.subject)).toContain(contact.name);
  expect(tasks[0].relationships.contacts.data.map((c) => c.id)).toEqual([contact.id]);

  const emails = record.emails.filter((email) => email.to === viewer.user.email);
  expect(emails).toHaveLength(1);
  expect(emails[0].text).toContain(contact.name);
  expect(emails[0].subject).toContain(viewer.list.name);
}

async function expectNothing(viewer: Viewer, record: RunRecord) {
  expect((await notificationsOf(viewer)).data).toHaveLength(0);
  expect(await tasksOf(viewer)).toHaveLength(0);
  expect(record.emails.filter((email) => email.to === viewer.user.email)).toHaveLength(0);
}

describe("the daily notification run", () => {
  it("stopped_giving: a history entered oldest gift first raises one notification per lapse, cleared once no longer late", async () => {
    const viewer = await listWithPreference("stopped_giving");
    const monthly = await insertContact(viewer.list.id, "Oldest First", { ...FINANCIAL, pledgeAmount: "100", pledgeFrequency: "1.0", pledgeStartDate: "2025-01-01" });
    // Each gift's write queues a run of the list: the partner stays late after each of them.
    for (const day of ["2026-05-01", "2026-06-01", "2026-07-01", "2026-08-01"]) {
      await viewer.giving.give(monthly.id, "100", day);
      await dailyRun(RUN_AT);
    }
    const raised = (await notificationsOf(viewer)).data;
    expect(raised).toHaveLength(1);
    expect(raised[0].attributes.cleared).toBe(false);

    // A gift that still leaves the partner late clears nothing; one that brings them up to date clears it.
    await viewer.giving.give(monthly.id, "100", "2026-04-01");
    await dailyRun(RUN_AT);
    expect((await notificationsOf(viewer)).data.map((n: { attributes: { cleared: boolean } }) => n.attributes.cleared)).toEqual([false]);
    await viewer.giving.give(monthly.id, "100", "2026-11-20");
    await dailyRun(RUN_AT);
    expect((await notificationsOf(viewer)).data.map((n: { attributes: { cleared: boolean } }) => n.attributes.cleared)).toEqual([true]);
  });

  it("stopped_giving: a partner more than 30 days past their next gift", async () => {
    const viewer = await listWithPreference("stopped_giving");
    const late = await insertContact(viewer.list.id, "Jones Family", { ...FINANCIAL, pledgeAmount: "100", pledgeFrequency: "1.0", pledgeStartDate: "2025-01-01" });
    await viewer.giving.give(late.id, "100", "2026-08-01");
    await viewer.giving.give(late.id, "100", "2026-09-01");
    // Monthly and on time (last gift 2026-11-01), and one late who has never given: neither missed a gift.
    const onTime = await insertContact(viewer.list.id, "On Time", { ...FINANCIAL, pledgeAmount: "100", pledgeFrequency: "1.0" });
    await viewer.giving.give(onTime.id, "100", "2026-11-01");
    await insertContact(viewer.list.id, "Never Gave", { ...FINANCIAL, pledgeAmount: "100", pledgeFrequency: "1.0" });
    await expectRaised(viewer, "stopped_giving", late, await dailyRun(RUN_AT));
  });

  it("started_giving: a partner's first gift within two weeks", async () => {
    const viewer = await listWithPreference("started_giving");
    const first = await insertContact(viewer.list.id, "Newly Giving", { ...FINANCIAL, pledgeReceived: false, pledgeAmount: "50", pledgeFrequency: "1.0" });
    const gift = await viewer.giving.give(first.id, "50", "2026-11-20");
    const longTime = await insertContact(viewer.list.id, "Long Time", { ...FINANCIAL, pledgeReceived: false });
    await viewer.giving.give(longTime.id, "50", "2026-06-20");
    await viewer.giving.give(longTime.id, "50", "2026-11-20");
    await expectRaised(viewer, "started_giving", first, await dailyRun(RUN_AT), { donationId: gift.id });
  });

  it("recontinuing_gift: a partner gives the pledge again after a gap of two months or more past it", async () => {
    const viewer = await listWithPreference("recontinuing_gift");
    const back = await insertContact(viewer.list.id, "Back Again", { ...FINANCIAL, pledgeAmount: "50", pledgeFrequency: "1.0" });
    await viewer.giving.give(back.id, "50", "2026-06-10");
    const gift = await viewer.giving.give(back.id, "50", "2026-11-10");
    const steady = await insertContact(viewer.list.id, "Steady", { ...FINANCIAL, pledgeAmount: "50", pledgeFrequency: "1.0" });
    await viewer.giving.give(steady.id, "50", "2026-10-10");
    await viewer.giving.give(steady.id, "50", "2026-11-10");
    await expectRaised(viewer, "recontinuing_gift", back, await dailyRun(RUN_AT), { donationId: gift.id });
  });

  it("larger_gift: more than the pledge within the pledge period", async () => {
    const viewer = await listWithPreference("larger_gift");
    const generous = await insertContact(viewer.list.id, "Generous", { ...FINANCIAL, pledgeAmount: "50", pledgeFrequency: "1.0" });
    await viewer.giving.give(generous.id, "50", "2026-10-15");
    const gift = await viewer.giving.give(generous.id, "120", "2026-11-15");
    const exact = await insertContact(viewer.list.id, "Exact", { ...FINANCIAL, pledgeAmount: "50", pledgeFrequency: "1.0" });
    await viewer.giving.give(exact.id, "50", "2026-10-15");
    await viewer.giving.give(exact.id, "50", "2026-11-15");
    // Monthly gifts a few days apart across the turn of a month are one gift a month, not a larger one.
    const early = await insertContact(viewer.list.id, "Early", { ...FINANCIAL, pledgeAmount: "50", pledgeFrequency: "1.0" });
    await viewer.giving.give(early.id, "50", "2026-10-29");
    await viewer.giving.give(early.id, "50", "2026-11-02");
    await expectRaised(viewer, "larger_gift", generous, await dailyRun(RUN_AT), { donationId: gift.id });
  });

  it("smaller_gift: less than the pledge within the pledge period", async () => {
    const viewer = await listWithPreference("smaller_gift");
    const short = await insertContact(viewer.list.id, "Short", { ...FINANCIAL, pledgeAmount: "100", pledgeFrequency: "1.0" });
    await viewer.giving.give(short.id, "100", "2026-10-20");
    const gift = await viewer.giving.give(short.id, "40", "2026-11-20");
    await expectRaised(viewer, "smaller_gift", short, await dailyRun(RUN_AT), { donationId: gift.id });
  });

  it("long_time_frame_gift: an annual partner's gift of the pledge", async () => {
    const viewer = await listWithPreference("long_time_frame_gift");
    const annual = await insertContact(viewer.list.id, "Annual", { ...FINANCIAL, pledgeAmount: "600", pledgeFrequency: "12.0" });
    await viewer.giving.give(annual.id, "600", "2025-11-05");
    const gift = await viewer.giving.give(annual.id, "600", "2026-11-05");
    // A monthly partner's gift of the pledge is not a long time frame gift.
    const monthly = await insertContact(viewer.list.id, "Monthly", { ...FINANCIAL, pledgeAmount: "50", pledgeFrequency: "1.0" });
    await viewer.giving.give(monthly.id, "50", "2026-10-05");
    await viewer.giving.give(monthly.id, "50", "2026-11-05");
    await expectRaised(viewer, "long_time_frame_gift", annual, await dailyRun(RUN_AT), { donationId: gift.id });
  });

  it("special_gift: a gift within the month from someone who is not a financial partner", async () => {
    const viewer = await listWithPreference("special_gift");
    const friend = await insertContact(viewer.list.id, "Friend", { status: "Partner - Special" });
    const gift = await viewer.giving.give(friend.id, "250", "2026-11-01");
    const partner = await insertContact(viewer.list.id, "Partner", { ...FINANCIAL, pledgeAmount: "250", pledgeFrequency: "1.0" });
    await viewer.giving.give(partner.id, "250", "2026-11-01");
    const record = await dailyRun(RUN_AT);
    await expectRaised(viewer, "special_gift", friend, record, { donationId: gift.id });
    expect(record.emails.find((email) => email.to === viewer.user.email)!.text).toContain("250.0 USD on 2026-11-01");
  });

  it("remind_partner_in_advance: a quarterly partner's gift due within a month", async () => {
    const viewer = await listWithPreference("remind_partner_in_advance");
    const quarterly = await insertContact(viewer.list.id, "Quarterly", { ...FINANCIAL, pledgeAmount: "300", pledgeFrequency: "3.0" });
    await viewer.giving.give(quarterly.id, "300", "2026-09-10");
    // By direct deposit: no reminder needed.
    const deposit = await insertContact(viewer.list.id, "Deposit", { ...FINANCIAL, pledgeAmount: "300", pledgeFrequency: "3.0", directDeposit: true });
    await viewer.giving.give(deposit.id, "300", "2026-09-10");
    await expectRaised(viewer, "remind_partner_in_advance", quarterly, await dailyRun(RUN_AT));
  });

  it("call_partner_once_per_year: no call logged in a year", async () => {
    const viewer = await listWithPreference("call_partner_once_per_year");
    const quiet = await insertContact(viewer.list.id, "Quiet", { ...FINANCIAL, createdAt: "2024-03-01T00:00:00Z" });
    const called = await insertContact(viewer.list.id, "Called", { ...FINANCIAL, createdAt: "2024-03-01T00:00:00Z" });
    await insertTask(viewer.list.id, [called.id], { activityType: "Call", startAt: "2026-05-01T10:00:00Z", completed: true, completedAt: "2026-05-01T10:30:00Z" });
    // Known for less than a year.
    await insertContact(viewer.list.id, "New", { ...FINANCIAL, createdAt: "2026-06-01T00:00:00Z" });
    const record = await dailyRun(RUN_AT);
    const tasks = (await tasksOf(viewer)).filter((task) => task.attributes.activity_type === "Call" && task.attributes.start_at === RUN_AT);
    expect(tasks).toHaveLength(1);
    expect(tasks[0].relationships.contacts.data).toEqual([{ type: "contacts", id: quiet.id }]);
    const notifications = (await notificationsOf(viewer)).data;
    expect(notifications.map((n: { relationships: { contact: { data: { id: string } } } }) => n.relationships.contact.data.id)).toEqual([quiet.id]);
    expect(record.emails.filter((email) => email.to === viewer.user.email)).toHaveLength(1);
  });

  it("thank_partner_once_per_year: no thank-you logged in a year", async () => {
    const viewer = await listWithPreference("thank_partner_once_per_year");
    const unthanked = await insertContact(viewer.list.id, "Unthanked", { ...FINANCIAL, pledgeFrequency: "1.0", createdAt: "2024-03-01T00:00:00Z" });
    const thanked = await insertContact(viewer.list.id, "Thanked", { ...FINANCIAL, pledgeFrequency: "1.0", createdAt: "2024-03-01T00:00:00Z" });
    await insertTask(viewer.list.id, [thanked.id], { activityType: "Thank", startAt: "2026-10-01T10:00:00Z" });
    await dailyRun(RUN_AT);
    const notifications = (await notificationsOf(viewer)).data;
    expect(notifications.map((n: { relationships: { contact: { data: { id: string } } } }) => n.relationships.contact.data.id)).toEqual([unthanked.id]);
    const made = (await tasksOf(viewer)).filter((task) => task.attributes.start_at === RUN_AT);
    expect(made.map((task) => task.attributes.activity_type)).toEqual(["Thank"]);
  });

  it("missing_address_in_newsletter: on the physical newsletter without a current address", async () => {
    const viewer = await listWithPreference("missing_address_in_newsletter");
    const nowhere = await insertContact(viewer.list.id, "Nowhere", { sendNewsletter: "Physical" });
    await insertAddress(nowhere.id, { street: "1 Old Road", historic: true });
    const housed = await insertContact(viewer.list.id, "Housed", { sendNewsletter: "Both" });
    await insertAddress(housed.id, { street: "2 New Road" });
    await insertContact(viewer.list.id, "Email Only", { sendNewsletter: "Email" });
    await expectRaised(viewer, "missing_address_in_newsletter", nowhere, await dailyRun(RUN_AT));
  });

  it("missing_email_in_newsletter: on the e-mail newsletter without a valid address", async () => {
    const viewer = await listWithPreference("missing_email_in_newsletter");
    const unreachable = await insertContact(viewer.list.id, "Unreachable", { sendNewsletter: "Email" });
    const person = await insertPerson(unreachable.id, "Una");
    await insertEmail(person.id, "old@example.org", { historic: true });
    const reachable = await insertContact(viewer.list.id, "Reachable", { sendNewsletter: "Both" });
    await insertEmail((await insertPerson(reachable.id, "Rea")).id, "rea@example.org");
    await expectRaised(viewer, "missing_email_in_newsletter", unreachable, await dailyRun(RUN_AT));
  });

  it("upcoming_birthday: a person's birthday within the week, dated that day", async () => {
    const viewer = await listWithPreference("upcoming_birthday");
    const family = await insertContact(viewer.list.id, "Lee Family");
    await insertPerson(family.id, "Lee", { lastName: "Lee", birthdayMonth: 11, birthdayDay: 27, birthdayYear: 1980 });
    await insertPerson(family.id, "Pat", { lastName: "Lee", birthdayMonth: 12, birthdayDay: 20 });
    const record = await dailyRun(RUN_AT);
    await expectRaised(viewer, "upcoming_birthday", family, record, { eventDate: "2026-11-27" });
    expect(String((await tasksOf(viewer))[0].attributes.subject)).toContain("Lee Lee (Lee Family) has a birthday on 2026-11-27");
  });

  it("upcoming_anniversary: across the turn of the year", async () => {
    const viewer = await listWithPreference("upcoming_anniversary");
    const couple = await insertContact(viewer.list.id, "The Smiths");
    await insertPerson(couple.id, "Sam", { lastName: "Smith", anniversaryMonth: 1, anniversaryDay: 1 });
    await expectRaised(viewer, "upcoming_anniversary", couple, await dailyRun("2026-12-28T05:00:00Z"), { eventDate: "2027-01-01", runAt: "2026-12-28T05:00:00Z" });
  });

  it("raises nothing without a preference, or with every channel off", async () => {
    const none = await createViewer();
    const off = await listWithPreference("stopped_giving", { app: false, email: false, task: false });
    for (const viewer of [none, off]) {
      const giving = await givingTo(viewer.list.id);
      const late = await insertContact(viewer.list.id, "Late", { ...FINANCIAL, pledgeAmount: "100", pledgeFrequency: "1.0" });
      await giving.give(late.id, "100", "2026-05-01");
    }
    const record = await dailyRun(RUN_AT);
    expect(record.messages.map((message) => message.accountListId)).not.toContain(none.list.id);
    expect(record.messages.map((message) => message.accountListId)).not.toContain(off.list.id);
    await expectNothing(none, record);
    await expectNothing(off, record);
  });

  it("follows each channel of the preference on its own", async () => {
    const taskOnly = await listWithPreference("special_gift", { app: false, email: false, task: true });
    const appOnly = await listWithPreference("special_gift", { app: true, email: false, task: false });
    for (const viewer of [taskOnly, appOnly]) {
      const friend = await insertContact(viewer.list.id, "Friend");
      await viewer.giving.give(friend.id, "20", "2026-11-20");
    }
    const record = await dailyRun(RUN_AT);
    expect((await notificationsOf(taskOnly)).data).toHaveLength(0);
    expect(await tasksOf(taskOnly)).toHaveLength(1);
    expect((await notificationsOf(appOnly)).data).toHaveLength(1);
    expect(await tasksOf(appOnly)).toHaveLength(0);
    expect(record.emails.filter((email) => [taskOnly.user.email, appOnly.user.email].includes(email.to))).toHaveLength(0);
  });
});
