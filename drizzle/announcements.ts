/**
 * Announcements shown to every user, and the actions a user can take to acknowledge one. An announcement
 * is shown from `starts_at` until `ends_at` (open-ended when null), to users of `language_code` (every
 * language when null).
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

export const announcements = sqliteTable(
  "announcements",
  {
    id: id(),
    title: text("title"),
    body: text("body"),
    // "banner" or "modal".
    displayMethod: text("display_method").notNull().default("banner"),
    imageUrl: text("image_url"),
    // "default", "warning", "info", "danger" or "success".
    style: text("style").notNull().default("default"),
    languageCode: text("language_code"),
    startsAt: text("starts_at"),
    endsAt: text("ends_at"),
    ...timestamps(),
  },
  (t) => [
    index("announcements_language_code_idx").on(t.languageCode),
    index("announcements_created_at_idx").on(t.createdAt, t.id),
  ],
);

export const announcementActions = sqliteTable(
  "announcement_actions",
  {
    id: id(),
    announcementId: text("announcement_id")
      .notNull()
      .references(() => announcements.id, { onDelete: "cascade" }),
    label: text("label"),
    action: text("action"),
    style: text("style"),
    args: text("args", { mode: "json" }).$type<Record<string, unknown>>(),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [index("announcement_actions_announcement_id_position_idx").on(t.announcementId, t.position)],
);
