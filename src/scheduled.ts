/**
 * The Cron Triggers of wrangler.toml, each with its job. A run names its cron expression (`controller.cron`).
 */
import { settleRecordMoves } from "./engine/record-moves";
import type { Bindings } from "./env";
import { deletedRecordsDays, refreshPlannerStatistics, removeExpiredDeletedRecords } from "./db/maintenance";
import { sweepBackgroundRequests } from "./queue/sweeper";
import { enqueueNotificationRuns } from "./events/queue";
import { recordDueReminders } from "./events/reminders";
import { sendDueEmails } from "./events/outbox";
import { resumeStalledImports } from "./resources/imports/run";
import { formatTimestamp } from "./jsonapi/time";
import { database } from "./db/client";
import { onEveryListDatabase } from "./db/list-env";
import { mirrorEveryList } from "./db/mirrors";
import { sweepDeliveries } from "./webhooks/dispatch";
import { removeOldWebhookEvents } from "./webhooks/retention";

export const SCHEDULED_JOBS: Record<string, (env: Bindings, controller: ScheduledController) => Promise<unknown>> = {
  // Daily, every database's: the query planner's table statistics. Then the copies of directory rows each list database
  // keeps, written again (src/db/mirrors.ts): a copy a failed request left behind is repaired within a day.
  // Deletions older than DELETED_RECORDS_DAYS are forgotten, on every database, and webhook events older than 30 days.
  "23 3 * * *": async (env, controller) => {
    await onEveryListDatabase(env, (on) => removeExpiredDeletedRecords(on.DB, deletedRecordsDays(env), new Date(controller.scheduledTime)));
    // Webhook events and their deliveries are kept 30 days (src/webhooks/retention.ts).
    await onEveryListDatabase(env, (on) => removeOldWebhookEvents(on, controller.scheduledTime));
    await onEveryListDatabase(env, (on) => refreshPlannerStatistics(on.DB));
    await mirrorEveryList(env, database(env.DB));
  },
  // Daily: one notification run per account list, through the queue (src/events/queue.ts), from every database.
  "0 5 * * *": (env, controller) => onEveryListDatabase(env, (on) => enqueueNotificationRuns(on, controller.scheduledTime)),
  // Every five minutes: background-batch requests and records' moves between databases cut short (the directory's)
  // and, on every database, imports whose queue message was lost, task reminders come due and e-mails due.
  "*/5 * * * *": async (env, controller) => {
    const now = formatTimestamp(new Date(controller.scheduledTime));
    await sweepBackgroundRequests(env, controller.scheduledTime);
    await settleRecordMoves(env, controller.scheduledTime);
    await onEveryListDatabase(env, async (on) => {
      await resumeStalledImports(on, controller.scheduledTime);
      await recordDueReminders(on, now);
      await sendDueEmails(on, now);
      // Webhook deliveries whose queue message was lost or whose attempt was killed (src/webhooks/dispatch.ts).
      await sweepDeliveries(on, controller.scheduledTime);
    });
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
