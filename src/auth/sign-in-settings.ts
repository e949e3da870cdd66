/**
 * The settings of signing in (wrangler.toml [vars]), read once per env object. Unlike JWT_SECRET (src/settings.ts),
 * a deployment without them still serves every token it issued: only the sign-in route answers 503.
 */
import { ApiError } from "../jsonapi/errors";

export const SIGN_UP_POLICIES = ["invited", "open", "none"] as const;
export type SignUpPolicy = (typeof SIGN_UP_POLICIES)[number];

export interface SignInSettings {
  /** The OpenID Connect provider's issuer, exactly as its tokens' `iss`; undefined when not configured. */
  issuer?: string;
  audiences: string[];
  signUp: SignUpPolicy;
  /**
   * The service's own client at the OpenID Connect provider, which asks the provider (token introspection) whom an
   * opaque access token was issued to; undefined when not configured, and then opaque access tokens are refused.
   */
  client?: { id: string; secret: string };
  /** The CAS server's base URL, without a trailing slash; undefined when not configured. */
  casBaseUrl?: string;
  /** The CAS attribute that is the person's subject (TheKey: `ssoGuid`); the CAS user name where it is not released. */
  casSubjectAttribute?: string;
  /** Whether the CAS server verifies the e-mail addresses it releases, so that a first sign-in may link by one. */
  casEmailVerified: boolean;
  /** How long the service's token that signing in answers is valid. */
  tokenSeconds: number;
}

export interface SignInVars {
  OIDC_ISSUER?: string;
  OIDC_AUDIENCE?: string;
  OIDC_SIGN_UP?: string;
  OIDC_CLIENT_ID?: string;
  /** A secret (`wrangler secret put`), not a var. */
  OIDC_CLIENT_SECRET?: string;
  CAS_BASE_URL?: string;
  CAS_SUBJECT_ATTRIBUTE?: string;
  CAS_EMAIL_VERIFIED?: string;
  SIGN_IN_TOKEN_DAYS?: string;
}

const DEFAULT_TOKEN_DAYS = 30;

/** A provider is reached over HTTPS; plain HTTP only on loopback, for the local provider of `npm run dev`. */
export function isProviderUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.protocol === "https:") return true;
    return url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  } catch {
    return false;
  }
}

const notConfigured = (problem: string) => new ApiError(503, [{ detail: `Signing in is not configured: ${problem}` }]);

function readSettings(env: SignInVars): SignInSettings | ApiError {
  const issuer = env.OIDC_ISSUER?.trim() || undefined;
  if (issuer && !isProviderUrl(issuer)) return notConfigured("OIDC_ISSUER must be an https:// URL");
  const casBaseUrl = env.CAS_BASE_URL?.trim().replace(/\/+$/, "") || undefined;
  if (casBaseUrl && !isProviderUrl(casBaseUrl)) return notConfigured("CAS_BASE_URL must be an https:// URL");
  const audiences = (env.OIDC_AUDIENCE ?? "").split(",").map((audience) => audience.trim()).filter(Boolean);
  if (issuer && audiences.length === 0) return notConfigured("OIDC_AUDIENCE names no audience");
  const clientId = env.OIDC_CLIENT_ID?.trim() || undefined;
  const clientSecret = env.OIDC_CLIENT_SECRET?.trim() || undefined;
  if (Boolean(clientId) !== Boolean(clientSecret)) return notConfigured("OIDC_CLIENT_ID and the secret OIDC_CLIENT_SECRET are set together, or neither");
  const casEmailVerified = env.CAS_EMAIL_VERIFIED?.trim() || "false";
  if (casEmailVerified !== "true" && casEmailVerified !== "false") return notConfigured("CAS_EMAIL_VERIFIED must be true or false");
  const signUp = (env.OIDC_SIGN_UP?.trim() || "invited") as SignUpPolicy;
  if (!SIGN_UP_POLICIES.includes(signUp)) return notConfigured(`OIDC_SIGN_UP must be one of ${SIGN_UP_POLICIES.join(", ")}`);
  const days = env.SIGN_IN_TOKEN_DAYS?.trim() ? Number(env.SIGN_IN_TOKEN_DAYS) : DEFAULT_TOKEN_DAYS;
  if (!Number.isFinite(days) || days <= 0 || days > 365) return notConfigured("SIGN_IN_TOKEN_DAYS must be a number of days from 1 to 365");
  return {
    issuer,
    audiences,
    client: clientId && clientSecret ? { id: clientId, secret: clientSecret } : undefined,
    signUp,
    casBaseUrl,
    casSubjectAttribute: env.CAS_SUBJECT_ATTRIBUTE?.trim() || undefined,
    casEmailVerified: casEmailVerified === "true",
    tokenSeconds: Math.round(days * 86_400),
  };
}

const read = new WeakMap<object, SignInSettings | ApiError>();

/** The sign-in settings, or a 503 saying what is wrong with them. */
export function signInSettings(env: SignInVars): SignInSettings {
  let settings = read.get(env);
  if (!settings) {
    settings = readSettings(env);
    read.set(env, settings);
  }
  if (settings instanceof ApiError) throw settings;
  return settings;
}
