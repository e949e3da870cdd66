import { beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { del, errorOf, get, post, put, request } from "./helpers/api";
import { addToList, createUser, createViewer, db, timestamps, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
let coach: Awaited<ReturnType<typeof createUser>>;
const CODE = "a".repeat(64);
const ids = { pendingUser: uuid(), pendingCoach: uuid(), cancelled: uuid(), bobs: uuid() };

const base = (listId: string) => `/api/v2/account_lists/${listId}/invites`;
const body = (attributes: Record<string, unknown>) => ({ data: { type: "account_list_invites", attributes } });
const acceptPath = (listId: string, id: string) => `${base(listId)}/${id}/accept`;

async function storedInvite(id: string) {
  const [row] = await db.select().from(schema.accountListInvites).where(eq(schema.accountListInvites.id, id));
  return row;
}

async function memberships(table: typeof schema.accountListUsers | typeof schema.accountListCoaches, listId: string, userId: string) {
  return db.select().from(table).where(and(eq(table.accountListId, listId), eq(table.userId, userId)));
}

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  coach = await createUser();
  await addToList(alice.list.id, coach.id, "coach");
  const invite = (id: string, values: Partial<typeof schema.accountListInvites.$inferInsert>, offset: number) => ({
    id,
    accountListId: alice.list.id,
    invitedByUserId: alice.user.id,
    code: CODE,
    recipientEmail: "friend@example.org",
    ...timestamps(offset),
    ...values,
  });
  for (const row of [
    invite(ids.pendingUser, { inviteUserAs: "user" }, 10),
    invite(ids.pendingCoach, { inviteUserAs: "coach", code: "b".repeat(64) }, 20),
    invite(ids.cancelled, { cancelledByUserId: alice.user.id }, 30),
    { ...invite(ids.bobs, {}, 40), accountListId: bob.list.id, invitedByUserId: bob.user.id },
  ]) {
    await db.insert(schema.accountListInvites).values(row);
  }
});

describe("creating invites", () => {
  it("creates an invite with a server-made 64-hex code, the viewer as inviter, 201 and Location", async () => {
    const response = await post(
      `${base(alice.list.id)}?include=invited_by_user`,
      body({ invite_user_as: "coach", recipient_email: "  new.coach@example.org ", code: "mine", accepted_at: "2020-01-01" }),
      alice.token,
    );
    expect(response.status, response.text).toBe(201);
    const invite = response.body.data;
    expect(response.headers.get("location")).toBe(`https://api.example.org${base(alice.list.id)}/${invite.id}`);
    expect(invite.type).toBe("account_list_invites");
    expect(invite.attributes).toMatchObject({ invite_user_as: "coach", recipient_email: "new.coach@example.org", accepted_at: null });
    expect(invite.attributes.code).toMatch(/^[0-9a-f]{64}$/);
    expect(invite.relationships).toEqual({
      accepted_by_user: { data: null },
      cancelled_by_user: { data: null },
      invited_by_user: { data: { type: "users", id: alice.user.id } },
    });
    expect(response.body.included).toEqual([expect.objectContaining({ type: "users", id: alice.user.id })]);
    expect(await storedInvite(invite.id)).toMatchObject({ accountListId: alice.list.id, invitedByUserId: alice.user.id, code: invite.attributes.code });
    const another = await post(base(alice.list.id), body({ invite_user_as: "user", recipient_email: "x@example.org" }), alice.token);
    expect(another.body.data.attributes.code).not.toBe(invite.attributes.code);
    // The web app's invite form sends only the e-mail address: the invite makes a user, the original's default.
    for (const attributes of [{ recipient_email: "default.role@example.org" }, { recipient_email: "blank.role@example.org", invite_user_as: "" }]) {
      const defaulted = await post(base(alice.list.id), body(attributes), alice.token);
      expect(defaulted.status, defaulted.text).toBe(201);
      expect(defaulted.body.data.attributes.invite_user_as).toBe("user");
      expect(await storedInvite(defaulted.body.data.id)).toMatchObject({ inviteUserAs: "user" });
    }
  });

  it("refuses missing or bad attributes, wrong types, coaches and strangers, creating nothing", async () => {
    const before = (await db.select().from(schema.accountListInvites)).length;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ invite_user_as: "admin", recipient_email: "a@example.org" }, "/data/attributes/invite_user_as", "Invite user as is not included in the list"],
      [{ invite_user_as: "user" }, "/data/attributes/recipient_email", "Recipient email can't be blank"],
      [{ invite_user_as: "user", recipient_email: "not-an-email" }, "/data/attributes/recipient_email", "Recipient email is invalid"],
      [{ invite_user_as: "user", recipient_email: "a@b" }, "/data/attributes/recipient_email", "Recipient email is invalid"],
      [{ invite_user_as: "user", recipient_email: 42 }, "/data/attributes/recipient_email", "Recipient email is invalid"],
    ];
    for (const [attributes, pointer, detail] of cases) {
      const error = errorOf(await post(base(alice.list.id), body(attributes), alice.token), 400);
      expect([error.source.pointer, error.detail]).toEqual([pointer, detail]);
    }
    const valid = body({ invite_user_as: "user", recipient_email: "a@example.org" });
    const wrongType = errorOf(await post(base(alice.list.id), { data: { type: "invites", attributes: valid.data.attributes } }, alice.token), 409);
    expect(wrongType.detail).toBe("'invites' is not a valid resource type for this endpoint. Expected 'account_list_invites' instead");
    errorOf(await post(base(alice.list.id), body({ ...valid.data.attributes, account_list_id: bob.list.id }), alice.token), 409);
    const asCoach = errorOf(await post(base(alice.list.id), valid, coach.token), 403);
    expect(asCoach.detail).toBe(`Not allowed to perform that action on the resource with ID ${alice.list.id} of type account_lists`);
    errorOf(await post(base(bob.list.id), valid, alice.token), 403);
    const missing = uuid();
    expect(errorOf(await post(base(missing), valid, alice.token), 404).detail).toBe(`Couldn't find AccountList with 'id'=${missing}`);
    errorOf(await post(base(alice.list.id), valid), 401);
    expect((await db.select().from(schema.accountListInvites)).length).toBe(before);
  });
});

describe("reading invites", () => {
  it("lists only pending invites, filters by invite_user_as and pages", async () => {
    const response = await get(base(alice.list.id), alice.token);
    expect(response.status, response.text).toBe(200);
    const listed = response.body.data.map((i: { id: string }) => i.id);
    expect(listed.slice(0, 2)).toEqual([ids.pendingUser, ids.pendingCoach]);
    expect(listed).not.toContain(ids.cancelled);
    expect(listed).not.toContain(ids.bobs);
    const coaches = await get(`${base(alice.list.id)}?filter[invite_user_as]=coach`, alice.token);
    expect(coaches.body.data.every((i: { attributes: { invite_user_as: string } }) => i.attributes.invite_user_as === "coach")).toBe(true);
    expect(coaches.body.data[0].id).toBe(ids.pendingCoach);
    expect(coaches.body.meta.filter).toEqual({ invite_user_as: "coach" });
    const page = await get(`${base(alice.list.id)}?per_page=1&page=2`, alice.token);
    expect(page.body.data.map((i: { id: string }) => i.id)).toEqual([ids.pendingCoach]);
    expect(page.body.meta.pagination.per_page).toBe(1);
  });

  it("shows one invite; refuses coaches and strangers (403), unknown ids (404) and anonymous requests (401)", async () => {
    const one = await get(`${base(alice.list.id)}/${ids.pendingUser}?fields[account_list_invites]=recipient_email,invite_user_as`, alice.token);
    expect(one.body.data.attributes).toEqual({ recipient_email: "friend@example.org", invite_user_as: "user" });
    errorOf(await get(base(alice.list.id), coach.token), 403);
    errorOf(await get(`${base(alice.list.id)}/${ids.pendingUser}`, coach.token), 403);
    errorOf(await get(base(bob.list.id), alice.token), 403);
    errorOf(await get(`${base(bob.list.id)}/${ids.bobs}`, alice.token), 403);
    const missing = uuid();
    expect(errorOf(await get(`${base(alice.list.id)}/${missing}`, alice.token), 404).detail).toBe(`Couldn't find AccountListInvite with 'id'=${missing}`);
    errorOf(await get(`${base(alice.list.id)}/${ids.bobs}`, alice.token), 404);
    errorOf(await get(base(alice.list.id)), 401);
  });
});

describe("cancelling invites", () => {
  it("refuses coaches, strangers and unknown ids with nothing changed", async () => {
    const before = await storedInvite(ids.pendingCoach);
    errorOf(await del(`${base(alice.list.id)}/${ids.pendingCoach}`, coach.token), 403);
    errorOf(await del(`${base(alice.list.id)}/${ids.pendingCoach}`, bob.token), 403);
    errorOf(await del(`${base(bob.list.id)}/${ids.bobs}`, alice.token), 403);
    errorOf(await del(`${base(alice.list.id)}/${uuid()}`, alice.token), 404);
    errorOf(await del(`${base(alice.list.id)}/${ids.pendingCoach}`), 401);
    expect(await storedInvite(ids.pendingCoach)).toEqual(before);
  });

  it("cancels with 204: the invite leaves the list, stays readable with its canceller, and cannot be accepted", async () => {
    const created = await post(base(alice.list.id), body({ invite_user_as: "user", recipient_email: "later@example.org" }), alice.token);
    const id = created.body.data.id;
    const response = await del(`${base(alice.list.id)}/${id}`, alice.token);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect((await storedInvite(id)).cancelledByUserId).toBe(alice.user.id);
    const listed = (await get(base(alice.list.id), alice.token)).body.data.map((i: { id: string }) => i.id);
    expect(listed).not.toContain(id);
    const shown = await get(`${base(alice.list.id)}/${id}`, alice.token);
    expect(shown.body.data.relationships.cancelled_by_user.data).toEqual({ type: "users", id: alice.user.id });
    expect((await del(`${base(alice.list.id)}/${id}`, alice.token)).status).toBe(204);
    const stranger = await createUser();
    const gone = errorOf(await put(acceptPath(alice.list.id, id), body({ code: created.body.data.attributes.code }), stranger.token), 410);
    expect(gone.detail).toBe("This invite has been cancelled");
    expect(await memberships(schema.accountListUsers, alice.list.id, stranger.id)).toEqual([]);
  });
});

describe("cancelling accepted invites", () => {
  it("records the canceller on an accepted invite, keeping its acceptance and the access it gave; a later cancel keeps the first canceller", async () => {
    const created = await post(base(alice.list.id), body({ invite_user_as: "user", recipient_email: "joined@example.org" }), alice.token);
    const { id, attributes } = created.body.data;
    const carol = await createUser();
    expect((await put(acceptPath(alice.list.id, id), body({ code: attributes.code }), carol.token)).status).toBe(200);
    const accepted = await storedInvite(id);

    const response = await del(`${base(alice.list.id)}/${id}`, alice.token);
    expect(response.status).toBe(204);
    const cancelled = await storedInvite(id);
    expect(cancelled).toMatchObject({ cancelledByUserId: alice.user.id, acceptedAt: accepted.acceptedAt, acceptedByUserId: carol.id });
    const shown = await get(`${base(alice.list.id)}/${id}`, alice.token);
    expect(shown.body.data.relationships).toMatchObject({
      cancelled_by_user: { data: { type: "users", id: alice.user.id } },
      accepted_by_user: { data: { type: "users", id: carol.id } },
    });
    expect(shown.body.data.attributes.accepted_at).toBe(accepted.acceptedAt);
    expect(await memberships(schema.accountListUsers, alice.list.id, carol.id)).toHaveLength(1);
    expect((await get(`/api/v2/account_lists/${alice.list.id}`, carol.token)).status).toBe(200);

    // Carol, now a user of the list, cancels it again: harmless, and Alice stays the canceller.
    expect((await del(`${base(alice.list.id)}/${id}`, carol.token)).status).toBe(204);
    expect(await storedInvite(id)).toEqual(cancelled);
  });
});

describe("accepting invites", () => {
  it("refuses a blank, missing or wrong code with 400, and a cancelled invite with 410, changing nothing", async () => {
    const carol = await createUser();
    const before = await storedInvite(ids.pendingUser);
    for (const attributes of [{ code: "" }, {}, { code: null }]) {
      const error = errorOf(await put(acceptPath(alice.list.id, ids.pendingUser), body(attributes), carol.token), 400);
      expect(error).toMatchObject({ detail: "Code can't be blank", source: { pointer: "/data/attributes/code" } });
    }
    const wrong = errorOf(await put(acceptPath(alice.list.id, ids.pendingUser), body({ code: "b".repeat(64) }), carol.token), 400);
    expect(wrong).toMatchObject({ detail: "Code is not valid for this invite", source: { pointer: "/data/attributes/code" } });
    errorOf(await put(acceptPath(alice.list.id, ids.cancelled), body({ code: CODE }), carol.token), 410);
    errorOf(await put(acceptPath(alice.list.id, ids.pendingUser), { data: { type: "users", attributes: { code: CODE } } }, carol.token), 409);
    errorOf(await put(acceptPath(alice.list.id, ids.pendingUser), body({ code: CODE })), 401);
    expect(await storedInvite(ids.pendingUser)).toEqual(before);
    expect(await memberships(schema.accountListUsers, alice.list.id, carol.id)).toEqual([]);
  });

  it("answers 404 for an invite of another list, an unknown invite or an unknown list", async () => {
    const carol = await createUser();
    const wrongList = errorOf(await put(acceptPath(bob.list.id, ids.pendingUser), body({ code: CODE }), carol.token), 404);
    expect(wrongList.detail).toBe(`Couldn't find AccountListInvite with 'id'=${ids.pendingUser}`);
    errorOf(await put(acceptPath(alice.list.id, uuid()), body({ code: CODE }), carol.token), 404);
    errorOf(await put(acceptPath(uuid(), ids.pendingUser), body({ code: CODE }), carol.token), 404);
  });

  it("makes a non-member a user of the list; accepting again is harmless; someone else then gets 410", async () => {
    const carol = await createUser();
    errorOf(await get(`/api/v2/account_lists/${alice.list.id}`, carol.token), 403);
    const response = await put(acceptPath(alice.list.id, ids.pendingUser), body({ code: CODE }), carol.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.id).toBe(ids.pendingUser);
    expect(response.body.data.attributes.accepted_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(response.body.data.relationships.accepted_by_user.data).toEqual({ type: "users", id: carol.id });
    expect(await storedInvite(ids.pendingUser)).toMatchObject({ acceptedByUserId: carol.id, cancelledByUserId: null });
    expect(await memberships(schema.accountListUsers, alice.list.id, carol.id)).toHaveLength(1);
    expect((await get(`/api/v2/account_lists/${alice.list.id}`, carol.token)).status).toBe(200);
    const listed = (await get(base(alice.list.id), alice.token)).body.data.map((i: { id: string }) => i.id);
    expect(listed).not.toContain(ids.pendingUser);

    const again = await request("PATCH", acceptPath(alice.list.id, ids.pendingUser), { token: carol.token, body: body({ code: CODE }) });
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.attributes.accepted_at).toBe(response.body.data.attributes.accepted_at);
    expect(await memberships(schema.accountListUsers, alice.list.id, carol.id)).toHaveLength(1);

    const dave = await createUser();
    const gone = errorOf(await put(acceptPath(alice.list.id, ids.pendingUser), body({ code: CODE }), dave.token), 410);
    expect(gone.detail).toBe("This invite has already been accepted by another user");
    expect(await memberships(schema.accountListUsers, alice.list.id, dave.id)).toEqual([]);
  });

  it("makes the accepting user a coach for a coach invite", async () => {
    const erin = await createUser();
    const response = await put(acceptPath(alice.list.id, ids.pendingCoach), body({ code: "b".repeat(64) }), erin.token);
    expect(response.status, response.text).toBe(200);
    expect(await memberships(schema.accountListCoaches, alice.list.id, erin.id)).toHaveLength(1);
    expect(await memberships(schema.accountListUsers, alice.list.id, erin.id)).toEqual([]);
    expect((await get(`/api/v2/account_lists/${alice.list.id}`, erin.token)).status).toBe(200);
    errorOf(await put(`/api/v2/account_lists/${alice.list.id}`, { data: { type: "account_lists", attributes: { name: "x", overwrite: true } } }, erin.token), 403);
  });

  it("lets exactly one of two people racing for the same invite in", async () => {
    const created = await post(base(alice.list.id), body({ invite_user_as: "user", recipient_email: "race@example.org" }), alice.token);
    const { id, attributes } = created.body.data;
    const [first, second] = [await createUser(), await createUser()];
    const responses = await Promise.all([first, second].map((u) => put(acceptPath(alice.list.id, id), body({ code: attributes.code }), u.token)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 410]);
    const members = await Promise.all([first, second].map((u) => memberships(schema.accountListUsers, alice.list.id, u.id)));
    expect(members.map((m) => m.length).sort()).toEqual([0, 1]);
  });
});
