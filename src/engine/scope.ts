/**
 * Which rows a viewer may reach: the rule every read, include and linked write applies, stated once.
 */
import type { SQL } from "drizzle-orm";
import { and, inList } from "../db/sql";
import type { RequestContext, ResourceDef } from "./define";

/** The viewer's account lists, or under /account_lists/:account_list_id that one list (none when not theirs). */
export function routeLists(ctx: RequestContext): string[] {
  const parent = ctx.pathParams.account_list_id;
  return parent ? ctx.viewer.readableListIds.filter((id) => id === parent) : ctx.viewer.readableListIds;
}

/**
 * Rows the viewer may reach through a relationship: those they may include in an answer, and the only ones a
 * write may link by id (see `checkLinkable` in src/write/write.ts).
 */
export function linkableScope(def: ResourceDef, ctx: RequestContext): SQL | undefined {
  return def.includeScope ? def.includeScope(ctx) : readScope(def, ctx);
}

/** Rows the viewer may read: their account lists (the nested route's parent only), and the resource's own scope. */
export function readScope(def: ResourceDef, ctx: RequestContext): SQL | undefined {
  return and([def.accountListColumn ? inList(def.accountListColumn, routeLists(ctx)) : undefined, def.scope?.(ctx)]);
}

/** Under a parent in the path (an account list, or the resource's own parentParam), another parent's record is simply not there. */
export function isNestedRoute(def: ResourceDef, ctx: RequestContext): boolean {
  return Boolean(ctx.pathParams.account_list_id || (def.parentParam && ctx.pathParams[def.parentParam]));
}
