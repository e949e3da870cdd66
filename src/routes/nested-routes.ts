/**
 * Resources served under a parent record named in the path, as the original nests them: a contact's addresses
 * and people (/contacts/<contact_id>/people), a person's details (/contacts/<contact_id>/people/<person_id>/...),
 * a task's comments. One declaration serves both its nested routes and the records written with their parent
 * (sideposting); a nested route only narrows it to the path's parent:
 * - the parent is checked first: 404 when it does not exist (or is not under the path's grandparent), 403 when it
 *   is someone else's, or the viewer may only read it and the request writes;
 * - rows are those of that parent, so another parent's record by id is simply not there (404);
 * - a create takes the parent from the path, and a body naming another parent is refused.
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { Hono } from "hono";
import { and, q } from "../db/sql";
import type { AppEnv } from "../env";
import { forbidden, recordNotFound } from "../jsonapi/errors";
import { isWriteRequest } from "../engine/account-list-scope";
import type { RequestContext, ResourceDef } from "../engine/define";
import type { Owner } from "../engine/owned";
import { resourceRoutes, type RouteOptions } from "./resource-routes";
import { onDatabaseOfParent } from "./parent-database";

export interface NestedParent {
  /** The path parameter naming the parent, e.g. `contact_id`. */
  param: string;
  /** The parent's record type, and the lists it belongs to. */
  owner: Owner;
  /** The resource's relationship to the parent (its column is the foreign key). */
  relationship: string;
  /** For a parent itself nested (a person under a contact): its column naming the path's grandparent. */
  under?: { param: string; column: SQLiteColumn };
}

/** 404 unknown (or not under the path's grandparent), 403 outside the lists the viewer may read, or may write when the request writes. */
async function checkParent(parent: NestedParent, id: string, ctx: RequestContext, writing: boolean): Promise<void> {
  const { owner, under } = parent;
  const lists = writing ? ctx.viewer.writableListIds : ctx.viewer.readableListIds;
  const [row] = await ctx.db
    .select({ reachable: sql<number>`${owner.inLists(lists)}` })
    .from(owner.idColumn.table as SQLiteTable)
    .where(and([sql`${q(owner.idColumn)} = ${id}`, under ? sql`${q(under.column)} = ${ctx.pathParams[under.param]}` : undefined])!)
    .limit(1);
  if (!row) throw recordNotFound(owner.model, id);
  if (!row.reachable) throw forbidden(id, owner.type);
}

/** The declaration narrowed to the path's parent. */
function underParent(def: ResourceDef, parent: NestedParent): ResourceDef {
  const foreignKey = def.relationships[parent.relationship]?.column;
  if (!foreignKey) throw new Error(`${def.type} has no relationship ${parent.relationship} to nest it under`);
  const ofParent = (ctx: RequestContext): SQL => sql`${q(foreignKey)} = ${ctx.pathParams[parent.param]}`;
  return {
    ...def,
    parentParam: parent.param,
    scope: (ctx) => and([def.scope?.(ctx), ofParent(ctx)]),
    writeScope: (ctx) => and([def.writeScope?.(ctx), ofParent(ctx)]),
  };
}

/** The standard routes of `def` under `parent`, to mount at a path holding `:<param>`. */
export function nestedRoutes(def: ResourceDef, parent: NestedParent, options: RouteOptions): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use(async (c, next) => {
    const id = c.req.param(parent.param)?.toLowerCase();
    // Checked where the parent is, on whichever of the viewer's databases holds it.
    if (id) await onDatabaseOfParent(c, (ctx) => checkParent(parent, id, ctx, isWriteRequest(c)));
    await next();
  });
  routes.route(
    "/",
    resourceRoutes(underParent(def, parent), {
      ...options,
      fixedOnCreate: (ctx) => ({ [parent.relationship]: ctx.pathParams[parent.param] }),
      pathParent: { param: parent.param, relationship: parent.relationship },
    }),
  );
  return routes;
}
