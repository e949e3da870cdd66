/**
 * The states of a stored background-batch request and the only ways they change. Queue delivery is at least
 * once, so a request is claimed by one atomic conditional UPDATE before it runs: pending → running (one
 * winner), running → done (the answer) or back to pending (the machinery failed), and pending or abandoned
 * running → failed when its message is dead-lettered. Every later write is guarded by the claim's attempt
 * number, so a consumer that lost its claim (batch deleted, lease expired) changes nothing.
 */
import { eq, sql } from "drizzle-orm";
import { accountListUsers, backgroundBatchRequests as requests, backgroundBatches, users } from "../../drizzle/schema";
import { q } from "../db/sql";
import type { Database } from "../env";
import { formatTimestamp } from "../jsonapi/time";
import type { RecordedResponse } from "../resources/batch/items";

/** How long a claim protects a running request; a claim older than this was abandoned and may be taken over. */
export const CLAIM_LEASE_SECONDS = 300;

export type StoredRequest = typeof requests.$inferSelect;

export interface Claim {
  request: StoredRequest;
  ownerId: string;
  /** The owner's default account list, or their first list. */
  defaultAccountListId: string | null;
  /** Where the batch was created (null for batches stored before that was recorded). */
  origin: string | null;
}

export type ClaimOutcome =
  | { kind: "claimed"; claim: Claim }
  /** Deleted with its batch, or already done or failed: nothing left to do. */
  | { kind: "settled" }
  /** Another delivery holds a live claim; look again once it may have expired. */
  | { kind: "busy"; retryInSeconds: number };

function staleBefore(now: number): string {
  return formatTimestamp(new Date(now - CLAIM_LEASE_SECONDS * 1000));
}

/** Not yet claimed, or claimed so long ago that the claim was abandoned. */
function unclaimed(now: number) {
  return sql`(${requests.state} = 'pending' OR (${requests.state} = 'running' AND (${requests.claimedAt} IS NULL OR ${requests.claimedAt} < ${staleBefore(now)})))`;
}

/** Seconds until a claim taken at `claimedAt` expires (at least 1). */
export function leaseRemainingSeconds(claimedAt: string | null, now: number): number {
  if (!claimedAt) return 1;
  const expires = Date.parse(claimedAt) + CLAIM_LEASE_SECONDS * 1000;
  return Math.max(1, Math.ceil((expires - now) / 1000));
}

/** Claims the request and reads its owner in one round trip. */
export async function claimRequest(db: Database, requestId: string, now = Date.now()): Promise<ClaimOutcome> {
  const timestamp = formatTimestamp(new Date(now));
  const [claimed, owners] = await db.batch([
    db
      .update(requests)
      .set({ state: "running", claimedAt: timestamp, attempts: sql`${requests.attempts} + 1`, updatedAt: timestamp })
      .where(sql`${requests.id} = ${requestId} AND ${unclaimed(now)}`)
      .returning(),
    db
      .select({
        state: requests.state,
        claimedAt: requests.claimedAt,
        ownerId: backgroundBatches.userId,
        origin: backgroundBatches.origin,
        defaultAccountListId: sql<string | null>`COALESCE(${q(users.defaultAccountListId)}, (SELECT ${q(accountListUsers.accountListId)} FROM ${accountListUsers} WHERE ${q(accountListUsers.userId)} = ${q(users.id)} ORDER BY ${q(accountListUsers.createdAt)}, ${q(accountListUsers.id)} LIMIT 1))`,
      })
      .from(requests)
      .innerJoin(backgroundBatches, eq(backgroundBatches.id, requests.backgroundBatchId))
      .innerJoin(users, eq(users.id, backgroundBatches.userId))
      .where(eq(requests.id, requestId))
      .limit(1),
  ]);
  const owner = owners[0];
  if (claimed[0] && owner) return { kind: "claimed", claim: { request: claimed[0], ownerId: owner.ownerId, defaultAccountListId: owner.defaultAccountListId, origin: owner.origin } };
  if (!owner || owner.state === "done" || owner.state === "failed") return { kind: "settled" };
  return { kind: "busy", retryInSeconds: leaseRemainingSeconds(owner.claimedAt, now) };
}

const heldBy = (claim: Claim) =>
  sql`${requests.id} = ${claim.request.id} AND ${requests.state} = 'running' AND ${requests.attempts} = ${claim.request.attempts}`;

export async function storeResponse(db: Database, claim: Claim, response: RecordedResponse): Promise<void> {
  await db
    .update(requests)
    .set({
      state: "done",
      responseStatus: response.status,
      responseHeaders: response.headers,
      responseBody: response.body,
      lastError: null,
      updatedAt: formatTimestamp(new Date()),
    })
    .where(heldBy(claim));
}

/** Gives the request back so the retried message can claim it again. */
export async function releaseClaim(db: Database, claim: Claim, reason: string): Promise<void> {
  await db
    .update(requests)
    .set({ state: "pending", claimedAt: null, lastError: reason, updatedAt: formatTimestamp(new Date()) })
    .where(heldBy(claim));
}

export type DeadLetterOutcome = { kind: "recorded" | "settled" } | { kind: "busy"; retryInSeconds: number };

/**
 * Records a request whose message was dead-lettered as failed, so its batch's `pending` still reaches 0. A
 * request that is running under a live claim is left to finish; one that finished meanwhile is kept as is.
 */
export async function recordDeadLetter(db: Database, requestId: string, failure: RecordedResponse, now = Date.now()): Promise<DeadLetterOutcome> {
  const timestamp = formatTimestamp(new Date(now));
  const [failed, current] = await db.batch([
    db
      .update(requests)
      .set({ state: "failed", responseStatus: failure.status, responseHeaders: failure.headers, responseBody: failure.body, updatedAt: timestamp })
      .where(sql`${requests.id} = ${requestId} AND ${unclaimed(now)}`)
      .returning({ id: requests.id }),
    db.select({ state: requests.state, claimedAt: requests.claimedAt }).from(requests).where(eq(requests.id, requestId)).limit(1),
  ]);
  if (failed[0]) return { kind: "recorded" };
  const row = current[0];
  if (!row || row.state !== "running") return { kind: "settled" };
  return { kind: "busy", retryInSeconds: leaseRemainingSeconds(row.claimedAt, now) };
}
