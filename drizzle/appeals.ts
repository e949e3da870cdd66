/** Appeals, the contacts asked in them, and the contacts excluded from them (with the reasons). */
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";
import { bool, id, money, timestamps } from "./columns";
import { contacts } from "./contacts";

export const appeals = sqliteTable(
  "appeals",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    amount: money("amount"),
    description: text("description"),
    endDate: text("end_date"),
    active: bool("active").notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    index("appeals_account_list_id_created_at_idx").on(t.accountListId, t.createdAt, t.id),
    index("appeals_account_list_id_updated_at_idx").on(t.accountListId, t.updatedAt, t.id),
    index("appeals_account_list_id_name_idx").on(t.accountListId, t.name),
  ],
);

export const appealContacts = sqliteTable(
  "appeal_contacts",
  {
    id: id(),
    appealId: text("appeal_id")
      .notNull()
      .references(() => appeals.id, { onDelete: "cascade" }),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("appeal_contacts_appeal_id_contact_id_unique").on(t.appealId, t.contactId),
    index("appeal_contacts_contact_id_idx").on(t.contactId),
  ],
);

/** `reasons`: the exclusion_filter keys that matched the contact, e.g. ["no_appeals", "stopped_giving_range"]. */
export const appealExcludedContacts = sqliteTable(
  "appeal_excluded_contacts",
  {
    id: id(),
    appealId: text("appeal_id")
      .notNull()
      .references(() => appeals.id, { onDelete: "cascade" }),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    reasons: text("reasons", { mode: "json" }).$type<string[]>(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("appeal_excluded_contacts_appeal_id_contact_id_unique").on(t.appealId, t.contactId),
    index("appeal_excluded_contacts_contact_id_idx").on(t.contactId),
  ],
);
