/**
 * The team of an account list: `/account_lists/<id>/users` and `/account_lists/<id>/coaches`. Each lists and shows
 * the people who have that access (as `users`), and DELETE takes the access away (the user stays). The path's
 * list is checked first by `accountListParent`: reading needs access to the list, removing someone needs to be a
 * user of it.
 */
import { sql } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { accountListCoaches, accountListUsers, users } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import { requestContext } from "../../engine/context";
import type { RequestContext, ResourceDef } from "../../engine/define";
import { listRoutes } from "../../routes/resource-routes";
import { described } from "../../engine/route-descriptions";
import { listResources } from "../../read/list-resources";
import { showResource } from "../../read/records";
import type { AppEnv } from "../../env";
import { ApiError, recordNotFound } from "../../jsonapi/errors";
import { jsonApi, noContent } from "../../jsonapi/respond";
import { forgetViewer } from "../../accounts/viewer-cache";
import { mirrorLists } from "../../db/mirrors";
import { rowsChanged } from "../../db/statements";
import { LAST_USER_DETAIL, removeUserAccess } from "./last-user";
import { ID, LIST } from "../paths";
import { userResource } from "../users/resource";

type Membership = typeof accountListUsers | typeof accountListCoaches;

/** The list's members of one kind, answered as users (their private fields hidden as for any other user). */
function membersOf(membership: Membership): ResourceDef {
  return {
    ...userResource,
    scope: (ctx: RequestContext) =>
      sql`${q(users.id)} IN (SELECT ${q(membership.userId)} FROM ${membership} WHERE ${q(membership.accountListId)} = ${ctx.pathParams.account_list_id})`,
    // Another member is someone else's record, but within the path's list: one outside it is not there.
    parentParam: "account_list_id",
  };
}

async function removeAccess(membership: Membership, ctx: RequestContext): Promise<void> {
  const listId = ctx.pathParams.account_list_id;
  const userId = ctx.pathParams.id;
  const [counts] = await ctx.db.all<{ member: number; users: number }>(sql`SELECT
      (SELECT count(*) FROM ${membership} WHERE ${q(membership.accountListId)} = ${listId} AND ${q(membership.userId)} = ${userId}) AS "member",
      (SELECT count(*) FROM ${accountListUsers} WHERE ${q(accountListUsers.accountListId)} = ${listId}) AS "users"`);
  if (!counts?.member) throw recordNotFound("User", userId);
  // A list always keeps a user who can manage it: the last one cannot be removed (nor remove themself).
  const lastUser = new ApiError(403, [{ detail: LAST_USER_DETAIL }]);
  if (membership === accountListUsers && counts.users <= 1) throw lastUser;
  const removal =
    membership === accountListUsers
      ? removeUserAccess(listId, userId)
      : sql`DELETE FROM ${membership} WHERE ${q(membership.accountListId)} = ${listId} AND ${q(membership.userId)} = ${userId}`;
  // Another removal may have taken the other user meanwhile: the statement itself keeps the last one.
  const [removed] = await rowsChanged(ctx.db, [removal]);
  if (removed === 0 && membership === accountListUsers) throw lastUser;
  // The list's database keeps a copy of its memberships; the removed person's remembered lists must not outlive
  // their access.
  await mirrorLists(ctx.env, ctx.db, [listId]);
  forgetViewer(userId);
}

export function registerMemberRoutes(app: Hono<AppEnv>): void {
  for (const [segment, membership] of [["users", accountListUsers], ["coaches", accountListCoaches]] as const) {
    const members = membersOf(membership);
    listRoutes(app, `${LIST}/${segment}`, members, (ctx) => listResources(members, ctx));
    app.get(`${LIST}/${segment}/${ID}`, described(async (c: Context<AppEnv>) => {
      const ctx = requestContext(c);
      return jsonApi(c, await showResource(members, ctx.pathParams.id, ctx));
    }, { action: "show", resource: members }));
    app.delete(`${LIST}/${segment}/${ID}`, described(async (c: Context<AppEnv>) => {
      await removeAccess(membership, requestContext(c));
      return noContent(c);
    }, { action: "delete", resource: members }));
  }
}
