import { NOTIFICATION_TYPE_IDS } from "../src/constants/notifications";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { errorOf, get, patch, put, request } from "./helpers/api";
import { addToList, createAccountList, createUser, createViewer, db, timestamps, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
let coach: Awaited<ReturnType<typeof createUser>>;
let spare: { id: string };
const org = { salary: uuid(), other: uuid() };
const ids = { bobAppeal: uuid(), spareAppeal: uuid(), aliceAppeal: uuid(), aliceOrgAccount: uuid(), preference: uuid(), notificationType: NOTIFICATION_TYPE_IDS.special_gift };

const path = (id: string) => `/api/v2/account_lists/${id}`;
const body = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type: "account_lists", attributes, ...(relationships ? { relationships } : {}) },
});
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function storedList(id: string) {
  const [row] = await db.select().from(schema.accountLists).where(eq(schema.accountLists.id, id));
  return row;
}

beforeAll(async () => {
  await db.insert(schema.organizations).values([
    { id: org.salary, name: "Salary Org", ...timestamps(1) },
    { id: org.other, name: "Other Org", ...timestamps(2) },
  ]);
  alice = await createViewer({
    currency: "CAD",
    monthlyGoal: "1000",
    salaryOrganizationId: org.salary,
    activeMpdStartAt: day(-20),
    activeMpdFinishAt: day(10),
    lastPrayerLetterAt: "2026-01-15T10:00:00Z",
  });
  bob = await createViewer();
  spare = await createAccountList(alice.user, { name: "Spare", currency: "USD" });
  coach = await createUser();
  await addToList(alice.list.id, coach.id, "coach");
  await db.insert(schema.currencyRates).values([
    { code: "CAD", rate: "1.25", updatedAt: "2026-01-01T00:00:00Z" },
    { code: "EUR", rate: "0.8", updatedAt: "2026-01-01T00:00:00Z" },
  ]);
  const partner = (name: string, values: Partial<typeof schema.contacts.$inferInsert>) => ({
    id: uuid(),
    accountListId: alice.list.id,
    name,
    status: "Partner - Financial",
    ...timestamps(),
    ...values,
  });
  // One row per statement: D1 allows 100 bound parameters.
  for (const contact of [
    partner("Monthly USD", { pledgeAmount: "100", pledgeCurrency: "USD", pledgeFrequency: "1.0", pledgeReceived: true }),
    partner("Quarterly EUR", { pledgeAmount: "30", pledgeCurrency: "EUR", pledgeFrequency: "3.0" }),
    partner("Weekly list currency", { pledgeAmount: "60", pledgeFrequency: "0.23076923076923", pledgeReceived: true }),
    partner("No rate", { pledgeAmount: "10", pledgeCurrency: "gbp", pledgeFrequency: "1.0" }),
    partner("No frequency", { pledgeAmount: "12.34", pledgeCurrency: "CAD" }),
    partner("No amount", { pledgeFrequency: "1.0", pledgeReceived: true }),
    partner("Praying", { status: "Partner - Pray", pledgeAmount: "500", pledgeCurrency: "USD", pledgeFrequency: "1.0", pledgeReceived: true }),
    { ...partner("Other list", { pledgeAmount: "999", pledgeFrequency: "1.0" }), accountListId: bob.list.id },
  ]) {
    await db.insert(schema.contacts).values(contact);
  }
  const account = (values: Partial<typeof schema.designationAccounts.$inferInsert>) => ({ id: uuid(), accountListId: alice.list.id, ...timestamps(), ...values });
  await db.insert(schema.designationAccounts).values([
    account({ currency: "USD", balance: "200", staffAccountId: "S1", organizationId: org.other }),
    account({ currency: "CAD", balance: "100.5", staffAccountId: "S1", organizationId: org.salary }),
    account({ currency: "EUR", balance: "1000", staffAccountId: "S2", organizationId: org.salary, active: false }),
    account({ currency: "EUR", balance: "50.01", organizationId: org.salary }),
    account({ balance: "0.33" }),
    account({ currency: "USD", balance: "5000", accountListId: bob.list.id, staffAccountId: "B1" }),
  ]);
  await db.insert(schema.appeals).values([
    { id: ids.bobAppeal, accountListId: bob.list.id, name: "Bob's appeal", ...timestamps() },
    { id: ids.spareAppeal, accountListId: spare.id, name: "Spare appeal", ...timestamps() },
    { id: ids.aliceAppeal, accountListId: alice.list.id, name: "Alice's appeal", ...timestamps() },
  ]);
  await db.insert(schema.organizationAccounts).values({ id: ids.aliceOrgAccount, userId: alice.user.id, organizationId: org.other, username: "alice", ...timestamps() });
  await db.insert(schema.notificationPreferences).values({ id: ids.preference, accountListId: alice.list.id, notificationTypeId: ids.notificationType, ...timestamps() });
});

describe("GET /api/v2/account_lists/<id>", () => {
  it("answers the computed money exactly, converted into the list's currency and rounded once to cents", async () => {
    const response = await get(path(alice.list.id), alice.token);
    expect(response.status, response.text).toBe(200);
    const attributes = response.body.data.attributes;
    // Monthly pledges in CAD: 100 USD = 125; 30 EUR / 3 = 10 EUR = 15.625; 60 / 0.23076923076923 = 260.00000000000085;
    // 10 GBP (no rate: 1) = 12.5; 12.34 CAD (no frequency: monthly). Sum 425.46500000000085 -> 425.47.
    expect(attributes.committed).toBe("425.47");
    expect(attributes.total_pledges).toBe("425.47");
    // Received: 125 + 260.00000000000085.
    expect(attributes.received).toBe("385.0");
    // Active balances in CAD: 200 USD = 250; 100.5 CAD; 50.01 EUR = 78.140625; 0.33 (list currency). Inactive left out.
    expect(attributes.balance).toBe("428.97");
    // Salary organization accounts only: 100.5 + 78.140625.
    expect(attributes.salary_balance).toBe("178.64");
    expect(attributes.progress).toEqual({
      monthly_goal: "1000.0",
      in_hand_percent: 38.5,
      pledged_percent: 42.5,
      received_pledges: "385.0",
      salary_balance: "178.64",
      balance: "428.97",
      total_pledges: "425.47",
    });
    expect(attributes).toMatchObject({
      name: alice.list.name,
      currency: "CAD",
      default_currency: "USD",
      monthly_goal: "1000.0",
      weeks_on_mpd: 2,
      staff_account_ids: ["S1", "S2"],
      salary_organization: org.salary,
      last_prayer_letter_at: "2026-01-15T10:00:00Z",
      tester: false,
      home_country: null,
      active_mpd_start_at: day(-20),
      active_mpd_finish_at: day(10),
      active_mpd_monthly_goal: null,
    });
    expect(attributes.updated_in_db_at).toBe(attributes.updated_at);
    const relationships = response.body.data.relationships;
    expect(relationships.users.data).toEqual([{ type: "users", id: alice.user.id }]);
    expect(relationships.coaches.data).toEqual([{ type: "users", id: coach.id }]);
    expect(relationships.notification_preferences.data).toEqual([{ type: "notification_preferences", id: ids.preference }]);
    expect(relationships.organization_accounts.data).toEqual([{ type: "organization_accounts", id: ids.aliceOrgAccount }]);
    expect(relationships.primary_appeal.data).toBeNull();
  });

  it("answers zero totals and null percentages for a list without pledges, balances or goal", async () => {
    const response = await get(path(bob.list.id), bob.token);
    const attributes = response.body.data.attributes;
    expect(attributes).toMatchObject({ committed: "999.0", received: "0.0", balance: "5000.0", salary_balance: "0.0", weeks_on_mpd: 0, staff_account_ids: ["B1"] });
    expect(attributes.progress).toEqual({
      monthly_goal: null,
      in_hand_percent: null,
      pledged_percent: null,
      received_pledges: "0.0",
      salary_balance: "0.0",
      balance: "5000.0",
      total_pledges: "999.0",
    });
    const empty = (await get(path(spare.id), alice.token)).body.data.attributes;
    expect(empty).toMatchObject({ committed: "0.0", balance: "0.0", staff_account_ids: [], weeks_on_mpd: 0 });
  });

  it("counts no weeks once the fundraising period has finished", async () => {
    await db.update(schema.accountLists).set({ activeMpdStartAt: day(-30), activeMpdFinishAt: day(0) }).where(eq(schema.accountLists.id, spare.id));
    expect((await get(path(spare.id), alice.token)).body.data.attributes.weeks_on_mpd).toBe(0);
    await db.update(schema.accountLists).set({ activeMpdFinishAt: day(1) }).where(eq(schema.accountLists.id, spare.id));
    expect((await get(path(spare.id), alice.token)).body.data.attributes.weeks_on_mpd).toBe(4);
  });

  it("includes users and coaches, answering other people's preferences as null", async () => {
    const response = await get(`${path(alice.list.id)}?include=users,coaches,organization_accounts.organization`, alice.token);
    const included = response.body.included as Array<{ type: string; id: string; attributes: Record<string, unknown> }>;
    const me = included.find((r) => r.id === alice.user.id)!;
    const theCoach = included.find((r) => r.id === coach.id)!;
    expect(me.type).toBe("users");
    expect(me.attributes.preferences).toMatchObject({ default_account_list: alice.list.id, time_zone: "UTC" });
    expect(theCoach.attributes.first_name).toBe(coach.firstName);
    expect(theCoach.attributes.preferences).toBeNull();
    expect(included.find((r) => r.type === "organization_accounts")).toMatchObject({ id: ids.aliceOrgAccount, attributes: { username: "alice" } });
    expect(included.find((r) => r.type === "organizations")).toMatchObject({ id: org.other, attributes: { name: "Other Org", oauth: false, api_class: null } });
  });

  it("never includes, nor links to, the other lists of the people it shows", async () => {
    const busyCoach = await createUser();
    const coachesOwnList = await createAccountList(busyCoach, { name: "The coach's own list" });
    await addToList(alice.list.id, busyCoach.id, "coach");
    const response = await get(`${path(alice.list.id)}?include=coaches.account_lists,users.account_lists`, alice.token);
    expect(response.status).toBe(200);
    const included = response.body.included as Array<{ type: string; id: string; relationships?: Record<string, { data: unknown }> }>;
    expect(included.filter((r) => r.type === "account_lists").map((r) => r.id)).not.toContain(coachesOwnList.id);
    const theCoach = included.find((r) => r.id === busyCoach.id)!;
    expect(theCoach.relationships!.account_lists.data).toEqual([]);
    const bobsView = await get(`${path(bob.list.id)}?include=users.account_lists`, bob.token);
    expect(JSON.stringify(bobsView.body)).not.toContain(alice.list.id);
  });

  it("keeps only the asked fields", async () => {
    const response = await get(`${path(alice.list.id)}?fields[account_lists]=name,committed`, alice.token);
    expect(response.body.data.attributes).toEqual({ name: alice.list.name, committed: "425.47" });
    expect(response.body.data.relationships).toBeUndefined();
    // Totals read one shared selection of the list's groups: each alone still has what it needs (the list's
    // currency, the monthly goal) without its neighbours.
    const balances = await get(`${path(alice.list.id)}?fields[account_lists]=salary_balance`, alice.token);
    expect(balances.body.data.attributes).toEqual({ salary_balance: "178.64" });
    const progress = await get(`${path(alice.list.id)}?fields[account_lists]=progress`, alice.token);
    expect(progress.body.data.attributes.progress).toMatchObject({ monthly_goal: "1000.0", pledged_percent: 42.5, balance: "428.97" });
  });

  it("lets a coach read; refuses others' lists with 403, unknown ids with 404, and needs a token", async () => {
    expect((await get(path(alice.list.id), coach.token)).body.data.attributes.committed).toBe("425.47");
    expect(errorOf(await get(path(bob.list.id), alice.token), 403).detail).toBe(
      `Not allowed to perform that action on the resource with ID ${bob.list.id} of type account_lists`,
    );
    const missing = uuid();
    expect(errorOf(await get(path(missing), alice.token), 404).detail).toBe(`Couldn't find AccountList with 'id'=${missing}`);
    expect(errorOf(await get(path("not-a-uuid"), alice.token), 404).detail).toBe("Route not found");
    errorOf(await get(path(alice.list.id)), 401);
  });
});

describe("GET /api/v2/account_lists", () => {
  it("lists the lists the viewer may read, with paging and sorting", async () => {
    const response = await get("/api/v2/account_lists", alice.token);
    expect(response.body.data.map((l: { id: string }) => l.id)).toEqual([alice.list.id, spare.id]);
    expect(response.body.meta).toEqual({ pagination: { page: 1, per_page: 25, total_count: 2, total_pages: 1 }, sort: null, filter: {} });
    const coached = await get("/api/v2/account_lists", coach.token);
    expect(coached.body.data.map((l: { id: string }) => l.id)).toEqual([alice.list.id]);
    const sorted = await get("/api/v2/account_lists?sort=-created_at&per_page=1&page=1", alice.token);
    expect(sorted.body.data.map((l: { id: string }) => l.id)).toEqual([spare.id]);
    expect(sorted.body.meta.pagination).toEqual({ page: 1, per_page: 1, total_count: 2, total_pages: 2 });
    expect(sorted.body.data[0].attributes.committed).toBe("0.0");
    const bad = errorOf(await get("/api/v2/account_lists?sort=name", alice.token), 400);
    expect(bad.detail).toBe("Sorting by name is not supported for this endpoint.");
    const viaOverride = await request("POST", "/api/v2/account_lists", {
      token: alice.token,
      headers: { "X-HTTP-Method-Override": "GET" },
      body: { per_page: 1, page: 2 },
    });
    expect(viaOverride.body.data.map((l: { id: string }) => l.id)).toEqual([spare.id]);
    errorOf(await get("/api/v2/account_lists"), 401);
  });

  it("has no create or delete", async () => {
    errorOf(await request("POST", "/api/v2/account_lists", { token: alice.token, body: body({ name: "New" }) }), 405);
    const deletion = await request("DELETE", path(spare.id), { token: alice.token });
    errorOf(deletion, 405);
    expect(deletion.headers.get("allow")).toContain("PUT");
    expect(await storedList(spare.id)).toBeDefined();
  });
});

describe("PUT /api/v2/account_lists/<id>", () => {
  it("updates the writable attributes and relationships", async () => {
    const before = await storedList(spare.id);
    const response = await put(
      path(spare.id),
      body(
        {
          name: "Renamed",
          currency: "eur",
          home_country: "Canada",
          monthly_goal: 1500.5,
          tester: true,
          active_mpd_start_at: "2026-02-01",
          active_mpd_finish_at: "2026-08-01",
          active_mpd_monthly_goal: "250.25",
          salary_organization: org.other,
          committed: "999",
          updated_in_db_at: before.updatedAt,
        },
        { primary_appeal: { data: { type: "appeals", id: ids.spareAppeal } } },
      ),
      alice.token,
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.attributes).toMatchObject({
      name: "Renamed",
      currency: "EUR",
      home_country: "Canada",
      monthly_goal: "1500.5",
      tester: true,
      active_mpd_start_at: "2026-02-01",
      active_mpd_finish_at: "2026-08-01",
      active_mpd_monthly_goal: "250.25",
      salary_organization: org.other,
      committed: "0.0",
    });
    expect(response.body.data.relationships.primary_appeal.data).toEqual({ type: "appeals", id: ids.spareAppeal });
    expect(await storedList(spare.id)).toMatchObject({ currency: "EUR", monthlyGoal: "1500.5", primaryAppealId: ids.spareAppeal, salaryOrganizationId: org.other });
  });

  it("accepts the salary organization as a relationship, and clears it and the primary appeal with null", async () => {
    const response = await patch(
      path(spare.id),
      body({ overwrite: true }, { salary_organization: { data: { type: "organizations", id: org.salary } }, primary_appeal: { data: null } }),
      alice.token,
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.attributes.salary_organization).toBe(org.salary);
    expect(response.body.data.relationships.primary_appeal.data).toBeNull();
    const cleared = await put(path(spare.id), body({ overwrite: true, salary_organization: null }), alice.token);
    expect(cleared.body.data.attributes.salary_organization).toBeNull();
  });

  it("refuses invalid values with pointers and changes nothing", async () => {
    const before = await storedList(spare.id);
    const cases: Array<[Record<string, unknown>, string, string, Record<string, unknown>?]> = [
      [{ currency: "XYZ" }, "/data/attributes/currency", "Currency is not included in the list"],
      [{ currency: "" }, "/data/attributes/currency", "Currency can't be blank"],
      [{ name: "" }, "/data/attributes/name", "Name can't be blank"],
      [{ monthly_goal: "lots" }, "/data/attributes/monthly_goal", "Monthly goal is not a number"],
      [{ active_mpd_start_at: "2026-02-30" }, "/data/attributes/active_mpd_start_at", "Active mpd start at is not a valid date"],
      [{ tester: "sometimes" }, "/data/attributes/tester", "Tester must be true or false"],
      [{ salary_organization: "nope" }, "/data/attributes/salary_organization", "Salary organization must be the id of an organization"],
      [{ salary_organization: uuid() }, "/data/attributes/salary_organization", "Salary organization must be an existing organization"],
      [{}, "/data/relationships/primary_appeal", "Primary appeal must belong to the same account list", { primary_appeal: { data: { type: "appeals", id: ids.aliceAppeal } } }],
      [{}, "/data/relationships/salary_organization", "Salary organization must be an existing organization", { salary_organization: { data: { type: "organizations", id: uuid() } } }],
    ];
    for (const [attributes, pointer, detail, relationships] of cases) {
      const error = errorOf(await put(path(spare.id), body({ ...attributes, name: attributes.name ?? "Changed", overwrite: true }, relationships), alice.token), 400);
      expect([error.source.pointer, error.detail]).toEqual([pointer, detail]);
    }
    const othersAppeal = errorOf(await put(path(spare.id), body({ overwrite: true }, { primary_appeal: { data: { type: "appeals", id: ids.bobAppeal } } }), alice.token), 403);
    expect(othersAppeal.detail).toBe(`Not allowed to perform that action on the resource with ID ${ids.bobAppeal} of type appeals`);
    const unknownAppeal = uuid();
    const missing = errorOf(await put(path(spare.id), body({ overwrite: true }, { primary_appeal: { data: { type: "appeals", id: unknownAppeal } } }), alice.token), 404);
    expect(missing.detail).toBe(`Couldn't find Appeal with 'id'=${unknownAppeal}`);
    const appealType = errorOf(await put(path(spare.id), body({ overwrite: true }, { primary_appeal: { data: { type: "contacts", id: ids.spareAppeal } } }), alice.token), 409);
    expect(appealType.source.pointer).toBe("/data/relationships/primary_appeal/data/type");
    const organizationType = errorOf(await put(path(spare.id), body({ overwrite: true }, { salary_organization: { data: { type: "users", id: org.other } } }), alice.token), 409);
    expect(organizationType.source.pointer).toBe("/data/relationships/salary_organization/data/type");
    errorOf(await put(path(spare.id), body({ overwrite: true }, { salary_organization: { id: org.other } }), alice.token), 400);
    const wrongType = errorOf(await put(path(spare.id), { data: { type: "users", attributes: { overwrite: true } } }, alice.token), 409);
    expect(wrongType.detail).toBe("'users' is not a valid resource type for this endpoint. Expected 'account_lists' instead");
    errorOf(await put(path(spare.id), body({ overwrite: true, salary_organization_id: org.salary }), alice.token), 409);
    errorOf(await put(path(spare.id), { data: { type: "account_lists", id: alice.list.id, attributes: { overwrite: true } } }, alice.token), 409);
    expect(await storedList(spare.id)).toEqual(before);
  });

  it("refuses a stale or missing updated_in_db_at with nothing changed and honours overwrite", async () => {
    const before = await storedList(spare.id);
    const stale = errorOf(await put(path(spare.id), body({ name: "Stale", updated_in_db_at: "2020-01-01T00:00:00Z" }), alice.token), 409);
    expect(stale.meta).toEqual({ updated_in_db_at: before.updatedAt });
    expect(stale.detail).toBe(`Updated in db at is not equal to the current value in the database (${before.updatedAt})`);
    errorOf(await put(path(spare.id), body({ name: "Missing" }), alice.token), 409);
    expect(await storedList(spare.id)).toEqual(before);
    const forced = await put(path(spare.id), body({ name: "Forced", overwrite: true }), alice.token);
    expect(forced.body.data.attributes.name).toBe("Forced");
  });

  it("refuses coaches and other users with 403 and unknown lists with 404, changing nothing", async () => {
    const before = await storedList(alice.list.id);
    const asCoach = errorOf(await put(path(alice.list.id), body({ name: "Coach", overwrite: true }), coach.token), 403);
    expect(asCoach.detail).toBe(`Not allowed to perform that action on the resource with ID ${alice.list.id} of type account_lists`);
    errorOf(await put(path(alice.list.id), body({ name: "Bob", overwrite: true }), bob.token), 403);
    errorOf(await put(path(alice.list.id), body({ name: "Anon", overwrite: true })), 401);
    expect(await storedList(alice.list.id)).toEqual(before);
    errorOf(await put(path(uuid()), body({ name: "Nobody", overwrite: true }), alice.token), 404);
  });
});
