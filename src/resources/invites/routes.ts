import type { Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { sql } from "drizzle-orm";
import { accountListCoaches, accountListInvites, accountListUsers } from "../../../drizzle/schema";
import { forgetViewer } from "../../accounts/viewer-cache";
import { mirrorLists } from "../../db/mirrors";
import { failUnlessChanged, isGuardFailure } from "../../db/guard";
import { isOpenToNonMembers, parentAccountList } from "../../engine/account-list-scope";
import { readBody, requestContext } from "../../engine/context";
import type { BatchStatement, RequestContext } from "../../engine/define";
import { showResource } from "../../read/records";
import { resourceRoutes } from "../../routes/resource-routes";
import { fetchWritableRow, runBatch } from "../../write/write";
import type { AppEnv } from "../../env";
import { ApiError, forbidden, recordNotFound, validationFailed } from "../../jsonapi/errors";
import { readResourceDocument } from "../../jsonapi/request-document";
import { jsonApi, noContent } from "../../jsonapi/respond";
import { ID, LIST } from "../paths";
import { inviteResource } from "./resource";

const INVITES = `${LIST}/invites`;

/** Invites are managed by the list's users only: coaches may read the list's records but not its invites. */
const usersOfTheListOnly = createMiddleware<AppEnv>(async (c, next) => {
  const listId = c.req.param("account_list_id")?.toLowerCase();
  if (listId && !isOpenToNonMembers(c.req.path) && !c.get("viewer").writableListIds.includes(listId)) throw forbidden(listId, "account_lists");
  await next();
});

/** Constant-time comparison, so response timing does not reveal how much of a guessed code was right. */
function sameCode(sent: string, stored: string): boolean {
  if (sent.length !== stored.length) return false;
  let difference = 0;
  for (let i = 0; i < sent.length; i++) difference |= sent.charCodeAt(i) ^ stored.charCodeAt(i);
  return difference === 0;
}

const gone = (detail: string) => new ApiError(410, [{ detail }]);

async function loadInvite(ctx: RequestContext) {
  const { id, account_list_id: listId } = ctx.pathParams;
  const [invite] = await ctx.db
    .select()
    .from(accountListInvites)
    .where(sql`${accountListInvites.id} = ${id} AND ${accountListInvites.accountListId} = ${listId}`)
    .limit(1);
  if (!invite) throw recordNotFound(inviteResource.model, id);
  return invite;
}

type Invite = Awaited<ReturnType<typeof loadInvite>>;

function refuseUnusable(invite: Invite, viewerId: string): void {
  if (invite.cancelledByUserId) throw gone("This invite has been cancelled");
  if (invite.acceptedAt && invite.acceptedByUserId !== viewerId) throw gone("This invite has already been accepted by another user");
}

/**
 * Any signed-in user holding the code may accept: they become a user or a coach of the list. Accepting again
 * is harmless. The invite is marked accepted only while still open, checked in the same atomic batch, so two
 * people racing for one invite cannot both get in.
 */
async function accept(c: Context<AppEnv>) {
  const ctx = requestContext(c);
  const input = readResourceDocument(await readBody(c), [inviteResource.type]);
  const invite = await loadInvite(ctx);
  const code = typeof input.attributes.code === "string" ? input.attributes.code.trim() : "";
  if (code === "") throw validationFailed([{ attribute: "code", message: "can't be blank" }]);
  if (!sameCode(code, invite.code)) throw validationFailed([{ attribute: "code", message: "is not valid for this invite" }]);
  refuseUnusable(invite, ctx.viewer.id);

  const membership = invite.inviteUserAs === "coach" ? accountListCoaches : accountListUsers;
  const statements: BatchStatement[] = [];
  if (!invite.acceptedAt) {
    statements.push(
      ctx.db
        .update(accountListInvites)
        .set({ acceptedAt: ctx.now, acceptedByUserId: ctx.viewer.id, updatedAt: ctx.now > invite.updatedAt ? ctx.now : invite.updatedAt })
        .where(sql`${accountListInvites.id} = ${invite.id} AND ${accountListInvites.cancelledByUserId} IS NULL AND ${accountListInvites.acceptedAt} IS NULL`) as unknown as BatchStatement,
      failUnlessChanged(ctx.db) as unknown as BatchStatement,
    );
  }
  statements.push(
    ctx.db
      .insert(membership)
      .values({ id: crypto.randomUUID(), accountListId: invite.accountListId, userId: ctx.viewer.id, createdAt: ctx.now, updatedAt: ctx.now })
      .onConflictDoNothing() as unknown as BatchStatement,
  );
  try {
    await runBatch(ctx, statements);
  } catch (error) {
    if (!isGuardFailure(error)) throw error;
    // Cancelled or taken between our read and our write (410); otherwise the viewer's own concurrent request won.
    refuseUnusable(await loadInvite(ctx), ctx.viewer.id);
  }
  // The list's database keeps a copy of its memberships; the viewer now reaches one more list: their next request
  // must not use remembered lists.
  await mirrorLists(ctx.env, ctx.db, [invite.accountListId]);
  forgetViewer(ctx.viewer.id);
  // The viewer's list memberships were loaded before they joined: read the invite by id alone.
  return jsonApi(c, await showResource(inviteResource, invite.id, ctx, sql`${accountListInvites.id} = ${invite.id}`));
}

/**
 * DELETE cancels: the invite stays stored (with who cancelled it) but can no longer be accepted. An accepted
 * invite is cancelled too, keeping its acceptance and the access it gave; cancelling again keeps the first
 * canceller.
 */
async function cancel(c: Context<AppEnv>) {
  const ctx = requestContext(c);
  const id = ctx.pathParams.id;
  await fetchWritableRow(inviteResource, id, ctx);
  await ctx.db
    .update(accountListInvites)
    .set({ cancelledByUserId: ctx.viewer.id, updatedAt: ctx.now })
    .where(sql`${accountListInvites.id} = ${id} AND ${accountListInvites.cancelledByUserId} IS NULL`);
  return noContent(c);
}

export function registerInviteRoutes(app: Hono<AppEnv>): void {
  app.use(INVITES, usersOfTheListOnly);
  app.use(`${INVITES}/*`, usersOfTheListOnly);
  const routes = resourceRoutes(inviteResource, { actions: ["list", "show", "create"], fixedOnCreate: parentAccountList });
  routes.delete(`/${ID}`, cancel);
  routes.put(`/${ID}/accept`, accept);
  routes.patch(`/${ID}/accept`, accept);
  app.route(INVITES, routes);
}
