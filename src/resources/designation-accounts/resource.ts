import { sql } from "drizzle-orm";
import { accountLists, balances, designationAccounts, organizations } from "../../../drizzle/schema";
import { currencySymbol } from "../../constants";
import { exchangeRatio, formatMoney, formatRatio, parseMoney, rateFor, ratioToCents } from "../../decimal";
import { containsText, or, q, startsWithText } from "../../db/sql";
import { boolean, computed, derived, money, stored } from "../../engine/attributes";
import { defineResource, type ReadExtras, type Row } from "../../engine/define";
import { belongsTo, hasMany } from "../../engine/relationships";
import { textValue } from "../../jsonapi/filter-values";

/** The owning list's currency, selected with the row: conversions go into it. */
const listCurrency = () =>
  sql`(SELECT ${q(accountLists.currency)} FROM ${accountLists} WHERE ${q(accountLists.id)} = ${q(designationAccounts.accountListId)})`;

/** Factor from the account's currency (the list's when it has none) to the list's. */
function exchange(value: unknown, row: Row, extras: ReadExtras) {
  const target = typeof value === "string" ? value : "USD";
  const source = (row[designationAccounts.currency.name] as string | null) || target;
  return { from: rateFor(extras.rates, source), to: rateFor(extras.rates, target) };
}

function displayName(row: Row): string {
  const name = row[designationAccounts.name.name] as string | null;
  const number = row[designationAccounts.designationNumber.name] as string | null;
  if (name && number) return `${name} (${number})`;
  return name || number || "Unknown";
}

export const balanceResource = defineResource({
  type: "balances",
  model: "Balance",
  table: balances,
  attributes: {
    balance: money(balances.balance, { readOnly: true }),
  },
  relationships: {
    designation_account: belongsTo("designation_accounts", balances.designationAccountId),
  },
});

export const designationAccountResource = defineResource({
  type: "designation_accounts",
  model: "DesignationAccount",
  table: designationAccounts,
  accountListColumn: designationAccounts.accountListId,
  attributes: {
    // The only field people change here: whether the balance counts in the list's totals.
    active: boolean(designationAccounts.active),
    balance: money(designationAccounts.balance, { readOnly: true }),
    balance_updated_at: stored(designationAccounts.balanceUpdatedAt),
    currency: stored(designationAccounts.currency),
    currency_symbol: derived([designationAccounts.currency], (row) => {
      const code = row[designationAccounts.currency.name] as string | null;
      return code ? currencySymbol(code) : null;
    }),
    designation_number: stored(designationAccounts.designationNumber),
    legacy_designation_number: stored(designationAccounts.legacyDesignationNumber),
    name: stored(designationAccounts.name),
    display_name: derived([designationAccounts.name, designationAccounts.designationNumber], displayName),
    organization_name: computed(
      () => sql`(SELECT ${q(organizations.name)} FROM ${organizations} WHERE ${q(organizations.id)} = ${q(designationAccounts.organizationId)})`,
    ),
    converted_balance: computed(
      listCurrency,
      (value, row, _ctx, extras) => {
        const units = parseMoney(row[designationAccounts.balance.name]);
        if (units === null) return null;
        const { from, to } = exchange(value, row, extras);
        const ratio = exchangeRatio(from, to);
        return formatMoney(ratioToCents({ numerator: units * ratio.numerator, denominator: ratio.denominator }));
      },
      { usesRates: true, needs: [designationAccounts.balance, designationAccounts.currency] },
    ),
    exchange_rate: computed(
      listCurrency,
      (value, row, _ctx, extras) => {
        const { from, to } = exchange(value, row, extras);
        return formatRatio(exchangeRatio(from, to));
      },
      { usesRates: true, needs: [designationAccounts.currency] },
    ),
  },
  relationships: {
    balances: hasMany("balances", balances.id, balances.designationAccountId, designationAccounts.id, { orderBy: balances.createdAt }),
    organization: belongsTo("organizations", designationAccounts.organizationId),
  },
  filters: {
    wildcard_search: (value) => {
      const text = textValue(value);
      if (text === "") return undefined;
      return or([containsText(designationAccounts.name, text), startsWithText(designationAccounts.designationNumber, text)]);
    },
  },
});
