/**
 * Task reminders. A task with `notification_type` (email, mobile or both) and `notification_time_before` in
 * `notification_time_unit` is due for a reminder at `start_at` less that time: the tasks' generated `remind_at`,
 * indexed for open tasks. Every five minutes the reminders come due are recorded in the outbox, once per task,
 * reminder time, channel and recipient (a task whose start moves gets a new reminder); the outbox sends the e-mails.
 * Recipients: the task's user, or every user of its list when it has none. Reminders more than a day overdue (the
 * service was not running) are not sent late.
 */
import { sql } from "drizzle-orm";
import { database } from "../db/client";
import { randomUuid } from "../db/sql";
import { rowsChanged } from "../db/statements";
import type { Bindings } from "../env";
import { formatTimestamp } from "../jsonapi/time";

const LATEST_LATE_REMINDER_MS = 24 * 60 * 60 * 1000;

/** Records the reminders due by `now`; answers how many it recorded. */
export async function recordDueReminders(env: Bindings, now: string): Promise<number> {
  const db = database(env.DB);
  const since = formatTimestamp(new Date(Date.parse(now) - LATEST_LATE_REMINDER_MS));
  const [recorded] = await rowsChanged(db, [
    sql`INSERT INTO notification_outbox (id, dedupe_key, kind, channel, account_list_id, user_id, task_id, due_at, created_at, updated_at)
      SELECT ${randomUuid()}, 'task_reminder:' || t.id || ':' || t.remind_at || ':' || ch.channel || ':' || alu.user_id, 'task_reminder', ch.channel,
        t.account_list_id, alu.user_id, t.id, t.remind_at, ${now}, ${now}
      FROM tasks t
      JOIN (SELECT 'email' AS channel UNION ALL SELECT 'mobile') ch ON t.notification_type IN (ch.channel, 'both')
      JOIN account_list_users alu ON alu.account_list_id = t.account_list_id AND (t.user_id IS NULL OR alu.user_id = t.user_id)
      WHERE t.remind_at IS NOT NULL AND t.completed = 0 AND t.remind_at <= ${now} AND t.remind_at > ${since}
      ON CONFLICT (dedupe_key) DO NOTHING`,
  ]);
  return recorded;
}
