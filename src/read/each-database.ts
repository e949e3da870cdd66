/**
 * A read of the viewer's lists on several databases, run by its handler on each of them within the one request:
 * each database's part sees the viewer as that database does, with only their lists placed there (`viewerOn`), in
 * the request's session of that database.
 */
import { viewerOn } from "../db/placement";
import type { RequestContext } from "../engine/define";
import { ApiError } from "../jsonapi/errors";

/** The request as one database sees it: there, with the viewer's lists placed there. */
export function onDatabase(ctx: RequestContext, database: string): RequestContext {
  return { ...ctx, db: ctx.databaseOn!(database), databaseName: database, viewer: viewerOn(ctx.viewer, database), listDatabases: undefined };
}

/** Each database's part of the request, the databases in the order given. */
export function onEachDatabase<T>(ctx: RequestContext, databases: string[], read: (here: RequestContext) => Promise<T>): Promise<T[]> {
  return firstFailureInOrder(databases.map((database) => read(onDatabase(ctx, database))));
}

/**
 * A record by id over several databases, each asked at once: the one that finds it answers. Where none does, a
 * failure of a database answers before a refusal (403: held there outside the viewer's lists), a refusal before
 * not found, as one database holding the record would answer.
 */
export async function whereFound<T>(ctx: RequestContext, databases: string[], find: (here: RequestContext) => Promise<T>): Promise<T> {
  const outcomes = await Promise.allSettled(databases.map((database) => find(onDatabase(ctx, database))));
  const found = outcomes.find((outcome): outcome is PromiseFulfilledResult<Awaited<T>> => outcome.status === "fulfilled");
  if (found) return found.value;
  const reasons = outcomes.map((outcome) => (outcome as PromiseRejectedResult).reason as unknown);
  const status = (reason: unknown) => (reason instanceof ApiError ? reason.status : 500);
  throw reasons.find((reason) => status(reason) !== 403 && status(reason) !== 404) ?? reasons.find((reason) => status(reason) === 403) ?? reasons[0];
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
