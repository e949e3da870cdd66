/**
 * Account lists are the unit of access: a user of a list may read and change its records, a coach may read
 * them. Nested routes (/account_lists/<id>/...) and `account_list` relationships are checked here.
 */
import { createMiddleware } from "hono/factory";
import { sql } from "drizzle-orm";
import { accountLists } from "../../drizzle/schema";
import type { AppEnv } from "../env";
import { forbidden, recordNotFound } from "../jsonapi/errors";
import type { RelationshipDef, RequestContext } from "./define";
import { belongsTo } from "./relationships";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database, Viewer } from "../env";

async function checkAccountList(db: Database, viewer: Viewer, id: string, forWrite: boolean): Promise<void> {
  if (forWrite ? viewer.writableListIds.includes(id) : viewer.readableListIds.includes(id)) return;
  const [exists] = await db.select({ id: accountLists.id }).from(accountLists).where(sql`${accountLists.id} = ${id}`).limit(1);
  if (!exists) throw recordNotFound("AccountList", id);
  throw forbidden(id, "account_lists");
}

/** For routes under /account_lists/:account_list_id: 404 unknown list, 403 someone else's (or write as coach). */
export const accountListParent = createMiddleware<AppEnv>(async (c, next) => {
  const id = c.req.param("account_list_id")?.toLowerCase();
  if (id) {
    const forWrite = !["GET", "HEAD"].includes(c.req.method) && c.req.header("x-http-method-override")?.toUpperCase() !== "GET";
    await checkAccountList(c.get("db"), c.get("viewer"), id, forWrite);
  }
  await next();
});

/** The `account_list` relationship of an owned resource: writable only to a list the viewer is a user of. */
export function accountListRelationship(column: SQLiteColumn): RelationshipDef {
  return belongsTo("account_lists", column, {
    check: (id: string, ctx: RequestContext) => checkAccountList(ctx.db, ctx.viewer, id, true),
  });
}

/** Nested routes fix the owning list from the path on create. */
export const parentAccountList = (ctx: RequestContext) => ({ account_list: ctx.pathParams.account_list_id });
