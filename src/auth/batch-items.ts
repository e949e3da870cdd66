/**
 * Requests built inside this worker by the batch endpoint and the background-batch consumer. Membership is by
 * object identity, so a client cannot claim it with a header; the app sees the same Request object as
 * `c.req.raw`. A batch item may also carry the caller it acts for, already authenticated by the batch itself.
 */
import type { Viewer } from "../env";

const batchItems = new WeakMap<Request, { viewer?: Viewer }>();

/** Marks a request built by a batch; `viewer` is the caller it acts for when already authenticated. */
export function markBatchItem(request: Request, viewer?: Viewer): Request {
  batchItems.set(request, { viewer });
  return request;
}

export function isBatchItem(request: Request): boolean {
  return batchItems.has(request);
}

/** The caller a batch item acts for, when the batch already authenticated them (saves re-reading the token). */
export function batchItemViewer(request: Request): Viewer | undefined {
  return batchItems.get(request)?.viewer;
}
