/**
 * The deployment's settings (secrets and vars), checked once per isolate against a schema. A broken deployment
 * then answers 503 with what is wrong and logs it once, instead of failing every request with a 500.
 */
import * as v from "valibot";
import { ApiError } from "./jsonapi/errors";

/** HS256 keys shorter than this are guessable offline from any token; 32 characters is 128+ bits of hex. */
export const MIN_SECRET_LENGTH = 32;

const secret = (name: string) =>
  v.pipe(
    v.string(`${name} is not set`),
    v.minLength(MIN_SECRET_LENGTH, `${name} must be at least ${MIN_SECRET_LENGTH} characters long`),
  );

const SettingsSchema = v.object({
  JWT_SECRET: secret("JWT_SECRET"),
  /** The secret before the last rotation: tokens it signed are still accepted; nothing new is signed with it. */
  JWT_SECRET_PREVIOUS: v.optional(secret("JWT_SECRET_PREVIOUS")),
});

export interface Settings {
  /** Signs new tokens. */
  signingSecret: string;
  /** Verify tokens, the current secret first. */
  verificationSecrets: string[];
}

export type SettingsCheck = { ok: true; settings: Settings } | { ok: false; problems: string[] };

const unsetWhenEmpty = (value: unknown) => (value === "" ? undefined : value);

/** Checks the settings; an empty value counts as unset (a dashboard or .dev.vars line left blank). */
export function checkSettings(env: Record<string, unknown>): SettingsCheck {
  const input = { JWT_SECRET: unsetWhenEmpty(env.JWT_SECRET), JWT_SECRET_PREVIOUS: unsetWhenEmpty(env.JWT_SECRET_PREVIOUS) };
  const result = v.safeParse(SettingsSchema, input);
  if (!result.success) return { ok: false, problems: result.issues.map((issue) => issue.message) };
  const { JWT_SECRET, JWT_SECRET_PREVIOUS } = result.output;
  return {
    ok: true,
    settings: { signingSecret: JWT_SECRET, verificationSecrets: JWT_SECRET_PREVIOUS ? [JWT_SECRET, JWT_SECRET_PREVIOUS] : [JWT_SECRET] },
  };
}

/** One check per env object (one per isolate in production). */
const checked = new WeakMap<object, SettingsCheck>();
/** Problems already logged by this isolate: each is logged once, even should the runtime hand over a new env. */
const logged = new Set<string>();

export function settingsOf(env: object): SettingsCheck {
  let check = checked.get(env);
  if (!check) {
    check = checkSettings(env as Record<string, unknown>);
    checked.set(env, check);
    const key = check.ok ? "" : check.problems.join("\n");
    if (!check.ok && !logged.has(key)) {
      logged.add(key);
      console.error(JSON.stringify({ level: "error", message: "The service is not configured", problems: check.problems }));
    }
  }
  return check;
}

/** The settings, or a 503 saying what is missing (every request of a misconfigured deployment gets it). */
export function configured(env: object): Settings {
  const check = settingsOf(env);
  if (check.ok) return check.settings;
  throw new ApiError(503, check.problems.map((problem) => ({ detail: `The service is not configured: ${problem}` })));
}
