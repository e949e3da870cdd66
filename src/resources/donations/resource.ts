/**
 * Donations of an account list, at /account_lists/<id>/donations. A donation's list is always its designation
 * account's list; its contact is the list's contact linked to the donor account. Contacts' giving fields and
 * filters are computed from this table, so storing a donation is all it takes for them to follow.
 */
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { sql, type SQL } from "drizzle-orm";
import { accountLists, contactDonorAccounts, contacts, donations, pledgeDonations } from "../../../drizzle/schema";
import { convertedTotal, formatMoney, parseMoney } from "../../decimal";
import { dateInRange, q } from "../../db/sql";
import { rowsOf } from "../../db/statements";
import { sameListRelationship } from "../../engine/account-list-scope";
import { computed, currencyCode, date, money, string } from "../../engine/attributes";
import { defineResource, type RequestContext, type Row } from "../../engine/define";
import { RATES, ratesMap } from "../../engine/rates";
import { belongsTo, hasOne, manyBy } from "../../engine/relationships";
import type { FieldError } from "../../jsonapi/errors";
import { parseDateRange } from "../../jsonapi/filter-values";
import { listCurrency } from "./money";
import { appealTarget, designationAccountTarget, idsFilter, pathList } from "./list-records";

const listCurrencyOfDonation = () => sql`(SELECT ${q(accountLists.currency)} FROM ${accountLists} WHERE ${q(accountLists.id)} = ${q(donations.accountListId)})`;


/** A money column of the gift converted into its list's currency (null when the column is). */
function inListCurrency(column: SQLiteColumn) {
  return computed(
    listCurrencyOfDonation,
    (target, row, _ctx, extras) => {
      const units = parseMoney(row[column.name]);
      if (units === null) return null;
      return formatMoney(convertedTotal([{ currency: String(row.currency), units: String(units) }], String(target), extras.rates));
    },
    { usesRates: true, needs: [column, donations.currency] },
  );
}

const required = (relationship: string): FieldError => ({ attribute: relationship, message: "can't be blank", pointer: `/data/relationships/${relationship}` });

export const donationResource = defineResource({
  type: "donations",
  model: "Donation",
  table: donations,
  accountListColumn: donations.accountListId,
  // The original tells a donation's deletion by its designation account.
  recordsDeletion: { deletableType: "Donation", deletedFrom: { type: "DesignationAccount", column: donations.designationAccountId } },
  attributes: {
    amount: money(donations.amount, { required: true }),
    appeal_amount: money(donations.appealAmount),
    currency: currencyCode(donations.currency),
    converted_amount: inListCurrency(donations.amount),
    converted_appeal_amount: inListCurrency(donations.appealAmount),
    converted_currency: computed(listCurrencyOfDonation),
    donation_date: date(donations.donationDate, { required: true }),
    motivation: string(donations.motivation),
    payment_method: string(donations.paymentMethod),
    memo: string(donations.memo),
    // The donation system's id of the gift: an ordinary attribute, not a foreign key.
    remote_id: string(donations.remoteId),
    channel: string(donations.channel),
    payment_type: string(donations.paymentType),
    tendered_amount: money(donations.tenderedAmount),
    tendered_currency: currencyCode(donations.tenderedCurrency),
  },
  relationships: {
    account_list: belongsTo("account_lists", donations.accountListId),
    // Any donor account the viewer reaches (see donorAccountResource), checked by the engine like every link.
    donor_account: belongsTo("donor_accounts", donations.donorAccountId, {}),
    designation_account: sameListRelationship("designation_account", designationAccountTarget, donations.designationAccountId, pathList),
    appeal: sameListRelationship("appeal", appealTarget, donations.appealId, pathList, { nullable: true }),
    contact: hasOne(
      "contacts",
      () => sql`(SELECT ${q(contacts.id)} FROM ${contactDonorAccounts} JOIN ${contacts} ON ${q(contacts.id)} = ${q(contactDonorAccounts.contactId)}
        WHERE ${q(contactDonorAccounts.donorAccountId)} = ${q(donations.donorAccountId)} AND ${q(contacts.accountListId)} = ${q(donations.accountListId)}
        ORDER BY ${q(contacts.createdAt)}, ${q(contacts.id)} LIMIT 1)`,
    ),
    // The pledge the gift fulfils (the first, when several name it), as the web app's gift form reads it.
    pledge: hasOne(
      "pledges",
      () => sql`(SELECT ${q(pledgeDonations.pledgeId)} FROM ${pledgeDonations} WHERE ${q(pledgeDonations.donationId)} = ${q(donations.id)} ORDER BY 1 LIMIT 1)`,
    ),
    pledges: manyBy(
      "pledges",
      () => sql`(SELECT json_group_array(id) FROM (SELECT ${q(pledgeDonations.pledgeId)} AS id FROM ${pledgeDonations} WHERE ${q(pledgeDonations.donationId)} = ${q(donations.id)} ORDER BY 1))`,
    ),
  },
  sorts: { donation_date: donations.donationDate },
  filters: {
    donation_date: (value) => dateInRange(donations.donationDate, parseDateRange("donation_date", value)),
    designation_account_id: idsFilter(donations.designationAccountId),
    donor_account_id: idsFilter(donations.donorAccountId),
  },
  hooks: {
    beforeCreate: async (changes, _input, ctx) => {
      const errors = ["donor_account", "designation_account"].filter((name) => !changes[name]).map(required);
      if (errors.length > 0) return errors;
      changes.currency ??= await listCurrency(String(changes.account_list), ctx);
    },
    beforeUpdate: async (changes, existing, _input, ctx) => {
      if ("currency" in changes && changes.currency === null) changes.currency = await listCurrency(String(existing.accountListId), ctx);
    },
  },
});

/**
 * `meta.totals` of a donation list: the sum per currency of every matching donation (not only the page) and all
 * of them converted into the list's currency — one aggregate query batched with what the conversion needs.
 */
export async function donationTotals(where: SQL | undefined, ctx: RequestContext): Promise<Record<string, unknown>> {
  const [sums, lists, rateRows] = (await rowsOf(ctx.db, [
    sql`SELECT ${q(donations.currency)} AS "currency", CAST(SUM(${q(donations.amount)}) AS TEXT) AS "units" FROM ${donations}${where ? sql` WHERE ${where}` : sql``} GROUP BY 1 ORDER BY 1`,
    sql`SELECT ${q(accountLists.currency)} AS "currency" FROM ${accountLists} WHERE ${q(accountLists.id)} = ${pathList(ctx)}`,
    RATES,
  ])) as [Array<{ currency: string; units: string }>, Row[], Array<{ code: string; rate: string }>];
  const target = String(lists[0]?.currency ?? "USD");
  return {
    totals: {
      currencies: sums.map(({ currency, units }) => ({ currency, total: formatMoney(BigInt(units)) })),
      total_currency: target,
      converted_total: formatMoney(convertedTotal(sums, target, ratesMap(rateRows))),
    },
  };
}
