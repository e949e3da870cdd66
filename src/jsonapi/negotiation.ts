/**
 * JSON:API content negotiation: bodies must be sent as application/vnd.api+json (415 otherwise; a file goes as
 * multipart/form-data to the routes that take one), and an Accept header must allow an answer in JSON:API (406
 * otherwise).
 */
import type { Context, Env, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { ApiError } from "./errors";
import { isFileUpload } from "./uploads";

const JSONAPI = "application/vnd.api+json";
const ACCEPTABLE = new Set(["*/*", "application/*", "application/json", JSONAPI]);

interface MediaRange {
  type: string;
  parameters: string[];
}

function parseMediaRanges(header: string): MediaRange[] {
  return header
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => part.split(";").map((p) => p.trim()))
    // `q=0` says "not this one".
    .filter(([, ...parameters]) => !parameters.some((p) => /^q\s*=\s*0(\.0*)?$/i.test(p)))
    .map(([type, ...parameters]) => ({ type: type.toLowerCase(), parameters: parameters.map((p) => p.split("=")[0].trim().toLowerCase()) }));
}

/** Only the ext and profile parameters are allowed on the JSON:API media type (q is an Accept weight). */
function hasForbiddenParameters(range: MediaRange): boolean {
  return range.parameters.some((name) => name !== "ext" && name !== "profile" && name !== "q");
}

/** A charset parameter is tolerated on request bodies: common HTTP clients append it on their own. */
export function contentTypeAccepted(header: string | undefined): boolean {
  if (!header) return false;
  const [range] = parseMediaRanges(header);
  return range?.type === JSONAPI && range.parameters.every((p) => p === "charset" || p === "ext" || p === "profile");
}

/**
 * An Accept header is answered when it is absent or lists something this service answers: `*\/*`, `application/*`,
 * `application/json`, or JSON:API without media type parameters other than ext and profile. Anything else is 406,
 * as the original answers `text/plain`. An entry that starts with the glob (the original's own tests send
 * `*\/*q=1.2`, a malformed one) is taken as the glob.
 */
export function acceptSatisfiable(header: string | undefined): boolean {
  if (!header || header.trim() === "") return true;
  return parseMediaRanges(header).some(
    (range) => range.type.startsWith("*/*") || (ACCEPTABLE.has(range.type) && !(range.type === JSONAPI && hasForbiddenParameters(range))),
  );
}

/**
 * Content negotiation for the API's routes. `sentText` gives the body of a read sent as POST, which the method
 * override took from the request (src/jsonapi/method-override.ts): it is the request's body too.
 */
export function negotiation<E extends Env>(sentText: (c: Context<E>) => string | undefined): MiddlewareHandler<E> {
  /** The request's body as text. */
  const bodyText = async (c: Context<E>): Promise<string> => {
    const method = c.req.method;
    // A file upload is streamed to its handler: reading it here would hold the whole file in memory.
    if ((method === "POST" || method === "PUT" || method === "PATCH") && !isFileUpload(c.req.raw)) {
      // Reading through c.req caches the text, so handlers read the same body again for free.
      return c.req.text();
    }
    return sentText(c) ?? "";
  };
  return createMiddleware<E>(async (c, next) => {
    if (!acceptSatisfiable(c.req.header("accept"))) {
      throw new ApiError(406, [{ detail: `Accept must allow ${JSONAPI} (without media type parameters other than ext and profile), application/json or */*` }]);
    }
    if ((await bodyText(c)).length > 0 && !contentTypeAccepted(c.req.header("content-type"))) {
      throw new ApiError(415, [{ detail: `Requests with a body must use Content-Type: ${JSONAPI}` }]);
    }
    await next();
  });
}
