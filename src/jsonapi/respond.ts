import type { Context } from "hono";
import { isStreamedDocument } from "../engine/streamed-list";

export const JSONAPI_CONTENT_TYPE = "application/vnd.api+json; charset=utf-8";

/**
 * The security headers of every answer (CONTRACT §1). The app sets them on each response; answers recorded without
 * the app (batch items refused before they are dispatched) carry them from here too, so no answer lacks them.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Frame-Options": "SAMEORIGIN",
  "X-Content-Type-Options": "nosniff",
  "X-XSS-Protection": "0",
  "X-Download-Options": "noopen",
  "X-Permitted-Cross-Domain-Policies": "none",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Strict-Transport-Security": "max-age=15552000; includeSubDomains",
};

/** The header naming each answer's request, for logs and support. */
export const REQUEST_ID_HEADER = "X-Request-Id";

export const newRequestId = (): string => crypto.randomUUID();

/** The headers every answer carries whatever its status: the security headers and a request id of its own. */
export function everyAnswerHeaders(): Record<string, string> {
  return { ...SECURITY_HEADERS, [REQUEST_ID_HEADER]: newRequestId() };
}

/**
 * The ETag of a GET answer, computed from the text already in hand; the app's etag middleware then uses it (and
 * answers If-None-Match with 304) instead of cloning and re-reading the response stream.
 */
async function etagOf(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", bytes));
  let hex = "";
  for (const byte of digest) hex += HEX[byte];
  return `"${hex}"`;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
const encoder = new TextEncoder();

export async function jsonApi(c: Context, document: unknown, status: 200 | 201 = 200, headers: Record<string, string> = {}): Promise<Response> {
  const answer: Record<string, string> = { "Content-Type": JSONAPI_CONTENT_TYPE, ...headers };
  if (isStreamedDocument(document)) {
    // Sent as it is read (src/engine/streamed-list.ts): no ETag, which would need the whole body first.
    c.set("streamed", true);
    return c.body(document.streamed, status, answer);
  }
  if (status === 200 && (c.req.method === "GET" || c.req.method === "HEAD")) {
    // Encoded once: the same bytes are hashed and sent.
    const bytes = encoder.encode(JSON.stringify(document)) as Uint8Array<ArrayBuffer>;
    answer.ETag = await etagOf(bytes);
    return c.body(bytes, status, answer);
  }
  return c.body(JSON.stringify(document), status, answer);
}

export function noContent(c: Context): Response {
  return c.body(null, 204);
}
