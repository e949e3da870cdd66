/**
 * Notification runs through Cloudflare Queues. The daily cron sends one message per account list that has a
 * preference turned on (never one invocation that works through every list); each message runs that list alone, so
 * a list that fails is retried (with backoff) without holding up the others, and one that fails every retry is
 * dead-lettered and recorded in `notification_run_failures`.
 */
import { sql } from "drizzle-orm";
import { database } from "../db/client";
import { d1Metrics, type D1Metrics } from "../db/metrics";
import { rowsOf } from "../db/statements";
import type { MiddlewareHandler } from "hono";
import { isWriteRequest } from "../engine/account-list-scope";
import type { AppEnv, Bindings, NotificationRunMessage } from "../env";
import { formatTimestamp, nowTimestamp } from "../jsonapi/time";
import { dispatchDeliveries } from "../webhooks/dispatch";
import { onListDatabase } from "../db/list-env";
import { retryDelaySeconds } from "../retries";
import { sendDueEmails } from "./outbox";
import { runListNotifications } from "./run";

/** Lists read per page while sending the day's messages; Queues takes at most 100 messages a call. */
const LISTS_PER_PAGE = 1000;
const MESSAGES_PER_SEND = 100;

/** Sends one run message per account list with a notification preference turned on; answers how many. */
export async function enqueueNotificationRuns(env: Bindings, scheduledTime: number): Promise<number> {
  const db = database(env.DB);
  const runAt = formatTimestamp(new Date(scheduledTime));
  let after = "";
  let sent = 0;
  for (;;) {
    const [lists] = await rowsOf(db, [
      sql`SELECT DISTINCT account_list_id FROM notification_preferences WHERE account_list_id > ${after} AND (app = 1 OR email = 1 OR task = 1)
        ORDER BY account_list_id LIMIT ${LISTS_PER_PAGE}`,
    ]);
    for (let i = 0; i < lists.length; i += MESSAGES_PER_SEND) {
      const messages = lists.slice(i, i + MESSAGES_PER_SEND).map((row) => ({ body: { accountListId: String(row.account_list_id), runAt } }));
      await env.NOTIFICATION_QUEUE.sendBatch(messages);
      sent += messages.length;
    }
    if (lists.length < LISTS_PER_PAGE) return sent;
    after = String(lists[lists.length - 1].account_list_id);
  }
}

function d1Fields(metrics: D1Metrics) {
  const totals = metrics.totals();
  return { d1_round_trips: totals.roundTrips, d1_rows_read: totals.rowsRead, d1_rows_read_complete: !totals.rowsIncomplete };
}

function isRunMessage(body: unknown): body is NotificationRunMessage {
  const message = body as Partial<NotificationRunMessage> | null;
  return typeof message?.accountListId === "string" && typeof message.runAt === "string" && !Number.isNaN(Date.parse(message.runAt));
}

function logLine(level: "info" | "error", fields: Record<string, unknown>): void {
  (level === "error" ? console.error : console.log)(JSON.stringify({ level, message: "queue message", ...fields }));
}

async function runMessage(env: Bindings, message: Message<unknown>, queue: string): Promise<void> {
  const body = message.body;
  if (!isRunMessage(body)) {
    message.ack();
    logLine("error", { queue, message_id: message.id, outcome: "not a notification run" });
    return;
  }
  try {
    // On the list's database; the run's D1 cost goes into its log line, as a request's does.
    const listEnv = await onListDatabase(env, body.accountListId);
    const metrics = d1Metrics(listEnv, listEnv.DB);
    const summary = await runListNotifications({ ...listEnv, DB: metrics.db }, body);
    // Digests due now go out at once; later ones wait for their hour (the five-minute cron).
    const emailsSent = summary.emails > 0 ? await sendDueEmails(listEnv, body.runAt > nowTimestamp() ? body.runAt : nowTimestamp(), body.accountListId) : 0;
    // The webhook deliveries of the notifications it raised (the sweep sends them should this fail).
    await dispatchDeliveries(listEnv).catch((error: unknown) => logLine("error", { queue, message_id: message.id, outcome: "webhook dispatch failed", error: String(error) }));
    message.ack();
    logLine("info", { queue, message_id: message.id, account_list_id: body.accountListId, run_at: body.runAt, attempts: message.attempts, outcome: "ran", ...summary, emails_sent: emailsSent, ...d1Fields(metrics) });
  } catch (error) {
    console.error(error);
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    logLine("error", { queue, message_id: message.id, account_list_id: body.accountListId, attempts: message.attempts, outcome: "failed", error: String(error) });
  }
}

async function recordDeadRun(env: Bindings, message: Message<unknown>, queue: string): Promise<void> {
  const body = message.body;
  if (isRunMessage(body)) {
    await database((await onListDatabase(env, body.accountListId)).DB)
      .$client.prepare(
        "INSERT INTO notification_run_failures (id, account_list_id, run_at, attempts, error, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (account_list_id, run_at) DO NOTHING",
      )
      .bind(crypto.randomUUID(), body.accountListId, body.runAt, message.attempts, "the run failed on every retry", nowTimestamp())
      .run();
  }
  message.ack();
  logLine("error", { queue, message_id: message.id, account_list_id: isRunMessage(body) ? body.accountListId : null, outcome: "dead-lettered" });
}

/** The consumer of the notification queue and of its dead-letter queue. */
export async function consumeNotificationRuns(batch: MessageBatch<unknown>, env: Bindings): Promise<void> {
  const deadLetters = batch.queue.endsWith("-dlq");
  // One list at a time: a run is a handful of statements, and lists of one delivery share the database.
  for (const message of batch.messages) {
    await (deadLetters ? recordDeadRun(env, message, batch.queue) : runMessage(env, message, batch.queue));
  }
}

/** Queue names served here (the environments add a suffix: notification-runs-staging). */
export function isNotificationQueue(queue: string): boolean {
  return queue.startsWith("notification-runs");
}

/**
 * Middleware for the routes whose writes can raise events (donations): once such a write has succeeded, the list's
 * notification run is queued at once, so that a gift's notification does not wait for the next day. The run is the
 * same as the daily one, and its keys make a second run of the same events change nothing.
 */
export const runNotificationsAfterWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const written = isWriteRequest(c) && c.res.status >= 200 && c.res.status < 300;
  const accountListId = c.req.param("account_list_id");
  if (!written || !accountListId) return;
  const sent = c.env.NOTIFICATION_QUEUE.send({ accountListId: accountListId.toLowerCase(), runAt: nowTimestamp() }).catch((error: unknown) =>
    console.error(JSON.stringify({ level: "error", message: "could not queue a notification run", account_list_id: accountListId, error: String(error) })),
  );
  try {
    c.executionCtx.waitUntil(sent);
  } catch {
    await sent;
  }
};
