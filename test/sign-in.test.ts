/**
 * Signing in (POST /api/v2/user/authenticate) through an OpenID Connect provider the test plays, with keys it makes,
 * and through a CAS server; signing out (DELETE). Every refusal stores nothing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { env, exports } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { base64url, SignJWT } from "jose";
import * as schema from "../drizzle/schema";
import { errorOf, get, request, type RequestOptions } from "./helpers/api";
import { createUser, createViewer, db, timestamps, tokenFor, uuid } from "./helpers/factories";
import { answerAt, signingKey, stopAnswering, TestProvider } from "./helpers/identity-provider";
import { runInBackground } from "./helpers/background";
import { recordingEnv, type Recorded } from "./helpers/recording-db";
import { mintToken } from "../src/auth/token";

const PATH = "/api/v2/user/authenticate";
const AUDIENCES = "web-app, api://default";
const CAS_BASE_URL = "http://127.0.0.1:8443/cas";
/** The service's own client at the provider, for token introspection; the secret needs form-encoding. */
const SERVICE_CLIENT = { id: "records-api", secret: "s3cret:with spaces+more" };

let provider: TestProvider;

beforeEach(async () => {
  provider = await TestProvider.start();
  provider.serviceClient = SERVICE_CLIENT;
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  stopAnswering();
});

/** The Worker's bindings with the sign-in settings of a test. */
function settings(overrides: Record<string, string> = {}) {
  return { ...env, OIDC_ISSUER: provider.issuer, OIDC_AUDIENCE: AUDIENCES, OIDC_SIGN_UP: "invited", OIDC_CLIENT_ID: SERVICE_CLIENT.id, OIDC_CLIENT_SECRET: SERVICE_CLIENT.secret, ...overrides };
}

/** Each test signs in from an address of its own: attempts are counted per address. */
let addresses = 0;
const address = () => `198.51.100.${++addresses % 250}`;
let from = address();
beforeEach(() => {
  from = address();
});

function signIn(attributes: Record<string, unknown>, options: { bindings?: object; headers?: Record<string, string> } = {}) {
  const body = { data: { type: "authenticate", attributes } };
  return request("POST", PATH, { body, bindings: options.bindings ?? settings(), headers: { "CF-Connecting-IP": from, ...options.headers } } satisfies RequestOptions);
}

const tokenOf = (response: Awaited<ReturnType<typeof signIn>>) => {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body).toEqual({ data: { id: "", type: "authenticate", attributes: { json_web_token: expect.any(String) } } });
  return response.body.data.attributes.json_web_token as string;
};

async function stored() {
  return { users: await db.$count(schema.users), links: await db.$count(schema.identityLinks), lists: await db.$count(schema.accountLists) };
}

async function linksOf(userId: string) {
  return db.select({ issuer: schema.identityLinks.issuer, subject: schema.identityLinks.subject }).from(schema.identityLinks).where(eq(schema.identityLinks.userId, userId));
}

async function userIdOf(token: string): Promise<string> {
  const me = await get("/api/v2/user", token);
  expect(me.status).toBe(200);
  return me.body.data.id;
}

const verified = (email: string) => ({ email, email_verified: true });

describe("signing in with an ID token", () => {
  it("answers the service's own token for a user the operator took in, valid for 30 days, and links the subject", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2026, 5, 1, 12));
    const user = await createUser({ email: "Dana.Operator@Example.org" });
    const idToken = await provider.sign({ sub: "dana-1", ...verified("dana.operator@example.org") });
    const token = tokenOf(await signIn({ id_token: idToken }));
    expect(claimsOf(token)).toEqual({ user_id: user.id, iat: Date.UTC(2026, 5, 1, 12) / 1000, exp: Date.UTC(2026, 6, 1, 12) / 1000, gen: 0 });
    expect(await userIdOf(token)).toBe(user.id);
    expect(await linksOf(user.id)).toEqual([{ issuer: provider.issuer, subject: "dana-1" }]);
  });

  it("goes by the subject once linked: a changed or unverified e-mail address at the provider signs in the same user", async () => {
    const user = await createUser();
    await signIn({ id_token: await provider.sign({ sub: "moved-1", ...verified(user.email) }) });
    const renamed = await signIn({ id_token: await provider.sign({ sub: "moved-1", email: "new.address@example.org", email_verified: false }) });
    expect(await userIdOf(tokenOf(renamed))).toBe(user.id);
    expect(await linksOf(user.id)).toHaveLength(1);
  });

  it("never links by an unverified e-mail address, nor by one whose verification the provider does not state", async () => {
    const user = await createUser();
    const before = await stored();
    for (const claims of [{ email: user.email, email_verified: false }, { email: user.email }, { email: user.email, email_verified: "true" }]) {
      const response = await signIn({ id_token: await provider.sign({ sub: `unverified-${uuid()}`, ...claims }) });
      expect(errorOf(response, 403).detail).toContain("ask your administrator");
    }
    expect(await stored()).toEqual(before);
    expect(await linksOf(user.id)).toEqual([]);
  });

  it("takes a token for any of the audiences, and a token of the same person at another provider is another link", async () => {
    const user = await createUser();
    tokenOf(await signIn({ id_token: await provider.sign({ sub: "p-1", ...verified(user.email) }, { audience: "api://default" }) }));
    // Several audiences: the client it was issued to (azp) is one of ours.
    tokenOf(await signIn({ id_token: await provider.sign({ sub: "p-1", azp: "web-app", ...verified(user.email) }, { audience: ["someone-else", "web-app"] }) }));
    const other = await TestProvider.start();
    const response = await signIn({ id_token: await other.sign({ sub: "p-1", ...verified(user.email) }) }, { bindings: settings({ OIDC_ISSUER: other.issuer }) });
    expect(await userIdOf(tokenOf(response))).toBe(user.id);
    expect((await linksOf(user.id)).map((link) => link.issuer).sort()).toEqual([provider.issuer, other.issuer].sort());
  });
});

describe("refusals", () => {
  it("refuses every token the provider did not sign for this service with 401, saying no more, storing nothing", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2026, 2, 10, 9));
    const user = await createUser();
    const person = { sub: "victim-1", ...verified(user.email) };
    const now = Math.floor(Date.now() / 1000);
    const good = await provider.sign(person);
    const [header, payload, signature] = good.split(".");
    const other = await TestProvider.start();
    const unpublished = await signingKey(provider.key.kid + "-next");
    const unsigned = `${base64url.encode(JSON.stringify({ alg: "none", typ: "JWT" }))}.${payload}.`;
    const hmacWithPublicKey = await new SignJWT({ iss: provider.issuer, aud: "web-app", exp: now + 600, ...person })
      .setProtectedHeader({ alg: "HS256", kid: provider.key.kid })
      .sign(new TextEncoder().encode(JSON.stringify(provider.key.publicJwk)));
    const changed = `${header}.${base64url.encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(base64url.decode(payload))), sub: "someone-else" }))}.${signature}`;
    const refused: Record<string, string> = {
      "another issuer": await other.sign(person),
      "another audience": await provider.sign(person, { audience: "another-app" }),
      "no issuer": await new SignJWT({ aud: "web-app", exp: now + 600, ...person }).setProtectedHeader({ alg: "RS256", kid: provider.key.kid }).sign(provider.key.privateKey),
      "expired past the leeway": await provider.sign({ ...person, iat: now - 3600, exp: now - 61 }),
      "not yet valid past the leeway": await provider.sign({ ...person, nbf: now + 61 }),
      "alg none": unsigned,
      "HS256 keyed with the provider's public key": hmacWithPublicKey,
      "an unpublished key": await provider.sign(person, { key: unpublished }),
      "a payload changed after signing": changed,
      "the service's own token": await tokenFor(user.id),
      garbage: "this-is.not-a.token",
      "no subject": await provider.sign({ ...verified(user.email), sub: undefined }),
    };
    const before = await stored();
    for (const [name, idToken] of Object.entries(refused)) {
      const response = await signIn({ id_token: idToken });
      expect(response.status, name).toBe(401);
      expect(errorOf(response, 401).detail, name).toBe("The identity provider's token is not valid for this service: sign in again");
    }
    expect(await stored()).toEqual(before);
    expect(await linksOf(user.id)).toEqual([]);
    // Within the leeway both are still good.
    tokenOf(await signIn({ id_token: await provider.sign({ ...person, iat: now - 3600, exp: now - 59 }) }));
    tokenOf(await signIn({ id_token: await provider.sign({ ...person, nbf: now + 59 }) }));
  });

  it("answers 400 for a body that carries no credential, two, or one that is not a short string", async () => {
    const before = await stored();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{}, "Expected an id_token or access_token to be provided in the attributes", "/data/attributes"],
      [{ id_token: "" }, "Expected an id_token or access_token to be provided in the attributes", "/data/attributes"],
      [{ id_token: 12 }, "id_token must be a string", "/data/attributes/id_token"],
      [{ id_token: "a".repeat(200 * 1024) }, "id_token is longer than 16384 characters", "/data/attributes/id_token"],
      [{ id_token: "a.b.c", access_token: "d" }, "Send only one of id_token, access_token", "/data/attributes/access_token"],
      [{ password: "hunter2" }, "Unknown attribute password: send one of id_token, access_token, cas_ticket", "/data/attributes/password"],
    ];
    for (const [attributes, detail, pointer] of cases) {
      const response = await signIn(attributes);
      expect(errorOf(response, 400)).toMatchObject({ detail, source: { pointer } });
    }
    const wrongType = await request("POST", PATH, { body: { data: { type: "users", attributes: { id_token: "x" } } }, bindings: settings(), headers: { "CF-Connecting-IP": from } });
    expect(wrongType.status).toBe(409);
    expect(await stored()).toEqual(before);
    expect(provider.asked).toEqual([]);
  });

  it("answers 503 when no issuer is configured, and the other routes keep working", async () => {
    const viewer = await createViewer();
    const response = await signIn({ id_token: await provider.sign({ sub: "x" }) }, { bindings: settings({ OIDC_ISSUER: "" }) });
    expect(errorOf(response, 503).detail).toBe("Signing in is not configured: OIDC_ISSUER is not set");
    expect((await get("/api/v2/user", viewer.token)).status).toBe(200);
    const badPolicy = await signIn({ id_token: "x" }, { bindings: settings({ OIDC_SIGN_UP: "everyone" }) });
    expect(errorOf(badPolicy, 503).detail).toBe("Signing in is not configured: OIDC_SIGN_UP must be one of invited, open, none");
  });

  it("answers 503 with Retry-After at once when the provider is down, while issued tokens keep working", async () => {
    const viewer = await createViewer();
    provider.down = true;
    const before = await stored();
    const started = Date.now();
    const response = await signIn({ id_token: await provider.sign({ sub: "down-1", ...verified(viewer.user.email) }) });
    expect(errorOf(response, 503).detail).toBe("The identity provider cannot be reached: retry in a moment");
    expect(response.headers.get("retry-after")).toBe("30");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await stored()).toEqual(before);
    expect((await get("/api/v2/user", viewer.token)).status).toBe(200);
    // Back up: the next attempt reads the provider again.
    provider.down = false;
    tokenOf(await signIn({ id_token: await provider.sign({ sub: "down-1", ...verified(viewer.user.email) }) }));
  });

  it("gives up on a provider that does not answer within 5 seconds: 503", async () => {
    const user = await createUser();
    const idToken = await provider.sign({ sub: "slow-1", ...verified(user.email) });
    answerAt(provider.issuer, (request) => new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason))));
    const started = Date.now();
    const response = await signIn({ id_token: idToken });
    expect(errorOf(response, 503).title).toBe("Service Unavailable");
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 15_000);

  it("answers 401 for an opaque access token the provider does not know, before asking its userinfo", async () => {
    const before = await stored();
    const response = await signIn({ access_token: "opaque-token-the-provider-never-issued" });
    expect(errorOf(response, 401).detail).toBe("The identity provider's token is not valid for this service: sign in again");
    expect(provider.times("/token/introspection")).toBe(1);
    expect(provider.times("/me")).toBe(0);
    expect(await stored()).toEqual(before);
  });

  it("limits attempts per client address: 429 with Retry-After, other addresses unaffected", async () => {
    // wrangler.toml: 20 attempts a minute; the local limiter's fixed window may renew once meanwhile.
    let limited: Awaited<ReturnType<typeof signIn>> | undefined;
    for (let sent = 0; !limited && sent < 41; sent++) {
      const response = await signIn({ id_token: "garbage" });
      if (response.status === 429) limited = response;
      else expect(response.status).toBe(401);
    }
    expect(limited, "no 429 after 41 attempts").toBeDefined();
    expect(errorOf(limited!, 429).title).toBe("Too Many Requests");
    expect(limited!.headers.get("retry-after")).toBe("60");
    from = address();
    expect((await signIn({ id_token: "garbage" })).status).toBe(401);
  });
});

describe("the provider's keys", () => {
  it("are read once, read again for an unknown key at most once a minute: a rotated key works, a flood of made-up keys costs one read", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.UTC(2026, 3, 1, 8);
    vi.setSystemTime(start);
    const user = await createUser();
    const person = { sub: "rotating-1", ...verified(user.email) };
    tokenOf(await signIn({ id_token: await provider.sign(person) }));
    tokenOf(await signIn({ id_token: await provider.sign(person) }));
    expect(provider.times("/jwks")).toBe(1);
    expect(provider.times("/.well-known/openid-configuration")).toBe(1);

    // The provider rotates 90 seconds later: the new key works at once.
    const next = await signingKey();
    provider.published = [next];
    vi.setSystemTime(start + 90_000);
    tokenOf(await signIn({ id_token: await provider.sign(person, { key: next }) }));
    expect(provider.times("/jwks")).toBe(2);

    // Tokens with keys nobody published, within the minute: refused, and the key set is not read again.
    for (let i = 0; i < 5; i++) {
      vi.setSystemTime(start + 91_000 + i * 1_000);
      const response = await signIn({ id_token: await provider.sign(person, { key: await signingKey() }) });
      expect(response.status).toBe(401);
    }
    expect(provider.times("/jwks")).toBe(2);
    // The retired key is gone from the set now.
    expect((await signIn({ id_token: await provider.sign(person) })).status).toBe(401);
    vi.setSystemTime(start + 151_000);
    expect((await signIn({ id_token: await provider.sign(person, { key: await signingKey() }) })).status).toBe(401);
    expect(provider.times("/jwks")).toBe(3);
  });
});

describe("access tokens", () => {
  it("takes a JWT access token for the API's audience, asking userinfo for the e-mail address it lacks", async () => {
    const user = await createUser();
    const accessToken = await provider.sign({ sub: "okta-1", scp: ["openid", "email"] }, { audience: "api://default" });
    provider.accessTokens.set(accessToken, { sub: "okta-1", ...verified(user.email.toUpperCase()) });
    expect(await userIdOf(tokenOf(await signIn({ access_token: accessToken })))).toBe(user.id);
    expect(provider.times("/me")).toBe(1);
    expect(await linksOf(user.id)).toEqual([{ issuer: provider.issuer, subject: "okta-1" }]);
  });

  it("takes an opaque access token issued to this service's client, asking introspection with HTTP Basic, then userinfo", async () => {
    const user = await createUser();
    const accessToken = provider.opaqueAccessToken({ sub: "opaque-1", ...verified(user.email) }, { clientId: "web-app" });
    expect(await userIdOf(tokenOf(await signIn({ access_token: accessToken })))).toBe(user.id);
    expect(provider.asked.filter((path) => path !== "/.well-known/openid-configuration")).toEqual(["/token/introspection", "/me"]);
    // The client id and secret form-encoded ("records-api:s3cret%3Awith+spaces%2Bmore"), then base64.
    expect(provider.introspectionRequests).toEqual([
      { authorization: "Basic cmVjb3Jkcy1hcGk6czNjcmV0JTNBd2l0aCtzcGFjZXMlMkJtb3Jl", contentType: "application/x-www-form-urlencoded", form: { token: accessToken, token_type_hint: "access_token" } },
    ]);
    expect(await linksOf(user.id)).toEqual([{ issuer: provider.issuer, subject: "opaque-1" }]);
    // Introspection naming no client: the token's `aud` decides.
    const forTheApi = provider.opaqueAccessToken({ sub: "opaque-1", ...verified(user.email) }, { clientId: null, introspected: { aud: ["api://default"] } });
    expect(await userIdOf(tokenOf(await signIn({ access_token: forTheApi })))).toBe(user.id);
  });

  it("refuses an opaque access token another application obtained for the person: 401, nothing stored", async () => {
    const user = await createUser();
    const person = { sub: "victim-2", ...verified(user.email) };
    const tokens = {
      "another client": provider.opaqueAccessToken(person, { clientId: "other-app" }),
      "another client and audience": provider.opaqueAccessToken(person, { clientId: "other-app", introspected: { aud: "https://other.example.org" } }),
      // Any application of the organization may get a token for the API's audience: the client it names decides.
      "another client for the API's audience": provider.opaqueAccessToken(person, { clientId: "mobile-app", introspected: { aud: ["api://default"] } }),
      "a client in another case": provider.opaqueAccessToken(person, { clientId: "Web-App" }),
      "a client that is not a string": provider.opaqueAccessToken(person, { clientId: null, introspected: { client_id: ["web-app"], aud: "web-app" } }),
      "no client and another audience": provider.opaqueAccessToken(person, { clientId: null, introspected: { aud: "https://other.example.org" } }),
      "no client and no audience": provider.opaqueAccessToken(person, { clientId: null }),
      inactive: provider.opaqueAccessToken(person, { introspected: { active: false } }),
      'active "true" as a string': provider.opaqueAccessToken(person, { introspected: { active: "true" } }),
      // Shaped as a JWT, it is checked as one (and its signature is not the provider's), though introspection would vouch for it.
      "a forged JWT": provider.opaqueAccessToken(person, {
        token: [{ alg: "RS256", typ: "JWT", kid: provider.key.kid }, { iss: provider.issuer, aud: "web-app", sub: "victim-2", exp: Math.floor(Date.now() / 1000) + 600 }, { forged: true }]
          .map((part) => base64url.encode(JSON.stringify(part)))
          .join("."),
      }),
      "another issuer": provider.opaqueAccessToken(person, { introspected: { iss: "https://id.example.com" } }),
      expired: provider.opaqueAccessToken(person, { introspected: { exp: Math.floor(Date.now() / 1000) - 120 } }),
      "a subject other than userinfo's": provider.opaqueAccessToken(person, { introspected: { sub: "someone-else" } }),
    };
    const before = await stored();
    for (const bindings of [settings(), settings({ OIDC_SIGN_UP: "open" })]) {
      // Attempts are counted per address: each round from another.
      from = address();
      for (const [name, accessToken] of Object.entries(tokens)) {
        const response = await signIn({ access_token: accessToken }, { bindings });
        expect(errorOf(response, 401).detail, name).toBe("The identity provider's token is not valid for this service: sign in again");
      }
    }
    expect(await stored()).toEqual(before);
    expect(await linksOf(user.id)).toEqual([]);
    // Only the last got as far as userinfo.
    expect(provider.times("/me")).toBe(2);
  });

  it("refuses opaque access tokens with 401 saying to send the ID token where introspection is not configured or not offered", async () => {
    const user = await createUser();
    const person = { sub: "opaque-2", ...verified(user.email) };
    const accessToken = provider.opaqueAccessToken(person);
    const before = await stored();
    const sendIdToken = "This service cannot check the identity provider's opaque access tokens: send the ID token (id_token) instead";
    const unconfigured = await signIn({ access_token: accessToken }, { bindings: settings({ OIDC_CLIENT_ID: "", OIDC_CLIENT_SECRET: "" }) });
    expect(errorOf(unconfigured, 401).detail).toBe(sendIdToken);
    expect(provider.asked).toEqual([]);
    provider.introspection = false;
    const notOffered = await signIn({ access_token: accessToken });
    expect(errorOf(notOffered, 401).detail).toBe(sendIdToken);
    expect(provider.times("/me")).toBe(0);
    expect(await stored()).toEqual(before);
    // A JWT access token needs no introspection: its audience is in it.
    const jwt = await provider.sign(person, { audience: "api://default" });
    expect(await userIdOf(tokenOf(await signIn({ access_token: jwt }, { bindings: settings({ OIDC_CLIENT_ID: "", OIDC_CLIENT_SECRET: "" }) })))).toBe(user.id);
    // The ID token it says to send works.
    expect(await userIdOf(tokenOf(await signIn({ id_token: await provider.sign(person) })))).toBe(user.id);
  });

  it("answers 503 when the provider refuses the service's client credentials, or only half of them are set", async () => {
    const user = await createUser();
    const accessToken = provider.opaqueAccessToken({ sub: "opaque-3", ...verified(user.email) });
    const errors = vi.spyOn(console, "error");
    const before = await stored();
    const wrongSecret = await signIn({ access_token: accessToken }, { bindings: settings({ OIDC_CLIENT_SECRET: "not-the-secret" }) });
    expect(errorOf(wrongSecret, 503).detail).toBe("The identity provider cannot be reached: retry in a moment");
    expect(errors.mock.calls.map(([line]) => String(line)).join("\n")).toContain("token introspection answered 401: check OIDC_CLIENT_ID and OIDC_CLIENT_SECRET");
    const half = await signIn({ access_token: accessToken }, { bindings: settings({ OIDC_CLIENT_SECRET: "" }) });
    expect(errorOf(half, 503).detail).toBe("Signing in is not configured: OIDC_CLIENT_ID and the secret OIDC_CLIENT_SECRET are set together, or neither");
    expect(await stored()).toEqual(before);
  });
});

describe("the client a JWT names", () => {
  const refusal = "The identity provider's token is not valid for this service: sign in again";

  it("refuses a JWT access token or ID token naming another client (client_id, azp, cid) for an accepted audience", async () => {
    const user = await createUser();
    const person = { sub: "jwt-client-1", ...verified(user.email) };
    const before = await stored();
    for (const claim of ["client_id", "azp", "cid"]) {
      for (const client of ["mobile-app", "Web-App"]) {
        const token = await provider.sign({ ...person, [claim]: client }, { audience: "api://default" });
        for (const kind of ["access_token", "id_token"]) {
          expect(errorOf(await signIn({ [kind]: token }), 401).detail, `${kind} ${claim} ${client}`).toBe(refusal);
        }
      }
    }
    expect(await stored()).toEqual(before);
    // Naming an allowed client, or none, it is taken.
    const ours = await provider.sign({ ...person, cid: "web-app" }, { audience: "api://default" });
    expect(await userIdOf(tokenOf(await signIn({ access_token: ours })))).toBe(user.id);
  });

  it("takes an ID token for several audiences, or with an azp, only when its azp is an allowed client; never an at+jwt", async () => {
    const user = await createUser();
    const person = { sub: "azp-1", ...verified(user.email) };
    const before = await stored();
    const refused = {
      "a foreign azp": await provider.sign({ ...person, azp: "mobile-app" }),
      "a foreign azp of several audiences": await provider.sign({ ...person, azp: "mobile-app" }, { audience: ["web-app", "mobile-app"] }),
      "several audiences and no azp": await provider.sign(person, { audience: ["web-app", "mobile-app"] }),
      "an access token (RFC 9068)": await provider.sign({ ...person, client_id: "web-app" }, { type: "at+jwt" }),
      "an access token, its media type": await provider.sign({ ...person, client_id: "web-app" }, { type: "application/AT+JWT" }),
    };
    for (const [name, idToken] of Object.entries(refused)) expect(errorOf(await signIn({ id_token: idToken }), 401).detail, name).toBe(refusal);
    expect(await stored()).toEqual(before);
    expect(await userIdOf(tokenOf(await signIn({ id_token: await provider.sign({ ...person, azp: "web-app" }, { audience: ["web-app", "mobile-app"] }) })))).toBe(user.id);
    // An at+jwt is an access token, and is taken as one.
    expect(await userIdOf(tokenOf(await signIn({ access_token: refused["an access token (RFC 9068)"] })))).toBe(user.id);
  });
});

describe("the introspection endpoint", () => {
  it("answers 503 for an answer that is not JSON, or a failing provider, saying which in the log", async () => {
    const user = await createUser();
    const accessToken = provider.opaqueAccessToken({ sub: "opaque-4", ...verified(user.email) });
    const errors = vi.spyOn(console, "error");
    const before = await stored();
    provider.introspectionAnswer = () => new Response("<html>Service Unavailable</html>", { headers: { "Content-Type": "text/html" } });
    expect(errorOf(await signIn({ access_token: accessToken }), 503).detail).toBe("The identity provider cannot be reached: retry in a moment");
    expect(errors.mock.calls.map(([line]) => String(line)).join("\n")).toContain("an answer that is not a JSON object");
    errors.mockClear();
    provider.introspectionAnswer = () => new Response("busy", { status: 500 });
    expect(errorOf(await signIn({ access_token: accessToken }), 503).detail).toBe("The identity provider cannot be reached: retry in a moment");
    const logged = errors.mock.calls.map(([line]) => String(line)).join("\n");
    expect(logged).toContain("token introspection answered 500");
    expect(logged).not.toContain("OIDC_CLIENT_SECRET");
    expect(provider.times("/me")).toBe(0);
    expect(await stored()).toEqual(before);
  });

  it("is sent the client secret only over HTTPS at the issuer's origin: elsewhere 503, logged, nothing sent", async () => {
    const user = await createUser();
    const elsewhere: string[] = [];
    answerAt("https://collector.example.net", (request) => {
      elsewhere.push(request.url);
      return Response.json({ active: true, client_id: "web-app" });
    });
    const errors = vi.spyOn(console, "error");
    const before = await stored();
    const endpoints = [(issuer: string) => `${issuer.replace("https://", "http://")}/token/introspection`, () => "https://collector.example.net/token/introspection", (issuer: string) => `${issuer}.example.net/token/introspection`];
    // A provider each: the Worker keeps each issuer's discovery document.
    for (const endpoint of endpoints) {
      const misdirecting = await TestProvider.start();
      misdirecting.serviceClient = SERVICE_CLIENT;
      misdirecting.introspectionEndpoint = endpoint(misdirecting.issuer);
      const accessToken = misdirecting.opaqueAccessToken({ sub: "opaque-5", ...verified(user.email) });
      const answer = await signIn({ access_token: accessToken }, { bindings: settings({ OIDC_ISSUER: misdirecting.issuer }) });
      expect(errorOf(answer, 503).detail, misdirecting.introspectionEndpoint).toBe("The identity provider cannot be reached: retry in a moment");
      expect(misdirecting.introspectionRequests).toEqual([]);
      expect(misdirecting.times("/me")).toBe(0);
    }
    expect(errors.mock.calls.map(([line]) => String(line)).filter((line) => line.includes("introspection_endpoint is not an https:// URL at the issuer's origin"))).toHaveLength(3);
    expect(elsewhere).toEqual([]);
    expect(await stored()).toEqual(before);
  });
});

describe("an e-mail address the provider gives to someone else", () => {
  it("never links a second subject of the provider to a user by it: 403, nothing stored, under every policy", async () => {
    const user = await createUser();
    const owner = tokenOf(await signIn({ id_token: await provider.sign({ sub: "owner-1", ...verified(user.email) }) }));
    const before = await stored();
    for (const bindings of [settings(), settings({ OIDC_SIGN_UP: "open" }), settings({ OIDC_SIGN_UP: "none" })]) {
      const newcomer = await signIn({ id_token: await provider.sign({ sub: "newcomer-1", ...verified(user.email) }) }, { bindings });
      expect(errorOf(newcomer, 403).detail).toBe("Your e-mail address belongs to a user here who signs in with another account at this identity provider: contact your administrator");
    }
    const opaque = provider.opaqueAccessToken({ sub: "newcomer-1", ...verified(user.email.toUpperCase()) });
    expect((await signIn({ access_token: opaque })).status).toBe(403);
    expect(await stored()).toEqual(before);
    expect(await linksOf(user.id)).toEqual([{ issuer: provider.issuer, subject: "owner-1" }]);
    // The owner's subject still signs them in.
    expect(await userIdOf(tokenOf(await signIn({ id_token: await provider.sign({ sub: "owner-1", ...verified(user.email) }) })))).toBe(await userIdOf(owner));
  });

  it("still links by the address a user with no subject of this provider, though linked at another", async () => {
    const user = await createUser();
    const other = await TestProvider.start();
    tokenOf(await signIn({ id_token: await other.sign({ sub: "elsewhere-1", ...verified(user.email) }) }, { bindings: settings({ OIDC_ISSUER: other.issuer }) }));
    expect(await userIdOf(tokenOf(await signIn({ id_token: await provider.sign({ sub: "here-1", ...verified(user.email) }) })))).toBe(user.id);
    expect((await linksOf(user.id)).sort((a, b) => a.issuer.localeCompare(b.issuer))).toEqual(
      [{ issuer: other.issuer, subject: "elsewhere-1" }, { issuer: provider.issuer, subject: "here-1" }].sort((a, b) => a.issuer.localeCompare(b.issuer)),
    );
  });

  it("is held by the (user, issuer) key of the database: a direct second insert is refused; two first sign-ins end with one link", async () => {
    const user = await createUser();
    // Requests in one test isolate need not overlap: this shows the outcome, the insert below shows the key that holds it.
    const [first, second] = await Promise.all(["race-1", "race-2"].map(async (sub) => signIn({ id_token: await provider.sign({ sub, ...verified(user.email) }) })));
    expect([first.status, second.status].sort()).toEqual([200, 403]);
    expect(await linksOf(user.id)).toHaveLength(1);
    const now = timestamps();
    const refused: unknown = await db.insert(schema.identityLinks).values({ id: uuid(), issuer: provider.issuer, subject: "race-3", userId: user.id, ...now }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(String((refused as { cause?: unknown } | undefined)?.cause ?? refused)).toContain("UNIQUE constraint failed: identity_links.user_id, identity_links.issuer");
    expect(await linksOf(user.id)).toHaveLength(1);
  });
});

describe("who may sign up (OIDC_SIGN_UP)", () => {
  it("invited: a verified address with a pending invite gets a user, who then accepts the invite", async () => {
    const inviter = await createViewer();
    const inviteId = uuid();
    const code = "c".repeat(64);
    await db.insert(schema.accountListInvites).values({ id: inviteId, accountListId: inviter.list.id, invitedByUserId: inviter.user.id, code, recipientEmail: "New.Member@example.org", ...timestamps() });
    const uninvited = await signIn({ id_token: await provider.sign({ sub: "stranger-1", ...verified("stranger@example.org") }) });
    expect(errorOf(uninvited, 403).detail).toBe("You have no access to this service yet: ask your administrator to add or invite you");
    const cancelled = uuid();
    await db.insert(schema.accountListInvites).values({ id: cancelled, accountListId: inviter.list.id, code, recipientEmail: "gone@example.org", cancelledByUserId: inviter.user.id, ...timestamps() });
    expect((await signIn({ id_token: await provider.sign({ sub: "gone-1", ...verified("gone@example.org") }) })).status).toBe(403);
    const unverified = await signIn({ id_token: await provider.sign({ sub: "member-1", email: "new.member@example.org", email_verified: false }) });
    expect(unverified.status).toBe(403);

    const before = await stored();
    const token = tokenOf(await signIn({ id_token: await provider.sign({ sub: "member-1", ...verified("new.member@example.org"), given_name: "Nia", family_name: "Member" }) }));
    expect(await stored()).toEqual({ ...before, users: before.users + 1, links: before.links + 1 });
    const me = await get("/api/v2/user", token);
    expect(me.body.data.attributes).toMatchObject({ first_name: "Nia", last_name: "Member" });
    const accepted = await request("PUT", `/api/v2/account_lists/${inviter.list.id}/invites/${inviteId}/accept`, { token, body: { data: { type: "account_list_invites", id: inviteId, attributes: { code } } } });
    expect(accepted.status).toBe(200);
    expect((await get(`/api/v2/account_lists/${inviter.list.id}`, token)).status).toBe(200);
  });

  it("open: any verified address gets a user and a first account list named after them, their default", async () => {
    const before = await stored();
    const open = settings({ OIDC_SIGN_UP: "open" });
    expect((await signIn({ id_token: await provider.sign({ sub: "new-2", email: "ola@example.org", email_verified: false }) }, { bindings: open })).status).toBe(403);
    const token = tokenOf(await signIn({ id_token: await provider.sign({ sub: "new-2", ...verified("ola@example.org"), name: "Ola Nordmann" }) }, { bindings: open }));
    expect(await stored()).toEqual({ users: before.users + 1, links: before.links + 1, lists: before.lists + 1 });
    const lists = await get("/api/v2/account_lists", token);
    expect(lists.body.data.map((list: { attributes: { name: string } }) => list.attributes.name)).toEqual(["Ola Nordmann"]);
    const me = await get("/api/v2/user", token);
    expect(me.body.data.attributes.preferences.default_account_list).toBe(lists.body.data[0].id);
    // Signing in again is the same user, with no second list.
    const again = tokenOf(await signIn({ id_token: await provider.sign({ sub: "new-2", ...verified("ola@example.org") }) }, { bindings: open }));
    expect(await userIdOf(again)).toBe(me.body.data.id);
    expect(await stored()).toEqual({ users: before.users + 1, links: before.links + 1, lists: before.lists + 1 });
  });

  it("none: only the operator's users; an invite is not enough", async () => {
    const none = settings({ OIDC_SIGN_UP: "none" });
    const inviter = await createViewer();
    await db.insert(schema.accountListInvites).values({ id: uuid(), accountListId: inviter.list.id, code: "d".repeat(64), recipientEmail: "invited@example.org", ...timestamps() });
    const before = await stored();
    expect((await signIn({ id_token: await provider.sign({ sub: "inv-3", ...verified("invited@example.org") }) }, { bindings: none })).status).toBe(403);
    expect(await stored()).toEqual(before);
    tokenOf(await signIn({ id_token: await provider.sign({ sub: "op-3", ...verified(inviter.user.email) }) }, { bindings: none }));
  });

  it("a disabled user gets 403, linked or not, and no link is made", async () => {
    const user = await createUser();
    await signIn({ id_token: await provider.sign({ sub: "dis-1", ...verified(user.email) }) });
    const other = await createUser();
    await db.update(schema.users).set({ disabledAt: "2026-01-01T00:00:00Z" }).where(sql`${schema.users.id} IN (${user.id}, ${other.id})`);
    const linked = await signIn({ id_token: await provider.sign({ sub: "dis-1", ...verified(user.email) }) });
    expect(errorOf(linked, 403).detail).toBe("Your access to this service is disabled: ask your administrator");
    const before = await stored();
    expect((await signIn({ id_token: await provider.sign({ sub: "dis-2", ...verified(other.email) }) })).status).toBe(403);
    expect(await stored()).toEqual(before);
  });
});

describe("signing out", () => {
  it("refuses every earlier token of the user, tokens issued after it work, other users are untouched", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2026, 7, 3, 10));
    const viewer = await createViewer();
    const other = await createViewer();
    const person = { sub: "leaving-1", ...verified(viewer.user.email) };
    const signedIn = tokenOf(await signIn({ id_token: await provider.sign(person) }));
    const minted = await tokenFor(viewer.user.id);
    expect((await request("DELETE", PATH, { token: signedIn })).status).toBe(204);
    for (const token of [signedIn, minted]) {
      const refused = await get("/api/v2/user", token);
      expect(errorOf(refused, 401).detail).toBe("The access token was signed out: sign in again");
    }
    expect((await request("DELETE", PATH, { token: signedIn })).status).toBe(401);
    expect((await get("/api/v2/user", other.token)).status).toBe(200);
    // In the same second: the new token is dated after the sign-out.
    const again = tokenOf(await signIn({ id_token: await provider.sign(person) }));
    expect((await get("/api/v2/user", again)).status).toBe(200);
    vi.setSystemTime(Date.UTC(2026, 7, 3, 10, 5));
    expect((await get("/api/v2/user", await tokenFor(viewer.user.id))).status).toBe(200);
    expect((await get("/api/v2/user", signedIn)).status).toBe(401);
  });

  it("leaves the user's background batches running, with the tokens the service mints as it runs them", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2026, 7, 4, 10));
    const viewer = await createViewer();
    expect((await request("DELETE", PATH, { token: viewer.token })).status).toBe(204);
    // Signed in again in the second of the sign-out: the queue runs the batch in that second too.
    const again = tokenOf(await signIn({ id_token: await provider.sign({ sub: "batching-1", ...verified(viewer.user.email) }) }));
    const id = await runInBackground(again, [{ path: "/api/v2/user" }]);
    const batch = await get(`/api/v2/background_batches/${id}?include=requests`, again);
    expect(batch.body.included.map((entry: { attributes: { response_status: number } }) => entry.attributes.response_status)).toEqual([200]);
  });

  it("needs the service's token", async () => {
    expect(errorOf(await request("DELETE", PATH), 401).detail).toContain("access token is required");
  });

  it("is exact within a second: a token minted between two sign-outs of the same second is refused after the second", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2026, 7, 5, 10, 0, 0, 100));
    const viewer = await createViewer();
    const person = { sub: "twice-1", ...verified(viewer.user.email) };
    const first = tokenOf(await signIn({ id_token: await provider.sign(person) }));
    expect((await request("DELETE", PATH, { token: first })).status).toBe(204);
    vi.setSystemTime(Date.UTC(2026, 7, 5, 10, 0, 0, 400));
    const between = tokenOf(await signIn({ id_token: await provider.sign(person) }));
    expect((await get("/api/v2/user", between)).status).toBe(200);
    vi.setSystemTime(Date.UTC(2026, 7, 5, 10, 0, 0, 700));
    expect((await request("DELETE", PATH, { token: between })).status).toBe(204);
    for (const token of [first, between]) expect(errorOf(await get("/api/v2/user", token), 401).detail).toBe("The access token was signed out: sign in again");
    const [stored] = await db.select({ generation: schema.users.tokenGeneration }).from(schema.users).where(eq(schema.users.id, viewer.user.id));
    expect(stored.generation).toBe(2);
    // Signing in again in that second works, and is dated with the true time.
    const after = tokenOf(await signIn({ id_token: await provider.sign(person) }));
    expect(claimsOf(after)).toMatchObject({ iat: Date.UTC(2026, 7, 5, 10) / 1000, gen: 2 });
    expect((await get("/api/v2/user", after)).status).toBe(200);
  });

  it("holds on every read path: GET, from a replica's bookmark, POST read through the override, /batch", async () => {
    const viewer = await createViewer();
    const before = await tokenFor(viewer.user.id);
    const bookmark = (await get("/api/v2/account_lists", before)).headers.get("X-D1-Bookmark")!;
    expect((await request("DELETE", PATH, { token: viewer.token })).status).toBe(204);
    for (const response of await readPaths(before, bookmark)) {
      expect(errorOf(response, 401).detail).toBe("The access token was signed out: sign in again");
    }
    for (const response of await readPaths(await tokenFor(viewer.user.id), bookmark)) expect(response.status, response.text).toBe(200);
  });

  it("treats a token minted without a generation as of the first: good until the user signs out", async () => {
    const viewer = await createViewer();
    const issuedAt = Math.floor(Date.now() / 1000);
    const older = await new SignJWT({ user_id: viewer.user.id, iat: issuedAt, exp: issuedAt + 3600 })
      .setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(env.JWT_SECRET));
    expect((await get("/api/v2/user", older)).status).toBe(200);
    expect((await request("DELETE", PATH, { token: viewer.token })).status).toBe(204);
    expect(errorOf(await get("/api/v2/user", older), 401).detail).toBe("The access token was signed out: sign in again");
  });

  it("reads the user at the primary, even for a request whose own reads may go to a replica", async () => {
    const viewer = await createViewer();
    const bookmark = (await get("/api/v2/user", viewer.token)).headers.get("X-D1-Bookmark")!;
    // The directory's part of the header: all of it, or its `DB:` entry beside those of list databases.
    const directoryBookmark = bookmark.includes(":") ? /(?:^|,)DB:([^,]+)/.exec(bookmark)![1] : bookmark;
    const recorded: Recorded[] = [];
    const bindings = recordingEnv(recorded);
    for (const options of [{}, { headers: { "X-D1-Bookmark": bookmark } }]) {
      recorded.length = 0;
      expect((await get("/api/v2/user", viewer.token, { ...options, bindings })).status).toBe(200);
      const userReads = recorded.filter((entry) => entry.on === env.DB && /from "users"/i.test(entry.sql));
      const check = userReads.find((entry) => entry.sql.includes('"token_generation"'));
      expect(check?.session).toBe("first-primary");
      // The route's own reads of the user stay where the request reads.
      const routeReads = userReads.filter((entry) => entry !== check);
      expect(routeReads.length).toBeGreaterThan(0);
      for (const entry of routeReads) expect(entry.session).toBe("headers" in options ? directoryBookmark : "first-unconstrained");
    }
  });
});

describe("disabled users", () => {
  it("are refused on every read path", async () => {
    const viewer = await createViewer();
    const bookmark = (await get("/api/v2/account_lists", viewer.token)).headers.get("X-D1-Bookmark")!;
    await db.update(schema.users).set({ disabledAt: "2026-01-01T00:00:00Z" }).where(eq(schema.users.id, viewer.user.id));
    for (const response of await readPaths(viewer.token, bookmark)) expect(errorOf(response, 401).detail).toBe("The access token's user is disabled");
  });
});

describe("the dates of the service's tokens", () => {
  it("refuse a token issued more than a minute ahead of the clock, take one 30 seconds ahead", async () => {
    const viewer = await createViewer();
    const ahead = (seconds: number) => mintToken(env.JWT_SECRET, viewer.user.id, 3600, 0, Date.now() + seconds * 1000);
    expect(errorOf(await get("/api/v2/user", await ahead(3600)), 401).detail).toBe("The access token is dated in the future");
    expect(errorOf(await get("/api/v2/user", await ahead(61)), 401).detail).toBe("The access token is dated in the future");
    const early = await ahead(30);
    expect((await get("/api/v2/user", early)).status).toBe(200);
    // A sign-out refuses it like any token minted before it.
    expect((await request("DELETE", PATH, { token: viewer.token })).status).toBe(204);
    expect(errorOf(await get("/api/v2/user", early), 401).detail).toBe("The access token was signed out: sign in again");
  });
});

/** The same reads by every path a client has: GET, GET from a replica's bookmark, POST with the override, a /batch item. */
function readPaths(token: string, bookmark: string) {
  return Promise.all([
    get("/api/v2/account_lists", token),
    get("/api/v2/account_lists", token, { headers: { "X-D1-Bookmark": bookmark } }),
    request("POST", "/api/v2/account_lists", { token, headers: { "X-HTTP-Method-Override": "GET" }, body: { per_page: 1 } }),
    request("POST", "/api/v2/batch", { token, raw: true, body: { requests: [{ method: "GET", path: "/api/v2/account_lists" }] } }),
  ]);
}

const claimsOf = (token: string) => JSON.parse(new TextDecoder().decode(base64url.decode(token.split(".")[1])));

describe("CORS", () => {
  it("answers the web app's preflight for the route as for the rest of the API", async () => {
    const response = await exports.default.fetch(
      new Request(`https://api.example.org${PATH}`, {
        method: "OPTIONS",
        headers: { Origin: "https://app.example.org", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" },
      }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://app.example.org");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
  });
});

describe("CAS tickets", () => {
  const GUID = "F2F4A2A5-0C6B-4D8E-9A2B-3C1D5E6F7A8B";
  const cas = (overrides: Record<string, string> = {}) => settings({ CAS_BASE_URL, CAS_EMAIL_VERIFIED: "true", ...overrides });
  const success = (user: string, email: string, guid: string | null = GUID) => `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">
  <cas:authenticationSuccess>
    <cas:user>${user}</cas:user>
    <cas:attributes>
      <cas:email>${email}</cas:email>
      ${guid === null ? "" : `<cas:ssoGuid>${guid}</cas:ssoGuid>`}
      <cas:firstName>Cas</cas:firstName>
    </cas:attributes>
  </cas:authenticationSuccess>
</cas:serviceResponse>`;
  const failure = (ticket: string) => `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">
  <cas:authenticationFailure code="INVALID_TICKET">
    Ticket ${ticket} not recognized
  </cas:authenticationFailure>
</cas:serviceResponse>`;
  let asked: URL[] = [];
  beforeEach(() => {
    asked = [];
  });

  function casServer(answer: (ticket: string) => string) {
    answerAt(new URL(CAS_BASE_URL).origin, (request) => {
      const url = new URL(request.url);
      asked.push(url);
      return new Response(answer(url.searchParams.get("ticket") ?? ""), { headers: { "Content-Type": "application/xml;charset=UTF-8" } });
    });
  }

  it("validates the ticket for this route's URL (protocol 3.0) and signs in the user it names", async () => {
    const user = await createUser();
    casServer(() => success("cas-user-1", user.email));
    const token = tokenOf(await signIn({ cas_ticket: "ST-1856339-aA5Yuvrxzpv8Tau1cYQ7" }, { bindings: cas() }));
    expect(await userIdOf(token)).toBe(user.id);
    expect(asked).toHaveLength(1);
    expect(asked[0].pathname).toBe("/cas/p3/serviceValidate");
    expect(Object.fromEntries(asked[0].searchParams)).toEqual({ ticket: "ST-1856339-aA5Yuvrxzpv8Tau1cYQ7", service: "https://api.example.org/api/v2/user/authenticate" });
    expect(await linksOf(user.id)).toEqual([{ issuer: CAS_BASE_URL, subject: "cas-user-1" }]);
  });

  it("answers a refused ticket 401 with the server's code and text, a missing one 400, storing nothing", async () => {
    casServer((ticket) => failure(ticket));
    const before = await stored();
    const refused = await signIn({ cas_ticket: "ST-1856339-aA5Yuvrxzpv8Tau1cYQ7" }, { bindings: cas() });
    expect(errorOf(refused, 401).detail).toBe("INVALID_TICKET: Ticket ST-1856339-aA5Yuvrxzpv8Tau1cYQ7 not recognized");
    const missing = await signIn({ cas_ticket: "" }, { bindings: cas() });
    expect(errorOf(missing, 400).detail).toBe("Expected a cas_ticket to be provided in the attributes");
    casServer(() => "<html>maintenance</html>");
    expect((await signIn({ cas_ticket: "ST-1" }, { bindings: cas() })).status).toBe(503);
    expect(await stored()).toEqual(before);
  });

  it("takes the subject from CAS_SUBJECT_ATTRIBUTE, and refuses an answer without it; the user name only where none is configured", async () => {
    const byGuid = cas({ CAS_SUBJECT_ATTRIBUTE: "ssoGuid" });
    const user = await createUser();
    casServer(() => success(user.email, user.email));
    expect(await userIdOf(tokenOf(await signIn({ cas_ticket: "ST-guid-1" }, { bindings: byGuid })))).toBe(user.id);
    expect(await linksOf(user.id)).toEqual([{ issuer: CAS_BASE_URL, subject: GUID }]);
    // The user name (TheKey's is the address) changes; the guid still signs in the same user.
    casServer(() => success("renamed@example.org", "renamed@example.org"));
    expect(await userIdOf(tokenOf(await signIn({ cas_ticket: "ST-guid-2" }, { bindings: byGuid })))).toBe(user.id);

    // An answer without the attribute is not read by the user name, which may be someone else's.
    const another = await createUser();
    casServer(() => success("another-user-name", another.email, null));
    const logged = vi.spyOn(console, "log");
    const before = await stored();
    const refused = await signIn({ cas_ticket: "ST-guid-3" }, { bindings: byGuid });
    expect(errorOf(refused, 403).detail).toBe("The CAS server did not release your ssoGuid, by which this service knows you: ask your administrator");
    expect(logged.mock.calls.map(([line]) => String(line)).join("\n")).toContain("the CAS answer lacks the subject attribute ssoGuid");
    expect(await stored()).toEqual(before);
    expect(await userIdOf(tokenOf(await signIn({ cas_ticket: "ST-user-name" }, { bindings: cas() })))).toBe(another.id);
    expect(await linksOf(another.id)).toEqual([{ issuer: CAS_BASE_URL, subject: "another-user-name" }]);
  });

  it("links by a released e-mail address only where CAS_EMAIL_VERIFIED is true; an operator's link signs in regardless", async () => {
    const user = await createUser();
    casServer(() => success("unverified-user", user.email));
    const before = await stored();
    for (const setting of ["false", ""]) {
      const response = await signIn({ cas_ticket: "ST-unverified" }, { bindings: cas({ CAS_EMAIL_VERIFIED: setting, OIDC_SIGN_UP: "open" }) });
      expect(errorOf(response, 403).detail).toBe("You have no access to this service yet: ask your administrator to add or invite you");
    }
    expect(await stored()).toEqual(before);
    const misconfigured = await signIn({ cas_ticket: "ST-unverified" }, { bindings: cas({ CAS_EMAIL_VERIFIED: "yes" }) });
    expect(errorOf(misconfigured, 503).detail).toBe("Signing in is not configured: CAS_EMAIL_VERIFIED must be true or false");
    await db.insert(schema.identityLinks).values({ id: uuid(), issuer: CAS_BASE_URL, subject: "unverified-user", userId: user.id, ...timestamps() });
    expect(await userIdOf(tokenOf(await signIn({ cas_ticket: "ST-linked" }, { bindings: cas({ CAS_EMAIL_VERIFIED: "false" }) })))).toBe(user.id);
  });

  it("refuses a new subject whose released address is a user's already linked at the CAS server: 403, nothing stored", async () => {
    const byGuid = cas({ CAS_SUBJECT_ATTRIBUTE: "ssoGuid" });
    const user = await createUser();
    const [ownerGuid, newcomerGuid] = [uuid().toUpperCase(), uuid().toUpperCase()];
    casServer(() => success(user.email, user.email, ownerGuid));
    expect(await userIdOf(tokenOf(await signIn({ cas_ticket: "ST-owner" }, { bindings: byGuid })))).toBe(user.id);
    casServer(() => success(user.email, user.email, newcomerGuid));
    const before = await stored();
    const newcomer = await signIn({ cas_ticket: "ST-newcomer" }, { bindings: byGuid });
    expect(errorOf(newcomer, 403).detail).toContain("contact your administrator");
    expect(await stored()).toEqual(before);
    expect(await linksOf(user.id)).toEqual([{ issuer: CAS_BASE_URL, subject: ownerGuid }]);
  });

  it("answers 400 for a ticket where the deployment signs in through OpenID Connect only", async () => {
    const response = await signIn({ cas_ticket: "ST-1" });
    expect(errorOf(response, 400).detail).toBe("This deployment signs in through OpenID Connect: send an id_token or access_token, not a cas_ticket");
  });
});
