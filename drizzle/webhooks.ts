/**
 * Webhooks: endpoints of an account list that are sent its events (docs/webhooks.md).
 *
 * - `webhooks`: an endpoint, the event types it subscribes to (a JSON array of catalogue names or `*`) and its
 *   signing secret, encrypted at rest (src/webhooks/secrets.ts). During a rotation the previous secret signs too,
 *   until `previous_secret_until`.
 * - `webhook_events`: the outbox. Triggers on the list's tables (src/webhooks/triggers.ts) write an event inside
 *   the statement that changes the record, only when an enabled endpoint of its list subscribes to its type, with a
 *   snapshot of the row as it was written, and the body sent, once rendered (the same bytes at every attempt).
 * - `webhook_deliveries`: one event to one endpoint, written by the same trigger, unique by (event, endpoint):
 *   its id is the `webhook-id` of every attempt. `claimed_until` is the lease of the attempt under way.
 * - `webhook_manual_sends`: each test event and redelivery a list's users asked for, counted against the list's
 *   limit of such requests a minute (src/webhooks/limits.ts).
 */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";
import { bool, id, timestamps } from "./columns";

export const webhooks = sqliteTable(
  "webhooks",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description"),
    eventTypes: text("event_types").notNull().default("[]"),
    enabled: bool("enabled").notNull().default(true),
    /** `v1.<base64 of IV and AES-GCM ciphertext>` of the `whsec_` secret. */
    secret: text("secret").notNull().default(""),
    previousSecret: text("previous_secret"),
    previousSecretUntil: text("previous_secret_until"),
    disabledReason: text("disabled_reason"),
    /** The first failed attempt since the last success: five days of nothing else disables the endpoint. */
    failingSince: text("failing_since"),
    ...timestamps(),
  },
  (t) => [index("webhooks_account_list_id_created_at_idx").on(t.accountListId, t.createdAt, t.id)],
);

export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceId: text("resource_id").notNull(),
    /** The row as written (a JSON object of its columns); null for a deletion and for events built in code. */
    snapshot: text("snapshot"),
    /** An event built in code (`webhook.test`): its payload's data as is. */
    data: text("data"),
    /**
     * The body every attempt of every delivery of the event sends, rendered once, by the writer straight after the
     * write (or by the first attempt when no writer did), from the event's list alone (src/webhooks/payloads.ts);
     * null until then, and for events recorded before bodies were kept.
     */
    payload: text("payload"),
    occurredAt: text("occurred_at").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("webhook_events_account_list_id_event_type_created_at_idx").on(t.accountListId, t.eventType, t.createdAt),
    index("webhook_events_created_at_idx").on(t.createdAt),
  ],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    /** pending, delivered or failed. */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** `attempts` when the current round began (a redelivery starts a new round of retries). */
    roundStart: integer("round_start").notNull().default(0),
    lastAttemptAt: text("last_attempt_at"),
    nextAttemptAt: text("next_attempt_at").notNull(),
    responseStatus: integer("response_status"),
    responseMs: integer("response_ms"),
    responseBody: text("response_body"),
    /** The lease of the attempt under way: nobody else attempts the delivery before it lapses. */
    claimedUntil: text("claimed_until"),
    /** When its queue message was last sent; null: none sent yet. */
    queuedAt: text("queued_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_id_webhook_id_unique").on(t.eventId, t.webhookId),
    index("webhook_deliveries_webhook_id_created_at_idx").on(t.webhookId, t.createdAt, t.id),
    index("webhook_deliveries_account_list_id_idx").on(t.accountListId),
    // What the dispatcher (not yet sent) and the sweep (sent long ago) read: pending deliveries only.
    index("webhook_deliveries_pending_idx").on(t.queuedAt, t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);

export const webhookManualSends = sqliteTable(
  "webhook_manual_sends",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    /** `test` or `redeliver`. */
    kind: text("kind").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("webhook_manual_sends_account_list_id_created_at_idx").on(t.accountListId, t.createdAt)],
);
