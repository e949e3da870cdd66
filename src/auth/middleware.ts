import { createMiddleware } from "hono/factory";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../drizzle/schema";
import type { AppEnv, Viewer } from "../env";
import { unauthorized } from "../jsonapi/errors";
import { InvalidTokenError, verifyToken } from "./token";

const { users, accountListUsers, accountListCoaches } = schema;

function bearerToken(authorization: string | undefined, url: string): string | undefined {
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (match) return match[1];
  // Download links carry the token in the query string.
  return new URL(url).searchParams.get("access_token") ?? undefined;
}

/** Verifies the token and loads the viewer with their account lists in one round trip. */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("authorization"), c.req.url);
  if (!token) throw unauthorized("An access token is required: send Authorization: Bearer <token>");
  if (!c.env.JWT_SECRET) throw new Error("JWT_SECRET is not configured");
  let userId: string;
  try {
    userId = (await verifyToken(c.env.JWT_SECRET, token)).user_id;
  } catch (error) {
    if (error instanceof InvalidTokenError) throw unauthorized(error.message);
    throw error;
  }
  const db = c.get("db") ?? drizzle(c.env.DB, { schema });
  const [userRows, memberRows, coachRows] = await db.batch([
    db
      .select({ id: users.id, timeZone: users.timeZone, defaultAccountListId: users.defaultAccountListId })
      .from(users)
      .where(sql`${users.id} = ${userId}`)
      .limit(1),
    db.select({ id: accountListUsers.accountListId }).from(accountListUsers).where(sql`${accountListUsers.userId} = ${userId}`),
    db.select({ id: accountListCoaches.accountListId }).from(accountListCoaches).where(sql`${accountListCoaches.userId} = ${userId}`),
  ]);
  const user = userRows[0];
  if (!user) throw unauthorized("The access token's user does not exist");
  const writableListIds = memberRows.map((r) => r.id);
  const viewer: Viewer = {
    id: user.id,
    timeZone: user.timeZone ?? "UTC",
    defaultAccountListId: user.defaultAccountListId ?? null,
    writableListIds,
    readableListIds: [...new Set([...writableListIds, ...coachRows.map((r) => r.id)])],
  };
  c.set("viewer", viewer);
  await next();
});
