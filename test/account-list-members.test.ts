/**
 * An account list's team: /account_lists/<id>/users and /coaches list and show the people with that access, and
 * DELETE takes the access away (the user stays); the last user of a list cannot be removed.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { del, errorOf, get } from "./helpers/api";
import { addToList, createUser, createViewer, db, tokenFor } from "./helpers/factories";
import { askInAppeal, excludeFromAppeal, insertAppeal, insertContact } from "./helpers/contact-fixtures";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
let dana: Awaited<ReturnType<typeof createUser>>;
let coach: Awaited<ReturnType<typeof createUser>>;
let coachToken: string;

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  dana = await createUser();
  await addToList(alice.list.id, dana.id, "user");
  coach = await createUser();
  await addToList(alice.list.id, coach.id, "coach");
  coachToken = await tokenFor(coach.id);
});

const base = (segment: string, listId = alice.list.id) => `/api/v2/account_lists/${listId}/${segment}`;
const ids = (body: { data: Array<{ id: string }> }) => body.data.map((row) => row.id).sort();
const membership = (table: typeof schema.accountListUsers | typeof schema.accountListCoaches, userId: string) =>
  db.select().from(table).where(and(eq(table.accountListId, alice.list.id), eq(table.userId, userId)));

describe("an account list's users and coaches", () => {
  it("lists and shows the members of each kind, as users, to anyone on the list", async () => {
    const listed = await get(base("users"), alice.token);
    expect(listed.status, listed.text).toBe(200);
    expect(ids(listed.body)).toEqual([alice.user.id, dana.id].sort());
    expect(listed.body.data[0].type).toBe("users");
    expect(ids((await get(base("coaches"), alice.token)).body)).toEqual([coach.id]);
    expect((await get(base("users"), coachToken)).status).toBe(200);
    const shown = await get(`${base("users")}/${dana.id}`, alice.token);
    expect(shown.body.data).toMatchObject({ id: dana.id, type: "users" });
    // A coach is not a user of the list, and someone else's list is not the viewer's.
    errorOf(await get(`${base("users")}/${coach.id}`, alice.token), 404);
    errorOf(await get(base("users", bob.list.id), alice.token), 403);
  });

  it("removes access, not the user; refuses coaches, strangers and the last user", async () => {
    errorOf(await del(`${base("users")}/${dana.id}`, coachToken), 403);
    errorOf(await del(`${base("users")}/${bob.user.id}`, alice.token), 404);
    errorOf(await del(`${base("users")}/${alice.user.id}`, bob.token), 403);
    expect(await membership(schema.accountListUsers, dana.id)).toHaveLength(1);
    expect((await del(`${base("coaches")}/${coach.id}`, alice.token)).status).toBe(204);
    expect(await membership(schema.accountListCoaches, coach.id)).toEqual([]);
    errorOf(await get(base("users"), coachToken), 403);
    expect((await del(`${base("users")}/${dana.id}`, alice.token)).status).toBe(204);
    expect(await membership(schema.accountListUsers, dana.id)).toEqual([]);
    expect(await db.select().from(schema.users).where(eq(schema.users.id, dana.id))).toHaveLength(1);
    const last = errorOf(await del(`${base("users")}/${alice.user.id}`, alice.token), 403);
    expect(last.detail).toBe("The last user of an account list cannot be removed from it");
    expect(await membership(schema.accountListUsers, alice.user.id)).toHaveLength(1);
  });
});

describe("an appeal's excluded contacts", () => {
  it("can be deleted by a user of the list, which lets the contact be asked again; not by another user", async () => {
    const appeal = await insertAppeal(alice.list.id, "Exclusions");
    const contact = await insertContact(alice.list.id, "Excluded, Ed");
    await excludeFromAppeal(appeal.id, contact.id);
    const path = `/api/v2/appeals/${appeal.id}/excluded_appeal_contacts`;
    const [excluded] = (await get(path, alice.token)).body.data;
    errorOf(await del(`${path}/${excluded.id}`, bob.token), 403);
    expect((await del(`${path}/${excluded.id}`, alice.token)).status).toBe(204);
    expect((await get(path, alice.token)).body.data).toEqual([]);
    await askInAppeal(appeal.id, contact.id);
    expect((await get(`/api/v2/appeals/${appeal.id}/appeal_contacts`, alice.token)).body.data).toHaveLength(1);
  });
});
