import type { Database } from "./db/client";
import type { D1Metrics } from "./db/metrics";
import type { DatabaseSessions } from "./db/session";
import type { SentBody } from "./jsonapi/method-override";
import type { Params } from "./jsonapi/params";
import type { Viewer } from "./viewer";

// Re-exported: the app's modules name the query builder and the viewer with the rest of its context.
export type { Database, Viewer };

/**
 * The bindings: `Env` is generated from wrangler.toml by `npm run types` (worker-configuration.d.ts, checked in
 * CI); added here are what the config cannot describe: the queue's message type and the optional settings.
 */
export interface Bindings extends Omit<Env, "BATCH_QUEUE" | "NOTIFICATION_QUEUE" | "IMPORT_QUEUE" | "LIST_MOVE_QUEUE" | "WEBHOOK_QUEUE"> {
  BATCH_QUEUE: Queue<BackgroundBatchMessage>;
  NOTIFICATION_QUEUE: Queue<NotificationRunMessage>;
  IMPORT_QUEUE: Queue<ImportRunMessage>;
  LIST_MOVE_QUEUE: Queue<{ accountListId: string }>;
  WEBHOOK_QUEUE: Queue<WebhookDeliveryMessage>;
  /** The secret before the last rotation (src/settings.ts); optional. */
  JWT_SECRET_PREVIOUS?: string;
  /** List databases closed to new lists, comma-separated (src/accounts/placement.ts); optional. */
  CLOSED_LIST_DATABASES?: string;
  /** Steps of a list move one queue message runs (src/admin/moves.ts); optional, 1 on the Free plan. */
  MOVE_STEPS_PER_MESSAGE?: string;
  /** The secret of the service's own client at the OpenID Connect provider (src/auth/sign-in-settings.ts); optional. */
  OIDC_CLIENT_SECRET?: string;
}

export interface BackgroundBatchMessage {
  requestId: string;
}

/** One account list's notification run (src/events); `runAt` is the run's time, whose day is "today". */
export interface NotificationRunMessage {
  accountListId: string;
  runAt: string;
}

/** One attempt of a webhook delivery (src/webhooks/delivery.ts), on the database of its list. */
export interface WebhookDeliveryMessage {
  deliveryId: string;
  accountListId: string;
}

/** An import to run, or to go on running (src/resources/imports/run.ts). */
export interface ImportRunMessage {
  importId: string;
}

/** How the service built a request it made itself (src/auth/batch-items.ts). */
export interface BatchItemContext {
  /** The caller the item acts for, when the batch already authenticated them. */
  viewer?: Viewer;
  /**
   * The batch's D1 sessions (src/db/session.ts), so that every item sees the items before it; for items that run at
   * the same time, wrapped so that their reads share round trips.
   */
  sessions?: DatabaseSessions;
  /** The batch already charged the item to the caller's batch budget (src/auth/rate-limit.ts). */
  precharged?: boolean;
  /** The id a create without a client id takes (see RequestContext.createdId). */
  createdId?: string;
  /**
   * Set when the request is one database's part of a request answered from each of the viewer's databases
   * (src/routing.ts): the database it runs on, with `viewer` narrowed to the lists placed there.
   */
  part?: { database: string; insideBatch?: boolean; metrics?: D1Metrics };
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    /** What the request's D1 calls cost (src/db/metrics.ts); a database's part counts into its request's. */
    metrics: D1Metrics;
    /** The database the request runs on: the directory, or the database of the lists it reads or writes. */
    db: Database;
    /** A list read over the viewer's lists on several databases: those databases, which it reads itself (src/routing.ts). */
    listDatabases?: string[];
    /** Members the handler adds to the request's log line (src/request-log.ts). */
    logFields?: Record<string, unknown>;
    /** The binding `db` is. */
    databaseName: string;
    /** The directory database, whatever `db` is. */
    directory: Database;
    /** The request's D1 sessions (src/db/session.ts), one per database; the batch endpoint hands them to its items. */
    sessions: DatabaseSessions;
    /** The query builder over the request's session on a list database, counted with the request's other calls. */
    databaseOn: (name: string) => Database;
    viewer: Viewer;
    /** The id a create without a client id takes (a background request's own id; see RequestContext.createdId). */
    createdId?: string;
    /** How the service built the request, when it did (a batch item, a database's part): src/auth/batch-items.ts. */
    item?: BatchItemContext;
    /** The body of a read sent as POST (src/jsonapi/method-override.ts): its parameters, beside the query string's. */
    sentBody?: SentBody;
    /** The request's parameters, read once (src/engine/context.ts `requestParams`). */
    params?: Params;
    /** Set when the request is an item of POST /api/v2/batch. */
    insideBatch?: boolean;
    /** Set when the answer's body is streamed (a large list page): it gets no ETag. */
    streamed?: boolean;
  };
}
