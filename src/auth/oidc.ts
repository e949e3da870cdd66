/**
 * Checking an OpenID Connect provider's tokens (with `jose`): an ID token, or an access token that is a JWT, is
 * verified against the provider's published keys. An opaque access token is asked about twice: token introspection
 * (RFC 7662) says whom it was issued to, which userinfo never says; then userinfo says who the person is.
 *
 * OIDC_AUDIENCE lists both the service's clients (the web app's client id) and audiences of resource servers
 * (`api://default`), which every application of the provider's organization may get tokens for. A token that names
 * the client it was issued to (`client_id`, `azp`, `cid`) is taken only when that client is one of the list; only a
 * token naming no client is judged by its `aud` alone.
 *
 * The discovery document and the key set are kept per isolate. A token signed with a key the kept set lacks reads
 * the set again, but at most once a minute per set: a rotated key works at once, and a flood of made-up key ids
 * costs the provider one request a minute.
 */
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import { fetchFromProvider, parseJsonObject, providerJson, ProviderUnavailableError } from "./provider-fetch";
import { isProviderUrl } from "./sign-in-settings";

/** Only asymmetric signatures: a shared-secret (HS*) token could be made by anyone who holds the provider's public key. */
export const ASYMMETRIC_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];
/** Clock difference allowed between the provider and the Worker when checking `exp` and `nbf`. */
export const CLOCK_LEEWAY_SECONDS = 60;
const DISCOVERY_KEPT_MS = 60 * 60_000;
const KEYS_KEPT_MS = 10 * 60_000;
export const KEYS_REREAD_INTERVAL_MS = 60_000;

/** A token the provider did not issue for this service, or no longer vouches for. */
export class TokenRefusedError extends Error {}

/**
 * An opaque access token this service has no way to check: the provider offers no introspection, or the service's
 * own client at the provider is not configured. Its holder can send the ID token instead.
 */
export class OpaqueTokenUncheckableError extends Error {}

/** What the provider says about the person. */
export interface ProviderClaims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  name?: unknown;
}

interface Discovery {
  jwksUri: string;
  userinfoEndpoint?: string;
  introspectionEndpoint?: string;
}

const discoveries = new Map<string, { discovery: Discovery; until: number }>();

async function discover(issuer: string): Promise<Discovery> {
  const kept = discoveries.get(issuer);
  if (kept && kept.until > Date.now()) return kept.discovery;
  const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  const document = await providerJson(url);
  // OpenID Connect Discovery: the document's issuer is the issuer it was read from, exactly.
  if (document.issuer !== issuer || typeof document.jwks_uri !== "string") {
    console.error(JSON.stringify({ level: "error", message: "identity provider misconfigured", problem: "the discovery document names another issuer, or no jwks_uri", issuer }));
    throw new ProviderUnavailableError("discovery document");
  }
  const endpoint = (name: string) => (typeof document[name] === "string" ? (document[name] as string) : undefined);
  const discovery = { jwksUri: document.jwks_uri, userinfoEndpoint: endpoint("userinfo_endpoint"), introspectionEndpoint: endpoint("introspection_endpoint") };
  discoveries.set(issuer, { discovery, until: Date.now() + DISCOVERY_KEPT_MS });
  return discovery;
}

interface KeySet {
  resolve: ReturnType<typeof createLocalJWKSet>;
  keyIds: Set<string | undefined>;
  readAt: number;
}

const keySets = new Map<string, KeySet>();

async function readKeySet(uri: string): Promise<KeySet> {
  const document = await providerJson(uri);
  if (!Array.isArray(document.keys)) throw new ProviderUnavailableError("key set");
  let resolve: KeySet["resolve"];
  try {
    resolve = createLocalJWKSet(document as unknown as JSONWebKeySet);
  } catch {
    throw new ProviderUnavailableError("key set");
  }
  const keySet = { resolve, keyIds: new Set((document.keys as Array<{ kid?: unknown }>).map((key) => (typeof key.kid === "string" ? key.kid : undefined))), readAt: Date.now() };
  keySets.set(uri, keySet);
  return keySet;
}

/** The keys to check a token signed with key `keyId`: those kept, read again when old or (once a minute) lacking it. */
async function keysFor(uri: string, keyId: string | undefined): Promise<KeySet> {
  const kept = keySets.get(uri);
  if (!kept) return readKeySet(uri);
  const age = Date.now() - kept.readAt;
  if (age > KEYS_KEPT_MS) return readKeySet(uri);
  if (!kept.keyIds.has(keyId) && age >= KEYS_REREAD_INTERVAL_MS) return readKeySet(uri);
  return kept;
}

/** Whether a token has the form of a JWT (three dot-separated parts, the first a JSON header naming an algorithm). */
export function looksLikeJwt(token: string): boolean {
  if (token.split(".").length !== 3) return false;
  try {
    return typeof decodeProtectedHeader(token).alg === "string";
  } catch {
    return false;
  }
}

/** The claims in which a provider names the client a token was issued to: OAuth (RFC 9068, RFC 7662), OpenID Connect, Okta. */
const CLIENT_CLAIMS = ["client_id", "azp", "cid"] as const;

/** Refuses a token that names a client (in any of CLIENT_CLAIMS) other than the allowed ones, compared exactly. */
function refuseForeignClient(claims: Record<string, unknown>, allowedClients: string[]): void {
  for (const name of CLIENT_CLAIMS) {
    const client = claims[name];
    if (client !== undefined && (typeof client !== "string" || !allowedClients.includes(client))) throw new TokenRefusedError(`issued to another client (${name})`);
  }
}

/** RFC 9068: an access token says so in its header, and is never an ID token. */
const isAccessTokenType = (type: unknown) => typeof type === "string" && ["at+jwt", "application/at+jwt"].includes(type.toLowerCase());

/**
 * The claims of a JWT the provider signed for one of the audiences; TokenRefusedError for any other. As an ID token
 * (OpenID Connect Core 3.1.3.7), it must not be an access token, and one with several audiences or an `azp` must
 * name an allowed client as its `azp`.
 */
export async function verifyProviderJwt(settings: { issuer: string; audiences: string[] }, token: string, use: "id_token" | "access_token"): Promise<ProviderClaims & JWTPayload> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new TokenRefusedError("malformed");
  }
  // Refused before asking the provider for anything: no key of theirs makes these good.
  if (typeof header.alg !== "string" || !ASYMMETRIC_ALGORITHMS.includes(header.alg)) throw new TokenRefusedError("algorithm");
  if (use === "id_token" && isAccessTokenType(header.typ)) throw new TokenRefusedError("an access token (at+jwt) sent as the ID token");
  const { jwksUri } = await discover(settings.issuer);
  const keys = await keysFor(jwksUri, header.kid);
  try {
    const { payload } = await jwtVerify(token, keys.resolve, {
      issuer: settings.issuer,
      audience: settings.audiences,
      algorithms: ASYMMETRIC_ALGORITHMS,
      clockTolerance: CLOCK_LEEWAY_SECONDS,
      requiredClaims: ["sub", "exp"],
    });
    if (typeof payload.sub !== "string" || payload.sub === "") throw new TokenRefusedError("subject");
    if (use === "id_token" && ((Array.isArray(payload.aud) && payload.aud.length > 1) || payload.azp !== undefined) && (typeof payload.azp !== "string" || !settings.audiences.includes(payload.azp))) {
      throw new TokenRefusedError("an ID token for several audiences, or an azp, without an allowed azp");
    }
    refuseForeignClient(payload, settings.audiences);
    return payload as ProviderClaims & JWTPayload;
  } catch (error) {
    if (error instanceof TokenRefusedError) throw error;
    throw new TokenRefusedError(error instanceof Error ? error.name : "invalid");
  }
}

/** What the provider's userinfo endpoint says of the holder of an access token; TokenRefusedError when it refuses it. */
export async function userinfo(issuer: string, accessToken: string): Promise<ProviderClaims> {
  const { userinfoEndpoint } = await discover(issuer);
  if (!userinfoEndpoint) throw new TokenRefusedError("no userinfo endpoint");
  const answer = await fetchFromProvider(userinfoEndpoint, { headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" } });
  if (answer.status === 401 || answer.status === 403) throw new TokenRefusedError("refused by the provider");
  if (answer.status !== 200) throw new ProviderUnavailableError(`status ${answer.status}`);
  const claims = parseJsonObject(answer.text, userinfoEndpoint);
  if (typeof claims.sub !== "string" || claims.sub === "") throw new ProviderUnavailableError("userinfo without sub");
  return claims as unknown as ProviderClaims;
}

/** RFC 6749 section 2.3.1: the client id and secret are form-encoded, then joined and sent as HTTP Basic. */
function basicAuthorization(client: { id: string; secret: string }): string {
  const formEncoded = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${btoa(`${formEncoded(client.id)}:${formEncoded(client.secret)}`)}`;
}

/**
 * The introspection endpoint the discovery document names, if it may be sent the service's client secret: at the
 * issuer's own origin, over HTTPS (or loopback HTTP, as the issuer may be for `npm run dev`).
 */
function introspectionEndpointOf(issuer: string, endpoint: string): string {
  if (isProviderUrl(endpoint) && new URL(endpoint).origin === new URL(issuer).origin) return endpoint;
  console.error(JSON.stringify({ level: "error", message: "identity provider misconfigured", problem: "the discovery document's introspection_endpoint is not an https:// URL at the issuer's origin: the client secret is not sent there", issuer, endpoint }));
  throw new ProviderUnavailableError("introspection endpoint elsewhere");
}

/**
 * Checks at the provider's introspection endpoint (RFC 7662), as the service's own client, that an opaque access
 * token is active and was issued to one of the allowed clients: its `client_id` when the provider states one, its
 * `aud` only when it does not. A token another application obtained for the person, even for an audience the
 * service accepts, names that application. Answers the subject the provider states, if any.
 */
export async function introspect(settings: { issuer: string; audiences: string[]; client?: { id: string; secret: string } }, accessToken: string): Promise<{ sub?: string }> {
  if (!settings.client) throw new OpaqueTokenUncheckableError("no client credentials for introspection");
  const discovered = (await discover(settings.issuer)).introspectionEndpoint;
  if (!discovered) throw new OpaqueTokenUncheckableError("no introspection endpoint");
  const introspectionEndpoint = introspectionEndpointOf(settings.issuer, discovered);
  const answer = await fetchFromProvider(introspectionEndpoint, {
    method: "POST",
    headers: { Authorization: basicAuthorization(settings.client), "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: new URLSearchParams({ token: accessToken, token_type_hint: "access_token" }).toString(),
  });
  if (answer.status === 400 || answer.status === 401) {
    // The provider does not know the service's client: the deployment's to fix, not the person's.
    console.error(JSON.stringify({ level: "error", message: "identity provider misconfigured", problem: `token introspection answered ${answer.status}: check OIDC_CLIENT_ID and OIDC_CLIENT_SECRET`, issuer: settings.issuer }));
    throw new ProviderUnavailableError(`introspection status ${answer.status}`);
  }
  if (answer.status !== 200) {
    console.error(JSON.stringify({ level: "error", message: "identity provider unavailable", problem: `token introspection answered ${answer.status}`, issuer: settings.issuer }));
    throw new ProviderUnavailableError(`introspection status ${answer.status}`);
  }
  const result = parseJsonObject(answer.text, introspectionEndpoint);
  if (result.active !== true) throw new TokenRefusedError("inactive at introspection");
  refuseForeignClient({ client_id: result.client_id }, settings.audiences);
  if (result.client_id === undefined) {
    const audiences = Array.isArray(result.aud) ? result.aud : [result.aud];
    if (!audiences.some((audience) => typeof audience === "string" && settings.audiences.includes(audience))) throw new TokenRefusedError("issued for another audience");
  }
  if (result.iss !== undefined && result.iss !== settings.issuer) throw new TokenRefusedError("another issuer at introspection");
  if (typeof result.exp === "number" && result.exp + CLOCK_LEEWAY_SECONDS < Date.now() / 1000) throw new TokenRefusedError("expired at introspection");
  return { sub: typeof result.sub === "string" && result.sub !== "" ? result.sub : undefined };
}
