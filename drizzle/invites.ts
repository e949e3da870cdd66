/**
 * Invitations to an account list, as a user or a coach. An invite is pending until accepted or cancelled;
 * `code` is 64 hex characters.
 */
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";
import { id, timestamps } from "./columns";
import { users } from "./users";

export const accountListInvites = sqliteTable(
  "account_list_invites",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    invitedByUserId: text("invited_by_user_id").references(() => users.id, { onDelete: "set null" }),
    code: text("code").notNull(),
    recipientEmail: text("recipient_email"),
    // "user" or "coach".
    inviteUserAs: text("invite_user_as").notNull().default("user"),
    acceptedByUserId: text("accepted_by_user_id").references(() => users.id, { onDelete: "set null" }),
    acceptedAt: text("accepted_at"),
    cancelledByUserId: text("cancelled_by_user_id").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    index("account_list_invites_account_list_id_created_at_idx").on(t.accountListId, t.createdAt, t.id),
    index("account_list_invites_invited_by_user_id_idx").on(t.invitedByUserId),
    index("account_list_invites_accepted_by_user_id_idx").on(t.acceptedByUserId),
    index("account_list_invites_cancelled_by_user_id_idx").on(t.cancelledByUserId),
  ],
);
