import type { Context } from "hono";

export const JSONAPI_CONTENT_TYPE = "application/vnd.api+json; charset=utf-8";

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
