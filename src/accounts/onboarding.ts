/**
 * Taking in a fundraiser: a user, and an account list of theirs. The operator does it (`npm run admin -- user:add`,
 * `list:add`, src/admin/routes.ts), and so does signing in for the first time where the deployment lets anyone
 * sign up (OIDC_SIGN_UP=open, src/auth/identities.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import { accountListUsers, accountLists, listPlacements, users } from "../../drizzle/schema";
import { mirrorLists } from "../db/mirrors";
import { forgetViewer } from "./viewer-cache";
import type { Database } from "../env";
import { nowTimestamp } from "../jsonapi/time";
import { databaseForNewList } from "./placement";

export interface NewUser {
  email: string;
  firstName: string;
  lastName?: string | null;
  timeZone?: string;
  locale?: string | null;
}

/** The insert of a new user (a unique violation when the e-mail address, in any case, is taken). */
export function newUserRow(id: string, input: NewUser) {
  const now = nowTimestamp();
  return { id, email: input.email, firstName: input.firstName, lastName: input.lastName ?? null, timeZone: input.timeZone ?? "UTC", locale: input.locale ?? null, createdAt: now, updatedAt: now };
}

export async function addUser(db: Database, input: NewUser): Promise<string> {
  const id = crypto.randomUUID();
  await db.insert(users).values(newUserRow(id, input));
  return id;
}

/**
 * A new account list with the user as its user, placed on `database` or where new lists go; a first list becomes
 * the user's default, so clients that predate several lists find it. Answers the list's id.
 */
export async function addAccountList(env: object, db: Database, userId: string, list: { name: string; currency: string; database?: string }): Promise<{ id: string; database: string }> {
  const placedOn = list.database ?? (await databaseForNewList(env, db));
  const id = crypto.randomUUID();
  const now = nowTimestamp();
  await db.batch([
    db.insert(accountLists).values({ id, name: list.name, currency: list.currency, createdAt: now, updatedAt: now }),
    db.insert(accountListUsers).values({ id: crypto.randomUUID(), accountListId: id, userId, createdAt: now, updatedAt: now }),
    db.insert(listPlacements).values({ accountListId: id, database: placedOn, updatedAt: now }),
    db.update(users).set({ defaultAccountListId: id }).where(and(eq(users.id, userId), sql`${users.defaultAccountListId} IS NULL`)),
  ]);
  await mirrorLists(env, db, [id]);
  forgetViewer(userId);
  return { id, database: placedOn };
}
