import { NOTIFICATION_TYPE_IDS } from "../src/constants/notifications";
import { beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { del, errorOf, get, patch, post, put } from "./helpers/api";
import { addToList, createAccountList, createUser, createViewer, db, timestamps, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
const typeIds = { larger: NOTIFICATION_TYPE_IDS.larger_gift, smaller: NOTIFICATION_TYPE_IDS.smaller_gift, special: NOTIFICATION_TYPE_IDS.special_gift };
let bobPreferenceId: string;

const base = (listId: string) => `/api/v2/account_lists/${listId}/notification_preferences`;
const body = (attributes: Record<string, unknown>, typeId?: string) => ({
  data: {
    type: "notification_preferences",
    attributes,
    ...(typeId ? { relationships: { notification_type: { data: { type: "notification_types", id: typeId } } } } : {}),
  },
});

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  bobPreferenceId = uuid();
  await db.insert(schema.notificationPreferences).values({
    id: bobPreferenceId,
    accountListId: bob.list.id,
    notificationTypeId: typeIds.larger,
    app: true,
    ...timestamps(),
  });
});

async function storedPreference(id: string) {
  const [row] = await db.select().from(schema.notificationPreferences).where(eq(schema.notificationPreferences.id, id));
  return row;
}

describe("notification preferences", () => {
  it("creates one with a client id, answers 201 with Location, the response linkage type and the included type", async () => {
    const id = uuid();
    const response = await post(`${base(alice.list.id)}?include=notification_type`, { data: { ...body({ app: true, email: false, task: true }, typeIds.larger).data, id } }, alice.token);
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get("location")).toBe(`https://api.example.org${base(alice.list.id)}/${id}`);
    expect(response.body.data).toMatchObject({ id, type: "notification_preferences", attributes: { app: true, email: false, task: true } });
    expect(response.body.data.relationships.notification_type.data).toEqual({ type: "notification_type", id: typeIds.larger });
    expect(response.body.data.relationships.account_list.data).toEqual({ type: "account_lists", id: alice.list.id });
    expect(response.body.included[0]).toMatchObject({ id: typeIds.larger, type: "notification_type", attributes: { key: "larger_gift" } });
    expect(await storedPreference(id)).toMatchObject({ app: true, task: true, accountListId: alice.list.id });
  });

  it("refuses a second preference for the same type, a missing type, a reused id and a wrong type", async () => {
    const duplicate = errorOf(await post(base(alice.list.id), body({ app: true }, typeIds.larger), alice.token), 400);
    expect(duplicate.source.pointer).toBe("/data/relationships/notification_type");
    expect(duplicate.detail).toBe("Notification type has already been taken");
    errorOf(await post(base(alice.list.id), body({ app: true }), alice.token), 400);
    const wrongType = errorOf(await post(base(alice.list.id), { data: { type: "tasks", attributes: {} } }, alice.token), 409);
    expect(wrongType.detail).toBe("'tasks' is not a valid resource type for this endpoint. Expected 'notification_preferences' instead");
    const missingType = errorOf(await post(base(alice.list.id), { data: { attributes: {} } }, alice.token), 409);
    expect(missingType.source.pointer).toBe("/data/type");
    const reused = errorOf(await post(base(alice.list.id), { data: { ...body({}, typeIds.special).data, id: bobPreferenceId } }, alice.token), 409);
    expect(reused.source.pointer).toBe("/data/id");
    const fk = errorOf(await post(base(alice.list.id), body({ account_list_id: bob.list.id }, typeIds.special), alice.token), 409);
    expect(fk.source.pointer).toBe("/data/attributes/account_list_id");
    const idAttr = errorOf(await post(base(alice.list.id), body({ id: uuid() }, typeIds.special), alice.token), 409);
    expect(idAttr.source.pointer).toBe("/data/attributes/id");
    const badBool = errorOf(await post(base(alice.list.id), body({ app: "sometimes" }, typeIds.special), alice.token), 400);
    expect(badBool.source.pointer).toBe("/data/attributes/app");
    errorOf(await post(base(alice.list.id), "{not json", alice.token), 400);
    errorOf(await post(base(alice.list.id), { meta: {} }, alice.token), 400);
    const preferences = await db.select().from(schema.notificationPreferences).where(eq(schema.notificationPreferences.accountListId, alice.list.id));
    expect(preferences).toHaveLength(1);
  });

  it("answers simultaneous creates of the same preference with one 201 and a clean refusal, never a 500", async () => {
    const viewer = await createViewer();
    const responses = await Promise.all([1, 2, 3].map(() => post(base(viewer.list.id), body({ app: true }, typeIds.smaller), viewer.token)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses[0]).toBe(201);
    for (const status of statuses.slice(1)) expect([400, 409]).toContain(status);
    const stored = await db.select().from(schema.notificationPreferences).where(eq(schema.notificationPreferences.accountListId, viewer.list.id));
    expect(stored).toHaveLength(1);
  });

  it("lists only the list's preferences; another user's list is 403 and an unknown list 404", async () => {
    const response = await get(base(alice.list.id), alice.token);
    expect(response.body.data).toHaveLength(1);
    expect(response.body.meta.pagination.total_count).toBe(1);
    const forbidden = errorOf(await get(base(bob.list.id), alice.token), 403);
    expect(forbidden.detail).toBe(`Not allowed to perform that action on the resource with ID ${bob.list.id} of type account_lists`);
    const missing = uuid();
    expect(errorOf(await get(base(missing), alice.token), 404).detail).toBe(`Couldn't find AccountList with 'id'=${missing}`);
    errorOf(await get(base(alice.list.id)), 401);
  });

  it("updates with the current updated_in_db_at, refuses a stale or missing one with nothing changed, and honours overwrite", async () => {
    const before = await storedPreference(bobPreferenceId);
    const path = `${base(bob.list.id)}/${bobPreferenceId}`;
    const stale = await put(path, body({ email: true, updated_in_db_at: "2020-01-01 00:00:00 UTC" }), bob.token);
    const error = errorOf(stale, 409);
    expect(error).toEqual({
      status: "409",
      source: { pointer: "/data/attributes/updated_in_db_at" },
      title: `is not equal to the current value in the database (${before.updatedAt})`,
      detail: `Updated in db at is not equal to the current value in the database (${before.updatedAt})`,
      meta: { updated_in_db_at: before.updatedAt },
    });
    errorOf(await put(path, body({ email: true }), bob.token), 409);
    expect(await storedPreference(bobPreferenceId)).toEqual(before);

    const [date, time] = [before.updatedAt.slice(0, 10), before.updatedAt.slice(11, 19)];
    const fresh = await put(path, body({ email: true, updated_in_db_at: `${date} ${time} UTC` }), bob.token);
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.data.attributes).toMatchObject({ email: true, app: true });
    expect(fresh.body.data.attributes.updated_in_db_at).not.toBe(before.updatedAt);

    // The value that was current a moment ago is now stale: two clients holding it cannot both win.
    errorOf(await put(path, body({ task: true, updated_in_db_at: before.updatedAt }), bob.token), 409);
    const forced = await put(path, body({ task: true, overwrite: true }), bob.token);
    expect(forced.status).toBe(200);
    expect((await storedPreference(bobPreferenceId)).task).toBe(true);
  });

  it("refuses to move a preference to a type the list already has, with nothing changed; its own type is fine", async () => {
    const owner = await createViewer();
    const taken = uuid();
    const moving = uuid();
    await db.insert(schema.notificationPreferences).values([
      { id: taken, accountListId: owner.list.id, notificationTypeId: typeIds.smaller, app: true, ...timestamps() },
      { id: moving, accountListId: owner.list.id, notificationTypeId: typeIds.special, app: false, ...timestamps() },
    ]);
    const before = await storedPreference(moving);
    const path = `${base(owner.list.id)}/${moving}`;
    const refused = errorOf(await put(path, body({ app: true, overwrite: true }, typeIds.smaller), owner.token), 400);
    expect(refused).toMatchObject({ detail: "Notification type has already been taken", source: { pointer: "/data/relationships/notification_type" } });
    expect(await storedPreference(moving)).toEqual(before);
    const same = await put(path, body({ app: true, overwrite: true }, typeIds.special), owner.token);
    expect(same.status, same.text).toBe(200);
    expect((await storedPreference(moving)).app).toBe(true);
  });

  it("keeps a preference in the path's list: naming another of the user's lists is refused with nothing changed, the same list is fine", async () => {
    const owner = await createViewer();
    const other = await createAccountList(owner.user);
    const id = uuid();
    await db.insert(schema.notificationPreferences).values({ id, accountListId: owner.list.id, notificationTypeId: typeIds.larger, email: false, ...timestamps() });
    const before = await storedPreference(id);
    const path = `${base(owner.list.id)}/${id}`;
    const naming = (listId: string) => ({ account_list: { data: { type: "account_lists", id: listId } } });
    const withList = (attributes: Record<string, unknown>, listId: string) => ({ data: { type: "notification_preferences", attributes, relationships: naming(listId) } });

    for (const method of [put, patch]) {
      const refused = errorOf(await method(path, withList({ email: true, overwrite: true }, other.id), owner.token), 400);
      expect(refused).toMatchObject({ detail: "Account list must be the account list in the path", source: { pointer: "/data/relationships/account_list" } });
    }
    expect(await storedPreference(id)).toEqual(before);

    // Creating under one list while naming another is refused the same way, and creates nothing in either list.
    const created = errorOf(await post(base(owner.list.id), { data: { ...withList({ app: true }, other.id).data, relationships: { ...naming(other.id), notification_type: { data: { type: "notification_types", id: typeIds.smaller } } } } }, owner.token), 400);
    expect(created.source.pointer).toBe("/data/relationships/account_list");
    const stored = await db.select().from(schema.notificationPreferences).where(inArray(schema.notificationPreferences.accountListId, [owner.list.id, other.id]));
    expect(stored.map((row) => row.id)).toEqual([id]);

    const same = await put(path, withList({ email: true, overwrite: true }, owner.list.id.toUpperCase()), owner.token);
    expect(same.status, same.text).toBe(200);
    expect(same.body.data.relationships.account_list.data).toEqual({ type: "account_lists", id: owner.list.id });
    expect(await storedPreference(id)).toMatchObject({ accountListId: owner.list.id, email: true });
  });

  it("lets exactly one of several concurrent updates holding the same updated_in_db_at win", async () => {
    const current = await storedPreference(bobPreferenceId);
    const path = `${base(bob.list.id)}/${bobPreferenceId}`;
    const responses = await Promise.all(
      [true, false, true, false, true].map((app) => put(path, body({ app, updated_in_db_at: current.updatedAt }), bob.token)),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    const winner = responses.find((r) => r.status === 200)!;
    expect((await storedPreference(bobPreferenceId)).app).toBe(winner.body.data.attributes.app);
  });

  it("applies every one of several concurrent overwrites, none of them refused as stale", async () => {
    const path = `${base(bob.list.id)}/${bobPreferenceId}`;
    const sent = [true, false, true, false, true];
    const responses = await Promise.all(sent.map((app) => put(path, body({ app, overwrite: true }), bob.token)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    responses.forEach((response, n) => expect(response.body.data.attributes.app).toBe(sent[n]));
    // Each write landed on the one before it: the stored stamp is the latest answered.
    const stored = await storedPreference(bobPreferenceId);
    const stamps = responses.map((r) => r.body.data.attributes.updated_in_db_at as string).sort();
    expect(stored.updatedAt).toBe(stamps[stamps.length - 1]);
    expect(new Set(stamps).size).toBe(sent.length);
  });

  it("refuses another user's preference with 403 and leaves it unchanged; 404 for an unknown id", async () => {
    const before = await storedPreference(bobPreferenceId);
    errorOf(await put(`${base(alice.list.id)}/${bobPreferenceId}`, body({ app: false, overwrite: true }), alice.token), 404);
    errorOf(await put(`${base(bob.list.id)}/${bobPreferenceId}`, body({ app: false, overwrite: true }), alice.token), 403);
    errorOf(await del(`${base(bob.list.id)}/${bobPreferenceId}`, alice.token), 403);
    errorOf(await get(`${base(bob.list.id)}/${bobPreferenceId}`, alice.token), 403);
    expect(await storedPreference(bobPreferenceId)).toEqual(before);
    const missing = uuid();
    expect(errorOf(await get(`${base(alice.list.id)}/${missing}`, alice.token), 404).detail).toBe(`Couldn't find NotificationPreference with 'id'=${missing}`);
  });

  it("lets a coach read but not change the list's preferences", async () => {
    const coach = await createUser();
    await addToList(bob.list.id, coach.id, "coach");
    expect((await get(base(bob.list.id), coach.token)).body.data).toHaveLength(1);
    errorOf(await put(`${base(bob.list.id)}/${bobPreferenceId}`, body({ app: false, overwrite: true }), coach.token), 403);
    errorOf(await post(base(bob.list.id), body({ app: true }, typeIds.smaller), coach.token), 403);
  });

  it("deletes with 204 and the record is gone", async () => {
    const response = await del(`${base(bob.list.id)}/${bobPreferenceId}`, bob.token);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await storedPreference(bobPreferenceId)).toBeUndefined();
    errorOf(await get(`${base(bob.list.id)}/${bobPreferenceId}`, bob.token), 404);
  });
});

describe("POST /account_lists/<id>/notification_preferences/bulk", () => {
  it("saves the web app's whole preferences page: updates the preferences the list has and adds the others", async () => {
    const viewer = await createViewer();
    const existing = uuid();
    await db.insert(schema.notificationPreferences).values({ id: existing, accountListId: viewer.list.id, notificationTypeId: typeIds.larger, app: true, email: true, task: true, ...timestamps() });
    const added = uuid();
    const item = (id: string, typeId: string, email: boolean, task: boolean) => ({
      data: { type: "notification_preferences", id, attributes: { email, task }, relationships: { notification_type: { data: { type: "notification_types", id: typeId } } } },
    });
    // As the web app's preferences page posts it.
    const answer = await post(
      `${base(viewer.list.id)}/bulk?fields[notification_preferences]=`,
      { data: [item(existing, typeIds.larger, false, true), item(added, typeIds.special, true, false)] },
      viewer.token,
      { raw: true },
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.map((entry: { data: { id: string } }) => entry.data.id)).toEqual([existing, added]);
    expect(await storedPreference(existing)).toMatchObject({ email: false, task: true, app: true, notificationTypeId: typeIds.larger });
    expect(await storedPreference(added)).toMatchObject({ email: true, task: false, accountListId: viewer.list.id, notificationTypeId: typeIds.special });

    // A stored preference saved beside two new ones of one type: it is saved, the first new one made, the second refused.
    const [third, fourth] = [uuid(), uuid()];
    const mixed = await post(
      `${base(viewer.list.id)}/bulk`,
      { data: [item(existing, typeIds.larger, true, false), item(third, typeIds.smaller, true, true), item(fourth, typeIds.smaller, false, false)] },
      viewer.token,
      { raw: true },
    );
    expect(mixed.status).toBe(200);
    expect(mixed.body[0].data.id).toBe(existing);
    expect(mixed.body[1].data.id).toBe(third);
    expect(mixed.body[2].errors[0]).toMatchObject({ status: "400", detail: "Notification type has already been taken" });
    expect(await storedPreference(existing)).toMatchObject({ email: true, task: false });
    expect(await storedPreference(fourth)).toBeUndefined();
    await db.delete(schema.notificationPreferences).where(eq(schema.notificationPreferences.id, third));

    // Saved again: still two preferences, the values of the second save.
    const again = await post(`${base(viewer.list.id)}/bulk`, { data: [item(existing, typeIds.larger, true, true), item(added, typeIds.special, false, false)] }, viewer.token, { raw: true });
    expect(again.status).toBe(200);
    expect(await db.$count(schema.notificationPreferences, eq(schema.notificationPreferences.accountListId, viewer.list.id))).toBe(2);
    expect(await storedPreference(added)).toMatchObject({ email: false, task: false });
  });

  it("answers each refused item in place and stores nothing of it: another list's preference, a second one of a type, no type", async () => {
    const viewer = await createViewer();
    const stranger = await createViewer();
    const theirs = uuid();
    await db.insert(schema.notificationPreferences).values({ id: theirs, accountListId: stranger.list.id, notificationTypeId: typeIds.larger, email: true, ...timestamps() });
    const mine = uuid();
    const item = (id: string, typeId: string | undefined, email: boolean) => ({
      data: { type: "notification_preferences", id, attributes: { email }, ...(typeId ? { relationships: { notification_type: { data: { type: "notification_types", id: typeId } } } } : {}) },
    });
    const answer = await post(
      `${base(viewer.list.id)}/bulk`,
      { data: [item(mine, typeIds.smaller, true), item(theirs, typeIds.larger, false), item(uuid(), typeIds.smaller, false), item(uuid(), undefined, true)] },
      viewer.token,
      { raw: true },
    );
    expect(answer.status).toBe(200);
    expect(answer.body[0].data.id).toBe(mine);
    expect(answer.body.slice(1).map((entry: { errors: Array<{ status: string }> }) => entry.errors[0].status)).toEqual(["403", "400", "400"]);
    expect((await storedPreference(theirs)).email).toBe(true);
    expect(await db.$count(schema.notificationPreferences, eq(schema.notificationPreferences.accountListId, viewer.list.id))).toBe(1);
    // Another user's list is not the viewer's to save into.
    expect((await post(`${base(stranger.list.id)}/bulk`, { data: [item(uuid(), typeIds.special, true)] }, viewer.token)).status).toBe(403);
  });
});
