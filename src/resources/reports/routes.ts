/** Every report, mounted under /api/v2/reports. */
import type { Hono } from "hono";
import type { AppEnv } from "../../env";
import { API } from "../paths";
import { goalProgress } from "./goal-progress";
import { monthlyGivingGraph } from "./monthly-giving-graph";
import { mountReports } from "./report";

export function registerReportRoutes(app: Hono<AppEnv>): void {
  mountReports(app, `${API}/reports`, [goalProgress, monthlyGivingGraph]);
}
