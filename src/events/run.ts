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
import { TASK_DELETION } from "../../drizzle/schema";
import { database } from "../db/client";
import { formatMoney } from "../decimal";
import { compoundOf, randomUuid } from "../db/sql";
import { recordDeletionsWhere } from "../engine/deletions";
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

/** What a run starts from: the list's enabled preferences and its last run, read in one round trip. */
interface RunState {
  preferences: Preference[];
  last: LastRun | undefined;
}

async function runStateOf(db: Database, accountListId: string): Promise<RunState> {
  const [rows, [lastRow]] = await rowsOf(db, [
    sql`SELECT notification_type_id, app, email, task FROM notification_preferences WHERE account_list_id = ${accountListId} AND (app = 1 OR email = 1 OR task = 1)`,
    sql`SELECT ran_on, type_ids FROM notification_list_runs WHERE account_list_id = ${accountListId}`,
  ]);
  const preferences = rows.flatMap((row) => {
    const type = EVENT_TYPE_BY_ID.get(String(row.notification_type_id));
    return type ? [{ typeId: String(row.notification_type_id), type, app: row.app === 1, email: row.email === 1, task: row.task === 1 }] : [];
  });
  const last = lastRow ? { ranOn: String(lastRow.ran_on), typeIds: new Set(String(lastRow.type_ids).split(",").filter(Boolean)) } : undefined;
  return { preferences, last };
}

/** The insert of one type's new events, each once: the event key is unique. */
function insertEvents(run: NotificationRun, preference: Preference, events: SQL): SQL {
  return sql`WITH e(contact_id, donation_id, event_date, event_key) AS (${events})
    INSERT INTO notifications (id, account_list_id, contact_id, notification_type_id, donation_id, event_date, event_key, app, wants_task, wants_email, created_at, updated_at)
    SELECT ${randomUuid()}, ${run.accountListId}, e.contact_id, ${preference.typeId}, e.donation_id, e.event_date, e.event_key,
      ${preference.app ? 1 : 0}, ${preference.task ? 1 : 0}, ${preference.email ? 1 : 0}, ${run.runAt}, ${run.runAt}
    FROM e WHERE e.event_key IS NOT NULL ON CONFLICT (event_key) DO NOTHING`;
}

/**
 * A list's change marks, read through their index whatever the planner's statistics say: the daily statistics
 * are taken while the marks are few, and a plan that scans them would read every list's marks in every run.
 */
function marks(alias?: string): SQL {
  return sql.raw(`changed_contacts${alias ? ` AS ${alias}` : ""} INDEXED BY changed_contacts_account_list_id_idx`);
}

/**
 * The ids of the type's notifications whose event is over (`condition` on `n`); after a first run, only those of
 * the contacts changed since, read from the changes (a contact that did not change is as late as it was).
 */
function overEvents(run: NotificationRun, detection: DetectionRun, condition: SQL): SQL {
  const source = detection.since
    ? sql`${marks("k")} CROSS JOIN notifications n ON n.contact_id = k.contact_id WHERE k.account_list_id = ${run.accountListId} AND`
    : sql`notifications n WHERE`;
  return sql`SELECT n.id FROM ${source} n.account_list_id = ${run.accountListId} AND n.notification_type_id = ${detection.typeId} AND n.cleared = 0 AND ${condition}`;
}

/** Clears the notifications `over` selects, and removes their tasks that are still open. */
function clearOverEvents(run: NotificationRun, over: SQL): SQL[] {
  const openTasks = sql`SELECT t.id FROM (${over}) o CROSS JOIN tasks t ON t.notification_id = o.id WHERE t.completed = 0`;
  return [
    // Driven by the notifications: each open task is found through its notification's unique link.
    recordDeletionsWhere(TASK_DELETION, sql`id IN (${openTasks})`, run.runAt, null),
    sql`DELETE FROM tasks WHERE id IN (${openTasks})`,
    sql`UPDATE notifications SET cleared = 1, updated_at = ${run.runAt} WHERE id IN (${over})`,
  ];
}

/**
 * A list whose last run is further back than this is looked at whole: the ranges of what came due stay a few days
 * long, and a list that was not run for a while costs one full run.
 */
const MOST_DAYS_BETWEEN_RUNS = 7;

/** The list's last run, as `notification_list_runs` keeps it. */
interface LastRun {
  ranOn: string;
  typeIds: Set<string>;
}

const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

/** A run older than the list's last (a retried message) reads everything and leaves the marks to the later run. */
function isLatest(today: string, last: LastRun | undefined): boolean {
  return !last || last.ranOn <= today;
}

/**
 * Each enabled type's rule as this run asks it: over every contact of the list on a first run, after a long gap,
 * or for a type the last run did not detect; else over the contacts changed since the last run and those crossing
 * the type's thresholds since then (see detection-sql.ts).
 */
function detections(run: NotificationRun, preferences: Preference[], last: LastRun | undefined, whole = false): Array<{ preference: Preference; detection: DetectionRun }> {
  const today = run.runAt.slice(0, 10);
  const incremental = !whole && last !== undefined && isLatest(today, last) && daysBetween(last.ranOn, today) <= MOST_DAYS_BETWEEN_RUNS;
  return preferences.map((preference) => {
    const base = { accountListId: run.accountListId, today, typeId: preference.typeId };
    const crossings = preference.type.crossings;
    if (!incremental || !crossings || !last.typeIds.has(preference.typeId)) return { preference, detection: { ...base, contacts: sql`contacts c` } };
    const since = last.ranOn;
    const candidates = [sql`SELECT contact_id AS id FROM ${marks()} WHERE account_list_id = ${run.accountListId}`, ...crossings({ ...base, since, contacts: sql`` })];
    // CROSS JOIN keeps the candidates the outer loop: each is one lookup of a contact by id.
    const contacts = sql`(${compoundOf(candidates, "UNION")}) k CROSS JOIN contacts c ON c.id = k.id`;
    return { preference, detection: { ...base, since, contacts } };
  });
}

/**
 * Detects every enabled type's events in one atomic batch, which also takes the list's change marks and records the
 * run, so that a write made meanwhile is either seen here or marked for the next run; answers how many
 * notifications it raised.
 */
async function detect(db: Database, run: NotificationRun, { preferences, last }: RunState): Promise<number> {
  const clears: SQL[] = [];
  const inserts: SQL[] = [];
  for (const { preference, detection } of detections(run, preferences, last)) {
    const { clearedWhen, detect: rule } = preference.type;
    if (clearedWhen) clears.push(...clearOverEvents(run, overEvents(run, detection, clearedWhen(detection))));
    if (rule) inserts.push(insertEvents(run, preference, rule(detection)));
  }
  const today = run.runAt.slice(0, 10);
  const bookkeeping = isLatest(today, last)
    ? [
        sql`DELETE FROM ${marks()} WHERE account_list_id = ${run.accountListId}`,
        sql`INSERT INTO notification_list_runs (account_list_id, ran_on, type_ids) VALUES (${run.accountListId}, ${today}, ${preferences.map((p) => p.typeId).join(",")})
          ON CONFLICT (account_list_id) DO UPDATE SET ran_on = excluded.ran_on, type_ids = excluded.type_ids`,
      ]
    : [];
  if (clears.length + inserts.length + bookkeeping.length === 0) return 0;
  const changed = await rowsChanged(db, [...clears, ...inserts, ...bookkeeping]);
  return changed.slice(clears.length, clears.length + inserts.length).reduce((sum, rows) => sum + rows, 0);
}

/**
 * What a run of the list would raise and clear now, without doing it: the event keys it would add and the ids of
 * the notifications it would clear, and whether it looks at candidates only. `whole` asks every rule over every
 * contact, as a first run does.
 */
export async function previewRun(
  env: Bindings,
  run: NotificationRun,
  { whole = false } = {},
): Promise<{ raised: string[]; cleared: string[]; incremental: boolean }> {
  const db = database(env.DB);
  const { preferences, last } = await runStateOf(db, run.accountListId);
  const queries: SQL[] = [];
  const asked = detections(run, preferences, last, whole);
  for (const { preference, detection } of asked) {
    const { clearedWhen, detect: rule } = preference.type;
    if (clearedWhen) queries.push(sql`SELECT 'cleared' AS what, id AS value FROM (${overEvents(run, detection, clearedWhen(detection))})`);
    if (rule) {
      queries.push(sql`SELECT 'raised' AS what, value FROM (WITH e(contact_id, donation_id, event_date, event_key) AS (${rule(detection)})
        SELECT DISTINCT e.event_key AS value FROM e WHERE e.event_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM notifications x WHERE x.event_key = e.event_key))`);
    }
  }
  const rows = queries.length > 0 ? (await rowsOf(db, queries)).flat() : [];
  const of = (what: string) => rows.filter((row) => row.what === what).map((row) => String(row.value)).sort();
  return { raised: of("raised"), cleared: of("cleared"), incremental: asked.some(({ detection }) => detection.since !== undefined) };
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
  const notifications = await detect(db, run, await runStateOf(db, run.accountListId));
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

