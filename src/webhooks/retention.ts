import { sql } from "drizzle-orm";
import { webhookEvents, webhookManualSends } from "../../drizzle/schema";
import { database } from "../db/client";
import type { Bindings } from "../env";
import { formatTimestamp } from "../jsonapi/time";

/** Days webhook events, and the deliveries of each (its log), are kept. */
export const WEBHOOK_LOG_DAYS = 30;

/** Removes the events (their deliveries go with them) older than WEBHOOK_LOG_DAYS on this database; answers how many. */
export async function removeOldWebhookEvents(env: Bindings, now: number): Promise<number> {
  const before = formatTimestamp(new Date(now - WEBHOOK_LOG_DAYS * 86_400_000));
  const db = database(env.DB);
  const [removed] = await db.batch([
    db.delete(webhookEvents).where(sql`${webhookEvents.createdAt} < ${before}`).returning({ id: webhookEvents.id }),
    // Counted for a minute only (limits.ts); kept as long as the log, which they explain.
    db.delete(webhookManualSends).where(sql`${webhookManualSends.createdAt} < ${before}`),
  ]);
  return removed.length;
}
