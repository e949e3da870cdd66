/**
 * Pledges: a contact's commitment to give, usually to an appeal. `status` is one of not_received,
 * received_not_processed, processed.
 */
import { index, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";
import { appeals } from "./appeals";
import { id, money, timestamps } from "./columns";
import { contacts } from "./contacts";
import { donations } from "./donations";

export const pledges = sqliteTable(
  "pledges",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    appealId: text("appeal_id").references(() => appeals.id, { onDelete: "cascade" }),
    amount: money("amount").notNull(),
    amountCurrency: text("amount_currency"),
    expectedDate: text("expected_date"),
    status: text("status").notNull().default("not_received"),
    ...timestamps(),
  },
  (t) => [
    // One pledge per contact and appeal (pledges without an appeal are not constrained: NULLs are distinct).
    uniqueIndex("pledges_appeal_id_contact_id_unique").on(t.appealId, t.contactId),
    index("pledges_contact_id_idx").on(t.contactId),
    index("pledges_appeal_id_status_idx").on(t.appealId, t.status),
    index("pledges_account_list_id_created_at_idx").on(t.accountListId, t.createdAt, t.id),
  ],
);

export const pledgeDonations = sqliteTable(
  "pledge_donations",
  {
    pledgeId: text("pledge_id")
      .notNull()
      .references(() => pledges.id, { onDelete: "cascade" }),
    donationId: text("donation_id")
      .notNull()
      .references(() => donations.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.pledgeId, t.donationId] }),
    index("pledge_donations_donation_id_idx").on(t.donationId),
  ],
);
