/**
 * The Cron Triggers of wrangler.toml, each with its job. A run names its cron expression (`controller.cron`).
 */
import type { Bindings } from "./env";
import { refreshPlannerStatistics } from "./db/maintenance";
import { sweepBackgroundRequests } from "./queue/sweeper";
import { enqueueNotificationRuns } from "./events/queue";
import { recordDueReminders } from "./events/reminders";
import { sendDueEmails } from "./events/outbox";
import { resumeStalledImports } from "./resources/imports/run";
import { formatTimestamp } from "./jsonapi/time";

export const SCHEDULED_JOBS: Record<string, (env: Bindings, controller: ScheduledController) => Promise<unknown>> = {
  // Daily: the query planner's table statistics.
  "23 3 * * *": (env) => refreshPlannerStatistics(env.DB),
  // Daily: one notification run per account list, through the queue (src/events/queue.ts).
  "0 5 * * *": (env, controller) => enqueueNotificationRuns(env, controller.scheduledTime),
  // Every five minutes: background-batch requests and imports whose queue message was lost; task reminders come
  // due; e-mails due.
  "*/5 * * * *": async (env, controller) => {
    const now = formatTimestamp(new Date(controller.scheduledTime));
    await sweepBackgroundRequests(env, controller.scheduledTime);
    await resumeStalledImports(env, controller.scheduledTime);
    await recordDueReminders(env, now);
    await sendDueEmails(env, now);
  },
};

export async function runScheduled(controller: ScheduledController, env: Bindings): Promise<void> {
  const job = Object.hasOwn(SCHEDULED_JOBS, controller.cron) ? SCHEDULED_JOBS[controller.cron] : undefined;
  if (!job) {
    console.error(JSON.stringify({ level: "error", message: "no job for this cron", cron: controller.cron }));
    return;
  }
  await job(env, controller);
}
