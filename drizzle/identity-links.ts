/**
 * Who a user is at the identity providers they sign in through: a person is known by the provider (its issuer, or
 * the CAS base URL) and the subject the provider gives them. The directory's own: a list database never joins it.
 */
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
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
  (t) => [uniqueIndex("identity_links_issuer_subject_unique").on(t.issuer, t.subject), index("identity_links_user_id_idx").on(t.userId)],
);
