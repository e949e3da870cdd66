/**
 * D1 read replication through the Sessions API. Every request runs in one session, so everything it reads is
 * consistent with everything it wrote. Where it starts:
 * - at the bookmark the client sends back in `X-D1-Bookmark` (the header of an earlier answer): a replica that
 *   has caught up to it, so a client reads its own writes;
 * - else a read (GET, HEAD, a list read through the method override) may start at the nearest replica;
 * - else at the primary: a write, and every request a background batch runs (each must see the requests of its
 *   batch that ran before it, whose bookmarks it was never given).
 * Writes always go to the primary. Each answer carries the session's latest bookmark in `X-D1-Bookmark`. The items
 * of one `/batch` share its session, so a GET item after a POST item sees the POST.
 */
import { ApiError } from "../jsonapi/errors";

export const BOOKMARK_HEADER = "X-D1-Bookmark";

/** A D1 binding that answers the bookmark of the session it runs in. */
export type SessionBinding = D1Database & { getBookmark(): string | null };

/**
 * A bookmark as D1 writes them: hex groups joined by dashes (the local simulator and the service alike). Anything
 * else is refused before D1 sees it, so a typo is a 400 rather than a failed query.
 */
const BOOKMARK = /^[0-9a-f]{1,64}(?:-[0-9a-f]{1,64}){1,8}$/i;

/** `atPrimary`: the request must see every write made before it (a background batch's request). */
export function requestSession(binding: D1Database, request: Request, { atPrimary = false } = {}): SessionBinding {
  const sent = request.headers.get(BOOKMARK_HEADER)?.trim();
  if (sent) {
    if (!BOOKMARK.test(sent)) {
      throw new ApiError(400, [{ detail: `${BOOKMARK_HEADER} is not a bookmark this service answered` }]);
    }
    return asBinding(binding.withSession(sent));
  }
  return asBinding(binding.withSession(!atPrimary && isRead(request) ? "first-unconstrained" : "first-primary"));
}

function isRead(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD") return true;
  return request.method === "POST" && request.headers.get("X-HTTP-Method-Override")?.toUpperCase() === "GET";
}

/**
 * A session speaks the binding's statement API (prepare, batch); the query builder and the shared round trips
 * use nothing else.
 */
function asBinding(session: D1DatabaseSession): SessionBinding {
  return session as unknown as SessionBinding;
}
