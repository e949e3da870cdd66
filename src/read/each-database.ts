/**
 * A read of the viewer's lists on several databases, run by its handler on each of them in turn of the request:
 * each database's part sees the viewer as that database does, with only their lists placed there (`viewerOn`), in
 * the request's session of that database.
 */
import { viewerOn } from "../db/placement";
import type { RequestContext } from "../engine/define";

/** Each database's part of the request, the databases in the order given. */
export function onEachDatabase<T>(ctx: RequestContext, databases: string[], read: (here: RequestContext) => Promise<T>): Promise<T[]> {
  return firstFailureInOrder(databases.map((database) => read({ ...ctx, db: ctx.databaseOn!(database), databaseName: database, viewer: viewerOn(ctx.viewer, database) })));
}

/**
 * Every part's outcome once all have settled; a part that failed fails the read with its error, the first
 * database's first, as one database would have answered it (a parameter every part refuses alike).
 */
export async function firstFailureInOrder<T>(pending: Array<Promise<T>>): Promise<T[]> {
  const settled = await Promise.allSettled(pending);
  const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}

/** A part's answer as it would be sent: parts are put together from JSON values, as one database's answer is read. */
export const asSent = <T>(document: T): T => JSON.parse(JSON.stringify(document)) as T;
