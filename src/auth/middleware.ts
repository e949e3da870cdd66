import { createMiddleware } from "hono/factory";
import { sql } from "drizzle-orm";
import { database } from "../db/client";
import { DIRECTORY } from "../db/databases";
import * as schema from "../../drizzle/schema";
import type { AppEnv, Database, Viewer } from "../env";
import { cachedViewer, cacheSeconds, rememberViewer } from "../accounts/viewer-cache";
import { unauthorized } from "../jsonapi/errors";
import { InvalidTokenError, signedOutSince, verifyToken, type TokenClaims } from "./token";
import { configured } from "../settings";
import { isBatchItem } from "./batch-items";

const { users, accountListUsers, accountListCoaches, listPlacements } = schema;

function bearerToken(authorization: string | undefined, url: string): string | undefined {
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (match) return match[1];
  // Download links carry the token in the query string.
  return new URL(url).searchParams.get("access_token") ?? undefined;
}

function groupedLists(rows: Array<{ userId: string; listId: string }>): Record<string, string[]> {
  const lists: Record<string, string[]> = {};
  for (const { userId, listId } of rows) (lists[userId] ??= []).push(listId);
  return lists;
}

/** The user with the account lists they may read (user or coach) and write (user only), in one round trip. */
export async function loadViewer(db: Database, userId: string): Promise<Viewer | undefined> {
  const viewersLists = sql`SELECT ${accountListUsers.accountListId} FROM ${accountListUsers} WHERE ${accountListUsers.userId} = ${userId}
    UNION ALL SELECT ${accountListCoaches.accountListId} FROM ${accountListCoaches} WHERE ${accountListCoaches.userId} = ${userId}`;
  const [userRows, memberRows, coachRows, placementRows, membershipRows] = await db.batch([
    db
      .select({ id: users.id, timeZone: users.timeZone, defaultAccountListId: users.defaultAccountListId, disabledAt: users.disabledAt, tokenGeneration: users.tokenGeneration })
      .from(users)
      .where(sql`${users.id} = ${userId}`)
      .limit(1),
    db.select({ id: accountListUsers.accountListId }).from(accountListUsers).where(sql`${accountListUsers.userId} = ${userId}`),
    db.select({ id: accountListCoaches.accountListId }).from(accountListCoaches).where(sql`${accountListCoaches.userId} = ${userId}`),
    db
      .select({ id: listPlacements.accountListId, database: listPlacements.database })
      .from(listPlacements)
      .where(sql`${listPlacements.accountListId} IN (${viewersLists})`),
    db
      .select({ userId: accountListUsers.userId, listId: accountListUsers.accountListId })
      .from(accountListUsers)
      .where(sql`${accountListUsers.accountListId} IN (${viewersLists})`)
      .orderBy(accountListUsers.createdAt, accountListUsers.accountListId),
  ]);
  const user = userRows[0];
  if (!user) return undefined;
  // An operator disabled the user (src/admin): their data stays, their tokens are refused.
  if (user.disabledAt) throw unauthorized("The access token's user is disabled");
  const writableListIds = memberRows.map((r) => r.id);
  return {
    id: user.id,
    timeZone: user.timeZone ?? "UTC",
    defaultAccountListId: user.defaultAccountListId ?? null,
    tokenGeneration: user.tokenGeneration,
    writableListIds,
    readableListIds: [...new Set([...writableListIds, ...coachRows.map((r) => r.id)])],
    listDatabases: Object.fromEntries(placementRows.filter((r) => r.database !== DIRECTORY).map((r) => [r.id, r.database])),
    listsOfMembers: groupedLists(membershipRows),
  };
}

/** Verifies the token and loads the viewer; batch items reuse the caller their batch already authenticated. */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const known = c.get("item")?.viewer;
  if (known) {
    c.set("viewer", known);
    return next();
  }
  const token = bearerToken(c.req.header("authorization"), c.req.url);
  if (!token) throw unauthorized("An access token is required: send Authorization: Bearer <token>");
  let claims: TokenClaims;
  try {
    claims = await verifyToken(configured(c.env).verificationSecrets, token);
  } catch (error) {
    if (error instanceof InvalidTokenError) throw unauthorized(error.message);
    throw error;
  }
  const userId = claims.user_id;
  const seconds = cacheSeconds(c.env.VIEWER_CACHE_SECONDS);
  let viewer = seconds > 0 ? cachedViewer(userId) : undefined;
  if (!viewer) {
    // At the primary, counted with the request's other D1 calls: a read the request's session sends to a replica
    // could be from before the user signed out or was disabled.
    viewer = await loadViewer(database(c.get("metrics").counting(c.get("sessions").callerSession(), c.env.DB)), userId);
    if (!viewer) throw unauthorized("The access token's user does not exist");
    rememberViewer(viewer, seconds);
  }
  // A background batch's request carries a token the service minted as it ran it: what the user queued runs on after
  // they sign out, as it did before.
  if (!isBatchItem(c.get("item")) && signedOutSince(claims, viewer.tokenGeneration ?? 0)) throw unauthorized("The access token was signed out: sign in again");
  c.set("viewer", viewer);
  await next();
});
