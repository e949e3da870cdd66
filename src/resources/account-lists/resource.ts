import { sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  accountListCoaches,
  accountListUsers,
  accountLists,
  designationAccounts,
  notificationPreferences,
  organizationAccounts,
} from "../../../drizzle/schema";
import { formatMoney, parseMoney } from "../../decimal";
import { q } from "../../db/sql";
import { sameListRelationship } from "../../engine/account-list-scope";
import { boolean, computed, currencyCode, date, derived, fromShared, money, stored, string, withWrite } from "../../engine/attributes";
import { defineResource, type ParseResult, type ReadExtras, type RequestContext, type Row, type SharedSelect } from "../../engine/define";
import { hasMany, manyBy } from "../../engine/relationships";
import { conflict, type FieldError } from "../../jsonapi/errors";
import { toOneLinkage, UUID_PATTERN } from "../../jsonapi/request-document";
import { todayIn } from "../../jsonapi/time";
import { appealTarget } from "../donations/list-records";
import { organizationExists } from "../organizations/resource";
import { allGroups, balanceTotal, monthlyPledges, parseTotals, progress, type ListTotals } from "./totals";

function parseOrganizationId(value: unknown): ParseResult {
  if (value === null || value === undefined || value === "") return { ok: true, value: null };
  if (typeof value !== "string" || !UUID_PATTERN.test(value.trim())) return { ok: false, message: "must be the id of an organization" };
  return { ok: true, value: value.trim().toLowerCase() };
}

/** The primary appeal must be one of the list's own appeals. */

const listCurrency = (row: Row) => String(row[accountLists.currency.name] ?? "USD");
const monthlyGoalUnits = (row: Row) => parseMoney(row[accountLists.monthlyGoal.name]);

/**
 * The list's pledge groups (one pass over its financial partners) and balance groups, selected once for every
 * total that reads them: committed, total_pledges, received, balance, salary_balance and progress. (A fieldset
 * asking for balances alone pays for the pledge pass too; the full object, which clients load, pays for it once.)
 */
const LIST_TOTALS: SharedSelect = { key: "list_totals", select: allGroups };

const fromTotals = (read: (totals: ListTotals, row: Row, extras: ReadExtras) => unknown, needs: SQLiteColumn[] = [accountLists.currency]) =>
  fromShared(LIST_TOTALS, (value, row, _ctx, extras) => read(parseTotals(value), row, extras), { usesRates: true, needs });

const pledgeTotal = (receivedOnly: boolean) =>
  fromTotals((totals, row, extras) => formatMoney(monthlyPledges(totals.pledges, listCurrency(row), extras.rates, receivedOnly)));

const balanceSum = (salaryOnly: boolean) =>
  fromTotals((totals, row, extras) => formatMoney(balanceTotal(totals.balances, listCurrency(row), extras.rates, salaryOnly)));

/** Whole weeks since the start of the active fundraising period, while that period has not finished. */
function weeksOnMpd(row: Row, ctx: RequestContext): number {
  const start = row[accountLists.activeMpdStartAt.name] as string | null;
  const finish = row[accountLists.activeMpdFinishAt.name] as string | null;
  const today = todayIn(ctx.viewer.timeZone);
  if (!start || !finish || finish.slice(0, 10) <= today) return 0;
  const days = (Date.parse(today) - Date.parse(start.slice(0, 10))) / 86_400_000;
  return days > 0 ? Math.floor(days / 7) : 0;
}

/**
 * `salary_organization` is answered as an attribute holding the organization id (as the interface lists it);
 * requests may also send it as a relationship. Either way the organization must exist.
 */
async function checkSalaryOrganization(changes: Row, relationships: Record<string, unknown>, ctx: RequestContext): Promise<FieldError[]> {
  if (relationships.salary_organization !== undefined) {
    const linkage = toOneLinkage(relationships.salary_organization, "salary_organization");
    if (linkage && linkage.type !== "organizations") {
      throw conflict(`'${linkage.type}' is not a valid resource type for relationship salary_organization. Expected 'organizations' instead`, {
        pointer: "/data/relationships/salary_organization/data/type",
      });
    }
    changes.salary_organization = linkage?.id ?? null;
  }
  const id = changes.salary_organization;
  if (typeof id === "string" && !(await organizationExists(ctx, id))) {
    const pointer = relationships.salary_organization !== undefined ? "/data/relationships/salary_organization" : undefined;
    return [{ attribute: "salary_organization", message: "must be an existing organization", pointer }];
  }
  return [];
}

export const accountListResource = defineResource({
  type: "account_lists",
  model: "AccountList",
  table: accountLists,
  // A list is its own account list: readable by its users and coaches, writable by its users only.
  accountListColumn: accountLists.id,
  attributes: {
    name: string(accountLists.name, { required: true, maxLength: 255 }),
    currency: currencyCode(accountLists.currency, { required: true }),
    default_currency: derived([], () => "USD"),
    home_country: string(accountLists.homeCountry, { maxLength: 255 }),
    monthly_goal: money(accountLists.monthlyGoal),
    tester: boolean(accountLists.tester),
    active_mpd_start_at: date(accountLists.activeMpdStartAt),
    active_mpd_finish_at: date(accountLists.activeMpdFinishAt),
    active_mpd_monthly_goal: money(accountLists.activeMpdMonthlyGoal),
    last_prayer_letter_at: stored(accountLists.lastPrayerLetterAt),
    salary_organization: withWrite(stored(accountLists.salaryOrganizationId), parseOrganizationId),
    committed: pledgeTotal(false),
    total_pledges: pledgeTotal(false),
    received: pledgeTotal(true),
    balance: balanceSum(false),
    salary_balance: balanceSum(true),
    progress: fromTotals((totals, row, extras) => progress(totals, listCurrency(row), monthlyGoalUnits(row), extras.rates), [
      accountLists.currency,
      accountLists.monthlyGoal,
    ]),
    weeks_on_mpd: derived([accountLists.activeMpdStartAt, accountLists.activeMpdFinishAt], weeksOnMpd),
    staff_account_ids: computed(
      () => sql`(SELECT json_group_array(staff_account_id) FROM (SELECT DISTINCT ${q(designationAccounts.staffAccountId)} AS staff_account_id
        FROM ${designationAccounts} WHERE ${q(designationAccounts.accountListId)} = ${q(accountLists.id)}
        AND ${q(designationAccounts.staffAccountId)} IS NOT NULL ORDER BY 1))`,
      (value) => (typeof value === "string" ? JSON.parse(value) : []),
    ),
  },
  relationships: {
    users: hasMany("users", accountListUsers.userId, accountListUsers.accountListId, accountLists.id, { orderBy: accountListUsers.createdAt }),
    coaches: hasMany("users", accountListCoaches.userId, accountListCoaches.accountListId, accountLists.id, { orderBy: accountListCoaches.createdAt }),
    notification_preferences: hasMany("notification_preferences", notificationPreferences.id, notificationPreferences.accountListId, accountLists.id, {
      orderBy: notificationPreferences.createdAt,
    }),
    organization_accounts: manyBy(
      "organization_accounts",
      () => sql`(SELECT json_group_array(id) FROM (SELECT ${q(organizationAccounts.id)} AS id FROM ${organizationAccounts}
        JOIN ${accountListUsers} ON ${q(accountListUsers.userId)} = ${q(organizationAccounts.userId)}
        WHERE ${q(accountListUsers.accountListId)} = ${q(accountLists.id)} ORDER BY ${q(organizationAccounts.createdAt)}, 1))`,
    ),
    primary_appeal: sameListRelationship("primary_appeal", appealTarget, accountLists.primaryAppealId, (ctx) => ctx.pathParams.id, { nullable: true }),
  },
  hooks: {
    beforeUpdate: (changes, _existing, input, ctx) => checkSalaryOrganization(changes, input.relationships, ctx),
  },
});
