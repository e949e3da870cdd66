/**
 * The reports by period: appointment results, pledge histories, activity results, and the monthly losses graph,
 * as the clients ask for them, in every layout.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { addDays, addMonths } from "../src/jsonapi/time";
import { errorOf, get } from "./helpers/api";
import { insertTask } from "./helpers/contact-fixtures";
import { expectKeptSumsExact } from "./helpers/kept-sums";
import { db, uuid } from "./helpers/factories";
import { createContact } from "./helpers/money-records";
import { monthStart, reportFixture, today } from "./helpers/report-fixtures";

let f: Awaited<ReturnType<typeof reportFixture>>;
const now = () => new Date().toISOString().slice(0, 19) + "Z";
const monday = () => addDays(today(), -((new Date(`${today()}T00:00:00Z`).getUTCDay() + 6) % 7));

beforeAll(async () => {
  f = await reportFixture();
  const stamp = now();
  await insertTask(f.alice.list.id, [], { activityType: "Appointment", startAt: `${today()}T00:00:00Z`, completed: true, completedAt: stamp, result: "Completed", createdAt: stamp });
  await insertTask(f.alice.list.id, [], { activityType: "Appointment", startAt: `${today()}T00:00:00Z`, createdAt: stamp });
  await insertTask(f.alice.list.id, [], { activityType: "Call", completed: true, completedAt: stamp, result: "Done", createdAt: stamp });
  // A partner who joined this week with 50 a month.
  await createContact(f.alice.list.id, { name: "New, Partner", status: "Partner - Financial", pledgeAmount: "50.0", pledgeFrequency: "1.0", pledgeCurrency: "USD", createdAt: stamp, updatedAt: stamp });
  const previous = addMonths(monthStart(0), -1);
  for (const [createdAt, balance] of [[`${previous}T12:00:00Z`, "1000.0"], [`${monthStart(0)}T12:00:00Z`, "800.0"]]) {
    await db.insert(schema.balances).values({ id: uuid(), designationAccountId: f.fund.id, balance, createdAt, updatedAt: createdAt });
  }
});

describe("GET /api/v2/reports/appointment_results", () => {
  it("counts each week's appointments and new partners, newest first, as mpdx-react asks", async () => {
    const response = await get(`/api/v2/reports/appointment_results?filter[account_list_id]=${f.alice.list.id}&filter[range]=4w`, f.coach.token);
    expect(response.status, response.text).toBe(200);
    const { data, meta } = response.body;
    expect(data.map((period: { id: string }) => period.id)).toEqual([0, 1, 2, 3].map((weeks) => addDays(monday(), -7 * weeks)));
    expect(data[0].type).toBe("reports_appointment_results_periods");
    expect(data[0].attributes).toMatchObject({
      start_date: monday(),
      end_date: addDays(monday(), 6),
      individual_appointments: 1,
      appointments_scheduled: 2,
      weekly_individual_appointment_goal: 10,
      group_appointments: 0,
      new_monthly_partners: 1,
      monthly_increase: 50,
      monthly_decrease: 0,
      new_special_pledges: 0,
      pledge_increase: 0,
      updated_at: null,
    });
    expect(data[1].attributes).toMatchObject({ individual_appointments: 0, new_monthly_partners: 0 });
    expect(meta.filter).toEqual({ account_list_id: f.alice.list.id, range: "4w" });
    expect(meta.averages).toMatchObject({ average_individual_appointments: 0, average_group_appointments: 0, average_monthly_increase: 13 });
  });

  it("takes the mobile client's day and week ranges back from an end date", async () => {
    const response = await get(`/api/v2/reports/appointment_results?filter[account_list_id]=${f.alice.list.id}&filter[range]=1w&filter[end_date]=${today()}`, f.alice.token);
    expect(response.body.data).toHaveLength(1);
    const days = await get(`/api/v2/reports/appointment_results?filter[account_list_id]=${f.alice.list.id}&filter[range]=3d&filter[end_date]=${today()}`, f.alice.token);
    expect(days.body.data.map((period: { id: string }) => period.id)).toEqual([today(), addDays(today(), -1), addDays(today(), -2)]);
  });

  it("refuses a range or end date it cannot read, with a pointer to the parameter", async () => {
    const range = await get(`/api/v2/reports/appointment_results?filter[account_list_id]=${f.alice.list.id}&filter[range]=4x`, f.alice.token);
    expect(errorOf(range, 400).source).toEqual({ parameter: "filter[range]" });
    const end = await get(`/api/v2/reports/appointment_results?filter[account_list_id]=${f.alice.list.id}&filter[end_date]=yesterday`, f.alice.token);
    expect(errorOf(end, 400).source).toEqual({ parameter: "filter[end_date]" });
  });

  it("is not a stranger's", async () => {
    const response = await get(`/api/v2/reports/appointment_results?filter[account_list_id]=${f.alice.list.id}`, f.stranger.token);
    expect(errorOf(response, 404).detail).toBe(`Resource 'AccountList' with id '${f.alice.list.id}' does not exist.`);
  });
});

describe("GET /api/v2/reports/pledge_histories", () => {
  it("answers the monthly pledges at each month's end, as mpdx-react asks (its brackets encoded)", async () => {
    const response = await get(`/api/v2/reports/pledge_histories?filter%5Baccount_list_id%5D=${f.alice.list.id}`, f.coach.token);
    expect(response.status, response.text).toBe(200);
    const { data } = response.body;
    expect(data).toHaveLength(13);
    expect(data[0].id).toBe(monthStart(0));
    expect(data[0].type).toBe("reports_pledge_histories_periods");
    // Jones 100 USD received; Smith 100 CAD a month (80 USD) and the new partner's 50, not received.
    expect(data[0].attributes).toMatchObject({ received: 100, pledged: 130, updated_at: null, updated_in_db_at: null });
    expect(data[0].attributes.start_date).toBe(`${monthStart(0)}T00:00:00Z`);
  });

  it("reads a pledge at a past month's end from the status log recorded after it", async () => {
    // Until last month Jones gave 60 a month, not yet received.
    await db.insert(schema.partnerStatusLogs).values({
      id: uuid(), contactId: f.jones.contact.id, recordedOn: monthStart(0), status: "Partner - Financial", pledgeAmount: "60.0", pledgeFrequency: "1.0", pledgeCurrency: "USD", pledgeReceived: false,
      createdAt: now(), updatedAt: now(),
    });
    // The kept pledges and logs by day agree with their recount.
    await expectKeptSumsExact();
    const response = await get(`/api/v2/reports/pledge_histories?filter[account_list_id]=${f.alice.list.id}&filter[range]=2m`, f.alice.token);
    expect(response.body.data[0].attributes).toMatchObject({ received: 100 });
    expect(response.body.data[1].attributes).toMatchObject({ received: 0, pledged: 140 });
  });
});

describe("GET /api/v2/reports/activity_results", () => {
  it("counts the tasks created in each period by activity and completion", async () => {
    const response = await get(`/api/v2/reports/activity_results?filter[account_list_id]=${f.alice.list.id}`, f.alice.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toHaveLength(4);
    expect(response.body.data[0].attributes).toMatchObject({ completed_appointment: 1, uncompleted_appointment: 1, completed_call: 1, uncompleted_call: 0, completed_to_do: 0, completed_talk_to_in_person: 0 });
    expect(response.body.meta.averages).toMatchObject({ average_completed_call: 0, average_uncompleted_appointment: 0 });
  });
});

describe("GET /api/v2/reports/monthly_losses_graphs/<list id>", () => {
  it("answers how the balances fell month by month", async () => {
    const response = await get(`/api/v2/reports/monthly_losses_graphs/${f.alice.list.id}`, f.coach.token);
    expect(response.status, response.text).toBe(200);
    const { attributes } = response.body.data;
    expect(attributes.losses).toHaveLength(13);
    expect(attributes.losses.at(-1)).toBe(200);
    expect(attributes.losses.slice(0, 11).every((loss: number) => loss === 0)).toBe(true);
    expect(attributes.account_list).toMatchObject({ id: f.alice.list.id, currency: "USD" });
    const names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    expect(attributes.month_names.at(-1)).toBe(`${names[Number(today().slice(5, 7)) - 1]} ${today().slice(0, 4)}`);
  });

  it("refuses a number of months it cannot read, and a list not the viewer's", async () => {
    const bad = await get(`/api/v2/reports/monthly_losses_graphs/${f.alice.list.id}?months=many`, f.alice.token);
    expect(errorOf(bad, 400).source).toEqual({ parameter: "months" });
    const refused = await get(`/api/v2/reports/monthly_losses_graphs/${f.alice.list.id}`, f.stranger.token);
    expect(refused.status).toBe(404);
  });
});
