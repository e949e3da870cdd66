/**
 * GET /reports/goal_progress: the list's monthly goal against its partners' monthly pledges, and its salary balance
 * (the balance bar of every page of the web app, the mobile dashboard). The sums are the list's kept totals, the
 * same the account list answers (src/resources/account-lists/totals.ts).
 */
import { sql } from "drizzle-orm";
import { accountLists } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import { allGroups, balanceTotal, parseTotals, progress } from "../account-lists/totals";
import { moneyNumber } from "./money";
import { defineReport, type ReportRequest } from "./report";

/** The list's pledge and balance groups (a few kept rows), as `totals`. */
export const listTotalsRead = (listId: string) => sql`SELECT ${allGroups()} AS totals FROM ${accountLists} WHERE ${q(accountLists.id)} = ${listId}`;

async function listTotals({ list, read }: ReportRequest) {
  const [[row]] = await read([listTotalsRead(list.id)]);
  return parseTotals(row?.totals);
}

/** The goal as a whole number, null when unset or not above zero. */
export function monthlyGoal({ list }: ReportRequest): number | null {
  return list.monthlyGoal !== null && list.monthlyGoal > 0n ? Math.trunc(Number(list.monthlyGoal) / 10_000) : null;
}

export const goalProgress = defineReport({
  path: "goal_progress",
  type: "reports_goal_progresses",
  id: "reports::goalprogress",
  coaches: false,
  attributes: async (request) => {
    const { list, rates } = request;
    const totals = await listTotals(request);
    const shown = progress(totals, list.currency, list.monthlyGoal, rates);
    const salaryBalance = moneyNumber(balanceTotal(totals.balances, list.currency, rates, true));
    return {
      monthly_goal: monthlyGoal(request),
      total_pledges: shown.total_pledges,
      received_pledges: shown.received_pledges,
      in_hand_percent: shown.in_hand_percent,
      pledged_percent: shown.pledged_percent,
      salary_balance: salaryBalance,
      // The later name, which the mobile client reads.
      balance: salaryBalance,
      salary_currency_or_default: list.currency,
      default_currency: list.currency,
      salary_organization_id: list.salaryOrganizationId,
    };
  },
});
