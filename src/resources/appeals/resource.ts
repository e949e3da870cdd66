/**
 * Appeals: an ask for a sum to a set of contacts. Pledge totals are converted into the list's currency from
 * per-currency SQL sums; the contacts asked can be chosen on create with contact filters.
 */
import { sql, type SQL } from "drizzle-orm";
import { accountLists, appealContacts, appeals, designationAccounts, donations, keptSums } from "../../../drizzle/schema";
import { convertedTotal, formatMoney } from "../../decimal";
import { containsText, or, q, startsWithText } from "../../db/sql";
import { accountListRelationship } from "../../engine/account-list-scope";
import { computed, date, fromShared, money, string } from "../../engine/attributes";
import { defineResource, type AttributeDef, type SharedSelect, type WriteRule } from "../../engine/define";
import { hasMany, manyBy } from "../../engine/relationships";
import { textValue } from "../../jsonapi/filter-values";
import { idsFilter } from "../donations/list-records";
import type { PLEDGE_STATUSES } from "../pledges/resource";
import { contactSelectionWrites, parseContactFilter } from "./contact-selection";

const listCurrencyOfAppeal = () => sql`(SELECT ${q(accountLists.currency)} FROM ${accountLists} WHERE ${q(accountLists.id)} = ${q(appeals.accountListId)})`;

/**
 * The appeal's pledges summed per status and currency in one pass over them, for the four totals:
 * `[list currency, [[status, currency, units], ...]]`. A pledge without a currency is in the list's currency.
 */
const PLEDGE_SUMS: SharedSelect = {
  key: "pledge_sums",
  // Kept by status and currency as pledges are written (drizzle/kept-sums.ts); a blank currency is the list's.
  select: () =>
    sql`json_array(${listCurrencyOfAppeal()}, json((SELECT json_group_array(json_array(k.key1, CASE k.key2 WHEN '' THEN upper(${listCurrencyOfAppeal()}) ELSE k.key2 END, CAST(k.units AS TEXT)))
      FROM ${keptSums} AS k WHERE k.kind = 'appeal_pledges' AND k.owner_id = ${q(appeals.id)})))`,
};

/** The appeal's pledges of one status (or all) converted into the list's currency. */
function pledgeTotal(status?: (typeof PLEDGE_STATUSES)[number]): AttributeDef {
  return fromShared(
    PLEDGE_SUMS,
    (value, _row, _ctx, extras) => {
      const [target, sums] = JSON.parse(String(value)) as [string, Array<[string, string, string]>];
      const wanted = sums.filter(([pledgeStatus]) => status === undefined || pledgeStatus === status);
      return formatMoney(convertedTotal(wanted.map(([, currency, units]) => ({ currency, units })), target, extras.rates));
    },
    { usesRates: true },
  );
}

/**
 * The distinct currencies of the appeal's donations, read by skipping through the (appeal_id, currency) index:
 * each step seeks the next currency after the last, so an appeal with thousands of gifts in two currencies
 * costs three index seeks instead of a read of every gift.
 */
function appealCurrencies(): SQL {
  const ofAppeal = sql`FROM ${donations} WHERE ${q(donations.appealId)} = ${q(appeals.id)}`;
  const currency = q(donations.currency);
  return sql`(SELECT json_group_array(currency) FROM (SELECT DISTINCT upper(code) AS currency FROM (WITH RECURSIVE codes(code) AS (SELECT (SELECT MIN(${currency}) ${ofAppeal}) UNION ALL SELECT (SELECT MIN(${currency}) ${ofAppeal} AND ${currency} > codes.code) FROM codes WHERE codes.code IS NOT NULL) SELECT code FROM codes WHERE code IS NOT NULL) ORDER BY 1))`;
}

/** Accepted on create only and never answered: the contact filters that choose the appeal's contacts. */
function contactFilterInput(): AttributeDef {
  const write: WriteRule = { parse: (value) => parseContactFilter(value), createOnly: true };
  return { write, default: false };
}

export const appealResource = defineResource({
  type: "appeals",
  model: "Appeal",
  table: appeals,
  accountListColumn: appeals.accountListId,
  attributes: {
    name: string(appeals.name, { required: true }),
    amount: money(appeals.amount),
    description: string(appeals.description),
    end_date: date(appeals.endDate),
    currencies: computed(appealCurrencies, (value) => JSON.parse(String(value ?? "[]"))),
    total_currency: computed(listCurrencyOfAppeal),
    pledges_amount_total: pledgeTotal(),
    pledges_amount_not_received_not_processed: pledgeTotal("not_received"),
    pledges_amount_received_not_processed: pledgeTotal("received_not_processed"),
    pledges_amount_processed: pledgeTotal("processed"),
    inclusion_filter: contactFilterInput(),
    exclusion_filter: contactFilterInput(),
  },
  relationships: {
    account_list: accountListRelationship(appeals.accountListId),
    contacts: manyBy(
      "contacts",
      () => sql`(SELECT json_group_array(id) FROM (SELECT ${q(appealContacts.contactId)} AS id FROM ${appealContacts} WHERE ${q(appealContacts.appealId)} = ${q(appeals.id)} ORDER BY ${q(appealContacts.createdAt)}, 1))`,
    ),
    // An appeal can gather tens of thousands of gifts: their linkage is answered when asked for (include or
    // fields[appeals]), not on every appeal of every page.
    donations: hasMany("donations", donations.id, donations.appealId, appeals.id, {
      orderBy: sql`${q(donations.donationDate)}, ${q(donations.id)}`,
      default: false,
    }),
  },
  filters: {
    appeal_id: idsFilter(appeals.id),
    wildcard_search: (value) => {
      const text = textValue(value);
      if (text === "") return undefined;
      const byDesignationNumber: SQL = sql`EXISTS (SELECT 1 FROM ${donations} JOIN ${designationAccounts} ON ${q(designationAccounts.id)} = ${q(donations.designationAccountId)}
        WHERE ${q(donations.appealId)} = ${q(appeals.id)} AND ${startsWithText(q(designationAccounts.designationNumber), text)})`;
      return or([containsText(appeals.name, text), byDesignationNumber]);
    },
  },
  hooks: {
    beforeUpdate: (changes, existing) => {
      // Its contacts, pledges and donations belong to the list: an appeal cannot move to another one.
      if (changes.account_list && changes.account_list !== existing.accountListId) {
        return [{ attribute: "account_list", message: "can't be changed", pointer: "/data/relationships/account_list" }];
      }
    },
    sideWrites: (id, changes, _input, ctx, existing) => (existing ? [] : contactSelectionWrites(id, changes, ctx)),
  },
});
