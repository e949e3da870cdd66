/**
 * Sends the queue messages of webhook deliveries. The outbox's triggers write a delivery row in the same batch as
 * the change; after a write request (and after the background jobs that write: imports, daily runs) the deliveries
 * not yet sent are stamped `queued_at` in the statement that selects them (so two dispatchers never send one
 * twice) and a message per delivery goes to WEBHOOK_QUEUE, delayed until it is due. The five-minute cron sends
 * again what a lost message or a killed consumer left behind (`sweepDeliveries`); the delivery's lease decides
 * whatever two messages of one delivery find.
 */
import type { Context } from "hono";
import { sql } from "drizzle-orm";
import { webhookDeliveries as deliveries } from "../../drizzle/schema";
import { database } from "../db/client";
import { onDatabase } from "../db/list-env";
import { isWriteRequest } from "../engine/account-list-scope";
import type { AppEnv, Bindings, WebhookDeliveryMessage } from "../env";
import { formatTimestamp } from "../jsonapi/time";

/** Deliveries sent per statement (a queue takes at most 100 messages a send). */
const DISPATCH_LIMIT = 100;
/** A delivery due this long ago, with no message sent since and no attempt under way, lost its message. */
export const LOST_AFTER_SECONDS = 120;
/** The longest delay a queue message takes. */
export const MAX_DELAY_SECONDS = 12 * 60 * 60;

type Due = { id: string; accountListId: string; nextAttemptAt: string };

async function send(env: Bindings, due: Due[], now: number): Promise<void> {
  for (let start = 0; start < due.length; start += DISPATCH_LIMIT) {
    await env.WEBHOOK_QUEUE.sendBatch(
      due.slice(start, start + DISPATCH_LIMIT).map((row) => ({
        body: { deliveryId: row.id, accountListId: row.accountListId } satisfies WebhookDeliveryMessage,
        delaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil((Date.parse(row.nextAttemptAt) - now) / 1000))),
      })),
    );
  }
}

async function stampAndSend(env: Bindings, which: ReturnType<typeof sql>, now: number, limit: number): Promise<number> {
  const db = database(env.DB);
  const stamp = formatTimestamp(new Date(now));
  const due = await db
    .update(deliveries)
    .set({ queuedAt: stamp })
    .where(sql`${deliveries.id} IN (SELECT id FROM ${deliveries} WHERE ${deliveries.status} = 'pending' AND ${which} LIMIT ${limit})`)
    .returning({ id: deliveries.id, accountListId: deliveries.accountListId, nextAttemptAt: deliveries.nextAttemptAt });
  // A send that fails leaves the stamp: the sweep sends it again.
  await send(env, due, now);
  return due.length;
}

/** Sends a message for each delivery of this database (`env.DB`) that has none yet; answers how many. */
export async function dispatchDeliveries(env: Bindings, now = Date.now()): Promise<number> {
  let total = 0;
  for (let sent = DISPATCH_LIMIT; sent === DISPATCH_LIMIT; total += sent) {
    sent = await stampAndSend(env, sql`${deliveries.queuedAt} IS NULL`, now, DISPATCH_LIMIT);
  }
  return total;
}

/** Sends again the deliveries of this database whose message was lost or whose attempt was cut short. */
export async function sweepDeliveries(env: Bindings, now = Date.now()): Promise<number> {
  const stamp = formatTimestamp(new Date(now));
  const lostBefore = formatTimestamp(new Date(now - LOST_AFTER_SECONDS * 1000));
  const lost = sql`(${deliveries.queuedAt} IS NULL OR (${deliveries.queuedAt} < ${lostBefore} AND ${deliveries.nextAttemptAt} < ${lostBefore}))
    AND (${deliveries.claimedUntil} IS NULL OR ${deliveries.claimedUntil} < ${stamp})`;
  const swept = await stampAndSend(env, lost, now, 500);
  if (swept > 0) console.log(JSON.stringify({ level: "info", message: "webhook deliveries sent again", count: swept }));
  return swept;
}

/** After a request's writes: the deliveries they recorded on its database are sent, once the answer is out. */
export function dispatchAfter(c: Context<AppEnv>): void {
  const env = onDatabase(c.env, c.get("databaseName"));
  let ctx: { waitUntil(promise: Promise<unknown>): void } | undefined;
  try {
    ctx = c.executionCtx;
  } catch {
    ctx = undefined;
  }
  const sending = dispatchDeliveries(env).catch((error: unknown) => {
    console.error(JSON.stringify({ level: "error", message: "webhook dispatch failed", error: String(error) }));
  });
  if (ctx) ctx.waitUntil(sending);
}

/** Every successful write request dispatches what it recorded. */
export async function dispatchAfterWrites(c: Context<AppEnv>, next: () => Promise<void>): Promise<void> {
  await next();
  if (isWriteRequest(c) && c.res.status < 400) dispatchAfter(c);
}
