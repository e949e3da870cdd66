/**
 * The signed-in user's accounts elsewhere, as the web app's preferences pages ask for them:
 * /api/v2/user/organization_accounts?include=organization, /user/key_accounts and /user/google_accounts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { errorOf, get } from "./helpers/api";
import { createViewer, db, timestamps, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
const organization = { id: uuid(), name: "Cru USA", oauth: false, ...timestamps() };
const aliceLogin = { id: uuid(), organizationId: organization.id, username: "alice@example.org", ...timestamps() };
const bobLogin = { id: uuid(), organizationId: organization.id, username: "bob@example.org", ...timestamps() };

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  await db.insert(schema.organizations).values(organization);
  await db.insert(schema.organizationAccounts).values([
    { ...aliceLogin, userId: alice.user.id },
    { ...bobLogin, userId: bob.user.id },
  ]);
});

describe("the user's accounts elsewhere", () => {
  it("lists the user's own organization accounts with their organization included", async () => {
    const answer = await get("/api/v2/user/organization_accounts?include=organization", alice.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toEqual([
      {
        id: aliceLogin.id,
        type: "organization_accounts",
        attributes: {
          username: "alice@example.org",
          disable_downloads: false,
          last_download: null,
          locked_at: null,
          remote_id: null,
          created_at: aliceLogin.createdAt,
          updated_at: aliceLogin.updatedAt,
          updated_in_db_at: aliceLogin.updatedAt,
        },
        relationships: { organization: { data: { type: "organizations", id: organization.id } } },
      },
    ]);
    expect(answer.body.included).toEqual([expect.objectContaining({ type: "organizations", id: organization.id, attributes: expect.objectContaining({ name: "Cru USA" }) })]);
    expect(answer.body.meta.pagination).toMatchObject({ total_count: 1 });
    // Another user's login is not the viewer's.
    errorOf(await get(`/api/v2/user/organization_accounts/${bobLogin.id}`, alice.token), 403);
    expect((await get(`/api/v2/user/organization_accounts/${aliceLogin.id}`, alice.token)).body.data.id).toBe(aliceLogin.id);
  });

  it("answers key and Google accounts as empty lists, none being kept", async () => {
    for (const type of ["key_accounts", "google_accounts"]) {
      const answer = await get(`/api/v2/user/${type}`, alice.token);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.data).toEqual([]);
      expect(answer.body.meta.pagination).toEqual({ page: 1, per_page: 25, total_count: 0, total_pages: 0 });
      errorOf(await get(`/api/v2/user/${type}/${uuid()}`, alice.token), 404);
    }
    errorOf(await get("/api/v2/user/key_accounts", null), 401);
  });
});
