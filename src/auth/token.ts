/**
 * Access tokens: HS256 JWTs with `user_id`, `iat`, `exp` and `gen`, signed with the JWT_SECRET binding. The same code
 * mints tokens for signing in, the CLI and the background-batch consumer, and verifies them for the API. `gen` is the
 * user's sign-out generation when the token was minted (users.token_generation): signing out everywhere moves the
 * user to the next one, and tokens of the earlier ones are refused (src/auth/middleware.ts).
 */
import { decode, sign, verify } from "hono/jwt";

export const TOKEN_ALGORITHM = "HS256";

export interface TokenClaims {
  user_id: string;
  exp: number;
  /** Seconds since the epoch; absent from tokens minted before signing out existed. */
  iat?: number;
  /** The user's sign-out generation when the token was minted; absent (generation 0) from tokens minted before it. */
  gen?: number;
}

/**
 * How far ahead of this isolate's clock a token's `iat` may be: other isolates' clocks differ by a little, never by
 * more. A token dated later was not minted by this service with the true time.
 */
export const MAX_CLOCK_SKEW_SECONDS = 60;

/**
 * The HMAC key of a secret, imported once per isolate: importing it costs more than checking a signature, and
 * every request checks one.
 */
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(secret, key);
  }
  return key;
}

/**
 * A token for the user, dated `now`. `generation` is the user's sign-out generation (users.token_generation) as read
 * when minting: a sign-out after that read makes the token one of an earlier generation, refused like the rest.
 */
export async function mintToken(secret: string, userId: string, expiresInSeconds = 3600, generation = 0, now = Date.now()): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  const claims: TokenClaims = { user_id: userId, iat: issuedAt, exp: issuedAt + expiresInSeconds, gen: generation };
  return sign({ ...claims }, await hmacKey(secret), TOKEN_ALGORITHM);
}

/** Whether the user signed out everywhere since the token was minted. */
export function signedOutSince(claims: TokenClaims, generation: number): boolean {
  return (claims.gen ?? 0) !== generation;
}

export class InvalidTokenError extends Error {}

/**
 * Whether a segment is written exactly as a JWT writes it: base64url without padding, with the unused low bits of
 * the last character zero. Decoders also accept `=` padding, `+` and `/`, or other last characters that decode to
 * the same bytes; a token spelled any of those ways is not the token that was signed, so it is refused.
 */
function isCanonicalBase64Url(segment: string): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(segment) || segment.length % 4 === 1) return false;
  try {
    const bytes = atob(segment.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (segment.length % 4)) % 4));
    return btoa(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") === segment;
  } catch {
    return false;
  }
}

/**
 * Verifies form, signature, algorithm, expiry and issue time strictly; `user_id` and `exp` are required. A token
 * signed with any of the secrets is accepted (the current one and, during a rotation, the previous one).
 */
export async function verifyToken(secrets: string | readonly string[], token: string): Promise<TokenClaims> {
  const segments = token.split(".");
  if (segments.length !== 3 || !segments.every(isCanonicalBase64Url)) throw new InvalidTokenError("The access token is malformed");
  let header: unknown;
  try {
    header = decode(token).header;
  } catch {
    throw new InvalidTokenError("The access token is malformed");
  }
  // A header part may decode to any JSON value (`null`, a number); only an object can name the algorithm.
  if (header === null || typeof header !== "object") throw new InvalidTokenError("The access token is malformed");
  if ((header as { alg?: unknown }).alg !== TOKEN_ALGORITHM) throw new InvalidTokenError("The access token must be signed with HS256");
  let payload: Record<string, unknown>;
  try {
    payload = await verifyWithAny(token, typeof secrets === "string" ? [secrets] : secrets);
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "JwtTokenExpired") throw new InvalidTokenError("The access token has expired");
    throw new InvalidTokenError("The access token is invalid");
  }
  if (payload === null || typeof payload !== "object") throw new InvalidTokenError("The access token is malformed");
  if (typeof payload.exp !== "number") throw new InvalidTokenError("The access token has no expiry (exp)");
  if (typeof payload.user_id !== "string" || payload.user_id === "") throw new InvalidTokenError("The access token names no user (user_id)");
  const { iat, gen } = payload;
  if ((iat !== undefined && !Number.isInteger(iat)) || (gen !== undefined && !(Number.isInteger(gen) && (gen as number) >= 0))) {
    throw new InvalidTokenError("The access token is malformed");
  }
  if (typeof iat === "number" && iat > Math.floor(Date.now() / 1000) + MAX_CLOCK_SKEW_SECONDS) throw new InvalidTokenError("The access token is dated in the future");
  return { user_id: payload.user_id, exp: payload.exp, ...(iat !== undefined ? { iat: iat as number } : {}), ...(gen !== undefined ? { gen: gen as number } : {}) };
}

/** The payload of a token whose signature one of the secrets makes; the last secret's error otherwise. */
async function verifyWithAny(token: string, secrets: readonly string[]): Promise<Record<string, unknown>> {
  for (const [index, secret] of secrets.entries()) {
    try {
      // `iat` is checked by verifyToken, with the leeway for other isolates' clocks.
      return (await verify(token, await hmacKey(secret), { alg: TOKEN_ALGORITHM, iat: false })) as Record<string, unknown>;
    } catch (error) {
      const wrongKey = error instanceof Error && error.name === "JwtTokenSignatureMismatched";
      if (!wrongKey || index === secrets.length - 1) throw error;
    }
  }
  throw new Error("No secret to verify the token with");
}
