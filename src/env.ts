import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SessionBinding } from "./db/session";

/**
 * The bindings: `Env` is generated from wrangler.toml by `npm run types` (worker-configuration.d.ts, checked in
 * CI); added here are what the config cannot describe: the queue's message type and the optional settings.
 */
export interface Bindings extends Omit<Env, "BATCH_QUEUE" | "NOTIFICATION_QUEUE" | "IMPORT_QUEUE"> {
  BATCH_QUEUE: Queue<BackgroundBatchMessage>;
  NOTIFICATION_QUEUE: Queue<NotificationRunMessage>;
  IMPORT_QUEUE: Queue<ImportRunMessage>;
  /** The secret before the last rotation (src/settings.ts); optional. */
  JWT_SECRET_PREVIOUS?: string;
}

export interface BackgroundBatchMessage {
  requestId: string;
}

/** One account list's notification run (src/events); `runAt` is the run's time, whose day is "today". */
export interface NotificationRunMessage {
  accountListId: string;
  runAt: string;
}

/** An import to run, or to go on running (src/resources/imports/run.ts). */
export interface ImportRunMessage {
  importId: string;
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
    /** Set when the answer's body is streamed (a large list page): it gets no ETag. */
    streamed?: boolean;
  };
}
