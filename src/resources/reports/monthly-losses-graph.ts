/**
 * GET /reports/monthly_losses_graphs/<list id>: how the list's designation balances fell month by month, from the
 * balance snapshots (`balances`) of the last `months` months (the top-level parameter, 13 by default).
 */
import { sql } from "drizzle-orm";
import { balances, designationAccounts } from "../../../drizzle/schema";
import { formatMoney } from "../../decimal";
import { q } from "../../db/sql";
import { badRequest } from "../../jsonapi/errors";
import { textValue } from "../../jsonapi/filter-values";
import { addMonths } from "../../jsonapi/time";
import { monthOf } from "./periods";
import { defineReport } from "./report";

const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export const monthlyLossesGraph = defineReport({
  path: "monthly_losses_graphs",
  type: "reports_monthly_losses_graphs",
  id: "reports::monthlylossesgraph",
  coaches: true,
  listInPath: true,
  attributes: async ({ ctx, list, today, read }) => {
    const sent = ctx.params.months === undefined ? "13" : textValue(ctx.params.months);
    if (!/^\d{1,3}$/.test(sent) || Number(sent) < 1 || Number(sent) > 120) throw badRequest("months must be a whole number from 1 to 120", { parameter: "months" });
    const months = Number(sent);
    const start = addMonths(`${monthOf(today)}-01`, -months);
    const [rows] = await read([
      sql`SELECT substr(${q(balances.createdAt)}, 1, 7) AS month, CAST(SUM(${q(balances.balance)}) AS TEXT) AS units FROM ${balances}
        WHERE ${q(balances.designationAccountId)} IN (SELECT ${q(designationAccounts.id)} FROM ${designationAccounts} WHERE ${q(designationAccounts.accountListId)} = ${list.id})
        AND ${q(balances.createdAt)} >= ${start} GROUP BY 1`,
    ]);
    const byMonth = new Map(rows.map((row) => [String(row.month), BigInt(String(row.units))]));
    const totals = Array.from({ length: months + 1 }, (_, index) => byMonth.get(monthOf(addMonths(start, index))) ?? 0n);
    return {
      losses: totals.slice(0, -1).map((total, index) => {
        const loss = Number(formatMoney(total - totals[index + 1]));
        return loss === 0 ? 0 : Math.round(loss * 100) / 100;
      }),
      month_names: totals.slice(0, -1).map((_, index) => {
        const month = addMonths(start, index + 1);
        return `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
      }),
      account_list: { id: list.id, name: list.name, currency: list.currency, monthly_goal: list.monthlyGoal === null ? null : formatMoney(list.monthlyGoal) },
    };
  },
});
