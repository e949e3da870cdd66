/**
 * One account list's notification run: detect the events of every type the list's preferences turn on, then do
 * what each new notification asks for (a task, a place in the run's e-mail digest). Every step is keyed in D1, so a
 * run may stop anywhere and run again, or overlap another run of the same list, without a second notification,
 * task or e-mail:
 * - a notification is unique by its event key;
 * - a task is made in the same atomic step that marks its notification as having one (and is unique per notification);
 * - a digest takes its notifications by writing its key on them, and its e-mails are unique per digest and user.
 */
import { sql, type SQL } from "drizzle-orm";
import { database } from "../db/client";
import { formatMoney } from "../db/decimal";
import { randomUuid } from "../db/sql";
import { rowsChanged, rowsOf, runAtomically } from "../db/statements";
import type { Bindings, Database } from "../env";
import { nextLocalHour } from "../jsonapi/time";
import { EVENT_TYPE_BY_ID, type EventType, type NotificationFacts } from "./event-types";
import type { DetectionRun } from "./detection-sql";

export interface NotificationRun {
  accountListId: string;
  /** The run's time, `YYYY-MM-DDTHH:MM:SSZ`; its day is "today" for every rule. */
  runAt: string;
}

export interface RunSummary {
  notifications: number;
  tasks: number;
  emails: number;
}

/** Notifications waiting for a channel, made or finished in chunks this size. */
const CHUNK = 100;

interface Preference {
  typeId: string;
  type: EventType;
  app: boolean;
  email: boolean;
  task: boolean;
}

async function preferencesOf(db: Database, accountListId: string): Promise<Preference[]> {
  const [rows] = await rowsOf(db, [
    sql`SELECT notification_type_id, app, email, task FROM notification_preferences WHERE account_list_id = ${accountListId} AND (app = 1 OR email = 1 OR task = 1)`,
  ]);
  return rows.flatMap((row) => {
    const type = EVENT_TYPE_BY_ID.get(String(row.notification_type_id));
    return type ? [{ typeId: String(row.notification_type_id), type, app: row.app === 1, email: row.email === 1, task: row.task === 1 }] : [];
  });
}

/** The insert of one type's new events, each once: the event key is unique. */
function insertEvents(run: NotificationRun, preference: Preference, events: SQL): SQL {
  return sql`WITH e(contact_id, donation_id, event_date, event_key) AS (${events})
    INSERT INTO notifications (id, account_list_id, contact_id, notification_type_id, donation_id, event_date, event_key, app, wants_task, wants_email, created_at, updated_at)
    SELECT ${randomUuid()}, ${run.accountListId}, e.contact_id, ${preference.typeId}, e.donation_id, e.event_date, e.event_key,
      ${preference.app ? 1 : 0}, ${preference.task ? 1 : 0}, ${preference.email ? 1 : 0}, ${run.runAt}, ${run.runAt}
    FROM e WHERE e.event_key IS NOT NULL ON CONFLICT (event_key) DO NOTHING`;
}

/** Clears the type's notifications whose event is over, and removes their tasks that are still open. */
function clearOverEvents(run: NotificationRun, typeId: string, condition: SQL): SQL[] {
  const over = sql`n.account_list_id = ${run.accountListId} AND n.notification_type_id = ${typeId} AND n.cleared = 0 AND ${condition}`;
  return [
    sql`DELETE FROM tasks WHERE completed = 0 AND notification_id IN (SELECT n.id FROM notifications n WHERE ${over})`,
    sql`UPDATE notifications AS n SET cleared = 1, updated_at = ${run.runAt} WHERE ${over}`,
  ];
}

/** Detects every enabled type's events in one atomic batch; answers how many notifications it raised. */
async function detect(db: Database, run: NotificationRun, preferences: Preference[]): Promise<number> {
  const today = run.runAt.slice(0, 10);
  const clears: SQL[] = [];
  const inserts: SQL[] = [];
  for (const preference of preferences) {
    const detection: DetectionRun = { accountListId: run.accountListId, today, typeId: preference.typeId };
    const { clearedWhen, detect: rule } = preference.type;
    if (clearedWhen) clears.push(...clearOverEvents(run, preference.typeId, clearedWhen(detection)));
    if (rule) inserts.push(insertEvents(run, preference, rule(detection)));
  }
  if (clears.length + inserts.length === 0) return 0;
  const changed = await rowsChanged(db, [...clears, ...inserts]);
  return changed.slice(clears.length).reduce((sum, rows) => sum + rows, 0);
}

/** What a notification's task and e-mail line say, read with the notification. */
export const NOTIFICATION_FACTS = sql.raw(`n.id, n.contact_id, n.notification_type_id, n.event_date, c.name AS contact_name,
  d.amount AS gift_amount, d.currency AS gift_currency, d.donation_date AS gift_date,
  trim(COALESCE(p.first_name, '') || ' ' || COALESCE(p.last_name, '')) AS person_name
  FROM notifications n JOIN contacts c ON c.id = n.contact_id LEFT JOIN donations d ON d.id = n.donation_id
  LEFT JOIN people p ON n.event_key LIKE 'upcoming\\_%' ESCAPE '\\' AND p.id = substr(n.event_key, instr(n.event_key, ':') + 1, 36)`);

export function factsOf(row: Record<string, unknown>): NotificationFacts {
  const facts: NotificationFacts = { contactName: String(row.contact_name) };
  if (row.gift_date) facts.gift = { amount: formatMoney(Number(row.gift_amount)) ?? "", currency: String(row.gift_currency), date: String(row.gift_date) };
  if (row.person_name) facts.person = { name: String(row.person_name), date: String(row.event_date) };
  return facts;
}

/** Makes the tasks of notifications that want one and have none yet. */
async function makeTasks(db: Database, run: NotificationRun): Promise<number> {
  let made = 0;
  for (;;) {
    const [pending] = await rowsOf(db, [
      sql`SELECT ${NOTIFICATION_FACTS} WHERE n.account_list_id = ${run.accountListId} AND n.wants_task = 1 AND n.task_created_at IS NULL AND n.cleared = 0 LIMIT ${CHUNK}`,
    ]);
    if (pending.length === 0) return made;
    await runAtomically(db, pending.flatMap((row) => taskStatements(run, row)));
    made += pending.length;
    if (pending.length < CHUNK) return made;
  }
}

function taskStatements(run: NotificationRun, row: Record<string, unknown>): SQL[] {
  const type = EVENT_TYPE_BY_ID.get(String(row.notification_type_id));
  if (!type) return [];
  const taskId = crypto.randomUUID();
  const notificationId = String(row.id);
  return [
    // Another run that made this notification's task first wins; then this insert and the link below do nothing.
    sql`INSERT INTO tasks (id, account_list_id, activity_type, subject, start_at, notification_id, created_at, updated_at)
      SELECT ${taskId}, ${run.accountListId}, ${type.activity}, ${type.subject(factsOf(row))}, ${run.runAt}, ${notificationId}, ${run.runAt}, ${run.runAt}
      WHERE NOT EXISTS (SELECT 1 FROM notifications WHERE id = ${notificationId} AND task_created_at IS NOT NULL)
      ON CONFLICT (notification_id) DO NOTHING`,
    sql`INSERT INTO activity_contacts (id, task_id, contact_id, created_at, updated_at)
      SELECT ${crypto.randomUUID()}, ${taskId}, ${String(row.contact_id)}, ${run.runAt}, ${run.runAt} WHERE EXISTS (SELECT 1 FROM tasks WHERE id = ${taskId})`,
    sql`UPDATE notifications SET task_created_at = ${run.runAt} WHERE id = ${notificationId} AND task_created_at IS NULL`,
  ];
}

/**
 * Puts the notifications that want an e-mail into this run's digest, with one e-mail per user of the list, due at
 * the user's hour to send notifications in their time zone (at once when they have none).
 */
async function queueDigest(db: Database, run: NotificationRun): Promise<number> {
  const [users] = await rowsOf(db, [
    sql`SELECT u.id, u.time_zone, u.hour_to_send_notifications FROM account_list_users alu JOIN users u ON u.id = alu.user_id WHERE alu.account_list_id = ${run.accountListId}`,
  ]);
  if (users.length === 0) return 0;
  const digestKey = `${run.accountListId}:${run.runAt}`;
  const statements: SQL[] = [
    sql`UPDATE notifications SET digest_key = ${digestKey} WHERE account_list_id = ${run.accountListId} AND wants_email = 1 AND digest_key IS NULL AND cleared = 0`,
  ];
  for (const user of users) {
    const hour = user.hour_to_send_notifications;
    const dueAt = typeof hour === "number" ? nextLocalHour(run.runAt, String(user.time_zone), hour) : run.runAt;
    statements.push(sql`INSERT INTO notification_outbox (id, dedupe_key, kind, channel, account_list_id, user_id, digest_key, due_at, created_at, updated_at)
      SELECT ${crypto.randomUUID()}, ${`digest:${digestKey}:${String(user.id)}`}, 'digest', 'email', ${run.accountListId}, ${String(user.id)}, ${digestKey}, ${dueAt}, ${run.runAt}, ${run.runAt}
      WHERE EXISTS (SELECT 1 FROM notifications WHERE digest_key = ${digestKey}) ON CONFLICT (dedupe_key) DO NOTHING`);
  }
  // One atomic batch: the claim and the e-mails; answers how many e-mails it recorded.
  const changed = await rowsChanged(db, statements);
  return changed.slice(1).reduce((sum, rows) => sum + rows, 0);
}

/** The whole run of one list. Reads and writes go to the primary: a run acts on what is stored, not a replica's copy. */
export async function runListNotifications(env: Bindings, run: NotificationRun): Promise<RunSummary> {
  const db = database(env.DB);
  const preferences = await preferencesOf(db, run.accountListId);
  const notifications = await detect(db, run, preferences);
  const tasks = await makeTasks(db, run);
  const emails = await queueDigest(db, run);
  return { notifications, tasks, emails };
}

/** For the import entry point: the channels of a notification raised outside a run. */
export async function deliverRaised(env: Bindings, run: NotificationRun): Promise<void> {
  const db = database(env.DB);
  await makeTasks(db, run);
  await queueDigest(db, run);
}

