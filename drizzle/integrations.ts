/**
 * A list's connections to newsletter services, one of each a list at most (the Preferences > Integrations screen):
 * a MailChimp account (its API key and the list it sends to) and a Prayer Letters account (its OAuth2 token). The
 * key and the token are kept as the client sent them and never answered; nothing here reaches either service
 * (docs/decisions.md, "Integrations").
 */
import { sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";
import { bool, id, timestamps } from "./columns";

export const mailChimpAccounts = sqliteTable(
  "mail_chimp_accounts",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    apiKey: text("api_key").notNull(),
    primaryListId: text("primary_list_id"),
    autoLogCampaigns: bool("auto_log_campaigns").notNull().default(true),
    ...timestamps(),
  },
  (t) => [uniqueIndex("mail_chimp_accounts_account_list_id_unique").on(t.accountListId)],
);

export const prayerLettersAccounts = sqliteTable(
  "prayer_letters_accounts",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    oauth2Token: text("oauth2_token").notNull(),
    validToken: bool("valid_token").notNull().default(true),
    ...timestamps(),
  },
  (t) => [uniqueIndex("prayer_letters_accounts_account_list_id_unique").on(t.accountListId)],
);
