/**
 * Donor accounts: a giver's account number in an organization's system. Contacts are linked to the donor
 * accounts whose donations are theirs.
 */
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";
import { contacts } from "./contacts";
import { organizations } from "./organizations";

export const donorAccounts = sqliteTable(
  "donor_accounts",
  {
    id: id(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    accountNumber: text("account_number").notNull(),
    name: text("name"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("donor_accounts_organization_id_account_number_unique").on(t.organizationId, t.accountNumber),
    // wildcard_search matches donor account numbers whatever the organization.
    index("donor_accounts_account_number_idx").on(t.accountNumber),
  ],
);

export const contactDonorAccounts = sqliteTable(
  "contact_donor_accounts",
  {
    id: id(),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    donorAccountId: text("donor_account_id")
      .notNull()
      .references(() => donorAccounts.id, { onDelete: "cascade" }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("contact_donor_accounts_contact_id_donor_account_id_unique").on(t.contactId, t.donorAccountId),
    // The contacts of a donor account from the index alone (a gift's partner, the triggers that follow a gift).
    index("contact_donor_accounts_donor_account_id_idx").on(t.donorAccountId, t.contactId),
  ],
);
