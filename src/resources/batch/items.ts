/**
 * What the batch endpoint and the background-batch consumer share: requests they run through the app itself
 * (never over the network), the endpoints those requests may not reach, and how an answer is recorded.
 */
import { isWebhookPath } from "../../engine/account-list-scope";
import { ApiError, internalError, routeNotFound } from "../../jsonapi/errors";
import { everyAnswerHeaders, JSONAPI_CONTENT_TYPE, REQUEST_ID_HEADER } from "../../jsonapi/respond";

export const INSIDE_BATCH_REFUSAL = "You cannot access this endpoint from within a batch request";

/** The path as the router will see it, loosened (case, repeated and trailing slashes) so no spelling slips through. */
function comparablePath(url: URL): string {
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Not valid percent-encoding: the router will not match it either.
  }
  return path.toLowerCase().replace(/\/{2,}/g, "/").replace(/\/+$/, "");
}

/**
 * Endpoints a batch item may not reach: anything outside the API (the operator's /admin), bulk endpoints and the
 * batch endpoint (every batch), and creating a background batch from a background batch (a batch that enqueues
 * itself would never end).
 */
export function refusalInsideBatch(method: string, url: URL, origin: "batch" | "background"): ApiError | undefined {
  const path = comparablePath(url);
  // Items act as a user: only the user's API is there for them, never the operator's surface.
  if (!path.startsWith("/api/")) return routeNotFound();
  // A stored answer is read again later: a webhook's secret, answered once, must not be kept in one.
  if (origin === "background" && method.toUpperCase() !== "GET" && isWebhookPath(path)) {
    return new ApiError(403, [{ detail: "Webhook endpoints are not managed in background batches: their answers are stored, and a secret is answered once" }]);
  }
  const refused =
    path.endsWith("/bulk") ||
    path === "/api/v2/batch" ||
    (origin === "background" && method === "POST" && path === "/api/v2/background_batches");
  return refused ? new ApiError(403, [{ detail: INSIDE_BATCH_REFUSAL }]) : undefined;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const SPECIAL_HEADER_NAMES: Record<string, string> = {
  etag: "ETag",
  "x-xss-protection": "X-XSS-Protection",
  "www-authenticate": "WWW-Authenticate",
  "content-md5": "Content-MD5",
};

/** Fetch lower-cases header names; clients of the batch answers read them as the app writes them (X-Frame-Options). */
export function canonicalHeaderName(name: string): string {
  const lower = name.toLowerCase();
  return SPECIAL_HEADER_NAMES[lower] ?? lower.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

export function headerObject(headers: Headers): Record<string, string> {
  const object: Record<string, string> = {};
  headers.forEach((value, name) => {
    object[canonicalHeaderName(name)] = value;
  });
  return object;
}

/**
 * Records an answer whose body is at most `limit` bytes, reading it as it comes (a large list page is streamed):
 * past the limit the rest is not read at all — the stream is cancelled, so the page is never built in memory —
 * and the answer is reported as too large instead.
 */
export async function recordWithin(response: Response, limit: number): Promise<{ recorded: RecordedResponse; bytes: number } | { tooLarge: true }> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel();
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  const body = new Uint8Array(bytes);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { recorded: { status: response.status, headers: headerObject(response.headers), body: new TextDecoder().decode(body) }, bytes };
}

/**
 * An item refused before it reaches the app answers as the app would: the same error document, and the headers
 * every answer carries (named as recorded answers of the app name them).
 */
export function recordError(error: ApiError): RecordedResponse {
  const headers = new Headers({ ...everyAnswerHeaders(), "Content-Type": JSONAPI_CONTENT_TYPE, ...error.headers });
  return { status: error.status, headers: headerObject(headers), body: JSON.stringify(error.toDocument(headers.get(REQUEST_ID_HEADER) ?? undefined)) };
}

/** Like the app's own answer to anything unexpected: no details leave the service. */
export function recordInternalError(): RecordedResponse {
  return recordError(internalError());
}
