/**
 * Sends the queue messages of webhook deliveries. The outbox's triggers write a delivery row in the same batch as
 * the change; after a write request (and after the background jobs that write: imports, daily runs) the new
 * events' bodies are rendered (src/webhooks/payloads.ts: a request does it before it answers) and the deliveries
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
import { renderNewPayloads } from "./payloads";

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
async function sendUnsent(env: Bindings, now: number): Promise<number> {
  let total = 0;
  for (let sent = DISPATCH_LIMIT; sent === DISPATCH_LIMIT; total += sent) {
    sent = await stampAndSend(env, sql`${deliveries.queuedAt} IS NULL`, now, DISPATCH_LIMIT);
  }
  return total;
}

/**
 * What a background writer (an import or notification run) does after its writes: renders the new events' bodies
 * and sends their deliveries. A render that fails leaves the bodies to the first attempt; the sending goes on.
 */
export async function dispatchDeliveries(env: Bindings, now = Date.now()): Promise<number> {
  await renderAfterWrite(env, now);
  return sendUnsent(env, now);
}

/** Renders the bodies of the events just written on this database; answers whether any delivery waits to be sent. */
async function renderAfterWrite(env: Bindings, now = Date.now()): Promise<boolean> {
  try {
    return await renderNewPayloads(env, formatTimestamp(new Date(now)));
  } catch (error) {
    console.error(JSON.stringify({ level: "error", message: "webhook payloads not rendered", error: String(error) }));
    return true;
  }
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

/** Sends the unsent deliveries of database `name` once the answer is out. */
function dispatchOn(c: Context<AppEnv>, name: string): void {
  const sending = sendUnsent(onDatabase(c.env, name), Date.now()).catch((error: unknown) => {
    console.error(JSON.stringify({ level: "error", message: "webhook dispatch failed", database: name, error: String(error) }));
  });
  try {
    c.executionCtx.waitUntil(sending);
  } catch {
    // No execution context (a request the service made without one): the sending goes on by itself.
  }
}

/**
 * Every successful write renders the bodies of the events it recorded before it answers (the records as the write
 * left them), and sends their deliveries once the answer is out, once per database and request: a /batch item or a
 * database's part of a request notes its database and renders what it wrote; the request that holds them (its
 * sessions' owner) sends for them all.
 */
export async function dispatchAfterWrites(c: Context<AppEnv>, next: () => Promise<void>): Promise<void> {
  await next();
  const sessions = c.get("sessions");
  // A request answered by each database's part names none itself: its parts noted theirs.
  const name = c.get("databaseName");
  if (isWriteRequest(c) && c.res.status < 400 && name) sessions.written.add(name);
  const databases = [...sessions.written];
  const waiting = await Promise.all(databases.map((database) => renderAfterWrite(onDatabase(c.env, database))));
  if (c.get("item")?.sessions) return;
  sessions.written.clear();
  databases.forEach((database, index) => {
    if (waiting[index]) dispatchOn(c, database);
  });
}
