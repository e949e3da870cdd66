/**
 * Notification types (the twenty fixed kinds, keyed by `key`), each account list's preference for how it is
 * told of one (app, e-mail, task), and the notifications raised for its contacts.
 */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";
import { bool, id, timestamps } from "./columns";
import { contacts } from "./contacts";
import { donations } from "./donations";
import { users } from "./users";

export const notificationTypes = sqliteTable(
  "notification_types",
  {
    id: id(),
    key: text("key").notNull(),
    description: text("description"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("notification_types_key_unique").on(t.key)],
);

export const notificationPreferences = sqliteTable(
  "notification_preferences",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    notificationTypeId: text("notification_type_id")
      .notNull()
      .references(() => notificationTypes.id, { onDelete: "cascade" }),
    app: bool("app").notNull().default(false),
    email: bool("email").notNull().default(false),
    task: bool("task").notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("notification_preferences_account_list_id_notification_type_id_unique").on(
      t.accountListId,
      t.notificationTypeId,
    ),
    index("notification_preferences_account_list_id_created_at_idx").on(t.accountListId, t.createdAt, t.id),
    index("notification_preferences_notification_type_id_idx").on(t.notificationTypeId),
    index("notification_preferences_user_id_idx").on(t.userId),
  ],
);

/**
 * Notifications raised by the events of src/events: one row per event, whatever the retries, because `event_key`
 * (the type, the record it is about and the occurrence, e.g. `stopped_giving:<contact>:<last gift date>`) is unique.
 * The row also records what the list's preference asked for when it was raised and what has been done about it, so
 * that a run that stopped half-way finishes the job and a finished one is never done again.
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    notificationTypeId: text("notification_type_id")
      .notNull()
      .references(() => notificationTypes.id, { onDelete: "cascade" }),
    donationId: text("donation_id").references(() => donations.id, { onDelete: "set null" }),
    eventDate: text("event_date").notNull(),
    eventKey: text("event_key").notNull(),
    cleared: bool("cleared").notNull().default(false),
    // The channels the preference turned on when the event was raised: `app` rows are the ones the API lists.
    app: bool("app").notNull().default(false),
    wantsTask: bool("wants_task").notNull().default(false),
    wantsEmail: bool("wants_email").notNull().default(false),
    // Set in the same batch as the task's insert: a task removed later (cleared, deleted) is not made again.
    taskCreatedAt: text("task_created_at"),
    // The run's digest that took this notification (`<account list>:<run time>`); null until one does.
    digestKey: text("digest_key"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("notifications_event_key_unique").on(t.eventKey),
    index("notifications_account_list_id_created_at_idx").on(t.accountListId, t.createdAt, t.id),
    index("notifications_account_list_id_event_date_idx").on(t.accountListId, t.eventDate),
    index("notifications_contact_id_type_idx").on(t.contactId, t.notificationTypeId, t.eventDate),
    index("notifications_notification_type_id_idx").on(t.notificationTypeId),
    index("notifications_donation_id_idx").on(t.donationId),
    index("notifications_digest_key_idx").on(t.digestKey),
    // The notifications still waiting for their task or their digest, read without walking the list's others.
    index("notifications_pending_task_idx").on(t.accountListId).where(sql`wants_task = 1 AND task_created_at IS NULL AND cleared = 0`),
    index("notifications_pending_email_idx").on(t.accountListId).where(sql`wants_email = 1 AND digest_key IS NULL AND cleared = 0`),
  ],
);

/**
 * E-mails (and mobile reminders) to send: each is recorded here, under a unique `dedupe_key`, before anything is
 * sent, and is sent at most once (see src/events/outbox.ts). Digests name their notifications by `digest_key`;
 * task reminders name their task.
 */
export const notificationOutbox = sqliteTable(
  "notification_outbox",
  {
    id: id(),
    dedupeKey: text("dedupe_key").notNull(),
    // "digest" (the notifications of one run), "task_reminder" or "webhook_disabled".
    kind: text("kind").notNull(),
    // "email", or "mobile": recorded for a push provider (none is configured; see docs/decisions.md).
    channel: text("channel").notNull(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    digestKey: text("digest_key"),
    taskId: text("task_id"),
    // A webhook endpoint that was disabled (kind "webhook_disabled").
    webhookId: text("webhook_id"),
    dueAt: text("due_at").notNull(),
    // Set when a sender takes the row, before it sends: a row taken and never finished is not sent again.
    attemptedAt: text("attempted_at"),
    sentAt: text("sent_at"),
    messageId: text("message_id"),
    error: text("error"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("notification_outbox_dedupe_key_unique").on(t.dedupeKey),
    index("notification_outbox_pending_idx").on(t.dueAt).where(sql`attempted_at IS NULL AND channel = 'email'`),
    index("notification_outbox_account_list_id_idx").on(t.accountListId),
    index("notification_outbox_user_id_idx").on(t.userId),
  ],
);

/** Notification runs of a list that failed every retry (the dead-letter queue's record). */
export const notificationRunFailures = sqliteTable(
  "notification_run_failures",
  {
    id: id(),
    accountListId: text("account_list_id").notNull(),
    runAt: text("run_at").notNull(),
    attempts: integer("attempts").notNull(),
    error: text("error"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("notification_run_failures_list_run_unique").on(t.accountListId, t.runAt)],
);
