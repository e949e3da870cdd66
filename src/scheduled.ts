/**
 * The Cron Triggers of wrangler.toml, each with its job. A run names its cron expression (`controller.cron`).
 */
import type { Bindings } from "./env";
import { refreshPlannerStatistics } from "./db/maintenance";
import { sweepBackgroundRequests } from "./queue/sweeper";

export const SCHEDULED_JOBS: Record<string, (env: Bindings, controller: ScheduledController) => Promise<unknown>> = {
  // Daily: the query planner's table statistics.
  "23 3 * * *": (env) => refreshPlannerStatistics(env.DB),
  // Every five minutes: background-batch requests whose queue message was lost.
  "*/5 * * * *": (env, controller) => sweepBackgroundRequests(env, controller.scheduledTime),
};

export async function runScheduled(controller: ScheduledController, env: Bindings): Promise<void> {
  const job = Object.hasOwn(SCHEDULED_JOBS, controller.cron) ? SCHEDULED_JOBS[controller.cron] : undefined;
  if (!job) {
    console.error(JSON.stringify({ level: "error", message: "no job for this cron", cron: controller.cron }));
    return;
  }
  await job(env, controller);
}
