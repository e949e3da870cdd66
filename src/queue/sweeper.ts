/**
 * Recovers background-batch requests whose queue message is gone. A message can be lost (acknowledged by a
 * consumer that crashed before it claimed the request) and a claim abandoned (a consumer killed while running
 * the request); the queue's own retries only cover messages it still holds. A Cron Trigger therefore sweeps the
 * stored requests: one still pending, or running under an expired claim, a lease after its last message was
 * sent, gets a new message.
 *
 * Each swept request is stamped in the same statement that selects it (`enqueued_at`), so overlapping sweeps
 * send it once, and a request is sent again at most once a lease. Whatever a message then finds, the claim
 * decides: a request that finished meanwhile is settled and its message dropped.
 */
import { sql } from "drizzle-orm";
import { backgroundBatchRequests as requests } from "../../drizzle/schema";
import { database } from "../db/client";
import type { Bindings } from "../env";
import { formatTimestamp } from "../jsonapi/time";
import { CLAIM_LEASE_SECONDS } from "./claims";
import { enqueueRequests } from "../resources/background-batches/enqueue";

/** Requests swept at most per run; a larger backlog is taken by the runs after it. */
export const SWEEP_LIMIT = 500;

/** Sends a new message for every lost request; answers their ids. */
export async function sweepBackgroundRequests(env: Bindings, now = Date.now()): Promise<string[]> {
  const db = database(env.DB);
  const stamp = formatTimestamp(new Date(now));
  const staleBefore = formatTimestamp(new Date(now - CLAIM_LEASE_SECONDS * 1000));
  const lost = sql`(${requests.enqueuedAt} IS NULL OR ${requests.enqueuedAt} < ${staleBefore})
    AND (${requests.state} = 'pending' OR (${requests.state} = 'running' AND (${requests.claimedAt} IS NULL OR ${requests.claimedAt} < ${staleBefore})))`;
  const swept = await db
    .update(requests)
    .set({ enqueuedAt: stamp })
    .where(sql`${requests.id} IN (SELECT ${requests.id} FROM ${requests} WHERE ${lost} LIMIT ${SWEEP_LIMIT})`)
    .returning({ id: requests.id });
  const ids = swept.map((row) => row.id);
  // A send that fails leaves the stamp: the request is swept again a lease later.
  await enqueueRequests(env, ids);
  if (ids.length > 0) console.log(JSON.stringify({ level: "info", message: "background batch requests sent again", count: ids.length }));
  return ids;
}
