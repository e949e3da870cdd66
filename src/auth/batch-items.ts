/**
 * Requests built inside this worker by the batch endpoint and the background-batch consumer. Membership is by
 * object identity, so a client cannot claim it with a header; the app sees the same Request object as
 * `c.req.raw`. A batch item may also carry the caller it acts for, already authenticated by the batch itself,
 * and the D1 binding it shares with the items running beside it.
 */
import type { BatchItemContext } from "../env";

const batchItems = new WeakMap<Request, BatchItemContext>();

/** Marks a request built by a batch. */
export function markBatchItem(request: Request, context: BatchItemContext = {}): Request {
  batchItems.set(request, context);
  return request;
}

/**
 * The context a request was built with, read once as it arrives (src/app.ts keeps it as the `item` variable):
 * middleware may replace the Request object later (the body limit does), which loses its identity.
 */
export function builtContext(request: Request): BatchItemContext | undefined {
  return batchItems.get(request);
}

/** A request of /batch or of a background batch (not one database's part of a request). */
export function isBatchItem(item: BatchItemContext | undefined): boolean {
  return item !== undefined && item.part === undefined;
}

/** A request of /batch (or a part of one): bulk endpoints refuse it. */
export function isInsideBatch(item: BatchItemContext | undefined): boolean {
  return item !== undefined && (item.part === undefined || item.part.insideBatch === true);
}
