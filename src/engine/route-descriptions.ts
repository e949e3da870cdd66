/**
 * What each mounted handler does, for the API description (src/openapi): the engine's route builders describe
 * their handlers here as they create them, so a route mounted through them is described without writing anything
 * more. Handlers mounted by hand are still listed (Hono knows every route); a description adds what they answer.
 */
import type { ResourceDef } from "./define";

export type DescribedAction = "list" | "show" | "create" | "update" | "delete" | "accept" | "merge" | "bulk-create" | "bulk-update" | "bulk-delete" | "bulk-merge";

export interface RouteDescription {
  action: DescribedAction;
  resource: ResourceDef;
  /** Types a request body may name in `data.type` (defaults to the resource's type). */
  requestTypes?: string[];
  /** `accept`: what the route does, for its summary (it answers 202 with the record it queued work for). */
  summary?: string;
  /** A create at a list's path: a POST with `X-HTTP-Method-Override: GET` reads the list instead. */
  alsoLists?: boolean;
  /**
   * A read the clients also send as POST with `X-HTTP-Method-Override: GET` (src/jsonapi/method-override.ts): the
   * description lists that form too, where the path takes no POST of its own.
   */
  alsoSentAsPost?: boolean;
  /** A create that also takes a file, as multipart/form-data with these fields. */
  upload?: Record<string, UploadField>;
}

export interface UploadField {
  description: string;
  /** The field holding the file. */
  file?: boolean;
  optional?: boolean;
}

const descriptions = new WeakMap<object, RouteDescription>();

export function described<H extends object>(handler: H, description: RouteDescription): H {
  descriptions.set(handler, description);
  return handler;
}

/** Hono wraps a sub-application's handler when it mounts it and keeps the original under this key. */
const COMPOSED_HANDLER = "__COMPOSED_HANDLER";

export function descriptionOf(handler: object): RouteDescription | undefined {
  return descriptions.get(handler) ?? descriptions.get(composed(handler));
}

const composed = (handler: object): object => (handler as Record<string, object>)[COMPOSED_HANDLER] ?? {};

const eachDatabaseReaders = new WeakSet<object>();

/**
 * Marks a read that runs on each database of the viewer's lists itself when they are several (`listDatabases`,
 * src/routing.ts): a list the engine serves, a summary of the lists, a list of tags. Other requests over several
 * databases are run once per database by the routing.
 */
export function readsEachDatabase<H extends object>(handler: H): H {
  eachDatabaseReaders.add(handler);
  return handler;
}

export function isEachDatabaseReader(handler: object): boolean {
  return eachDatabaseReaders.has(handler) || eachDatabaseReaders.has(composed(handler));
}
