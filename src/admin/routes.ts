/**
 * What an operator does that no user can: take in a fundraiser (a user and their account list), give and take
 * access, link and unlink the identity providers' people a user signs in as, disable and enable a user, export a
 * list, and erase a user. Mounted at /admin behind `adminOnly`; the
 * `npm run admin` command calls it. Answers are plain JSON; refusals are JSON:API error documents, and change
 * nothing. Every call that changes something logs one line saying what it changed.
 */
import { and, eq, sql } from "drizzle-orm";
import { Hono, type Context } from "hono";
import * as v from "valibot";
import { accountListCoaches, accountListUsers, accountLists, identityLinks, users } from "../../drizzle/schema";
import { isListDatabase } from "../db/databases";
import { databasesOfLists, mirrorLists } from "../db/mirrors";
import { databaseSizes } from "../accounts/placement";
import { addAccountList, addUser } from "../accounts/onboarding";
import { everyPlacement, placementOf, startMove } from "./moves";
import { identitiesOf, linkRow, subjectAt } from "../auth/identities";
import { signOutEverywhere } from "../auth/sign-in";
import { signInSettings } from "../auth/sign-in-settings";
import { forgetViewer } from "../accounts/viewer-cache";
import { CURRENCY_CODES } from "../constants/currencies";
import { LOCALES } from "../constants/locales";
import { isUniqueViolation } from "../db/guard";
import { rowsChanged } from "../db/statements";
import type { AppEnv, Database } from "../env";
import { ApiError, badRequest, conflict, recordNotFound } from "../jsonapi/errors";
import { parseJsonBody } from "../jsonapi/request-document";
import { isValidTimeZone, nowTimestamp, parseDate } from "../jsonapi/time";
import { LAST_USER_DETAIL, noLongerUser, removeUserAccess } from "../resources/account-lists/last-user";
import { adminOnly } from "./auth";
import { recordRate } from "./currency-rates";
import { eraseStep, erasurePlan } from "./erase";
import { exportList } from "./export";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ID = `:id{[0-9a-fA-F-]{36}}`;

const text = (name: string) => v.pipe(v.string(`${name} must be a string`), v.trim(), v.nonEmpty(`${name} can't be blank`), v.maxLength(255, `${name} is too long (255 at most)`));
const userId = v.pipe(v.string("user must be a user id"), v.regex(UUID, "user must be a user id"));

const NewUser = v.object({
  email: v.pipe(v.string("email must be a string"), v.trim(), v.email("email is not a valid e-mail address"), v.maxLength(255, "email is too long")),
  first_name: text("first_name"),
  last_name: text("last_name"),
  time_zone: v.optional(v.pipe(v.string("time_zone must be a string"), v.check(isValidTimeZone, "time_zone is not a valid time zone"))),
  locale: v.optional(v.pipe(v.string("locale must be a string"), v.check((locale) => locale in LOCALES, "locale is not one of the constants' locales"))),
});

const NewList = v.object({
  user: userId,
  database: v.optional(v.pipe(v.string("database must be a string"), v.regex(/^(?:DB|LIST_DB_[A-Z0-9_]+)$/, "database must name a list database binding (DB or LIST_DB_<name>)"))),
  name: text("name"),
  currency: v.pipe(v.string("currency must be a string"), v.trim(), v.toUpperCase(), v.picklist(CURRENCY_CODES as unknown as string[], "currency is not a known currency code")),
});

const Move = v.object({ database: v.pipe(v.string("database must be a string"), v.regex(/^(?:DB|LIST_DB_[A-Z0-9_]+)$/, "database must name a list database binding (DB or LIST_DB_<name>)")) });

const Rate = v.object({
  code: v.pipe(v.string("code must be a string"), v.trim(), v.toUpperCase(), v.picklist(CURRENCY_CODES as unknown as string[], "code is not a known currency code")),
  exchanged_on: v.pipe(v.string("exchanged_on must be a date, YYYY-MM-DD"), v.trim(), v.check((day) => /^\d{4}-\d{2}-\d{2}$/.test(day) && parseDate(day) === day, "exchanged_on must be a date, YYYY-MM-DD")),
  // Units of the currency per 1 USD, kept as the exact decimal sent.
  rate: v.pipe(v.string("rate must be a decimal string"), v.trim(), v.regex(/^\d{1,12}(?:\.\d{1,12})?$/, "rate must be a positive decimal, such as \"0.92\""), v.check((rate) => /[1-9]/.test(rate), "rate must be more than 0")),
});

const Membership = v.object({ coach: v.optional(v.boolean("coach must be true or false"), false) });

const IdentityLink = v.object({
  issuer: v.pipe(v.string("issuer must be a string"), v.trim(), v.nonEmpty("issuer can't be blank")),
  subject: text("subject"),
  replace: v.optional(v.boolean("replace must be true or false"), false),
});

async function body<T extends v.GenericSchema>(c: Context<AppEnv>, schema: T): Promise<v.InferOutput<T>> {
  const raw = await c.req.text();
  const result = v.safeParse(schema, raw.trim() === "" ? {} : parseJsonBody(raw));
  if (!result.success) {
    throw new ApiError(
      400,
      result.issues.map((issue) => ({ detail: issue.message, source: { pointer: `/${v.getDotPath(issue)?.replace(/\./g, "/") ?? ""}` } })),
    );
  }
  return result.output;
}

/** One log line per change, with what changed: the operator's audit trail in Workers Logs. */
function logChange(c: Context<AppEnv>, action: string, changed: Record<string, unknown>): void {
  console.log(JSON.stringify({ level: "info", message: "admin", action, request_id: c.get("requestId"), ...changed }));
}

async function existingUser(db: Database, id: string) {
  const [user] = await db.select({ id: users.id, disabledAt: users.disabledAt }).from(users).where(eq(users.id, id)).limit(1);
  if (!user) throw recordNotFound("User", id);
  return user;
}

async function existingList(db: Database, id: string) {
  const [list] = await db.select({ id: accountLists.id }).from(accountLists).where(eq(accountLists.id, id)).limit(1);
  if (!list) throw recordNotFound("AccountList", id);
  return list;
}

async function listUsers(db: Database, listId: string): Promise<string[]> {
  const rows = await db.select({ userId: accountListUsers.userId }).from(accountListUsers).where(eq(accountListUsers.accountListId, listId));
  return rows.map((row) => row.userId);
}

async function isCoach(db: Database, listId: string, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: accountListCoaches.id }).from(accountListCoaches).where(and(eq(accountListCoaches.accountListId, listId), eq(accountListCoaches.userId, userId)));
  return Boolean(row);
}

const lastUser = () => new ApiError(409, [{ detail: LAST_USER_DETAIL }]);

/** The issuers this deployment signs people in with: a link to any other would never be used. */
function configuredIssuers(env: object): string[] {
  const settings = signInSettings(env);
  return [settings.issuer, settings.casBaseUrl].filter((issuer): issuer is string => Boolean(issuer));
}

/** Why the keys refused a link (nothing, when it is the link the user has already). */
async function refuseLinkConflict(db: Database, userId: string, link: { issuer: string; subject: string }): Promise<void> {
  const [holder] = await db
    .select({ userId: identityLinks.userId })
    .from(identityLinks)
    .where(and(eq(identityLinks.issuer, link.issuer), eq(identityLinks.subject, link.subject)))
    .limit(1);
  if (holder?.userId === userId) return;
  if (holder) throw conflict(`This subject of the issuer is linked to user ${holder.userId}: unlink it there first`, { pointer: "/subject" });
  const linked = await subjectAt(db, userId, link.issuer);
  if (linked !== undefined) throw conflict(`The user is linked to the subject ${linked} of this issuer: unlink it first`, { pointer: "/issuer" });
  throw conflict("The user's identities changed meanwhile: try again");
}

/** The user's link at the issuer, changed to another subject of it (the unique key refuses one linked to someone else). */
function replaceSubject(db: Database, userId: string, link: { issuer: string; subject: string }) {
  return db
    .update(identityLinks)
    .set({ subject: link.subject, updatedAt: nowTimestamp() })
    .where(and(eq(identityLinks.userId, userId), eq(identityLinks.issuer, link.issuer)));
}

export function adminRoutes(): Hono<AppEnv> {
  const admin = new Hono<AppEnv>();
  admin.use(adminOnly);

  admin.post("/users", async (c) => {
    const input = await body(c, NewUser);
    let id: string;
    try {
      id = await addUser(c.get("db"), { email: input.email, firstName: input.first_name, lastName: input.last_name, timeZone: input.time_zone, locale: input.locale });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`A user with the e-mail address ${input.email} already exists`, { pointer: "/email" });
      throw error;
    }
    logChange(c, "user:add", { user_id: id });
    return c.json({ id }, 201);
  });

  admin.post(`/users/${ID}/disable`, async (c) => {
    const db = c.get("db");
    const id = c.req.param("id").toLowerCase();
    const user = await existingUser(db, id);
    if (!user.disabledAt) await db.update(users).set({ disabledAt: nowTimestamp() }).where(eq(users.id, id));
    forgetViewer(id);
    logChange(c, "user:disable", { user_id: id, changed: !user.disabledAt });
    return c.json({ id, disabled: true });
  });

  admin.post(`/users/${ID}/enable`, async (c) => {
    const db = c.get("db");
    const id = c.req.param("id").toLowerCase();
    const user = await existingUser(db, id);
    if (user.disabledAt) await db.update(users).set({ disabledAt: null }).where(eq(users.id, id));
    forgetViewer(id);
    logChange(c, "user:enable", { user_id: id, changed: Boolean(user.disabledAt) });
    return c.json({ id, disabled: false });
  });

  admin.get(`/users/${ID}/identities`, async (c) => {
    const id = c.req.param("id").toLowerCase();
    await existingUser(c.get("db"), id);
    return c.json({ user_id: id, identities: await identitiesOf(c.get("db"), id) });
  });

  // Links a provider's person to the user: one subject per issuer, and a subject is one user's (the unique keys).
  // With `replace`, the user's subject at the issuer becomes this one in one statement: no moment without a link.
  admin.post(`/users/${ID}/identities`, async (c) => {
    const input = await body(c, IdentityLink);
    const db = c.get("db");
    const id = c.req.param("id").toLowerCase();
    const issuers = configuredIssuers(c.env);
    if (!issuers.includes(input.issuer)) {
      throw badRequest(`issuer must be one this deployment signs in with: ${issuers.join(", ") || "none is configured (OIDC_ISSUER, CAS_BASE_URL)"}`, { pointer: "/issuer" });
    }
    await existingUser(db, id);
    const link = { user_id: id, issuer: input.issuer, subject: input.subject };
    const replaced = input.replace ? await subjectAt(db, id, input.issuer) : undefined;
    if (replaced === input.subject) return c.json(link);
    try {
      if (replaced === undefined) await db.insert(identityLinks).values(linkRow(input, id));
      else await db.batch([replaceSubject(db, id, input), signOutEverywhere(db, id)]);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await refuseLinkConflict(db, id, input);
      return c.json(link);
    }
    if (replaced === undefined) {
      logChange(c, "identity:link", link);
      return c.json(link, 201);
    }
    forgetViewer(id);
    logChange(c, "identity:link", { ...link, replaced_subject: replaced });
    return c.json({ ...link, replaced_subject: replaced });
  });

  // The person of the removed subject is signed out: the user's tokens until now are refused.
  admin.delete(`/users/${ID}/identities`, async (c) => {
    const issuer = c.req.query("issuer")?.trim();
    if (!issuer) throw badRequest("issuer is required: the provider whose link to remove", { parameter: "issuer" });
    const db = c.get("db");
    const id = c.req.param("id").toLowerCase();
    await existingUser(db, id);
    const subject = await subjectAt(db, id, issuer);
    if (subject === undefined) throw new ApiError(404, [{ detail: `User ${id} has no identity at ${issuer}`, source: { parameter: "issuer" } }]);
    await db.batch([db.delete(identityLinks).where(and(eq(identityLinks.userId, id), eq(identityLinks.issuer, issuer))), signOutEverywhere(db, id)]);
    forgetViewer(id);
    logChange(c, "identity:unlink", { user_id: id, issuer, subject });
    return c.json({ user_id: id, issuer, subject, removed: true });
  });

  // A currency's rate on a day (rate:set): the reports' conversions on that day, and the rate now if it is the latest.
  admin.post("/currency_rates", async (c) => {
    const input = await body(c, Rate);
    const recorded = await recordRate(c.env, c.get("db"), input.code, input.exchanged_on, input.rate, nowTimestamp());
    logChange(c, "rate:set", { ...recorded });
    return c.json(recorded, 201);
  });

  admin.post("/account_lists", async (c) => {
    const input = await body(c, NewList);
    const db = c.get("db");
    const userIdValue = input.user.toLowerCase();
    if (input.database && !isListDatabase(c.env, input.database)) {
      throw new ApiError(400, [{ detail: `database ${input.database} is not a list database of this deployment`, source: { pointer: "/database" } }]);
    }
    await existingUser(db, userIdValue);
    const { id, database: placedOn } = await addAccountList(c.env, db, userIdValue, { name: input.name, currency: input.currency, database: input.database });
    logChange(c, "list:add", { account_list_id: id, user_id: userIdValue, database: placedOn });
    return c.json({ id, database: placedOn }, 201);
  });

  // Gives a user access to a list, as a user or (coach: true) a coach; the other kind of access is taken away.
  admin.put(`/account_lists/${ID}/members/:user{[0-9a-fA-F-]{36}}`, async (c) => {
    const { coach } = await body(c, Membership);
    const db = c.get("db");
    const listId = c.req.param("id").toLowerCase();
    const member = c.req.param("user").toLowerCase();
    await existingList(db, listId);
    await existingUser(db, member);
    const now = nowTimestamp();
    if (coach) {
      // One batch: the user access goes only while another user keeps the list; the coach access and the default
      // list follow only once it has gone.
      const [, added] = await rowsChanged(db, [
        removeUserAccess(listId, member),
        sql`INSERT INTO account_list_coaches (id, account_list_id, user_id, created_at, updated_at)
          SELECT ${crypto.randomUUID()}, ${listId}, ${member}, ${now}, ${now} WHERE ${noLongerUser(listId, member)} ON CONFLICT DO NOTHING`,
        sql`UPDATE users SET default_account_list_id = NULL WHERE id = ${member} AND default_account_list_id = ${listId} AND ${noLongerUser(listId, member)}`,
      ]);
      if (added === 0 && !(await isCoach(db, listId, member))) throw lastUser();
    } else {
      await db.batch([
        db.insert(accountListUsers).values({ id: crypto.randomUUID(), accountListId: listId, userId: member, createdAt: now, updatedAt: now }).onConflictDoNothing(),
        db.delete(accountListCoaches).where(and(eq(accountListCoaches.accountListId, listId), eq(accountListCoaches.userId, member))),
      ]);
    }
    await mirrorLists(c.env, db, [listId]);
    forgetViewer(member);
    logChange(c, "list:member", { account_list_id: listId, user_id: member, role: coach ? "coach" : "user" });
    return c.json({ account_list_id: listId, user_id: member, role: coach ? "coach" : "user" });
  });

  admin.delete(`/account_lists/${ID}/members/:user{[0-9a-fA-F-]{36}}`, async (c) => {
    const db = c.get("db");
    const listId = c.req.param("id").toLowerCase();
    const member = c.req.param("user").toLowerCase();
    await existingList(db, listId);
    const wasUser = (await listUsers(db, listId)).includes(member);
    if (!wasUser && !(await isCoach(db, listId, member))) throw recordNotFound("User", member);
    // The last-user rule is checked by the statement that removes the access, so two removals at once cannot
    // both pass it; the rest follows only once the user access has gone.
    await rowsChanged(db, [
      removeUserAccess(listId, member),
      sql`DELETE FROM account_list_coaches WHERE account_list_id = ${listId} AND user_id = ${member} AND ${noLongerUser(listId, member)}`,
      sql`UPDATE users SET default_account_list_id = NULL WHERE id = ${member} AND default_account_list_id = ${listId} AND ${noLongerUser(listId, member)}`,
    ]);
    if (wasUser && (await listUsers(db, listId)).includes(member)) throw lastUser();
    await mirrorLists(c.env, db, [listId]);
    forgetViewer(member);
    logChange(c, "list:remove", { account_list_id: listId, user_id: member });
    return c.json({ account_list_id: listId, user_id: member, removed: true });
  });

  // Where each list is, and the moves under way (npm run lists:placement).
  admin.get("/placements", async (c) => {
    const placements = await everyPlacement(c.get("db"));
    return c.json({ databases: await databaseSizes(c.env, c.get("db")), placements });
  });

  admin.get(`/account_lists/${ID}/placement`, async (c) => {
    const placement = await placementOf(c.get("db"), c.req.param("id").toLowerCase());
    if (!placement) throw recordNotFound("AccountList", c.req.param("id"));
    return c.json(placement);
  });

  // Moves a list to another database while it is in use (npm run lists:move); answers at once, the queue does it.
  admin.post(`/account_lists/${ID}/move`, async (c) => {
    const { database } = await body(c, Move);
    const listId = c.req.param("id").toLowerCase();
    const placement = await startMove(c.env, c.get("db"), listId, database);
    logChange(c, "list:move", { account_list_id: listId, from: placement.database, to: database });
    return c.json(placement, 202);
  });

  admin.get(`/account_lists/${ID}/export`, async (c) => {
    const listId = c.req.param("id").toLowerCase();
    await existingList(c.get("db"), listId);
    const placedOn = (await databasesOfLists(c.get("db"), [listId])).get(listId)!;
    logChange(c, "list:export", { account_list_id: listId });
    return c.body(exportList(c, c.get("databaseOn")(placedOn), listId), 200, { "Content-Type": "application/x-ndjson; charset=utf-8" });
  });

  admin.get(`/users/${ID}/erasure`, async (c) => {
    const id = c.req.param("id").toLowerCase();
    await existingUser(c.get("db"), id);
    return c.json(await erasurePlan(c.env, c.get("db"), id));
  });

  // One bounded step of erasing the user; the command calls it until `done`. Each step is safe to repeat.
  admin.post(`/users/${ID}/erasure`, async (c) => {
    const id = c.req.param("id").toLowerCase();
    const step = await eraseStep(c.env, c.get("db"), c.env.IMPORT_FILES, id);
    forgetViewer(id);
    logChange(c, "user:erase", { user_id: id, done: step.done, deleted: step.deleted });
    return c.json(step);
  });

  return admin;
}
