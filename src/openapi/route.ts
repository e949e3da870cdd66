/**
 * GET /api/v2/openapi.json, without a token: the API's description, built once per isolate from the mounted
 * routes (the app is complete by the first request).
 */
import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import { buildOpenApiDocument } from "./document";

export const OPENAPI_PATH = "/api/v2/openapi.json";

export function openApiRoute(app: Hono<AppEnv>) {
  let text: string | undefined;
  return (c: Context<AppEnv>) => {
    text ??= JSON.stringify(buildOpenApiDocument(app));
    return c.body(text, 200, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" });
  };
}
