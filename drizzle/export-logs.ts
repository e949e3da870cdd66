/**
 * Contact exports: a user asks for one (its filters kept in `params`), then downloads its file once. A log belongs
 * to its user, not to an account list, so it is the directory's: the file is read from wherever the lists are.
 */
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bool, id, timestamps } from "./columns";
import { users } from "./users";

export const exportLogs = sqliteTable(
  "export_logs",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // "Contacts" or "Contacts Mailing", the original's names.
    type: text("type").notNull(),
    // The request's `params` object as JSON text, as sent.
    params: text("params").notNull(),
    exportAt: text("export_at").notNull(),
    // True until the first download: each export is downloaded once.
    active: bool("active").notNull().default(true),
    ...timestamps(),
  },
  (t) => [index("export_logs_user_id_idx").on(t.userId)],
);
