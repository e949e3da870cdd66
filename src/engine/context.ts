import type { Context } from "hono";
import type { AppEnv } from "../env";
import { mergeParams, paramsFromJson, parseQueryString, type Params } from "../jsonapi/params";
import { parseJsonBody } from "../jsonapi/request-document";
import { nowTimestamp } from "../jsonapi/time";
import type { RequestContext } from "./define";
import { noteDatabaseWritten } from "../webhooks/dispatch";

export function requestContext(c: Context<AppEnv>, bodyParams?: Params): RequestContext {
  const query = parseQueryString(new URL(c.req.url).searchParams);
  const pathParams: Record<string, string> = {};
  for (const [key, value] of Object.entries(c.req.param() as Record<string, string>)) pathParams[key] = value.toLowerCase();
  return {
    db: c.get("db"),
    directory: c.get("directory"),
    databaseName: c.get("databaseName"),
    databaseOn: c.get("databaseOn"),
    alsoWrote: (name) => noteDatabaseWritten(c, name),
    viewer: c.get("viewer"),
    env: c.env,
    now: nowTimestamp(),
    params: bodyParams ? mergeParams(query, bodyParams) : query,
    pathParams,
    createdId: c.get("createdId"),
    listPart: c.get("item")?.part?.list,
    summaryPart: c.get("item")?.part?.summary,
  };
}

export async function readBody(c: Context<AppEnv>): Promise<unknown> {
  return parseJsonBody(await c.req.text());
}

/** `POST <list path>` with `X-HTTP-Method-Override: GET` is a list read whose parameters are in the body. */
export function isListOverride(c: Context<AppEnv>): boolean {
  return c.req.method === "POST" && c.req.header("x-http-method-override")?.toUpperCase() === "GET";
}

export async function overrideParams(c: Context<AppEnv>): Promise<Params> {
  const text = await c.req.text();
  return text.trim() === "" ? {} : paramsFromJson(parseJsonBody(text));
}
