/**
 * Requests built inside this worker by the batch endpoint and the background-batch consumer. Membership is by
 * object identity, so a client cannot claim it with a header; the app sees the same Request object as
 * `c.req.raw`. A batch item may also carry the caller it acts for, already authenticated by the batch itself,
 * and the D1 binding it shares with the items running beside it.
 */
import type { SessionBinding } from "../db/session";
import type { Viewer } from "../env";

export interface BatchItemContext {
  /** The caller the item acts for, when the batch already authenticated them. */
  viewer?: Viewer;
  /**
   * The batch's D1 session (src/db/session.ts), so that every item sees the items before it; for items that run at
   * the same time, wrapped so that their reads share round trips.
   */
  d1?: SessionBinding;
  /** The batch already charged the item to the caller's batch budget (src/auth/rate-limit.ts). */
  precharged?: boolean;
  /** The id a create without a client id takes (see RequestContext.createdId). */
  createdId?: string;
}

const batchItems = new WeakMap<Request, BatchItemContext>();

/** Marks a request built by a batch. */
export function markBatchItem(request: Request, context: BatchItemContext = {}): Request {
  batchItems.set(request, context);
  return request;
}

export function isBatchItem(request: Request): boolean {
  return batchItems.has(request);
}

/** The caller a batch item acts for, when the batch already authenticated them (saves re-reading the token). */
export function batchItemViewer(request: Request): Viewer | undefined {
  return batchItems.get(request)?.viewer;
}

/** The D1 session a batch item runs in, if its batch gave one. */
export function batchItemD1(request: Request): SessionBinding | undefined {
  return batchItems.get(request)?.d1;
}

/** The id the item creates under when it sends none (background requests: their own id). */
export function batchItemCreatedId(request: Request): string | undefined {
  return batchItems.get(request)?.createdId;
}

/** Whether the item's batch already charged it to the caller's budget, so the item must not be charged again. */
export function batchItemPrecharged(request: Request): boolean {
  return batchItems.get(request)?.precharged === true;
}
