/**
 * Donations. account_list_id repeats the designation account's list so that every donation query is scoped
 * and ordered from one index. The contact of a donation is the list's contact linked to its donor account.
 */
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";
import { appeals } from "./appeals";
import { id, money, timestamps } from "./columns";
import { designationAccounts } from "./designation-accounts";
import { donorAccounts } from "./donor-accounts";

export const donations = sqliteTable(
  "donations",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    designationAccountId: text("designation_account_id")
      .notNull()
      .references(() => designationAccounts.id, { onDelete: "cascade" }),
    donorAccountId: text("donor_account_id")
      .notNull()
      .references(() => donorAccounts.id, { onDelete: "cascade" }),
    appealId: text("appeal_id").references(() => appeals.id, { onDelete: "set null" }),
    // The part of `amount` counted towards the appeal; null means all of it.
    appealAmount: money("appeal_amount"),
    amount: money("amount").notNull(),
    currency: text("currency").notNull(),
    donationDate: text("donation_date").notNull(),
    motivation: text("motivation"),
    paymentMethod: text("payment_method"),
    memo: text("memo"),
    remoteId: text("remote_id"),
    // How the gift came (e.g. "Recurring", "Online") and how it was paid, as the donation system reports them.
    channel: text("channel"),
    paymentType: text("payment_type"),
    // The gift as the donor tendered it, before the donation system converted it into `currency`.
    tenderedAmount: money("tendered_amount"),
    tenderedCurrency: text("tendered_currency"),
    ...timestamps(),
  },
  (t) => [
    // A list's gifts by date, with what the donation reports list of each gift: the 14-month and year reports read
    // their gifts from the index alone, a row each.
    index("donations_account_list_id_donation_date_idx").on(
      t.accountListId,
      t.donationDate,
      t.id,
      t.amount,
      t.currency,
      t.donorAccountId,
      t.paymentMethod,
      t.tenderedAmount,
      t.tenderedCurrency,
    ),
    index("donations_account_list_id_created_at_idx").on(t.accountListId, t.createdAt, t.id),
    index("donations_account_list_id_updated_at_idx").on(t.accountListId, t.updatedAt, t.id),
    // A list's distinct gift amounts (the contacts' filter panel), a step into the index each.
    index("donations_account_list_id_amount_idx").on(t.accountListId, t.amount),
    // A contact's giving (first/last gift, started/stopped giving) is read by donor account in date order; the
    // creation time next, so that the last six gifts are walked in their order, and the list, so that the index
    // alone answers.
    // The amounts last, so that a partner's recent months (expected monthly totals) come from the index alone too.
    index("donations_donor_account_id_donation_date_idx").on(t.donorAccountId, t.donationDate, t.createdAt, t.id, t.accountListId, t.amount, t.tenderedAmount),
    index("donations_designation_account_id_idx").on(t.designationAccountId),
    // An appeal's donations by appeal; with the currency in the index, the appeal's `currencies` and per-currency
    // totals are read from the index alone (about 2,500 donations an appeal in the benchmark's dataset).
    index("donations_appeal_id_currency_idx").on(t.appealId, t.currency),
  ],
);
