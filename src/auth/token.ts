/**
 * Access tokens: HS256 JWTs with `user_id`, `iat` and `exp`, signed with the JWT_SECRET binding. The same code mints
 * tokens for signing in, the CLI and the background-batch consumer, and verifies them for the API. `iat` tells
 * whether a token was issued before its user signed out (src/auth/sign-in.ts).
 */
import { decode, sign, verify } from "hono/jwt";

export const TOKEN_ALGORITHM = "HS256";

export interface TokenClaims {
  user_id: string;
  exp: number;
  /** Seconds since the epoch; absent from tokens minted before signing out existed. */
  iat?: number;
}

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
 * A token for the user. `revokedThrough` is the user's last sign-out (users.tokens_revoked_through): a token minted
 * in that same second is dated the second after, so that a sign-in right after signing out is not refused with
 * the tokens before it.
 */
export async function mintToken(secret: string, userId: string, expiresInSeconds = 3600, now = Date.now(), revokedThrough?: number | null): Promise<string> {
  const issuedAt = Math.max(Math.floor(now / 1000), (revokedThrough ?? -1) + 1);
  const claims: TokenClaims = { user_id: userId, iat: issuedAt, exp: Math.floor(now / 1000) + expiresInSeconds };
  return sign({ ...claims }, await hmacKey(secret), TOKEN_ALGORITHM);
}

/** Whether a token was issued after its user last signed out (a user who never did keeps every token). */
export function issuedAfterSignOut(claims: TokenClaims, revokedThrough: number | null | undefined): boolean {
  if (revokedThrough === null || revokedThrough === undefined) return true;
  return claims.iat !== undefined && claims.iat > revokedThrough;
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
 * Verifies form, signature, algorithm and expiry strictly; both claims are required. A token signed with any of the
 * secrets is accepted (the current one and, during a rotation, the previous one).
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
  if (payload.iat !== undefined && !Number.isInteger(payload.iat)) throw new InvalidTokenError("The access token is malformed");
  return { user_id: payload.user_id, exp: payload.exp, ...(payload.iat !== undefined ? { iat: payload.iat as number } : {}) };
}

/** The payload of a token whose signature one of the secrets makes; the last secret's error otherwise. */
async function verifyWithAny(token: string, secrets: readonly string[]): Promise<Record<string, unknown>> {
  for (const [index, secret] of secrets.entries()) {
    try {
      // `iat` is not a validity check here: a token minted in the second of a sign-out is dated the next second.
      return (await verify(token, await hmacKey(secret), { alg: TOKEN_ALGORITHM, iat: false })) as Record<string, unknown>;
    } catch (error) {
      const wrongKey = error instanceof Error && error.name === "JwtTokenSignatureMismatched";
      if (!wrongKey || index === secrets.length - 1) throw error;
    }
  }
  throw new Error("No secret to verify the token with");
}
