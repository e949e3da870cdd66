/**
 * Background batches: stored requests run later by the queue consumer. A request is claimed (state
 * `running`, `claimed_at`, `attempts`) before it runs, so a redelivered message never runs it twice.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bool, id, timestamps } from "./columns";
import { users } from "./users";

export const backgroundBatches = sqliteTable(
  "background_batches",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Where the batch was created (scheme and host): its requests run as if sent there, so the absolute URLs
    // their answers carry (Location) name this service as the client reached it.
    origin: text("origin"),
    ...timestamps(),
  },
  (t) => [index("background_batches_user_id_created_at_idx").on(t.userId, t.createdAt, t.id)],
);

export const backgroundBatchRequests = sqliteTable(
  "background_batch_requests",
  {
    id: id(),
    backgroundBatchId: text("background_batch_id")
      .notNull()
      .references(() => backgroundBatches.id, { onDelete: "cascade" }),
    // Order of the request within its batch.
    position: integer("position").notNull(),
    path: text("path").notNull(),
    requestParams: text("request_params", { mode: "json" }).$type<Record<string, unknown>>(),
    requestBody: text("request_body"),
    requestHeaders: text("request_headers", { mode: "json" }).$type<Record<string, string>>(),
    requestMethod: text("request_method").notNull().default("GET"),
    defaultAccountList: bool("default_account_list").notNull().default(false),
    // "pending", "running", "done" or "failed".
    state: text("state").notNull().default("pending"),
    claimedAt: text("claimed_at"),
    // When a message for the request was last sent to the queue: a request still pending (or running under an
    // abandoned claim) a lease after that lost its message, and the sweeper sends one again (src/queue/sweeper.ts).
    enqueuedAt: text("enqueued_at"),
    attempts: integer("attempts").notNull().default(0),
    // Why the machinery (not the request) failed, kept when the message is dead-lettered.
    lastError: text("last_error"),
    responseStatus: integer("response_status"),
    responseHeaders: text("response_headers", { mode: "json" }).$type<Record<string, string>>(),
    responseBody: text("response_body"),
    ...timestamps(),
  },
  (t) => [
    index("background_batch_requests_batch_id_position_idx").on(t.backgroundBatchId, t.position),
    index("background_batch_requests_batch_id_state_idx").on(t.backgroundBatchId, t.state),
    index("background_batch_requests_state_enqueued_at_idx").on(t.state, t.enqueuedAt),
  ],
);
