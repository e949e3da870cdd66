/**
 * One structured JSON log line per request, for Workers Logs (`[observability]` in wrangler.toml): what was
 * asked (method, route pattern), by whom (user id), the answer (status), and its cost (duration, D1 round trips
 * and rows read), and what the handler adds (a list read's plan). Query strings are left out: they may carry an
 * access token (download links); a plan's SQL carries placeholders, not the values a request filtered by.
 */
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import type { D1Totals } from "./db/metrics";
import type { AppEnv } from "./env";

export interface RequestLogLine {
  level: "info" | "warn" | "error";
  message: "request";
  request_id: string;
  method: string;
  /** The route pattern that answered (`/api/v2/contacts/:id`), null when none matched. */
  route: string | null;
  status: number;
  duration_ms: number;
  d1_round_trips: number;
  d1_rows_read: number;
  /** False when some D1 calls did not report their rows: d1_rows_read is then a lower bound. */
  d1_rows_read_complete: boolean;
  user_id: string | null;
  /** What the handler added: a list read's plan (src/read/list-plan.ts `summarizePlan`), say. */
  [member: string]: unknown;
}

/**
 * The pattern of the handler that answered, with parameters' constraints left out (`:id`, not `:id{[0-9a-f]...}`);
 * middleware (registered for every method) is not a route.
 */
function routePattern(c: Context<AppEnv>): string | null {
  const handlers = matchedRoutes(c).filter((route) => route.method !== "ALL");
  if (!handlers.length) return null;
  return handlers[handlers.length - 1].path.replace(/(:\w+)\{.*?\}(?=\/|$)/g, "$1");
}

export function logRequest(c: Context<AppEnv>, startedAt: number, d1: D1Totals): void {
  const status = c.res.status;
  const line: RequestLogLine = {
    level: status >= 500 ? "error" : status >= 400 ? "warn" : "info",
    message: "request",
    request_id: c.get("requestId"),
    method: c.req.method,
    route: routePattern(c),
    status,
    duration_ms: Date.now() - startedAt,
    d1_round_trips: d1.roundTrips,
    d1_rows_read: d1.rowsRead,
    d1_rows_read_complete: !d1.rowsIncomplete,
    user_id: c.get("viewer")?.id ?? null,
    ...c.get("logFields"),
  };
  console.log(JSON.stringify(line));
}
