/**
 * Account lists are the unit of access: a user of a list may read and change its records, a coach may read
 * them. Nested routes (/account_lists/<id>/...) and `account_list` relationships are checked here.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { sql } from "drizzle-orm";
import { accountLists } from "../../drizzle/schema";
import type { AppEnv } from "../env";
import { ListOnAnotherDatabase } from "./record-moves";
import { forbidden, recordNotFound, validationFailed } from "../jsonapi/errors";
import { foundKey, lookupElsewhere } from "../db/elsewhere";
import { databaseOfList } from "../db/placement";
import { inList } from "../db/sql";
import type { RelationshipDef, RequestContext } from "./define";
import { belongsTo } from "./relationships";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database, Viewer } from "../env";

async function checkAccountList(db: Database, viewer: Viewer, id: string, forWrite: boolean, hidesOthers = false): Promise<void> {
  if (forWrite ? viewer.writableListIds.includes(id) : viewer.readableListIds.includes(id)) return;
  // Another of the viewer's lists, on another database than this request's: a record written here cannot be linked
  // to it in one write; an update moves the record there (src/engine/record-moves.ts), anything else is refused.
  if ((forWrite ? viewer.allWritableListIds : viewer.allReadableListIds)?.includes(id)) throw new ListOnAnotherDatabase(id);
  if (hidesOthers) throw recordNotFound("AccountList", id);
  const [exists] = await db.select({ id: accountLists.id }).from(accountLists).where(sql`${accountLists.id} = ${id}`).limit(1);
  if (!exists) throw recordNotFound("AccountList", id);
  throw forbidden(id, "account_lists");
}

/**
 * Whether a request may change data: anything but GET and HEAD, by the method its route runs (a read sent as POST
 * is a GET by now: src/jsonapi/method-override.ts).
 */
export function isWriteRequest(c: Context<AppEnv>): boolean {
  return c.req.method !== "GET" && c.req.method !== "HEAD";
}

/** Accepting an invite is for people not (yet) on the list: that route checks the invite and its code itself. */
export const isOpenToNonMembers = (path: string) => /\/invites\/[^/]+\/accept\/?$/.test(path);

/** A list's webhooks (src/resources/webhooks/routes.ts). */
export const isWebhookPath = (path: string) => /\/account_lists\/[^/]+\/webhooks(?:\/|$)/.test(path);

/** A list's integrations: its MailChimp and Prayer Letters accounts, the Chalkline send (src/resources/integrations/routes.ts). */
const isIntegrationPath = (path: string) => /\/account_lists\/[^/]+\/(?:mail_chimp_account|prayer_letters_account|chalkline_mail)(?:\/|$)/.test(path);

/** Routes of a list's users alone, which check the viewer themselves (`listUsersOnly`). */
const isForListUsersOnly = (path: string) => isWebhookPath(path) || isIntegrationPath(path);

/**
 * For routes only a list's users may use: anyone who is not one is answered 404 (the list is not theirs to know
 * of), except a coach of the list, who is answered 403 when `coaches` is "forbidden".
 */
export function listUsersOnly(coaches: "forbidden" | "not found") {
  return createMiddleware<AppEnv>(async (c, next) => {
    const id = c.req.param("account_list_id")?.toLowerCase() ?? "";
    const viewer = c.get("viewer");
    if (!(viewer.allWritableListIds ?? viewer.writableListIds).includes(id)) {
      if (coaches === "forbidden" && (viewer.allReadableListIds ?? viewer.readableListIds).includes(id)) throw forbidden(id, "account_lists");
      throw recordNotFound("AccountList", id);
    }
    await next();
  });
}

/** A list's summary (its analytics) is found only by those who may read the list: to anyone else it is not there. */
const hidesOtherLists = (path: string) => /\/analytics\/?$/.test(path);

/**
 * For routes under /account_lists/:account_list_id: 404 unknown list, 403 someone else's (or write as coach); a
 * summary of someone else's list is 404.
 */
export const accountListParent = createMiddleware<AppEnv>(async (c, next) => {
  const id = c.req.param("account_list_id")?.toLowerCase();
  if (id && !isOpenToNonMembers(c.req.path) && !isForListUsersOnly(c.req.path)) {
    await checkAccountList(c.get("db"), c.get("viewer"), id, isWriteRequest(c), hidesOtherLists(c.req.path));
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

/** A record type owned by an account list, as the target of a relationship. */
export interface ListOwnedTarget {
  type: string;
  model: string;
  idColumn: SQLiteColumn;
  accountListColumn: SQLiteColumn;
}

/**
 * Checks records about to be linked belong to `listId`, in one query: 404 unknown, 403 in a list the viewer
 * cannot read, 400 (pointing at the relationship) in another of the viewer's lists.
 */
export async function checkSameList(target: ListOwnedTarget, ids: string[], listId: string, ctx: RequestContext, relationship: string): Promise<void> {
  if (ids.length === 0) return;
  const listOf = await listsOf(target, ctx.db, ids);
  const missing = ids.filter((id) => !listOf.has(id));
  // A record of another list may be on another database: the answer is the one a single database gives (400 for
  // another of the viewer's lists, 403 for someone else's), not 404. Only a refused link pays for the look.
  // The request's own database was asked first: usually the list's, but not while a move to a list kept elsewhere
  // is checked where the record is (record-moves.ts).
  const here = ctx.databaseName ?? databaseOfList(ctx.viewer, listId);
  const table = target.idColumn.table;
  const elsewhere = await lookupElsewhere(ctx, [here], [{ table, idColumn: target.idColumn, listColumn: target.accountListColumn, ids: missing }]);
  for (const id of missing) {
    const found = elsewhere.get(foundKey(table, id));
    if (found?.list) listOf.set(id, found.list);
  }
  const readable = ctx.viewer.allReadableListIds ?? ctx.viewer.readableListIds;
  for (const id of ids) {
    const owner = listOf.get(id);
    if (owner === undefined) throw recordNotFound(target.model, id);
    if (!readable.includes(owner)) throw forbidden(id, target.type);
  }
  if (ids.some((id) => listOf.get(id) !== listId)) {
    throw validationFailed([{ attribute: relationship, message: "must belong to the same account list", pointer: `/data/relationships/${relationship}` }]);
  }
}

/** The list of each of these records that `db` holds. */
async function listsOf(target: ListOwnedTarget, db: Database, ids: string[]): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: target.idColumn, listId: target.accountListColumn })
    .from(target.idColumn.table)
    .where(inList(target.idColumn, ids));
  return new Map(rows.map((row) => [String(row.id), String(row.listId)]));
}

/** A writable to-one relationship to a record that must belong to the same account list as the record written. */
export function sameListRelationship(
  name: string,
  target: ListOwnedTarget,
  column: SQLiteColumn,
  owningList: (ctx: RequestContext) => string | Promise<string>,
  options: { nullable?: boolean } = {},
): RelationshipDef {
  return belongsTo(target.type, column, {
    nullable: options.nullable,
    check: async (id, ctx) => checkSameList(target, [id], await owningList(ctx), ctx, name),
  });
}
