/**
 * JSON:API content negotiation: bodies must be sent as application/vnd.api+json (415 otherwise), and an
 * Accept header that only lists JSON:API with unsupported media-type parameters gets 406.
 */
import { createMiddleware } from "hono/factory";
import { ApiError } from "./errors";

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
    .map((part) => {
      const [type, ...parameters] = part.split(";").map((p) => p.trim());
      return { type: type.toLowerCase(), parameters: parameters.map((p) => p.split("=")[0].trim().toLowerCase()) };
    });
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
 * 406 only in the one case JSON:API names: every JSON:API entry of Accept carries a parameter other than ext and
 * profile, and nothing else acceptable is listed. An Accept without any JSON:API entry, however odd (the
 * original's own tests send `*\/*q=1.2`, a malformed glob), is answered with JSON:API like no Accept at all.
 */
export function acceptSatisfiable(header: string | undefined): boolean {
  if (!header || header.trim() === "") return true;
  const ranges = parseMediaRanges(header);
  const jsonApi = ranges.filter((range) => range.type === JSONAPI);
  if (jsonApi.length === 0) return true;
  return ranges.some((range) => ACCEPTABLE.has(range.type) && !(range.type === JSONAPI && hasForbiddenParameters(range)));
}

export const negotiate = createMiddleware(async (c, next) => {
  if (!acceptSatisfiable(c.req.header("accept"))) {
    throw new ApiError(406, [{ detail: `Accept must allow ${JSONAPI} without media type parameters other than ext and profile` }]);
  }
  const method = c.req.method;
  if (method === "POST" || method === "PUT" || method === "PATCH") {
    // Reading through c.req caches the text, so handlers read the same body again for free.
    const hasBody = (await c.req.text()).length > 0;
    if (hasBody && !contentTypeAccepted(c.req.header("content-type"))) {
      throw new ApiError(415, [{ detail: `Requests with a body must use Content-Type: ${JSONAPI}` }]);
    }
  }
  await next();
});
