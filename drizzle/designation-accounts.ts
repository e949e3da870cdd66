/** Designation accounts (the funds donations are given to) and their balance history. */
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";
import { bool, id, money, timestamps } from "./columns";
import { organizations } from "./organizations";

export const designationAccounts = sqliteTable(
  "designation_accounts",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").references(() => organizations.id, { onDelete: "set null" }),
    designationNumber: text("designation_number"),
    legacyDesignationNumber: text("legacy_designation_number"),
    name: text("name"),
    balance: money("balance"),
    balanceUpdatedAt: text("balance_updated_at"),
    currency: text("currency"),
    active: bool("active").notNull().default(true),
    staffAccountId: text("staff_account_id"),
    ...timestamps(),
  },
  (t) => [
    index("designation_accounts_account_list_id_created_at_idx").on(t.accountListId, t.createdAt, t.id),
    index("designation_accounts_organization_id_idx").on(t.organizationId),
    // wildcard_search matches designation numbers by prefix.
    index("designation_accounts_designation_number_idx").on(t.designationNumber),
  ],
);

export const balances = sqliteTable(
  "balances",
  {
    id: id(),
    designationAccountId: text("designation_account_id")
      .notNull()
      .references(() => designationAccounts.id, { onDelete: "cascade" }),
    balance: money("balance").notNull(),
    ...timestamps(),
  },
  (t) => [index("balances_designation_account_id_created_at_idx").on(t.designationAccountId, t.createdAt, t.id)],
);
