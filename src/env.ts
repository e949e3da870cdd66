import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SessionBinding } from "./db/session";

export interface Bindings {
  DB: D1Database;
  BATCH_QUEUE: Queue<BackgroundBatchMessage>;
  JWT_SECRET: string;
  /** Per-user request budget; optional so a deployment may go without. */
  API_RATE_LIMIT?: RateLimit;
  /** Per-user budget of batch items, charged in blocks (see src/auth/rate-limit.ts); optional likewise. */
  API_BATCH_RATE_LIMIT?: RateLimit;
  /** Seconds a user's account lists are remembered per isolate (see src/auth/viewer-cache.ts); 0 or unset: off. */
  VIEWER_CACHE_SECONDS?: string;
  /** Comma-separated allowed CORS origins, or "*". */
  CORS_ORIGINS?: string;
}

export interface BackgroundBatchMessage {
  requestId: string;
}

/** The query builder over the D1 binding; `$client` is the binding itself (for hand-written statements). */
export type Database = DrizzleD1Database & { $client: D1Database };

/** The signed-in user and the account lists they may read (users and coaches) and write (users only). */
export interface Viewer {
  id: string;
  timeZone: string;
  defaultAccountListId: string | null;
  readableListIds: string[];
  writableListIds: string[];
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    db: Database;
    /** The request's D1 session (src/db/session.ts), under `db`; the batch endpoint hands it to its items. */
    session: SessionBinding;
    viewer: Viewer;
    /** The id a create without a client id takes (a background request's own id; see RequestContext.createdId). */
    createdId?: string;
    /** Set when the request is an item of POST /api/v2/batch. */
    insideBatch?: boolean;
  };
}
