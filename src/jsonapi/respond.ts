import type { Context } from "hono";

export const JSONAPI_CONTENT_TYPE = "application/vnd.api+json; charset=utf-8";

/**
 * The ETag of a GET answer, computed from the text already in hand; the app's etag middleware then uses it (and
 * answers If-None-Match with 304) instead of cloning and re-reading the response stream.
 */
async function etagOf(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text)));
  return `"${Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("")}"`;
}

export async function jsonApi(c: Context, document: unknown, status: 200 | 201 = 200, headers: Record<string, string> = {}): Promise<Response> {
  const text = JSON.stringify(document);
  const answer: Record<string, string> = { "Content-Type": JSONAPI_CONTENT_TYPE, ...headers };
  if (status === 200 && (c.req.method === "GET" || c.req.method === "HEAD")) answer.ETag = await etagOf(text);
  return c.body(text, status, answer);
}

export function noContent(c: Context): Response {
  return c.body(null, 204);
}
