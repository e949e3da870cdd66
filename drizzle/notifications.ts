/**
 * Notification types (the twenty fixed kinds, keyed by `key`), each account list's preference for how it is
 * told of one (app, e-mail, task), and the notifications raised for its contacts.
 */
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
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

export const notifications = sqliteTable(
  "notifications",
  {
    id: id(),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    notificationTypeId: text("notification_type_id")
      .notNull()
      .references(() => notificationTypes.id, { onDelete: "cascade" }),
    donationId: text("donation_id").references(() => donations.id, { onDelete: "set null" }),
    eventDate: text("event_date"),
    cleared: bool("cleared").notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    index("notifications_contact_id_idx").on(t.contactId),
    index("notifications_notification_type_id_idx").on(t.notificationTypeId),
    index("notifications_donation_id_idx").on(t.donationId),
  ],
);
