/**
 * D1 read replication through the Sessions API. A request runs in one session per database it touches (the
 * directory, for the viewer, and the database of the lists it reads or writes), so everything it reads is
 * consistent with everything it wrote. Where each session starts:
 * - at the bookmark the client sends back in `X-D1-Bookmark` for that database (the header of an earlier answer):
 *   a replica that has caught up to it, so a client reads its own writes;
 * - else a read (GET, HEAD, and so a read sent as POST, src/jsonapi/method-override.ts) may start at the nearest replica;
 * - else at the primary: a write, and every request a background batch runs (each must see the requests of its
 *   batch that ran before it, whose bookmarks it was never given).
 * Writes always go to the primary, and so does reading the caller (`callerSession`). Each answer carries, for every database the request touched or the client sent
 * a bookmark for, the latest bookmark in `X-D1-Bookmark`:
 * - `<bookmark>` alone when that is the directory's only (as a deployment of one database always answers);
 * - else `<database>:<bookmark>` entries joined by commas, the directory (`DB`) first.
 * A client sends back the last header it received, unchanged. The items of one `/batch` share its sessions, so a
 * GET item after a POST item sees the POST.
 */
import { DIRECTORY, isListDatabase, databaseBinding, type SessionBinding } from "./databases";
import { ApiError } from "../jsonapi/errors";

export const BOOKMARK_HEADER = "X-D1-Bookmark";

export type { SessionBinding };

/**
 * A bookmark as D1 writes them: hex groups joined by dashes (the local simulator and the service alike). Anything
 * else is refused before D1 sees it, so a typo is a 400 rather than a failed query.
 */
const BOOKMARK = /^[0-9a-f]{1,64}(?:-[0-9a-f]{1,64}){1,8}$/i;
const ENTRY = /^([A-Z0-9_]{1,64}):(.+)$/;
const MAX_ENTRIES = 64;

/** The sessions of one request (or of one `/batch` and its items), one per database, begun on first use. */
export interface DatabaseSessions {
  session(database?: string): SessionBinding;
  /**
   * The directory at its primary, whatever the request's own session may read: who the caller is (signed out,
   * disabled) is read where a sign-out or an operator's change was written, never on a replica that has not caught
   * up with it. Its bookmark is the directory's answer when the request's own directory session was not used.
   */
  callerSession(): SessionBinding;
  /** The `X-D1-Bookmark` value to answer, or null when no database has one. */
  bookmarks(): string | null;
  /**
   * The databases the request and those run within its sessions (/batch items, database parts) wrote: their
   * recorded webhook deliveries are sent once the answer is out (src/webhooks/dispatch.ts).
   */
  readonly written: Set<string>;
}

function refused(): ApiError {
  return new ApiError(400, [{ detail: `${BOOKMARK_HEADER} is not a bookmark this service answered` }]);
}

/** The bookmarks a client sent back, by database; a malformed value or a database this Worker lacks is a 400. */
export function sentBookmarks(env: object, header: string | null | undefined): Map<string, string> {
  const sent = new Map<string, string>();
  const value = header?.trim();
  if (!value) return sent;
  const entries = value.split(",").map((entry) => entry.trim());
  if (entries.length > MAX_ENTRIES) throw refused();
  for (const entry of entries) {
    const named = ENTRY.exec(entry);
    const [database, bookmark] = named ? [named[1], named[2]] : entries.length === 1 ? [DIRECTORY, entry] : [undefined, entry];
    if (!database || !BOOKMARK.test(bookmark) || !isListDatabase(env, database) || sent.has(database)) throw refused();
    sent.set(database, bookmark);
  }
  return sent;
}

class RequestSessions implements DatabaseSessions {
  readonly written = new Set<string>();
  private readonly open = new Map<string, SessionBinding>();
  private caller?: SessionBinding;

  constructor(
    private readonly env: object,
    private readonly sent: Map<string, string>,
    private readonly start: "first-primary" | "first-unconstrained",
  ) {}

  session(database = DIRECTORY): SessionBinding {
    let session = this.open.get(database);
    if (!session) {
      session = asBinding(databaseBinding(this.env, database).withSession(this.sent.get(database) ?? this.start));
      this.open.set(database, session);
    }
    return session;
  }

  callerSession(): SessionBinding {
    return (this.caller ??= asBinding(databaseBinding(this.env, DIRECTORY).withSession("first-primary")));
  }

  bookmarks(): string | null {
    const latest = new Map(this.sent);
    const callers = this.caller?.getBookmark();
    if (callers) latest.set(DIRECTORY, callers);
    for (const [database, session] of this.open) {
      const bookmark = session.getBookmark();
      if (bookmark) latest.set(database, bookmark);
    }
    if (latest.size === 0) return null;
    if (latest.size === 1 && latest.has(DIRECTORY)) return latest.get(DIRECTORY)!;
    const names = [...latest.keys()].sort((a, b) => (a === DIRECTORY ? -1 : b === DIRECTORY ? 1 : a.localeCompare(b)));
    return names.map((name) => `${name}:${latest.get(name)}`).join(",");
  }
}

/** `atPrimary`: the request must see every write made before it (a background batch's request). */
export function requestSessions(env: object, request: Request, { atPrimary = false } = {}): DatabaseSessions {
  const sent = sentBookmarks(env, request.headers.get(BOOKMARK_HEADER));
  return new RequestSessions(env, sent, !atPrimary && isRead(request) ? "first-unconstrained" : "first-primary");
}

function isRead(request: Request): boolean {
  return request.method === "GET" || request.method === "HEAD";
}

/**
 * A session speaks the binding's statement API (prepare, batch); the query builder and the shared round trips
 * use nothing else.
 */
function asBinding(session: D1DatabaseSession): SessionBinding {
  return session as unknown as SessionBinding;
}
