/**
 * GET /api/v2/health, without a token, for uptime checks and load balancers: 200 when D1 answers a `SELECT 1`,
 * 503 otherwise. It names no version, setting or error text.
 */
import type { Context } from "hono";
import type { AppEnv } from "./env";
import { ApiError } from "./jsonapi/errors";
import { JSONAPI_CONTENT_TYPE } from "./jsonapi/respond";

export const HEALTH_PATH = "/api/v2/health";

export async function health(c: Context<AppEnv>): Promise<Response> {
  try {
    await c.get("db").$client.prepare("SELECT 1").first();
  } catch (error) {
    console.error(error);
    throw new ApiError(503, [{ detail: "The database is not reachable" }]);
  }
  return c.body(JSON.stringify({ meta: { status: "ok", database: "ok" } }), 200, { "Content-Type": JSONAPI_CONTENT_TYPE });
}
