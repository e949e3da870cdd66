import { sql } from "drizzle-orm";
import { webhookEvents } from "../../drizzle/schema";
import { database } from "../db/client";
import type { Bindings } from "../env";
import { formatTimestamp } from "../jsonapi/time";

/** Days webhook events, and the deliveries of each (its log), are kept. */
export const WEBHOOK_LOG_DAYS = 30;

/** Removes the events (their deliveries go with them) older than WEBHOOK_LOG_DAYS on this database; answers how many. */
export async function removeOldWebhookEvents(env: Bindings, now: number): Promise<number> {
  const before = formatTimestamp(new Date(now - WEBHOOK_LOG_DAYS * 86_400_000));
  const removed = await database(env.DB).delete(webhookEvents).where(sql`${webhookEvents.createdAt} < ${before}`).returning({ id: webhookEvents.id });
  return removed.length;
}
