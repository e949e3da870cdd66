/**
 * A list always keeps a user who can manage it: the last user's access cannot be taken away. The rule is part of
 * the statement that removes an access (a condition on it, not a count read before it), so two removals at once
 * cannot both pass it. The API's team routes and the operator's commands both remove access through it.
 */
import { sql, type SQL } from "drizzle-orm";
import { accountListUsers } from "../../../drizzle/schema";
import { q } from "../../db/sql";

export const LAST_USER_DETAIL = "The last user of an account list cannot be removed from it";

/** Another user than `userId` keeps the list: `userId`'s user access may go. */
export function anotherUserKeeps(listId: string, userId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${accountListUsers} AS o WHERE o.account_list_id = ${listId} AND o.user_id <> ${userId})`;
}

/** `userId` is no longer a user of the list: what follows the removal of their access may happen. */
export function noLongerUser(listId: string, userId: string): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM ${accountListUsers} AS m WHERE m.account_list_id = ${listId} AND m.user_id = ${userId})`;
}

/** Removes `userId`'s user access to the list unless they are its last user. */
export function removeUserAccess(listId: string, userId: string): SQL {
  return sql`DELETE FROM ${accountListUsers} WHERE ${q(accountListUsers.accountListId)} = ${listId} AND ${q(accountListUsers.userId)} = ${userId}
    AND ${anotherUserKeeps(listId, userId)}`;
}
