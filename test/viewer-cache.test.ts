/**
 * The per-isolate viewer cache, switched on for this file by calling the app with VIEWER_CACHE_SECONDS set
 * (the rest of the suite runs with it off).
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { app } from "../src/index";
import { addToList, createAccountList, createUser, createViewer, db, timestamps, tokenFor, uuid } from "./helpers/factories";

async function call(method: string, path: string, token: string, body?: unknown) {
  const response = await app.fetch(
    new Request(`https://api.example.org${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, Accept: "application/vnd.api+json", ...(body ? { "Content-Type": "application/vnd.api+json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }),
    { ...env, VIEWER_CACHE_SECONDS: "60" },
    createExecutionContext(),
  );
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as { data: Array<{ id: string }>; errors?: Array<{ detail: string }> } };
}

afterEach(() => {
  vi.useRealTimers();
});

const listIds = (response: { body: { data: Array<{ id: string }> } }) => response.body.data.map((l) => l.id).sort();

describe("viewer cache", () => {
  it("remembers a user's lists for the configured seconds, so a change made behind the API shows later", async () => {
    const { user, list, token } = await createViewer();
    expect(listIds(await call("GET", "/api/v2/account_lists", token))).toEqual([list.id]);
    const other = await createUser();
    const shared = await createAccountList(other);
    await addToList(shared.id, user.id, "user");
    // Written straight to the database: this isolate still remembers the old lists.
    expect(listIds(await call("GET", "/api/v2/account_lists", token))).toEqual([list.id]);
  });

  it("forgets the user as soon as they accept an invite through the API", async () => {
    const { list, token } = await createViewer();
    expect(listIds(await call("GET", "/api/v2/account_lists", token))).toEqual([list.id]);
    const owner = await createViewer();
    const inviteId = uuid();
    const code = "d".repeat(64);
    await db.insert(schema.accountListInvites).values({ id: inviteId, accountListId: owner.list.id, invitedByUserId: owner.user.id, code, recipientEmail: "x@example.org", inviteUserAs: "user", ...timestamps() });
    const accepted = await call("PUT", `/api/v2/account_lists/${owner.list.id}/invites/${inviteId}/accept`, token, {
      data: { type: "account_list_invites", attributes: { code } },
    });
    expect(accepted.status).toBe(200);
    expect(listIds(await call("GET", "/api/v2/account_lists", token))).toEqual([list.id, owner.list.id].sort());
  });

  it("still verifies every token and never remembers an unknown user", async () => {
    const { user, token } = await createViewer();
    expect((await call("GET", "/api/v2/account_lists", token)).status).toBe(200);
    const expired = await tokenFor(user.id, -10);
    expect((await call("GET", "/api/v2/account_lists", expired)).status).toBe(401);
    const unknown = await tokenFor(uuid());
    expect((await call("GET", "/api/v2/account_lists", unknown)).status).toBe(401);
  });

  it("lets a sign-out or a disabling made through another isolate wait at most the configured seconds, one through this isolate not at all", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.UTC(2026, 8, 1, 9);
    vi.setSystemTime(start);
    const signedOut = await createViewer();
    const disabled = await createViewer();
    for (const { token } of [signedOut, disabled]) expect((await call("GET", "/api/v2/account_lists", token)).status).toBe(200);
    // Written as another isolate writes them: this one still remembers both users as they were.
    await db.update(schema.users).set({ tokenGeneration: 1 }).where(eq(schema.users.id, signedOut.user.id));
    await db.update(schema.users).set({ disabledAt: "2026-09-01T09:00:00Z" }).where(eq(schema.users.id, disabled.user.id));
    vi.setSystemTime(start + 59_000);
    for (const { token } of [signedOut, disabled]) expect((await call("GET", "/api/v2/account_lists", token)).status).toBe(200);
    vi.setSystemTime(start + 60_000);
    expect((await call("GET", "/api/v2/account_lists", signedOut.token)).body.errors?.[0].detail).toBe("The access token was signed out: sign in again");
    expect((await call("GET", "/api/v2/account_lists", disabled.token)).body.errors?.[0].detail).toBe("The access token's user is disabled");

    const here = await createViewer();
    expect((await call("GET", "/api/v2/account_lists", here.token)).status).toBe(200);
    expect((await call("DELETE", "/api/v2/user/authenticate", here.token)).status).toBe(204);
    expect((await call("GET", "/api/v2/account_lists", here.token)).status).toBe(401);
  });
});
