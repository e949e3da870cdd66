import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { errorOf, get, patch, put, request } from "./helpers/api";
import { addToList, createAccountList, createUser, createViewer, db, timestamps, uuid } from "./helpers/factories";

let viewer: Awaited<ReturnType<typeof createViewer>>;
let other: Awaited<ReturnType<typeof createViewer>>;
let coachedListId: string;
const personId = uuid();
const masterPersonId = uuid();
const details = { email: uuid(), phone: uuid(), facebook: uuid(), linkedin: uuid(), twitter: uuid(), website: uuid(), family: uuid(), relative: uuid() };

const body = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ data: { type: "users", attributes, ...extra } });

async function storedUser() {
  const [row] = await db.select().from(schema.users).where(eq(schema.users.id, viewer.user.id));
  return row;
}

beforeAll(async () => {
  viewer = await createViewer();
  other = await createViewer();
  coachedListId = (await createAccountList(other.user)).id;
  await addToList(coachedListId, viewer.user.id, "coach");
  await db.insert(schema.people).values([
    { id: personId, firstName: "Vera", ...timestamps(1) },
    { id: details.relative, firstName: "Rex", ...timestamps(2) },
  ]);
  await db.insert(schema.masterPeople).values({ id: masterPersonId, createdAt: "2020-02-03T04:05:06Z", updatedAt: "2021-03-04T05:06:07Z" });
  await db.update(schema.users).set({ personId, masterPersonId, birthdayMonth: 4, birthdayDay: 9, tabOrders: "a,b" }).where(eq(schema.users.id, viewer.user.id));
  await db.insert(schema.emailAddresses).values({ id: details.email, personId, email: "vera@example.org", ...timestamps(3) });
  await db.insert(schema.phoneNumbers).values({ id: details.phone, personId, number: "555-0100", ...timestamps(4) });
  await db.insert(schema.facebookAccounts).values({ id: details.facebook, personId, username: "vera", ...timestamps(5) });
  await db.insert(schema.linkedinAccounts).values({ id: details.linkedin, personId, publicUrl: "https://example.org/in/vera", ...timestamps(6) });
  await db.insert(schema.twitterAccounts).values({ id: details.twitter, personId, screenName: "vera", ...timestamps(7) });
  await db.insert(schema.websites).values({ id: details.website, personId, url: "https://vera.example.org", ...timestamps(8) });
  await db.insert(schema.familyRelationships).values({ id: details.family, personId, relatedPersonId: details.relative, relationship: "Son", ...timestamps(9) });
});

describe("GET /api/v2/user", () => {
  it("answers the signed-in user with every attribute, the preferences object and the relationships", async () => {
    const response = await get("/api/v2/user", viewer.token);
    expect(response.status, response.text).toBe(200);
    const user = response.body.data;
    expect(user.id).toBe(viewer.user.id);
    expect(user.type).toBe("users");
    expect(user.attributes).toMatchObject({
      first_name: viewer.user.firstName,
      last_name: "Tester",
      birthday_month: 4,
      birthday_day: 9,
      birthday_year: null,
      deceased: false,
      optout_enewsletter: false,
      parent_contacts: [],
      created_at: viewer.user.createdAt,
    });
    expect(user.attributes.updated_in_db_at).toBe(user.attributes.updated_at);
    expect(user.attributes.preferences).toEqual({
      contacts_filter: null,
      contacts_view_options: null,
      default_account_list: viewer.list.id,
      locale: null,
      locale_display: null,
      setup: false,
      tab_orders: "a,b",
      tasks_filter: null,
      time_zone: "UTC",
      hour_to_send_notifications: null,
    });
    const relationships = user.relationships;
    expect(relationships.account_lists.data).toEqual([{ type: "account_lists", id: viewer.list.id }]);
    expect(relationships.email_addresses.data).toEqual([{ type: "email_addresses", id: details.email }]);
    expect(relationships.phone_numbers.data).toEqual([{ type: "phone_numbers", id: details.phone }]);
    expect(relationships.facebook_accounts.data).toEqual([{ type: "facebook_accounts", id: details.facebook }]);
    expect(relationships.linkedin_accounts.data).toEqual([{ type: "linkedin_accounts", id: details.linkedin }]);
    expect(relationships.twitter_accounts.data).toEqual([{ type: "twitter_accounts", id: details.twitter }]);
    expect(relationships.websites.data).toEqual([{ type: "websites", id: details.website }]);
    expect(relationships.family_relationships.data).toEqual([{ type: "family_relationships", id: details.family }]);
    // As the interface answers it: the identifier also carries the master person's timestamps.
    expect(relationships.master_person.data).toEqual({ type: "master_people", id: masterPersonId, created_at: "2020-02-03T04:05:06Z", updated_at: "2021-03-04T05:06:07Z" });
    // The web app asks for it by include: the master person is included, with its timestamps.
    const included = await get("/api/v2/user?include=master_person", viewer.token);
    expect(included.body.included).toEqual([
      { type: "master_people", id: masterPersonId, attributes: { created_at: "2020-02-03T04:05:06Z", updated_at: "2021-03-04T05:06:07Z", updated_in_db_at: "2021-03-04T05:06:07Z" } },
    ]);
  });

  it("links a master person it holds no record of, without timestamps", async () => {
    const unknown = uuid();
    const lone = await createViewer();
    await db.update(schema.users).set({ masterPersonId: unknown }).where(eq(schema.users.id, lone.user.id));
    const response = await get("/api/v2/user?include=master_person", lone.token);
    expect(response.status).toBe(200);
    expect(response.body.data.relationships.master_person.data).toEqual({ type: "master_people", id: unknown, created_at: null, updated_at: null });
    expect(response.body.included).toEqual([]);
  });

  it("answers empty relationships for a user without a person", async () => {
    const response = await get("/api/v2/user", other.token);
    expect(response.body.data.relationships.email_addresses.data).toEqual([]);
    expect(response.body.data.relationships.master_person.data).toBeNull();
    expect(response.body.data.relationships.account_lists.data).toEqual([
      { type: "account_lists", id: other.list.id },
      { type: "account_lists", id: coachedListId },
    ]);
  });

  it("includes the user's account lists and keeps sparse fieldsets", async () => {
    const response = await get("/api/v2/user?include=account_lists&fields[users]=first_name,account_lists&fields[account_lists]=name", viewer.token);
    expect(response.body.data.attributes).toEqual({ first_name: viewer.user.firstName });
    expect(Object.keys(response.body.data.relationships)).toEqual(["account_lists"]);
    expect(response.body.included).toEqual([{ type: "account_lists", id: viewer.list.id, attributes: { name: viewer.list.name } }]);
  });

  it("needs a token", async () => {
    errorOf(await get("/api/v2/user"), 401);
    errorOf(await get("/api/v2/user", "not-a-token"), 401);
  });

  it("has no create or delete", async () => {
    const response = await request("DELETE", "/api/v2/user", { token: viewer.token });
    errorOf(response, 405);
    expect(response.headers.get("allow")).toContain("GET");
    errorOf(await request("POST", "/api/v2/user", { token: viewer.token, body: body({ first_name: "X" }) }), 405);
  });
});

describe("PUT /api/v2/user", () => {
  it("updates the sent attributes with the current updated_in_db_at and leaves the others", async () => {
    const before = await storedUser();
    const response = await put("/api/v2/user", body({ first_name: "Veronica", occupation: "Pilot", anniversary_year: 2001, deceased: false, updated_in_db_at: before.updatedAt }), viewer.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ first_name: "Veronica", occupation: "Pilot", anniversary_year: 2001, last_name: "Tester" });
    expect(response.body.data.attributes.updated_in_db_at).not.toBe(before.updatedAt);
    const after = await storedUser();
    expect(after).toMatchObject({ firstName: "Veronica", occupation: "Pilot", anniversaryYear: 2001, lastName: "Tester", birthdayMonth: 4 });
    expect(after.updatedAt).toBe(response.body.data.attributes.updated_in_db_at);
  });

  it("refuses a stale or missing updated_in_db_at with nothing changed, and honours overwrite (PATCH too)", async () => {
    const before = await storedUser();
    const stale = errorOf(await put("/api/v2/user", body({ first_name: "Stale", updated_in_db_at: "2020-01-01 00:00:00 UTC" }), viewer.token), 409);
    expect(stale).toEqual({
      status: "409",
      source: { pointer: "/data/attributes/updated_in_db_at" },
      title: `is not equal to the current value in the database (${before.updatedAt})`,
      detail: `Updated in db at is not equal to the current value in the database (${before.updatedAt})`,
      meta: { updated_in_db_at: before.updatedAt },
    });
    errorOf(await put("/api/v2/user", body({ first_name: "Missing", preferences: { locale: "de" } }), viewer.token), 409);
    expect(await storedUser()).toEqual(before);
    const forced = await patch("/api/v2/user", body({ last_name: "Forced", overwrite: true }), viewer.token);
    expect(forced.status, forced.text).toBe(200);
    expect((await storedUser()).lastName).toBe("Forced");
  });

  it("writes preferences partially: only the keys sent change", async () => {
    const response = await put(
      "/api/v2/user",
      body({ overwrite: true, preferences: { time_zone: "America/New_York", hour_to_send_notifications: 7, setup: true, locale: "fr_ca", unknown_key: "x" } }),
      viewer.token,
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.attributes.preferences).toEqual({
      contacts_filter: null,
      contacts_view_options: null,
      default_account_list: viewer.list.id,
      locale: "fr_ca",
      locale_display: null,
      setup: true,
      tab_orders: "a,b",
      tasks_filter: null,
      time_zone: "America/New_York",
      hour_to_send_notifications: 7,
    });
    const second = await put(
      "/api/v2/user",
      body({ overwrite: true, preferences: { hour_to_send_notifications: null, default_account_list: coachedListId, contacts_filter: "{\"status\":\"active\"}" } }),
      viewer.token,
    );
    expect(second.body.data.attributes.preferences).toMatchObject({
      hour_to_send_notifications: null,
      default_account_list: coachedListId,
      contacts_filter: "{\"status\":\"active\"}",
      time_zone: "America/New_York",
      locale: "fr_ca",
    });
    expect(await storedUser()).toMatchObject({ timeZone: "America/New_York", defaultAccountListId: coachedListId, hourToSendNotifications: null, setup: true });
  });

  it("stores the web client's display locale, sent alone as its Locale page sends it, and answers it", async () => {
    // The AngularJS client's PUT: the user's id and the one preference changed (src/preferences/personal/locale).
    const response = await put("/api/v2/user", { data: { type: "users", id: viewer.user.id, attributes: { overwrite: true, preferences: { locale_display: "en-nz" } } } }, viewer.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.attributes.preferences.locale_display).toBe("en-nz");
    expect((await storedUser()).localeDisplay).toBe("en-nz");
    const read = await get("/api/v2/user", viewer.token);
    expect(read.body.data.attributes.preferences).toMatchObject({ locale_display: "en-nz", time_zone: (await storedUser()).timeZone });
    const bad = await put("/api/v2/user", body({ overwrite: true, preferences: { locale_display: { alias: "en-nz" } } }), viewer.token);
    expect(errorOf(bad, 400).source).toEqual({ pointer: "/data/attributes/preferences/locale_display" });
    expect((await storedUser()).localeDisplay).toBe("en-nz");
  });

  it("refuses bad preferences, pointing at each key, with nothing changed", async () => {
    const before = await storedUser();
    const response = await put(
      "/api/v2/user",
      body({
        overwrite: true,
        first_name: "Changed",
        preferences: { hour_to_send_notifications: 24, time_zone: "Mars/Olympus_Mons", default_account_list: other.list.id, setup: "maybe", locale: "de" },
      }),
      viewer.token,
    );
    expect(response.status).toBe(400);
    const errors = response.body.errors.map((e: { source: { pointer: string }; detail: string }) => [e.source.pointer, e.detail]);
    expect(errors).toEqual([
      ["/data/attributes/preferences/hour_to_send_notifications", "Hour to send notifications must be less than or equal to 23"],
      ["/data/attributes/preferences/time_zone", "Time zone is not a valid time zone"],
      ["/data/attributes/preferences/default_account_list", "Default account list must be one of the user's account lists"],
      ["/data/attributes/preferences/setup", "Setup must be true or false"],
    ]);
    for (const [key, value, detail] of [
      ["hour_to_send_notifications", -1, "Hour to send notifications must be greater than or equal to 0"],
      ["hour_to_send_notifications", 2.5, "Hour to send notifications must be an integer"],
      ["time_zone", "", "Time zone can't be blank"],
      ["default_account_list", uuid(), "Default account list must be one of the user's account lists"],
      ["tasks_filter", { a: 1 }, "Tasks filter must be a string"],
    ] as const) {
      const error = errorOf(await put("/api/v2/user", body({ overwrite: true, preferences: { [key]: value } }), viewer.token), 400);
      expect(error.source.pointer).toBe(`/data/attributes/preferences/${key}`);
      expect(error.detail).toBe(detail);
    }
    const notObject = errorOf(await put("/api/v2/user", body({ overwrite: true, preferences: "UTC" }), viewer.token), 400);
    expect(notObject.source.pointer).toBe("/data/attributes/preferences");
    expect(await storedUser()).toEqual(before);
  });

  it("refuses bad attributes and bad documents with nothing changed", async () => {
    const before = await storedUser();
    const blank = errorOf(await put("/api/v2/user", body({ overwrite: true, first_name: " " }), viewer.token), 400);
    expect(blank).toMatchObject({ title: "can't be blank", detail: "First name can't be blank", source: { pointer: "/data/attributes/first_name" } });
    const month = errorOf(await put("/api/v2/user", body({ overwrite: true, birthday_month: 13 }), viewer.token), 400);
    expect(month.source.pointer).toBe("/data/attributes/birthday_month");
    const flag = errorOf(await put("/api/v2/user", body({ overwrite: true, deceased: "perhaps" }), viewer.token), 400);
    expect(flag.source.pointer).toBe("/data/attributes/deceased");
    const wrongType = errorOf(await put("/api/v2/user", { data: { type: "contacts", attributes: { first_name: "X", overwrite: true } } }, viewer.token), 409);
    expect(wrongType.detail).toBe("'contacts' is not a valid resource type for this endpoint. Expected 'users' instead");
    errorOf(await put("/api/v2/user", body({ overwrite: true, first_name: "X" }, { id: other.user.id }), viewer.token), 409);
    const foreignKey = errorOf(await put("/api/v2/user", body({ overwrite: true, default_account_list_id: other.list.id }), viewer.token), 409);
    expect(foreignKey.source.pointer).toBe("/data/attributes/default_account_list_id");
    errorOf(await put("/api/v2/user", "{oops", viewer.token), 400);
    errorOf(await put("/api/v2/user", body({ overwrite: true, first_name: "X" })), 401);
    expect(await storedUser()).toEqual(before);
  });

  it("refuses null or an empty string for a boolean attribute or the setup preference, with nothing changed", async () => {
    await db.update(schema.users).set({ deceased: true, setup: true }).where(eq(schema.users.id, viewer.user.id));
    const before = await storedUser();
    for (const value of [null, ""]) {
      const deceased = errorOf(await put("/api/v2/user", body({ overwrite: true, deceased: value }), viewer.token), 400);
      expect(deceased).toEqual({
        status: "400",
        title: "must be true or false",
        detail: "Deceased must be true or false",
        source: { pointer: "/data/attributes/deceased" },
      });
      const setup = errorOf(await put("/api/v2/user", body({ overwrite: true, preferences: { setup: value } }), viewer.token), 400);
      expect(setup).toMatchObject({ detail: "Setup must be true or false", source: { pointer: "/data/attributes/preferences/setup" } });
    }
    expect(await storedUser()).toEqual(before);
  });

  it("accepts its own id in the body and ignores read-only attributes", async () => {
    const response = await put("/api/v2/user", body({ overwrite: true, parent_contacts: ["x"], created_at: "2000-01-01", title: "Dr." }, { id: viewer.user.id }), viewer.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ parent_contacts: [], created_at: viewer.user.createdAt, title: "Dr." });
  });

  it("never touches another user's row", async () => {
    const [before] = await db.select().from(schema.users).where(eq(schema.users.id, other.user.id));
    await put("/api/v2/user", body({ overwrite: true, first_name: "Mine" }), viewer.token);
    const [after] = await db.select().from(schema.users).where(eq(schema.users.id, other.user.id));
    expect(after).toEqual(before);
    const someone = await createUser({ firstName: "Solo" });
    const response = await get("/api/v2/user", someone.token);
    expect(response.body.data.attributes.first_name).toBe("Solo");
    expect(response.body.data.relationships.account_lists.data).toEqual([]);
  });
});
