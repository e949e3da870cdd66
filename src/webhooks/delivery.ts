/**
 * The webhook queue's consumer: one message, one attempt of one delivery (an event to an endpoint).
 *
 * The attempt is claimed in D1 first: a statement takes a lease (`claimed_until`) on a pending, due delivery no one
 * else holds, so two attempts of one delivery never run at once, and a message that finds it settled, not yet due
 * or held is dropped. The event's body (rendered once and kept, src/webhooks/payloads.ts; a render that fails is
 * an attempt retried like a failed one) is POSTed, signed
 * (Standard Webhooks), with the delivery's id as `webhook-id`, to a URL checked again (src/webhooks/urls.ts),
 * without following redirects and within 15 seconds. A 2xx settles it as delivered; anything else schedules the
 * next attempt through a delayed message (WEBHOOK_RETRY_SECONDS, with jitter, or the endpoint's Retry-After on
 * 429 and 503) until the schedule is spent: then it has failed. A 410, or five days of nothing but failures,
 * turns the endpoint off and tells the list's users by e-mail. An attempt killed half-way keeps its lease until it
 * lapses; the five-minute sweep (src/webhooks/dispatch.ts) then sends it again.
 */
import { sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { accountListUsers, notificationOutbox, webhookDeliveries as deliveries, webhookEvents, webhooks } from "../../drizzle/schema";
import { database } from "../db/client";
import { onListDatabase } from "../db/list-env";
import type { Bindings, Database, WebhookDeliveryMessage } from "../env";
import { formatTimestamp } from "../jsonapi/time";
import { addSeconds } from "./clock";
import { MAX_DELAY_SECONDS } from "./dispatch";
import { eventPayload } from "./payloads";
import { decryptSecret, signatureHeader } from "./secrets";
import { allowsLoopback, refusedUrl } from "./urls";

export const WEBHOOK_QUEUE_NAME = "webhook-deliveries";
export const DEFAULT_RETRY_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];
export const TIMEOUT_MS = 15_000;
/** The lease of one attempt: longer than its timeout and the writes around it. */
export const LEASE_SECONDS = 60;
/**
 * Bytes of the endpoint's answer kept in the log: enough for a receiver's error message, too few for an endpoint
 * pointed at someone else's page to read it through the log.
 */
export const RESPONSE_BODY_BYTES = 256;
/** Failures for this long, without a success, turn an endpoint off. */
export const FAILING_DAYS = 5;

export const isWebhookQueue = (queue: string) => queue === WEBHOOK_QUEUE_NAME || queue.startsWith(`${WEBHOOK_QUEUE_NAME}-`);

/** The seconds before each retry (WEBHOOK_RETRY_SECONDS, or the default schedule). */
export function retrySchedule(env: { WEBHOOK_RETRY_SECONDS?: string }): number[] {
  const parsed = (env.WEBHOOK_RETRY_SECONDS ?? "").split(",").map((part) => Number(part.trim()));
  return parsed.length > 0 && parsed.every((seconds) => Number.isFinite(seconds) && seconds >= 0) && env.WEBHOOK_RETRY_SECONDS?.trim() ? parsed : DEFAULT_RETRY_SECONDS;
}

/** The delay before retry `index` (0 for the first): the schedule's, ±20% so that endpoints' retries spread out. */
export function retryDelay(schedule: number[], index: number, random = Math.random()): number {
  const base = schedule[Math.min(index, schedule.length - 1)];
  return Math.min(MAX_DELAY_SECONDS, Math.round(base * (0.8 + 0.4 * random)));
}

/** The seconds an endpoint asks to wait (Retry-After: seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value.trim()) : (Date.parse(value) - now) / 1000;
  return Number.isFinite(seconds) ? Math.min(MAX_DELAY_SECONDS, Math.max(1, Math.ceil(seconds))) : undefined;
}

type Delivery = typeof deliveries.$inferSelect;
type Webhook = typeof webhooks.$inferSelect;

/** Takes the lease of a due delivery no one holds, counting the attempt; undefined when it is not to be attempted now. */
export async function claimDelivery(db: Database, id: string, now: number): Promise<Delivery | undefined> {
  const stamp = formatTimestamp(new Date(now));
  const [claimed] = await db
    .update(deliveries)
    .set({ claimedUntil: addSeconds(stamp, LEASE_SECONDS), attempts: sql`${deliveries.attempts} + 1`, lastAttemptAt: stamp, updatedAt: stamp })
    .where(
      sql`${deliveries.id} = ${id} AND ${deliveries.status} = 'pending' AND ${deliveries.nextAttemptAt} <= ${addSeconds(stamp, 1)}
        AND (${deliveries.claimedUntil} IS NULL OR ${deliveries.claimedUntil} <= ${stamp})`,
    )
    .returning();
  return claimed;
}

/** The secrets that sign now: the current one, and the previous one during a rotation's overlap. */
async function signingSecrets(env: Bindings, webhook: Webhook, now: string): Promise<string[]> {
  const secrets = [await decryptSecret(env, webhook.secret)];
  if (webhook.previousSecret && webhook.previousSecretUntil && webhook.previousSecretUntil > now) secrets.push(await decryptSecret(env, webhook.previousSecret));
  return secrets;
}

interface Answer {
  status: number | null;
  ms: number;
  body: string;
  retryAfter: string | null;
}

/** The first bytes of the answer's body, the rest left unread. */
async function firstBytes(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < RESPONSE_BODY_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => undefined);
  const joined = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  // A character cut at the limit is left out (`stream`); bytes that are no UTF-8 become U+FFFD, which is longer.
  let text = new TextDecoder().decode(joined.slice(0, RESPONSE_BODY_BYTES), { stream: true });
  while (new TextEncoder().encode(text).length > RESPONSE_BODY_BYTES) text = text.slice(0, -1);
  return text;
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<Answer> {
  const started = Date.now();
  try {
    const response = await fetch(url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await firstBytes(response);
    return { status: response.status, ms: Date.now() - started, body: text, retryAfter: response.headers.get("retry-after") };
  } catch (error) {
    const reason = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError") ? `no answer within ${TIMEOUT_MS / 1000} s` : "the endpoint could not be reached";
    return { status: null, ms: Date.now() - started, body: reason, retryAfter: null };
  }
}

/** E-mails for the list's users: the endpoint was turned off. */
function tellUsers(db: Database, webhook: Webhook, now: string) {
  return db.insert(notificationOutbox).select(
    db
      .select({
        id: sql<string>`lower(hex(randomblob(16)))`.as("id"),
        dedupeKey: sql<string>`${`webhook_disabled:${webhook.id}:${now}:`} || ${accountListUsers.userId}`.as("dedupe_key"),
        kind: sql<string>`'webhook_disabled'`.as("kind"),
        channel: sql<string>`'email'`.as("channel"),
        accountListId: accountListUsers.accountListId,
        userId: accountListUsers.userId,
        digestKey: sql<null>`NULL`.as("digest_key"),
        taskId: sql<null>`NULL`.as("task_id"),
        webhookId: sql<string>`${webhook.id}`.as("webhook_id"),
        dueAt: sql<string>`${now}`.as("due_at"),
        attemptedAt: sql<null>`NULL`.as("attempted_at"),
        sentAt: sql<null>`NULL`.as("sent_at"),
        messageId: sql<null>`NULL`.as("message_id"),
        error: sql<null>`NULL`.as("error"),
        createdAt: sql<string>`${now}`.as("created_at"),
        updatedAt: sql<string>`${now}`.as("updated_at"),
      })
      .from(accountListUsers)
      .where(sql`${accountListUsers.accountListId} = ${webhook.accountListId}`),
  );
}

/** Turns the endpoint off (if it is on) and records the e-mails that say so, in one batch with `others`. */
function disable(db: Database, webhook: Webhook, reason: string, now: string) {
  return [
    db.update(webhooks).set({ enabled: false, disabledReason: reason, updatedAt: now }).where(sql`${webhooks.id} = ${webhook.id} AND ${webhooks.enabled} = 1`),
    tellUsers(db, webhook, now),
  ] as const;
}

/** The signed headers of one attempt of `body`. */
async function signedHeaders(env: Bindings, delivery: Delivery, webhook: Webhook, body: string, now: number): Promise<Record<string, string>> {
  const timestamp = Math.floor(now / 1000);
  return {
    "Content-Type": "application/json",
    "User-Agent": "fundraising-records-webhooks/1",
    "webhook-id": delivery.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await signatureHeader(await signingSecrets(env, webhook, formatTimestamp(new Date(now))), delivery.id, timestamp, body),
  };
}

type Outcome = "delivered" | "retrying" | "failed" | "endpoint gone" | "endpoint off" | "not attempted";

/** Attempts the delivery once, if it is to be attempted now; records the outcome. */
export async function attemptDelivery(env: Bindings, deliveryId: string, now = Date.now()): Promise<Outcome> {
  const db = database(env.DB);
  const delivery = await claimDelivery(db, deliveryId, now);
  if (!delivery) return "not attempted";
  const stamp = formatTimestamp(new Date(now));
  const [[webhook], [event]] = await db.batch([
    db.select().from(webhooks).where(sql`${webhooks.id} = ${delivery.webhookId}`),
    db.select().from(webhookEvents).where(sql`${webhookEvents.id} = ${delivery.eventId}`),
  ]);
  const held = sql`${deliveries.id} = ${delivery.id} AND ${deliveries.claimedUntil} = ${delivery.claimedUntil}`;
  if (!webhook || !event || !webhook.enabled) {
    await db.update(deliveries).set({ status: "failed", claimedUntil: null, responseBody: "The endpoint is turned off", updatedAt: stamp }).where(held);
    return "endpoint off";
  }
  // Checked again as it is sent: an endpoint stored under older rules is not sent to.
  const refused = refusedUrl(webhook.url, allowsLoopback(env));
  if (refused) {
    await db.update(deliveries).set({ status: "failed", claimedUntil: null, responseBody: `The endpoint's URL ${refused}`, updatedAt: stamp }).where(held);
    return "failed";
  }
  let body: string;
  try {
    body = await eventPayload(env, db, event, stamp);
  } catch (error) {
    // Reading the event's list failed (nothing stored): an attempt like one the endpoint failed, tried again later,
    // though no fault of the endpoint's.
    console.error(JSON.stringify({ level: "error", message: "webhook payload not rendered", delivery_id: delivery.id, error: String(error) }));
    const logged = { responseStatus: null, responseMs: null, responseBody: "The event's body could not be rendered: it is tried again", claimedUntil: null, updatedAt: stamp };
    return retryOrFail(env, db, delivery, held, logged, now, undefined, []);
  }
  let headers: Record<string, string>;
  try {
    headers = await signedHeaders(env, delivery, webhook, body, now);
  } catch (error) {
    // Nothing an endpoint or a retry can change (a secret the key no longer opens): failed now.
    const reason = error instanceof Error ? error.name : "Error";
    console.error(JSON.stringify({ level: "error", message: "webhook delivery not signed", delivery_id: delivery.id, error: reason }));
    await db.update(deliveries).set({ status: "failed", claimedUntil: null, responseBody: `The delivery could not be signed (${reason})`, updatedAt: stamp }).where(held);
    return "failed";
  }
  const answer = await post(webhook.url, headers, body);
  const logged = { responseStatus: answer.status, responseMs: answer.ms, responseBody: answer.body, claimedUntil: null, updatedAt: stamp };

  if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
    await db.batch([
      db.update(deliveries).set({ ...logged, status: "delivered" }).where(held),
      db.update(webhooks).set({ failingSince: null }).where(sql`${webhooks.id} = ${webhook.id} AND ${webhooks.failingSince} IS NOT NULL`),
    ]);
    return "delivered";
  }
  if (answer.status === 410) {
    await db.batch([db.update(deliveries).set({ ...logged, status: "failed" }).where(held), ...disable(db, webhook, "The endpoint answered 410 Gone", stamp)]);
    return "endpoint gone";
  }
  const failingSince = webhook.failingSince ?? stamp;
  const failingTooLong = now - Date.parse(failingSince) >= FAILING_DAYS * 86_400_000;
  const markFailing = db.update(webhooks).set({ failingSince }).where(sql`${webhooks.id} = ${webhook.id}`);
  if (failingTooLong) {
    await db.batch([
      db.update(deliveries).set({ ...logged, status: "failed" }).where(held),
      markFailing,
      ...disable(db, webhook, `Every attempt failed for ${FAILING_DAYS} days`, stamp),
    ]);
    return "endpoint gone";
  }
  const asked = answer.status === 429 || answer.status === 503 ? retryAfterSeconds(answer.retryAfter, now) : undefined;
  return retryOrFail(env, db, delivery, held, logged, now, asked, [markFailing]);
}

type Logged = Partial<typeof deliveries.$inferInsert>;

/**
 * The attempt failed: the next one is scheduled (after `asked` seconds, or the schedule's delay), or, the schedule
 * spent, the delivery has failed. `alongside`: writes of the same batch.
 */
async function retryOrFail(env: Bindings, db: Database, delivery: Delivery, held: SQL, logged: Logged, now: number, asked: number | undefined, alongside: BatchItem<"sqlite">[]): Promise<Outcome> {
  const stamp = formatTimestamp(new Date(now));
  const schedule = retrySchedule(env);
  const retryIndex = delivery.attempts - delivery.roundStart - 1;
  if (retryIndex >= schedule.length) {
    await db.batch([db.update(deliveries).set({ ...logged, status: "failed" }).where(held), ...alongside]);
    return "failed";
  }
  const delay = asked ?? retryDelay(schedule, retryIndex);
  await db.batch([db.update(deliveries).set({ ...logged, nextAttemptAt: addSeconds(stamp, delay), queuedAt: stamp }).where(held), ...alongside]);
  // Should this send fail, the sweep sends the delivery once it is due.
  await env.WEBHOOK_QUEUE.send({ deliveryId: delivery.id, accountListId: delivery.accountListId }, { delaySeconds: delay });
  return "retrying";
}

export async function consumeWebhookDeliveries(batch: MessageBatch<unknown>, env: Bindings): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body as Partial<WebhookDeliveryMessage> | null;
    const line = { message: "queue message", queue: batch.queue, message_id: message.id, delivery_id: body?.deliveryId ?? null, attempts: message.attempts };
    if (typeof body?.deliveryId !== "string" || typeof body.accountListId !== "string") {
      message.ack();
      console.error(JSON.stringify({ level: "error", ...line, outcome: "no delivery id" }));
      continue;
    }
    try {
      const outcome = await attemptDelivery(await onListDatabase(env, body.accountListId), body.deliveryId);
      message.ack();
      console.log(JSON.stringify({ level: "info", ...line, outcome }));
    } catch (error) {
      // The lease keeps another attempt off until it lapses; the queue's retry (or the sweep) comes after.
      console.error(JSON.stringify({ level: "error", ...line, outcome: "error", error: String(error) }));
      message.retry({ delaySeconds: LEASE_SECONDS });
    }
  }
}
