import type { Context } from "hono";
import type { AppEnv } from "../env";
import { mergeParams, paramsFromJson, parseQueryString, type Params } from "../jsonapi/params";
import { parseJsonBody } from "../jsonapi/request-document";
import { nowTimestamp } from "../jsonapi/time";
import type { RequestContext } from "./define";

/**
 * The request's parameters: its query string, and the body of a read sent as POST (src/jsonapi/method-override.ts)
 * merged over it (CONTRACT §1). Read once per request: the body may be large, and the database a request runs on
 * (src/routing.ts) and its handler read the same parameters. A body that cannot be read throws each time it is asked.
 */
export function requestParams(c: Context<AppEnv>): Params {
  const known = c.get("params");
  if (known) return known;
  const query = parseQueryString(new URL(c.req.url).searchParams);
  const sent = c.get("sentBody")?.text ?? "";
  const params = sent.trim() === "" ? query : mergeParams(query, paramsFromJson(parseJsonBody(sent)));
  c.set("params", params);
  return params;
}

export function requestContext(c: Context<AppEnv>): RequestContext {
  const pathParams: Record<string, string> = {};
  for (const [key, value] of Object.entries(c.req.param() as Record<string, string>)) pathParams[key] = value.toLowerCase();
  return {
    db: c.get("db"),
    directory: c.get("directory"),
    databaseName: c.get("databaseName"),
    databaseOn: c.get("databaseOn"),
    alsoWrote: (name) => c.get("sessions").written.add(name),
    viewer: c.get("viewer"),
    env: c.env,
    now: nowTimestamp(),
    // Its own top level: a handler may add to its parameters (a sidepost's `include`) without changing the request's.
    params: { ...requestParams(c) },
    pathParams,
    createdId: c.get("createdId"),
    listDatabases: c.get("listDatabases"),
    log: (fields) => c.set("logFields", { ...c.get("logFields"), ...fields }),
  };
}

export async function readBody(c: Context<AppEnv>): Promise<unknown> {
  return parseJsonBody(await c.req.text());
}
