/**
 * GET /api/v2/health, without a token, for uptime checks and load balancers: 200 when every D1 database (the
 * directory and each list database) answers a `SELECT 1`, asked at once; 503 otherwise. It names no version,
 * setting, database or error text.
 */
import type { Context } from "hono";
import type { AppEnv } from "./env";
import { listDatabaseNames } from "./db/databases";
import { ApiError } from "./jsonapi/errors";
import { JSONAPI_CONTENT_TYPE } from "./jsonapi/respond";

export const HEALTH_PATH = "/api/v2/health";

export async function health(c: Context<AppEnv>): Promise<Response> {
  const answers = await Promise.allSettled(listDatabaseNames(c.env).map(async (name) => c.get("databaseOn")(name).$client.prepare("SELECT 1").first()));
  const failed = answers.filter((answer): answer is PromiseRejectedResult => answer.status === "rejected");
  if (failed.length > 0) {
    for (const failure of failed) console.error(failure.reason);
    throw new ApiError(503, [{ detail: "The database is not reachable" }]);
  }
  return c.body(JSON.stringify({ meta: { status: "ok", database: "ok" } }), 200, { "Content-Type": JSONAPI_CONTENT_TYPE });
}
