/** A user's own settings for the web app, by key (the app's first-run step, saved filters): the directory's alone. */
import { sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";
import { users } from "./users";

export const userOptions = sqliteTable(
  "user_options",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    value: text("value"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("user_options_user_id_key_idx").on(t.userId, t.key)],
);
