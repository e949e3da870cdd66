/**
 * Signing in from outside, as a user will: the service under wrangler, trusting the real oidc-provider on loopback
 * (scripts/local-oidc-provider.mjs, as `npm run dev` starts it). The authorization-code flow with PKCE gives the
 * provider's ID token and access token; each is exchanged at POST /api/v2/user/authenticate, and the service's token
 * then reads /api/v2/contacts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module without type declarations.
import { LOCAL_CLIENT_ID, LOCAL_REDIRECT_URI, startLocalProvider } from "../../scripts/local-oidc-provider.mjs";
// @ts-expect-error: a plain ES module without type declarations.
import { runWranglerCapture } from "../../scripts/run-wrangler.mjs";
// @ts-expect-error: a plain ES module without type declarations.
import { d1Bindings } from "../../scripts/databases.mjs";
import { providerTokens, serviceToken } from "../../scripts/signin-flow";
import { startService, type Service } from "./service";

const ADMIN_SECRET = process.env.ADMIN_SECRET!;
const people = [
  { email: "alice@example.org", firstName: "Alice", lastName: "Anderson" },
  { email: "stranger@example.org", firstName: "Stranger", lastName: "Danger" },
];

let provider: { issuer: string; serviceClient: { id: string; secret: string }; close(): Promise<void> };
let worker: Service;
let origin: string;
const state = mkdtempSync(join(tmpdir(), "sign-in-"));

beforeAll(async () => {
  provider = await startLocalProvider({ port: 0, people });
  // Each database's migrations at once: one wrangler each, on files of their own (one after another took most of
  // two minutes). Wranglers started together share the persist directory's setup and now and then one of them
  // loses that race; applying migrations is idempotent, so a database that failed is migrated again on its own, and
  // only a second failure (with wrangler's own words) fails the test.
  const bindings = d1Bindings() as string[];
  const migrate = (binding: string) => runWranglerCapture(["d1", "migrations", "apply", binding, "--local", "--persist-to", state]).then(() => null, (error: Error) => error.message);
  const firstTry = await Promise.all(bindings.map(migrate));
  for (const [index, binding] of bindings.entries()) {
    if (firstTry[index] === null) continue;
    expect(await migrate(binding), `migrations of ${binding} (first try: ${firstTry[index]})`).toBeNull();
  }
  const { id: OIDC_CLIENT_ID, secret: OIDC_CLIENT_SECRET } = provider.serviceClient;
  ({ service: worker, origin } = await startService({ vars: { OIDC_ISSUER: provider.issuer, OIDC_AUDIENCE: LOCAL_CLIENT_ID, OIDC_SIGN_UP: "invited", OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, ADMIN_SECRET }, persist: state }));
}, 300_000);

afterAll(async () => {
  await worker?.dispose();
  await provider?.close();
  rmSync(state, { recursive: true, force: true });
});

async function admin(method: string, path: string, body: unknown) {
  const response = await fetch(`${origin}/admin${path}`, { method, headers: { Authorization: `Bearer ${ADMIN_SECRET}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: string };
}

async function contactsWith(token: string) {
  return fetch(`${origin}/api/v2/contacts`, { headers: { Authorization: `Bearer ${token}`, Accept: "application/vnd.api+json" } });
}

describe("signing in through the real oidc-provider", () => {
  it("exchanges the ID token and the access token of the authorization-code flow with PKCE for tokens that read contacts", async () => {
    const alice = await admin("POST", "/users", { email: "Alice@Example.org", first_name: "Alice", last_name: "Anderson" });
    const list = await admin("POST", "/account_lists", { user: alice.id, name: "Alice's list", currency: "USD" });

    const fromProvider = await providerTokens({ issuer: provider.issuer, clientId: LOCAL_CLIENT_ID, redirectUri: LOCAL_REDIRECT_URI, email: "alice@example.org" });
    expect(fromProvider.idToken.split(".")).toHaveLength(3);

    const byIdToken = await serviceToken(origin, { id_token: fromProvider.idToken });
    const byAccessToken = await serviceToken(origin, { access_token: fromProvider.accessToken });
    for (const token of [byIdToken, byAccessToken]) {
      const response = await contactsWith(token);
      expect(response.status).toBe(200);
      const me = (await (await fetch(`${origin}/api/v2/user`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { data: { id: string; attributes: { preferences: { default_account_list: string } } } };
      expect(me.data.id).toBe(alice.id);
      expect(me.data.attributes.preferences.default_account_list).toBe(list.id);
    }

    // Someone the provider knows but the service does not (no invite): 403, and the token is not the service's.
    const stranger = await providerTokens({ issuer: provider.issuer, clientId: LOCAL_CLIENT_ID, redirectUri: LOCAL_REDIRECT_URI, email: "stranger@example.org" });
    await expect(serviceToken(origin, { id_token: stranger.idToken })).rejects.toThrow(/answered 403/);
    // The provider's tokens are not the service's: the API refuses them.
    expect((await contactsWith(fromProvider.idToken)).status).toBe(401);

    // Signing out: the tokens stop working.
    const out = await fetch(`${origin}/api/v2/user/authenticate`, { method: "DELETE", headers: { Authorization: `Bearer ${byIdToken}` } });
    expect(out.status).toBe(204);
    expect((await contactsWith(byAccessToken)).status).toBe(401);
  });
});
