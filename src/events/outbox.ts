/**
 * Sends the e-mails of the outbox through the `send_email` binding (Cloudflare Email Service; `wrangler dev`
 * simulates it and prints each message). A row is taken by writing `attempted_at` before sending, in a statement
 * that succeeds for one sender only: two overlapping senders never send the same row, and a row whose sending
 * was cut short is never sent a second time (at most once; the log and the row's missing `sent_at` tell). A send
 * the binding refuses gives the row back, to be tried again a quarter of an hour later.
 *
 * Mobile reminders are recorded with channel `mobile` for a push provider; none is configured, so they stay in
 * the outbox unsent.
 */
import { sql } from "drizzle-orm";
import { database } from "../db/client";
import { rowsOf } from "../db/statements";
import type { Bindings, Database } from "../env";
import { formatTimestamp } from "../jsonapi/time";
import { NOTIFICATION_TYPES } from "../constants/notifications";
import { EVENT_TYPE_BY_ID } from "./event-types";
import { factsOf, NOTIFICATION_FACTS } from "./run";

/** Rows sent per call; the five-minute cron sends the rest on its next run. */
const SENDS_PER_CALL = 50;
const RETRY_MINUTES = 15;

export const DEFAULT_SENDER = "notifications@localhost";

interface Email {
  subject: string;
  text: string;
}

interface OutboxRow {
  id: string;
  kind: string;
  user_id: string;
  account_list_id: string;
  digest_key: string | null;
  task_id: string | null;
  webhook_id: string | null;
}

const DESCRIPTION_BY_ID = new Map(NOTIFICATION_TYPES.map((type) => [type.id as string, type.description as string]));

async function digestEmail(db: Database, row: OutboxRow, listName: string): Promise<Email | undefined> {
  const [notifications] = await rowsOf(db, [
    sql`SELECT ${NOTIFICATION_FACTS} WHERE n.digest_key = ${row.digest_key} AND n.cleared = 0 ORDER BY n.notification_type_id, c.name, n.id`,
  ]);
  if (notifications.length === 0) return undefined;
  const lines: string[] = [];
  let heading = "";
  for (const notification of notifications) {
    const typeId = String(notification.notification_type_id);
    if (typeId !== heading) {
      heading = typeId;
      lines.push("", DESCRIPTION_BY_ID.get(typeId) ?? "Notification");
    }
    const type = EVENT_TYPE_BY_ID.get(typeId);
    lines.push(`- ${type ? type.subject(factsOf(notification)) : String(notification.contact_name)}`);
  }
  const count = notifications.length;
  return {
    subject: `${count} ${count === 1 ? "notification" : "notifications"} for ${listName}`,
    text: [`Notifications for ${listName}:`, ...lines, ""].join("\n"),
  };
}

async function reminderEmail(db: Database, row: OutboxRow, listName: string): Promise<Email | undefined> {
  const [[task], contacts] = await rowsOf(db, [
    sql`SELECT subject, activity_type, start_at, completed FROM tasks WHERE id = ${row.task_id}`,
    sql`SELECT c.name FROM activity_contacts ac JOIN contacts c ON c.id = ac.contact_id WHERE ac.task_id = ${row.task_id} ORDER BY c.name`,
  ]);
  if (!task || task.completed === 1) return undefined;
  const title = String(task.subject ?? task.activity_type ?? "Task");
  const names = contacts.map((contact) => String(contact.name));
  return {
    subject: `Reminder: ${title}`,
    text: [`${title} starts at ${String(task.start_at)} (${listName}).`, names.length ? `Contacts: ${names.join(", ")}` : "", ""].join("\n"),
  };
}

async function webhookDisabledEmail(db: Database, row: OutboxRow, listName: string): Promise<Email | undefined> {
  const [[webhook]] = await rowsOf(db, [sql`SELECT url, disabled_reason FROM webhooks WHERE id = ${row.webhook_id} AND enabled = 0`]);
  if (!webhook) return undefined;
  return {
    subject: `A webhook of ${listName} was turned off`,
    text: [`The webhook endpoint ${new URL(String(webhook.url)).origin} of ${listName} was turned off: ${String(webhook.disabled_reason)}`, "Turn it on again (enabled: true) once the endpoint answers.", ""].join("\n"),
  };
}

/** The e-mail of each kind of row. */
const EMAILS: Record<string, (db: Database, row: OutboxRow, listName: string) => Promise<Email | undefined>> = {
  digest: digestEmail,
  task_reminder: reminderEmail,
  webhook_disabled: webhookDisabledEmail,
};

/** Takes the row for this sender: answers it when no one else has. */
async function take(db: Database, id: string, now: string): Promise<OutboxRow | undefined> {
  const [[row]] = await rowsOf(db, [
    sql`UPDATE notification_outbox SET attempted_at = ${now}, updated_at = ${now} WHERE id = ${id} AND attempted_at IS NULL
      RETURNING id, kind, user_id, account_list_id, digest_key, task_id, webhook_id`,
  ]);
  return row as unknown as OutboxRow | undefined;
}

async function sendOne(env: Bindings, db: Database, row: OutboxRow, now: string): Promise<"sent" | "nothing to send" | "failed"> {
  const [[recipient], [list]] = await rowsOf(db, [
    sql`SELECT email, first_name FROM users WHERE id = ${row.user_id}`,
    sql`SELECT name FROM account_lists WHERE id = ${row.account_list_id}`,
  ]);
  const listName = String(list?.name ?? "your account list");
  const email = recipient && (await EMAILS[row.kind]?.(db, row, listName));
  if (!email) {
    // Everything it would have said was cleared or completed since: settled without sending.
    await db.$client.prepare("UPDATE notification_outbox SET error = 'nothing left to send', updated_at = ? WHERE id = ?").bind(now, row.id).run();
    return "nothing to send";
  }
  try {
    const result = await env.EMAIL.send({
      from: { name: "Notifications", email: env.NOTIFICATIONS_FROM || DEFAULT_SENDER },
      to: String(recipient.email),
      subject: email.subject,
      text: email.text,
      // Lets the receiving side recognise a message it already has, should one ever be sent twice.
      headers: { "X-Outbox-Id": row.id },
    });
    await db.$client
      .prepare("UPDATE notification_outbox SET sent_at = ?, message_id = ?, error = NULL, updated_at = ? WHERE id = ?")
      .bind(now, result?.messageId ?? null, now, row.id)
      .run();
    return "sent";
  } catch (error) {
    const retryAt = formatTimestamp(new Date(Date.parse(now) + RETRY_MINUTES * 60_000));
    await db.$client
      .prepare("UPDATE notification_outbox SET attempted_at = NULL, due_at = ?, error = ?, updated_at = ? WHERE id = ?")
      .bind(retryAt, String(error), now, row.id)
      .run();
    console.error(JSON.stringify({ level: "error", message: "e-mail not sent", outbox_id: row.id, error: String(error) }));
    return "failed";
  }
}

/** Sends the e-mails due by `now` (of one list, or of all), up to one call's share. Answers how many were sent. */
export async function sendDueEmails(env: Bindings, now: string, accountListId?: string): Promise<number> {
  const db = database(env.DB);
  const scope = accountListId ? sql` AND account_list_id = ${accountListId}` : sql``;
  const [due] = await rowsOf(db, [
    sql`SELECT id FROM notification_outbox WHERE attempted_at IS NULL AND channel = 'email' AND due_at <= ${now}${scope} ORDER BY due_at LIMIT ${SENDS_PER_CALL}`,
  ]);
  let sent = 0;
  for (const { id } of due) {
    const row = await take(db, String(id), now);
    if (!row) continue;
    const outcome = await sendOne(env, db, row, now);
    console.log(JSON.stringify({ level: outcome === "failed" ? "error" : "info", message: "outbox", outbox_id: row.id, kind: row.kind, outcome }));
    if (outcome === "sent") sent++;
  }
  return sent;
}

