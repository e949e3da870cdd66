/**
 * Who a user is at the identity providers they sign in through: a person is known by the provider (its issuer, or
 * the CAS base URL) and the subject the provider gives them. A user has at most one subject per provider: an
 * address the provider gave someone else never links a second one. The directory's own: a list database never
 * joins it.
 */
import { sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";
import { users } from "./users";

export const identityLinks = sqliteTable(
  "identity_links",
  {
    id: id(),
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ...timestamps(),
  },
  (t) => [uniqueIndex("identity_links_issuer_subject_unique").on(t.issuer, t.subject), uniqueIndex("identity_links_user_issuer_unique").on(t.userId, t.issuer)],
);
