/** Every report, mounted under /api/v2/reports. */
import type { Hono } from "hono";
import type { AppEnv } from "../../env";
import { API } from "../paths";
import { activityResults } from "./activity-results";
import { appointmentResults } from "./appointment-results";
import { donorCurrencyDonations, salaryCurrencyDonations } from "./currency-donations";
import { donationMonthlyTotals } from "./donation-monthly-totals";
import { expectedMonthlyTotals } from "./expected-monthly-totals";
import { goalProgress } from "./goal-progress";
import { monthlyGivingGraph } from "./monthly-giving-graph";
import { monthlyLossesGraph } from "./monthly-losses-graph";
import { partnerGivingAnalysis } from "./partner-giving-analysis";
import { pledgeHistories } from "./pledge-histories";
import { mountReports } from "./report";
import { yearDonations } from "./year-donations";

export function registerReportRoutes(app: Hono<AppEnv>): void {
  mountReports(app, `${API}/reports`, [
    goalProgress,
    monthlyGivingGraph,
    donorCurrencyDonations,
    salaryCurrencyDonations,
    expectedMonthlyTotals,
    partnerGivingAnalysis,
    appointmentResults,
    pledgeHistories,
    activityResults,
    donationMonthlyTotals,
    yearDonations,
    monthlyLossesGraph,
  ]);
}
