import { sql } from "drizzle-orm";
import { accountListInvites } from "../../../drizzle/schema";
import { email, stored, string } from "../../engine/attributes";
import { defineResource } from "../../engine/define";
import { belongsTo } from "../../engine/relationships";
import { inList } from "../../db/sql";
import { listValue } from "../../jsonapi/filter-values";

export const INVITE_ROLES = ["user", "coach"] as const;

/** 64 hex characters from 32 random bytes: the secret the recipient sends back to accept. */
export function newInviteCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Invitations to an account list. Only users of the list (not coaches) see and manage them; accepting is open to
 * any signed-in user holding the code (see routes.ts). Cancelled and accepted invites leave the list but stay
 * readable one by one.
 */
export const inviteResource = defineResource({
  type: "account_list_invites",
  model: "AccountListInvite",
  table: accountListInvites,
  accountListColumn: accountListInvites.accountListId,
  attributes: {
    accepted_at: stored(accountListInvites.acceptedAt),
    code: stored(accountListInvites.code),
    invite_user_as: string(accountListInvites.inviteUserAs, { oneOf: INVITE_ROLES, createOnly: true }),
    recipient_email: email(accountListInvites.recipientEmail, { required: true, createOnly: true }),
  },
  relationships: {
    accepted_by_user: belongsTo("users", accountListInvites.acceptedByUserId),
    cancelled_by_user: belongsTo("users", accountListInvites.cancelledByUserId),
    invited_by_user: belongsTo("users", accountListInvites.invitedByUserId),
    // Set from the path on create; not answered unless asked for.
    account_list: { ...belongsTo("account_lists", accountListInvites.accountListId), default: false },
  },
  defaultFilters: () => sql`${accountListInvites.cancelledByUserId} IS NULL AND ${accountListInvites.acceptedAt} IS NULL`,
  filters: {
    invite_user_as: (value) => {
      const roles = listValue(value);
      return roles.length > 0 ? inList(accountListInvites.inviteUserAs, roles) : undefined;
    },
  },
  hooks: {
    beforeCreate: (changes, _input, ctx) => {
      changes.code = newInviteCode();
      // Left out or blank, an invite makes a user of the list, as the original's column default does.
      if (changes.invite_user_as === undefined || changes.invite_user_as === null || changes.invite_user_as === "") changes.invite_user_as = "user";
      changes.invited_by_user = ctx.viewer.id;
    },
  },
});
