/**
 * Who a person the identity provider vouches for is here. A person is known by (issuer, subject): the first time,
 * the link is made, and later sign-ins go by it alone, so a changed e-mail address at the provider signs in the
 * same user. A first sign-in links to the user with the same e-mail address (in any case) only when the provider
 * says the address is verified, and only while that user has no subject of that provider yet: a provider that gives
 * an address to someone else does not make the newcomer its old owner here (403; the operator links by hand, with
 * `npm run admin -- identity:link`). Who else may sign up is the deployment's OIDC_SIGN_UP:
 * - invited: an address with a pending invite to an account list gets a new user, who then accepts it as anyone does;
 * - open: any verified address gets a new user with a first account list named after them (as user:add, list:add);
 * - none: only the users the operator took in.
 * Everyone else, and disabled users, get 403 and nothing is stored.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { accountListInvites, identityLinks, users } from "../../drizzle/schema";
import { addAccountList, newUserRow } from "../accounts/onboarding";
import { isUniqueViolation } from "../db/guard";
import type { Database } from "../env";
import { ApiError } from "../jsonapi/errors";
import { nowTimestamp } from "../jsonapi/time";
import type { SignUpPolicy } from "./sign-in-settings";

/** A person as the provider describes them. */
export interface ProviderIdentity {
  /** The OpenID Connect issuer, or the CAS base URL. */
  issuer: string;
  subject: string;
  email?: string;
  /** Only a provider's own `true` counts. */
  emailVerified: boolean;
  firstName?: string;
  lastName?: string;
}

export interface SignedInUser {
  id: string;
  /** The user's sign-out generation, which their new token carries. */
  tokenGeneration: number;
}

/** The currency of the first account list of a user who signed themselves up; they may change it. */
const SIGN_UP_CURRENCY = "USD";

const askYourAdministrator = () =>
  new ApiError(403, [{ detail: "You have no access to this service yet: ask your administrator to add or invite you" }]);
const disabled = () => new ApiError(403, [{ detail: "Your access to this service is disabled: ask your administrator" }]);
const linkedToAnotherSubject = () =>
  new ApiError(403, [{ detail: "Your e-mail address belongs to a user here who signs in with another account at this identity provider: contact your administrator" }]);

const userColumns = { id: users.id, disabledAt: users.disabledAt, tokenGeneration: users.tokenGeneration };

async function linkedUser(db: Database, identity: ProviderIdentity) {
  const [row] = await db
    .select(userColumns)
    .from(identityLinks)
    .innerJoin(users, eq(users.id, identityLinks.userId))
    .where(and(eq(identityLinks.issuer, identity.issuer), eq(identityLinks.subject, identity.subject)))
    .limit(1);
  return row;
}

/** The subject the user is linked to at the issuer, if any (one at most: identity_links_user_issuer_unique). */
export async function subjectAt(db: Database, userId: string, issuer: string): Promise<string | undefined> {
  const [link] = await db
    .select({ subject: identityLinks.subject })
    .from(identityLinks)
    .where(and(eq(identityLinks.userId, userId), eq(identityLinks.issuer, issuer)))
    .limit(1);
  return link?.subject;
}

/** The user's links, one per provider, as the operator lists them. */
export async function identitiesOf(db: Database, userId: string): Promise<Array<{ issuer: string; subject: string; created_at: string }>> {
  return db
    .select({ issuer: identityLinks.issuer, subject: identityLinks.subject, created_at: identityLinks.createdAt })
    .from(identityLinks)
    .where(eq(identityLinks.userId, userId))
    .orderBy(identityLinks.issuer);
}

/** The insert of a link; the unique keys refuse a subject linked to someone else, and a second subject of the issuer. */
export const linkRow = (identity: Pick<ProviderIdentity, "issuer" | "subject">, userId: string) => {
  const now = nowTimestamp();
  return { id: crypto.randomUUID(), issuer: identity.issuer, subject: identity.subject, userId, createdAt: now, updatedAt: now };
};

const signedIn = (user: { id: string; disabledAt: string | null; tokenGeneration: number }): SignedInUser => {
  if (user.disabledAt) throw disabled();
  return { id: user.id, tokenGeneration: user.tokenGeneration };
};

async function hasPendingInvite(db: Database, email: string): Promise<boolean> {
  const [invite] = await db
    .select({ id: accountListInvites.id })
    .from(accountListInvites)
    .where(and(sql`lower(${accountListInvites.recipientEmail}) = lower(${email})`, isNull(accountListInvites.acceptedAt), isNull(accountListInvites.cancelledByUserId)))
    .limit(1);
  return Boolean(invite);
}

function names(identity: ProviderIdentity, email: string): { firstName: string; lastName: string | null } {
  const firstName = identity.firstName?.trim() || email.split("@")[0];
  return { firstName: firstName.slice(0, 255), lastName: identity.lastName?.trim().slice(0, 255) || null };
}

/**
 * The user the identity signs in, linking or creating them as above. Two first sign-ins at once both end with the
 * one user and link: the unique keys on (issuer, subject), on (user, issuer) and on the e-mail address refuse the
 * second writer, who then finds what the first wrote (and, for another subject of the issuer, is refused).
 */
export async function userForIdentity(env: object, db: Database, identity: ProviderIdentity, policy: SignUpPolicy): Promise<SignedInUser> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await resolve(env, db, identity, policy);
    } catch (error) {
      if (attempt === 0 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

async function resolve(env: object, db: Database, identity: ProviderIdentity, policy: SignUpPolicy): Promise<SignedInUser> {
  const linked = await linkedUser(db, identity);
  if (linked) return signedIn(linked);
  const email = identity.email?.trim();
  // Addresses are at most 254 characters (RFC 5321); a longer one is no one's.
  if (!email || email.length > 254 || !identity.emailVerified) throw askYourAdministrator();
  const [existing] = await db.select(userColumns).from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
  if (existing) {
    const user = signedIn(existing);
    const linkedSubject = await subjectAt(db, user.id, identity.issuer);
    if (linkedSubject !== undefined) {
      // Said to the operator, who decides which subject is the user's (identity:link, identity:unlink).
      console.log(JSON.stringify({ level: "info", message: "sign-in refused", reason: "the user of this e-mail address is linked to another subject of the issuer", issuer: identity.issuer, subject: identity.subject, user_id: user.id }));
      throw linkedToAnotherSubject();
    }
    await db.insert(identityLinks).values(linkRow(identity, user.id));
    return user;
  }
  const mayJoin = policy === "open" || (policy === "invited" && (await hasPendingInvite(db, email)));
  if (!mayJoin) throw askYourAdministrator();
  const { firstName, lastName } = names(identity, email);
  const userId = crypto.randomUUID();
  // One batch: a user without their link would be found next time by e-mail address, but only while it is verified.
  await db.batch([db.insert(users).values(newUserRow(userId, { email, firstName, lastName })), db.insert(identityLinks).values(linkRow(identity, userId))]);
  if (policy === "open") await addAccountList(env, db, userId, { name: [firstName, lastName].filter(Boolean).join(" "), currency: SIGN_UP_CURRENCY });
  return { id: userId, tokenGeneration: 0 };
}
