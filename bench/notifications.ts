/**
 * The notification run (src/events) under load: one account list's run at the dataset's size, and the daily cron
 * over 1,000 more lists drained through the queue. Runs go through the worker's own scheduled and queue handlers
 * in workerd; their D1 cost is read from each run's log line (src/events/queue.ts).
 */
import type { Miniflare } from "miniflare";
import { NOTIFICATION_TYPES } from "../src/constants/notifications";
import { benchIds } from "./dataset";
import type { D1Handle } from "./server";

export interface NotificationBench {
  listContacts: number;
  /** One list's run, every type on: wall time, D1 round trips and rows read, and what it made; the first run
   * raises everything the generated history holds, the next day's only what came due (nothing was written). */
  single?: SingleRun;
  nextDay?: SingleRun;
  /** The cron over `lists` small lists plus the dataset's: time until every list's run was done. */
  fanOut?: { lists: number; ms: number; messages: number; rowsRead: number; failed: number };
  error?: string;
}

export interface SingleRun {
  ms: number;
  roundTrips: number;
  rowsRead: number;
  notifications: number;
  tasks: number;
}

export interface RunLine {
  message?: string;
  message_id?: string;
  queue?: string;
  account_list_id?: string;
  outcome?: string;
  notifications?: number;
  tasks?: number;
  d1_round_trips?: number;
  d1_rows_read?: number;
}

/** The dataset is dated back from today (bench/dataset.ts): the first run is today's, then tomorrow's, when the
 * calendar moved on and nobody wrote anything. */
const TODAY = new Date().toISOString().slice(0, 10);
const dayAfter = (day: string, days: number) => new Date(Date.parse(day) + days * 86_400_000).toISOString().slice(0, 10);
const RUN_AT = `${TODAY}T05:00:00Z`;
const NEXT_DAY = `${dayAfter(TODAY, 1)}T05:00:00Z`;
const FAN_OUT_LISTS = 1_000;

/** Collects the lines the worker logs for the messages of one queue (see startServers' onLog). */
export class RunLog<Line = RunLine> {
  lines: Line[] = [];
  constructor(private readonly queue = "notification-runs") {}
  take(message: string): void {
    if (!message.includes('"queue message"') || !message.includes(this.queue)) return;
    try {
      this.lines.push(JSON.parse(message.slice(message.indexOf("{"))) as Line);
    } catch {
      // Not one of the JSON lines.
    }
  }
}

const id = (prefix: string, n: number) => `${prefix}${String(n).padStart(12, "0")}`.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*$/, "$1-$2-$3-$4-$5");

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

export async function benchNotifications(mf: Miniflare, db: D1Handle, log: RunLog): Promise<NotificationBench> {
  const list = benchIds.lists[0];
  const [{ n: listContacts }] = (await db.prepare(`SELECT COUNT(*) AS n FROM contacts WHERE account_list_id = '${list}'`).all<{ n: number }>()).results;
  const result: NotificationBench = { listContacts };
  try {
    const stamp = "2026-11-01T00:00:00Z";
    const preferences = NOTIFICATION_TYPES.map(
      (type, i) => `('${id("bbbbbbbb", i)}', '${list}', '${type.id}', 1, 1, 1, '${stamp}', '${stamp}')`,
    );
    await db.prepare(`INSERT INTO notification_preferences (id, account_list_id, notification_type_id, app, email, task, created_at, updated_at) VALUES ${preferences.join(", ")}`).run();

    const worker = await mf.getWorker("api");
    const runOnce = async (runAt: string): Promise<SingleRun> => {
      const started = performance.now();
      const id = `bench-${runAt}`;
      const ran = () => log.lines.findLast((l) => l.message_id === id && l.outcome === "ran");
      // A run of half a minute or more (a 50,000-contact list's first) outlasts Miniflare's dispatch of the queue
      // event, which then fails although the handler ends well: the run's own log line says when it ended.
      const dispatched = await worker.queue("notification-runs", [{ id, timestamp: new Date(), attempts: 1, body: { accountListId: list, runAt } }]).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (dispatched !== undefined && !(await waitFor(() => ran() !== undefined, 600_000))) throw dispatched;
      const ms = performance.now() - started;
      const line = ran();
      return { ms, roundTrips: line?.d1_round_trips ?? 0, rowsRead: line?.d1_rows_read ?? 0, notifications: line?.notifications ?? 0, tasks: line?.tasks ?? 0 };
    };
    result.single = await runOnce(RUN_AT);
    result.nextDay = await runOnce(NEXT_DAY);

    // 1,000 small lists, each with a special-gift preference and one gift that raises it.
    const special = NOTIFICATION_TYPES.find((type) => type.key === "special_gift")!.id;
    const [{ organization }] = (await db.prepare("SELECT id AS organization FROM organizations LIMIT 1").all<{ organization: string }>()).results;
    for (let start = 0; start < FAN_OUT_LISTS; start += 100) {
      const ns = Array.from({ length: 100 }, (_, i) => start + i + 1);
      const rows = (prefix: string, make: (n: number) => string) => `${ns.map(make).join(", ")}`;
      await db.batch([
        db.prepare(`INSERT INTO account_lists (id, name, currency, created_at, updated_at) VALUES ${rows("", (n) => `('${id("a1000000", n)}', 'Fan-out ${n}', 'USD', '${stamp}', '${stamp}')`)}`),
        db.prepare(`INSERT INTO notification_preferences (id, account_list_id, notification_type_id, app, email, task, created_at, updated_at) VALUES ${rows("", (n) => `('${id("a2000000", n)}', '${id("a1000000", n)}', '${special}', 1, 0, 1, '${stamp}', '${stamp}')`)}`),
        db.prepare(`INSERT INTO contacts (id, account_list_id, name, created_at, updated_at) VALUES ${rows("", (n) => `('${id("a3000000", n)}', '${id("a1000000", n)}', 'Friend ${n}', '${stamp}', '${stamp}')`)}`),
        db.prepare(`INSERT INTO donor_accounts (id, organization_id, account_number, created_at, updated_at) VALUES ${rows("", (n) => `('${id("a4000000", n)}', '${organization}', 'FAN${n}', '${stamp}', '${stamp}')`)}`),
        db.prepare(`INSERT INTO contact_donor_accounts (id, contact_id, donor_account_id, created_at, updated_at) VALUES ${rows("", (n) => `('${id("a5000000", n)}', '${id("a3000000", n)}', '${id("a4000000", n)}', '${stamp}', '${stamp}')`)}`),
        db.prepare(`INSERT INTO designation_accounts (id, account_list_id, name, currency, created_at, updated_at) VALUES ${rows("", (n) => `('${id("a6000000", n)}', '${id("a1000000", n)}', 'Fund', 'USD', '${stamp}', '${stamp}')`)}`),
        db.prepare(`INSERT INTO donations (id, account_list_id, designation_account_id, donor_account_id, amount, currency, donation_date, created_at, updated_at) VALUES ${rows("", (n) => `('${id("a7000000", n)}', '${id("a1000000", n)}', '${id("a6000000", n)}', '${id("a4000000", n)}', 250000, 'USD', '${dayAfter(TODAY, -3)}', '${stamp}', '${stamp}')`)}`),
      ]);
    }
    const before = log.lines.length;
    const fanStarted = performance.now();
    await worker.scheduled({ cron: "0 5 * * *", scheduledTime: new Date(NEXT_DAY) });
    const expected = FAN_OUT_LISTS + 1;
    await waitFor(() => log.lines.length - before >= expected, 10 * 60_000);
    const lines = log.lines.slice(before);
    result.fanOut = {
      lists: FAN_OUT_LISTS,
      ms: performance.now() - fanStarted,
      messages: lines.length,
      rowsRead: lines.reduce((sum, l) => sum + (l.d1_rows_read ?? 0), 0),
      failed: lines.filter((l) => l.outcome !== "ran").length,
    };
  } catch (error) {
    result.error = String(error);
  }
  return result;
}
