/** Organizations (the fundraising systems donations come from) and the users' logins to them. */
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bool, id, timestamps } from "./columns";
import { users } from "./users";

export const organizations = sqliteTable("organizations", {
  id: id(),
  name: text("name").notNull(),
  apiClass: text("api_class"),
  helpEmail: text("help_email"),
  oauth: bool("oauth").notNull().default(false),
  ...timestamps(),
});

export const organizationAccounts = sqliteTable(
  "organization_accounts",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    username: text("username"),
    ...timestamps(),
  },
  (t) => [
    index("organization_accounts_user_id_idx").on(t.userId),
    index("organization_accounts_organization_id_idx").on(t.organizationId),
  ],
);
