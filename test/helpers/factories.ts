/**
 * Small, explicit test data: each test file builds the users, lists and records it asserts on.
 */
import { env } from "cloudflare:workers";
import { database } from "../../src/db/client";
import * as schema from "../../drizzle/schema";
import { mintToken } from "../../src/auth/token";
import { storage } from "./storage";

export const db = database(storage);

let counter = 0;
const stamp = (offsetSeconds = 0) => new Date(Date.UTC(2026, 0, 1) + offsetSeconds * 1000).toISOString().slice(0, 19) + "Z";
const next = () => ++counter;

export const uuid = () => crypto.randomUUID();
export const timestamps = (offsetSeconds = next()) => ({ createdAt: stamp(offsetSeconds), updatedAt: stamp(offsetSeconds) });

/** A token as the service mints one for the user now: of their current sign-out generation (0 for no such user). */
export async function tokenFor(userId: string, expiresIn = 3600): Promise<string> {
  const [user] = await db.select({ generation: schema.users.tokenGeneration }).from(schema.users).where(eq(schema.users.id, userId));
  return mintToken(env.JWT_SECRET, userId, expiresIn, user?.generation ?? 0);
}

export async function createUser(overrides: Partial<typeof schema.users.$inferInsert> = {}) {
  const id = overrides.id ?? uuid();
  const n = next();
  const user = { id, email: `user${n}-${id.slice(0, 8)}@example.org`, firstName: `User${n}`, lastName: "Tester", ...timestamps(), ...overrides };
  await db.insert(schema.users).values(user);
  return { ...user, token: await tokenFor(id) };
}

export async function createAccountList(
  owner: { id: string },
  overrides: Partial<typeof schema.accountLists.$inferInsert> = {},
  { role = "user" }: { role?: "user" | "coach" } = {},
) {
  const id = overrides.id ?? uuid();
  const list = { id, name: `List ${next()}`, currency: "USD", ...timestamps(), ...overrides };
  await db.insert(schema.accountLists).values(list);
  await addToList(id, owner.id, role);
  return list;
}

export async function addToList(accountListId: string, userId: string, role: "user" | "coach" = "user") {
  const table = role === "user" ? schema.accountListUsers : schema.accountListCoaches;
  await db.insert(table).values({ id: uuid(), accountListId, userId, ...timestamps() });
}

/** A user with one account list of their own, ready to call the API. */
export async function createViewer(listOverrides: Partial<typeof schema.accountLists.$inferInsert> = {}) {
  const user = await createUser();
  const list = await createAccountList(user, listOverrides);
  await db.update(schema.users).set({ defaultAccountListId: list.id }).where(eqId(schema.users.id, user.id));
  return { user, list, token: user.token };
}

import { eq } from "drizzle-orm";
function eqId(column: typeof schema.users.id, id: string) {
  return eq(column, id);
}

export async function countRows(table: Parameters<typeof db.select>[0] extends never ? never : import("drizzle-orm/sqlite-core").SQLiteTable): Promise<number> {
  const rows = await db.select().from(table);
  return rows.length;
}
