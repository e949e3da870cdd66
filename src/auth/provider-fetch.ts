/**
 * Requests to an identity provider (its discovery document, keys, userinfo, CAS ticket validation). A provider that
 * is down, slow or answers nonsense makes signing in answer 503 with Retry-After, never a 500, and never a wait past
 * PROVIDER_TIMEOUT_MS. Tokens the service already issued do not depend on the provider.
 */
import { ApiError } from "../jsonapi/errors";

export const PROVIDER_TIMEOUT_MS = 5_000;
/** Answers from a provider are small; a larger one is not read. */
const MAX_ANSWER_BYTES = 256 * 1024;

export class ProviderUnavailableError extends Error {}

export const providerUnavailable = () =>
  new ApiError(503, [{ detail: "The identity provider cannot be reached: retry in a moment" }], { "Retry-After": "30" });

function log(problem: string, url: string): void {
  console.error(JSON.stringify({ level: "error", message: "identity provider unavailable", problem, url: new URL(url).origin + new URL(url).pathname }));
}

/** The provider's answer (any status), or ProviderUnavailableError when it cannot be had in time. */
export async function fetchFromProvider(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    log(error instanceof Error ? `${error.name}: ${error.message}` : String(error), url);
    throw new ProviderUnavailableError("unreachable");
  }
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    log(`an answer of ${declared} bytes`, url);
    throw new ProviderUnavailableError("too large");
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    log(error instanceof Error ? `${error.name}: ${error.message}` : String(error), url);
    throw new ProviderUnavailableError("unreadable");
  }
  if (text.length > MAX_ANSWER_BYTES) {
    log(`an answer of ${text.length} characters`, url);
    throw new ProviderUnavailableError("too large");
  }
  return { status: response.status, headers: response.headers, text };
}

/** A JSON object the provider must answer with 200; anything else means it is not working. */
export async function providerJson(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const answer = await fetchFromProvider(url, { ...init, headers: { Accept: "application/json", ...init.headers } });
  if (answer.status !== 200) {
    log(`status ${answer.status}`, url);
    throw new ProviderUnavailableError(`status ${answer.status}`);
  }
  return parseJsonObject(answer.text, url);
}

export function parseJsonObject(text: string, url: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  log("an answer that is not a JSON object", url);
  throw new ProviderUnavailableError("not JSON");
}
