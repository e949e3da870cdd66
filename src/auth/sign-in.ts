/**
 * Signing in and out: `POST /api/v2/user/authenticate` exchanges what the organization's identity provider gave the
 * client (an OpenID Connect ID token or access token, or a CAS service ticket) for the service's own token, as
 * src/auth/token.ts mints them; `DELETE` with the service's token signs its user out everywhere: every token of theirs
 * minted until then is refused (src/auth/middleware.ts), within the viewer cache's lifetime in other isolates.
 *
 * Refusals say what a client can act on and no more (which check a token failed is logged, never answered), and
 * store nothing. Attempts are counted per client address, an IPv6 one by its /64 (SIGN_IN_RATE_LIMIT), before any
 * token is looked at.
 */
import { eq, sql } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { users } from "../../drizzle/schema";
import { readBody } from "../engine/context";
import type { AppEnv, Database } from "../env";
import { ApiError, badRequest, unauthorized } from "../jsonapi/errors";
import { JSONAPI_CONTENT_TYPE } from "../jsonapi/respond";
import { readResourceDocument } from "../jsonapi/request-document";
import { configured } from "../settings";
import { CasTicketRefusedError, validateCasTicket } from "./cas";
import { userForIdentity, type ProviderIdentity } from "./identities";
import { introspect, looksLikeJwt, OpaqueTokenUncheckableError, TokenRefusedError, userinfo, verifyProviderJwt, type ProviderClaims } from "./oidc";
import { ProviderUnavailableError, providerUnavailable } from "./provider-fetch";
import { signInBudgetKey, tooManyRequests } from "./rate-limit";
import { signInSettings, type SignInSettings } from "./sign-in-settings";
import { mintToken } from "./token";
import { forgetViewer } from "../accounts/viewer-cache";

export const SIGN_IN_PATH = "/api/v2/user/authenticate";
export const SIGN_IN_TYPE = "authenticate";
/** Far longer than any provider's token; a longer one is refused before it is parsed. */
export const MAX_CREDENTIAL_LENGTH = 16 * 1024;
const CREDENTIALS = ["id_token", "access_token", "cas_ticket"] as const;
type Credential = (typeof CREDENTIALS)[number];

const refused = () => unauthorized("The identity provider's token is not valid for this service: sign in again");
const sendTheIdToken = () => unauthorized("This service cannot check the identity provider's opaque access tokens: send the ID token (id_token) instead");

function log(reason: string, fields: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ level: "info", message: "sign-in refused", reason, ...fields }));
}

/** The one credential the body carries. */
function credentialOf(body: unknown, settings: SignInSettings): { kind: Credential; value: string } {
  const { attributes } = readResourceDocument(body, [SIGN_IN_TYPE]);
  const unknown = Object.keys(attributes).find((name) => !(CREDENTIALS as readonly string[]).includes(name));
  if (unknown) throw badRequest(`Unknown attribute ${unknown}: send one of ${CREDENTIALS.join(", ")}`, { pointer: `/data/attributes/${unknown}` });
  const sent = CREDENTIALS.filter((name) => attributes[name] !== undefined && attributes[name] !== null && attributes[name] !== "");
  if (sent.length > 1) throw badRequest(`Send only one of ${sent.join(", ")}`, { pointer: `/data/attributes/${sent[1]}` });
  const kind = sent[0];
  if (!kind) {
    // A deployment that takes CAS tickets answers in the original's words; its web app posts a ticket.
    const expected = settings.casBaseUrl ? "a cas_ticket" : "an id_token or access_token";
    throw badRequest(`Expected ${expected} to be provided in the attributes`, { pointer: "/data/attributes" });
  }
  const value = attributes[kind];
  if (typeof value !== "string") throw badRequest(`${kind} must be a string`, { pointer: `/data/attributes/${kind}` });
  if (value.length > MAX_CREDENTIAL_LENGTH) throw badRequest(`${kind} is longer than ${MAX_CREDENTIAL_LENGTH} characters`, { pointer: `/data/attributes/${kind}` });
  return { kind, value };
}

const stringClaim = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

function identityFromClaims(issuer: string, claims: ProviderClaims): ProviderIdentity {
  const [first, ...rest] = (stringClaim(claims.name) ?? "").split(/\s+/);
  return {
    issuer,
    subject: claims.sub,
    email: stringClaim(claims.email),
    // Entra ID states no email_verified; its optional claim xms_edov says the address's domain owner verified it.
    emailVerified: claims.email_verified === true || (claims as { xms_edov?: unknown }).xms_edov === true,
    firstName: stringClaim(claims.given_name) ?? (first || undefined),
    lastName: stringClaim(claims.family_name) ?? (rest.join(" ") || undefined),
  };
}

/** The person an ID token or access token names, as the provider vouches for them. */
async function oidcIdentity(settings: SignInSettings, kind: "id_token" | "access_token", token: string): Promise<ProviderIdentity> {
  const issuer = settings.issuer;
  if (!issuer) throw new ApiError(503, [{ detail: "Signing in is not configured: OIDC_ISSUER is not set" }]);
  const oidc = { issuer, audiences: settings.audiences, client: settings.client };
  if (kind === "id_token" || looksLikeJwt(token)) {
    const claims = await verifyProviderJwt(oidc, token, kind);
    // An access token often names the person without their e-mail address: the provider's userinfo has it.
    if (kind === "access_token" && claims.email_verified !== true) {
      const more = await userinfo(issuer, token);
      if (more.sub === claims.sub) return identityFromClaims(issuer, { ...claims, ...more });
    }
    return identityFromClaims(issuer, claims);
  }
  // Userinfo answers for any token of the person, whichever application it was issued to: introspection says which.
  const introspected = await introspect(oidc, token);
  const claims = await userinfo(issuer, token);
  if (introspected.sub !== undefined && introspected.sub !== claims.sub) throw new TokenRefusedError("userinfo names another subject than introspection");
  return identityFromClaims(issuer, claims);
}

async function casIdentity(c: Context<AppEnv>, settings: SignInSettings, ticket: string): Promise<ProviderIdentity> {
  if (!settings.casBaseUrl) throw badRequest("This deployment signs in through OpenID Connect: send an id_token or access_token, not a cas_ticket", { pointer: "/data/attributes/cas_ticket" });
  // The service the ticket was issued for: this route's own URL, as the client asked the CAS server for it.
  const url = new URL(c.req.url);
  const person = await validateCasTicket(settings.casBaseUrl, ticket, `${url.origin}${url.pathname}`);
  // A user name may pass to someone else (TheKey's is the e-mail address); an attribute such as ssoGuid does not, so
  // where one is configured an answer without it is refused rather than read by the user name.
  const attribute = settings.casSubjectAttribute;
  const subject = attribute ? person.attributes[attribute] : person.user;
  if (!subject) {
    log(`the CAS answer lacks the subject attribute ${attribute}`, { credential: "cas_ticket" });
    throw new ApiError(403, [{ detail: `The CAS server did not release your ${attribute}, by which this service knows you: ask your administrator` }]);
  }
  const email = person.attributes.email;
  // CAS has no claim saying an address is verified: the deployment says whether its server verifies them.
  return { issuer: settings.casBaseUrl, subject, email, emailVerified: settings.casEmailVerified && Boolean(email), firstName: person.attributes.firstName, lastName: person.attributes.lastName };
}

async function signIn(c: Context<AppEnv>) {
  const limiter = c.env.SIGN_IN_RATE_LIMIT;
  if (limiter && !(await limiter.limit({ key: signInBudgetKey(c.req.header("cf-connecting-ip")) })).success) throw tooManyRequests();
  const secrets = configured(c.env);
  const settings = signInSettings(c.env);
  const { kind, value } = credentialOf(await readBody(c), settings);
  let identity: ProviderIdentity;
  try {
    identity = kind === "cas_ticket" ? await casIdentity(c, settings, value) : await oidcIdentity(settings, kind, value);
  } catch (error) {
    if (error instanceof ProviderUnavailableError) throw providerUnavailable();
    if (error instanceof TokenRefusedError) {
      log(error.message, { credential: kind });
      throw refused();
    }
    if (error instanceof OpaqueTokenUncheckableError) {
      log(error.message, { credential: kind });
      throw sendTheIdToken();
    }
    if (error instanceof CasTicketRefusedError) {
      log(error.code, { credential: kind });
      throw unauthorized(error.message);
    }
    throw error;
  }
  const user = await userForIdentity(c.env, c.get("directory"), identity, settings.signUp);
  const token = await mintToken(secrets.signingSecret, user.id, settings.tokenSeconds, user.tokenGeneration);
  const document = { data: { id: "", type: SIGN_IN_TYPE, attributes: { json_web_token: token } } };
  return c.body(JSON.stringify(document), 200, { "Content-Type": JSONAPI_CONTENT_TYPE, "Cache-Control": "no-store" });
}

/**
 * Signing the user out everywhere: every token minted until now is refused. A statement, to run alone or in the batch
 * of another change (unlinking the user's identity).
 */
export function signOutEverywhere(directory: Database, userId: string) {
  // The next generation, counted in SQL: two sign-outs at once are two, and every token minted before either is refused.
  return directory.update(users).set({ tokenGeneration: sql`${users.tokenGeneration} + 1` }).where(eq(users.id, userId));
}

async function signOut(c: Context<AppEnv>) {
  const viewer = c.get("viewer");
  await signOutEverywhere(c.get("directory"), viewer.id);
  forgetViewer(viewer.id);
  return c.body(null, 204);
}

/** Signing in needs no token: registered before the API's authentication. */
export function registerSignIn(app: Hono<AppEnv>): void {
  app.post(SIGN_IN_PATH, signIn);
}

/** Signing out is an authenticated request like any other. */
export function registerSignOut(app: Hono<AppEnv>): void {
  app.delete(SIGN_IN_PATH, signOut);
}
