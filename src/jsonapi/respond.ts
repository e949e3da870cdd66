import type { Context } from "hono";

export const JSONAPI_CONTENT_TYPE = "application/vnd.api+json; charset=utf-8";

export function jsonApi(c: Context, document: unknown, status: 200 | 201 = 200, headers: Record<string, string> = {}): Response {
  return c.body(JSON.stringify(document), status, { "Content-Type": JSONAPI_CONTENT_TYPE, ...headers });
}

export function noContent(c: Context): Response {
  return c.body(null, 204);
}
