/**
 * Contact filters about giving: gifts of the contact's donor accounts to its list, and the pledge history.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { errorOf, get } from "./helpers/api";
import { createViewer, db, timestamps, uuid } from "./helpers/factories";
import { expectFilter, givingTo, insertContact, insertStatusLog, listedNames } from "./helpers/contact-fixtures";

let token: string;
let designationB: string;
let organizationA: string;
let organizationB: string;

beforeAll(async () => {
  const viewer = await createViewer();
  token = viewer.token;
  const listId = viewer.list.id;
  const giving = await givingTo(listId);
  organizationA = giving.organization.id;
  const monthly = { pledgeFrequency: "1.0" };
  const regular = await insertContact(listId, "Give, Regular", { pledgeAmount: "100.0", ...monthly });
  const fresh = await insertContact(listId, "Give, New", { pledgeAmount: "50.0", ...monthly });
  const once = await insertContact(listId, "Give, Once");
  const never = await insertContact(listId, "Give, Never");
  const generous = await insertContact(listId, "Give, Generous", { pledgeAmount: "10.0", ...monthly });
  const quarterly = await insertContact(listId, "Give, Quarterly", { pledgeAmount: "300.0", pledgeFrequency: "3.0" });
  for (const date of ["2025-10-05", "2025-11-05", "2025-12-05", "2026-01-05"]) await giving.give(regular.id, "100.0", date);
  await giving.give(fresh.id, "50.0", "2026-02-10");
  await giving.give(fresh.id, "80.0", "2026-03-10");
  const second = { id: uuid(), accountListId: listId, name: "Second Fund", ...timestamps() };
  await db.insert(schema.designationAccounts).values(second);
  designationB = second.id;
  await giving.give(once.id, "25.0", "2025-06-01", { designationAccountId: designationB });
  await giving.give(generous.id, "500.0", "2026-01-15");
  await giving.give(quarterly.id, "150.0", "2026-01-20");
  // A donor account at another organization, without gifts.
  organizationB = uuid();
  await db.insert(schema.organizations).values({ id: organizationB, name: "Other Org", ...timestamps() });
  const account = uuid();
  await db.insert(schema.donorAccounts).values({ id: account, organizationId: organizationB, accountNumber: "X-1", ...timestamps() });
  await db.insert(schema.contactDonorAccounts).values({ id: uuid(), contactId: never.id, donorAccountId: account, ...timestamps() });
  // A gift of the same donor account to another list is not this list's gift.
  const { list: otherList } = await createViewer();
  const otherGiving = await givingTo(otherList.id);
  await db.insert(schema.donations).values({
    id: uuid(),
    accountListId: otherList.id,
    designationAccountId: otherGiving.designation.id,
    donorAccountId: await giving.donorAccountOf(once.id),
    amount: "7.0",
    currency: "USD",
    donationDate: "2026-01-10",
    ...timestamps(),
  });
  // Pledge history: Regular went from 50 to 100 a month in January; New from 50 a month to 33.33.
  await insertStatusLog(regular.id, "2025-09-01", { pledgeAmount: "50.0", pledgeFrequency: "1.0" });
  await insertStatusLog(regular.id, "2026-01-10", { pledgeAmount: "100.0", pledgeFrequency: "1.0" });
  await insertStatusLog(fresh.id, "2026-01-05", { pledgeAmount: "600.0", pledgeFrequency: "12.0" });
  await insertStatusLog(fresh.id, "2026-01-20", { pledgeAmount: "100.0", pledgeFrequency: "3.0" });
  await insertStatusLog(generous.id, "2026-01-12", { pledgeAmount: "10.0", pledgeFrequency: "1.0" });
});

const GIVERS = ["Give, Generous", "Give, New", "Give, Once", "Give, Quarterly", "Give, Regular"];

describe("gifts", () => {
  it("donation: none, one, first and last (with the donation_date range)", async () => {
    await expectFilter(token, "filter[donation]=none", ["Give, Never"]);
    await expectFilter(token, "filter[donation]=one", GIVERS);
    await expectFilter(token, "filter[donation]=first", GIVERS);
    expect(await listedNames(token, "filter[donation]=first&filter[donation_date]=2026-02-01..2026-02-28")).toEqual(["Give, New"]);
    expect(await listedNames(token, "filter[donation]=first&filter[donation_date]=2026-01-01..2026-01-31")).toEqual(["Give, Generous", "Give, Quarterly"]);
    expect(await listedNames(token, "filter[donation]=last&filter[donation_date]=01/01/2026 - 01/31/2026")).toEqual(["Give, Generous", "Give, Quarterly", "Give, Regular"]);
    expect(await listedNames(token, "filter[donation]=none,one")).toEqual([]);
  });

  it("donation_amount and donation_amount_range (both ends included)", async () => {
    await expectFilter(token, "filter[donation_amount]=100", ["Give, Regular"]);
    await expectFilter(token, "filter[donation_amount]=25.00,80", ["Give, New", "Give, Once"]);
    await expectFilter(token, "filter[donation_amount]=7", []);
    await expectFilter(token, "filter[donation_amount_range][min]=100&filter[donation_amount_range][max]=150", ["Give, Quarterly", "Give, Regular"]);
    await expectFilter(token, "filter[donation_amount_range][max]=25", ["Give, Once"]);
    await expectFilter(token, "filter[donation_amount_range][min]=499.99", ["Give, Generous"]);
    await expectFilter(token, `filter[donation_amount_range]=${encodeURIComponent('{"min":80,"max":80}')}`, ["Give, New"]);
    const bad = errorOf(await get(`/api/v2/contacts?filter[donation_amount_range][min]=many`, token), 400);
    expect(bad).toMatchObject({ detail: "Filter 'donation_amount_range' min must be a decimal number", source: { parameter: "filter[donation_amount_range]" } });
  });

  it("donation_date: the picker's MM/DD/YYYY - MM/DD/YYYY and the usual forms, at their boundaries", async () => {
    await expectFilter(token, "filter[donation_date]=2026-01-05..2026-01-15", ["Give, Generous", "Give, Regular"]);
    await expectFilter(token, "filter[donation_date]=2026-01-05...2026-01-15", ["Give, Regular"]);
    await expectFilter(token, "filter[donation_date]=01/15/2026 - 01/20/2026", ["Give, Generous", "Give, Quarterly"]);
    await expectFilter(token, "filter[donation_date]=1/20/2026-1/20/2026", ["Give, Quarterly"]);
    await expectFilter(token, "filter[donation_date]=2026-01-10", []);
    const bad = errorOf(await get(`/api/v2/contacts?filter[donation_date]=01/40/2026 - 02/01/2026`, token), 400);
    expect(bad.detail).toBe(
      "Wrong format of date range for filter 'donation_date', should follow 'YYYY-MM-DD...YYYY-MM-DD' for dates and 'YYYY-MM-DDThh:mm:ssZ...YYYY-MM-DDThh:mm:ssZ' for datetimes",
    );
  });

  it("designation_account_id and organization_id", async () => {
    await expectFilter(token, `filter[designation_account_id]=${designationB}`, ["Give, Once"]);
    await expectFilter(token, `filter[organization_id]=${organizationB}`, ["Give, Never"]);
    await expectFilter(token, `filter[organization_id]=${organizationA},${organizationB}`, [...GIVERS, "Give, Never"]);
  });
});

describe("giving over time", () => {
  it("started_giving_range: contacts with a pledge whose first gift falls in the range", async () => {
    await expectFilter(token, "filter[started_giving_range]=2026-02-01..2026-02-28", ["Give, New"]);
    await expectFilter(token, "filter[started_giving_range]=2026-01-01..2026-01-31", ["Give, Generous", "Give, Quarterly"]);
    await expectFilter(token, "filter[started_giving_range]=2025-01-01..2025-12-31", ["Give, Regular"]);
  });

  it("stopped_giving_range: the latest gift in the range after at least three in the ten months before its end", async () => {
    await expectFilter(token, "filter[stopped_giving_range]=2026-01-01..2026-01-31", ["Give, Regular"]);
    await expectFilter(token, "filter[stopped_giving_range]=2026-01-06..2026-01-31", []);
    errorOf(await get(`/api/v2/contacts?filter[stopped_giving_range]=soon`, token), 400);
  });

  it("gave_more_than_pledged_range: gifts of the months touched exceed the monthly pledge times the months", async () => {
    await expectFilter(token, "filter[gave_more_than_pledged_range]=2026-01-01..2026-01-31", ["Give, Generous", "Give, Quarterly"]);
    await expectFilter(token, "filter[gave_more_than_pledged_range]=2026-02-15..2026-03-01", ["Give, New"]);
    await expectFilter(token, "filter[gave_more_than_pledged_range]=2025-10-01..2026-01-31", ["Give, Generous"]);
  });

  it("pledge_amount_increased_range: the monthly pledge at the end of the range exceeds the one before it", async () => {
    await expectFilter(token, "filter[pledge_amount_increased_range]=2026-01-01..2026-01-31", ["Give, Regular"]);
    await expectFilter(token, "filter[pledge_amount_increased_range]=2026-01-11..2026-01-31", []);
    await expectFilter(token, "filter[pledge_amount_increased_range]=2026-01-10", ["Give, Regular"]);
  });
});

describe("blank filter values", () => {
  it("a blank value of any contact filter is no filter, reversed or not; a bad one is still 400", async () => {
    const everyone = await listedNames(token, "");
    expect(everyone.length).toBeGreaterThan(GIVERS.length);
    const names = [
      "started_giving_range",
      "stopped_giving_range",
      "gave_more_than_pledged_range",
      "pledge_amount_increased_range",
      "donation_amount_range",
      "donation_date",
      "address_lat_lng",
      "created_at",
      "updated_at",
      "late_at",
      "next_ask",
      "birthday",
      "anniversary",
      "task_due_date",
    ];
    for (const name of names) {
      for (const blank of ["", "%20", ",%20,"]) {
        const query = `filter[${name}]=${blank}`;
        expect(await listedNames(token, query), query).toEqual(everyone);
        expect(await listedNames(token, `${query}&filter[reverse_${name}]=true`), `reverse of ${query}`).toEqual(everyone);
      }
    }
    const blankParts = "filter[address_lat_lng][ne][lat]=&filter[address_lat_lng][sw][lng]=&filter[donation_amount_range][min]=";
    expect(await listedNames(token, blankParts)).toEqual(everyone);
    for (const [name, value] of [
      ["started_giving_range", "soon"],
      ["donation_amount_range", "lots"],
      ["address_lat_lng", "1,2"],
      ["birthday", "June"],
    ]) {
      expect(errorOf(await get(`/api/v2/contacts?filter[${name}]=${value}`, token), 400).source).toEqual({ parameter: `filter[${name}]` });
    }
  });
});
