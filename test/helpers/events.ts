/**
 * Runs the notification machinery the way the platform does: the daily Cron Trigger through the scheduled
 * handler, then each queue message it sent through the queue handler. The queue and the e-mail binding are
 * wrapped to record what passes through them; the e-mails still go to the local `send_email` binding.
 */
import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, vi } from "vitest";
import worker from "../../src/index";
import type { Bindings, NotificationRunMessage } from "../../src/env";
import * as schema from "../../drizzle/schema";
import { NOTIFICATION_TYPE_IDS, type NotificationTypeKey } from "../../src/constants/notifications";
import { givingTo } from "./contact-fixtures";
import { createViewer, db, timestamps, uuid } from "./factories";

export const DAILY_CRON = "0 5 * * *";
export const FIVE_MINUTE_CRON = "*/5 * * * *";

export interface SentEmail {
  to: string;
  subject: string;
  text: string;
  from: unknown;
  attachments?: EmailAttachment[];
}

export interface RunRecord {
  messages: NotificationRunMessage[];
  emails: SentEmail[];
}

/** An env whose notification queue and e-mail binding record what they are given. */
export function recordingEnv(record: RunRecord, options: { failEmail?: boolean } = {}): Bindings {
  const real = env as unknown as Bindings;
  return {
    ...real,
    NOTIFICATION_QUEUE: {
      send: async (body: NotificationRunMessage) => void record.messages.push(body),
      sendBatch: async (messages: Iterable<{ body: NotificationRunMessage }>) => {
        for (const message of messages) record.messages.push(message.body);
      },
    } as unknown as Bindings["NOTIFICATION_QUEUE"],
    EMAIL: {
      send: async (message: Parameters<SendEmail["send"]>[0]) => {
        if (options.failEmail) throw new Error("the e-mail service is unavailable");
        const builder = message as EmailMessageBuilder;
        record.emails.push({ to: String(builder.to), subject: builder.subject, text: builder.text ?? "", from: builder.from, attachments: builder.attachments });
        return real.EMAIL.send(builder);
      },
    } as unknown as SendEmail,
  };
}

export async function runCron(cron: string, scheduledTime: number, runEnv: Bindings): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ cron, scheduledTime }), runEnv, ctx);
  await waitOnExecutionContext(ctx);
}

/** Delivers run messages to the queue handler as one batch; answers each message's acknowledgement. */
export async function deliverRuns(messages: NotificationRunMessage[], runEnv: Bindings, { queue = "notification-runs", attempts = 1 } = {}) {
  const batch = createMessageBatch<NotificationRunMessage>(
    queue,
    messages.map((body) => ({ id: uuid(), timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue!(batch as MessageBatch<unknown>, runEnv, ctx);
  return getQueueResult(batch, ctx);
}

/** The daily run at `runAt`: the cron sends a message per list, and each is delivered. */
export async function dailyRun(runAt: string, options: { failEmail?: boolean } = {}): Promise<RunRecord> {
  const record: RunRecord = { messages: [], emails: [] };
  const runEnv = recordingEnv(record, options);
  await runCron(DAILY_CRON, Date.parse(runAt), runEnv);
  if (record.messages.length > 0) await deliverRuns(record.messages, runEnv);
  return record;
}

/** The five-minute cron at each of `times` in turn (ISO timestamps); answers what it sent. */
export async function fiveMinuteTicks(...times: string[]): Promise<RunRecord> {
  const record: RunRecord = { messages: [], emails: [] };
  const runEnv = recordingEnv(record);
  for (const time of times) await runCron(FIVE_MINUTE_CRON, Date.parse(time), runEnv);
  return record;
}

type Viewer = Awaited<ReturnType<typeof createViewer>>;

/** A viewer's list (a new one unless given) with a preference for `type` turning on `channels`, ready to give to. */
export async function listWithPreference(type: NotificationTypeKey, channels = { app: true, email: true, task: true }, viewer?: Viewer) {
  const owner = viewer ?? (await createViewer());
  await db.insert(schema.notificationPreferences).values({ id: uuid(), accountListId: owner.list.id, notificationTypeId: NOTIFICATION_TYPE_IDS[type], ...channels, ...timestamps() });
  return { ...owner, giving: await givingTo(owner.list.id) };
}

/**
 * Fixes the clock of every test in the calling file at `at` (an ISO timestamp): the worker's code runs in the
 * test's isolate, so a run dated `at` sees the same "now" whatever day the suite runs. Timers stay real.
 */
export function clockFixedAt(at: string): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(at) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
