/**
 * The per-isolate viewer cache, switched on for this file by calling the app with VIEWER_CACHE_SECONDS set
 * (the rest of the suite runs with it off).
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
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
  return { status: response.status, body: (await response.json()) as { data: Array<{ id: string }> } };
}

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
});
