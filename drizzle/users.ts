/**
 * Users. The user's own e-mail addresses, phone numbers, social accounts, websites and family relationships
 * are the rows of the people tables for `person_id`: a person row with a null `contact_id`.
 */
import { sql } from "drizzle-orm";
import { index, integer, type AnySQLiteColumn, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";
import { bool, id, timestamps } from "./columns";
import { people } from "./people";

/**
 * The person behind a user across organizations. Only its identity and timestamps are kept: the interface
 * answers them in the user's `master_person` linkage.
 */
export const masterPeople = sqliteTable("master_people", {
  id: id(),
  ...timestamps(),
});

export const users = sqliteTable(
  "users",
  {
    id: id(),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name"),
    legalFirstName: text("legal_first_name"),
    middleName: text("middle_name"),
    suffix: text("suffix"),
    title: text("title"),
    almaMater: text("alma_mater"),
    employer: text("employer"),
    gender: text("gender"),
    maritalStatus: text("marital_status"),
    occupation: text("occupation"),
    avatar: text("avatar"),
    anniversaryDay: integer("anniversary_day"),
    anniversaryMonth: integer("anniversary_month"),
    anniversaryYear: integer("anniversary_year"),
    birthdayDay: integer("birthday_day"),
    birthdayMonth: integer("birthday_month"),
    birthdayYear: integer("birthday_year"),
    deceased: bool("deceased").notNull().default(false),
    optoutEnewsletter: bool("optout_enewsletter").notNull().default(false),
    // Preferences, one column each (answered together as the `preferences` object).
    contactsFilter: text("contacts_filter"),
    contactsViewOptions: text("contacts_view_options"),
    // Typed as AnySQLiteColumn: account_lists -> account_list_users -> users closes an import cycle.
    defaultAccountListId: text("default_account_list_id").references((): AnySQLiteColumn => accountLists.id, {
      onDelete: "set null",
    }),
    locale: text("locale"),
    /** How numbers and dates are formatted (a locale such as `en-nz`); the web client's Locale preference. */
    localeDisplay: text("locale_display"),
    setup: bool("setup").notNull().default(false),
    tabOrders: text("tab_orders"),
    tasksFilter: text("tasks_filter"),
    timeZone: text("time_zone").notNull().default("UTC"),
    hourToSendNotifications: integer("hour_to_send_notifications"),
    // No foreign key: the column predates master_people, and SQLite cannot add one without rebuilding users.
    masterPersonId: text("master_person_id"),
    personId: text("person_id").references((): AnySQLiteColumn => people.id, { onDelete: "set null" }),
    /** Set by an operator (`npm run admin -- user:disable`): the user's tokens are refused; their data stays. */
    disabledAt: text("disabled_at"),
    /**
     * How many times the user signed out everywhere (DELETE /api/v2/user/authenticate). Each token carries the
     * generation it was minted in (`gen`); a token of an earlier generation is refused (src/auth/token.ts).
     */
    tokenGeneration: integer("token_generation").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    // One user per e-mail address whatever its case: operators onboard people by address.
    uniqueIndex("users_email_lower_unique").on(sql`lower(${t.email})`),
    index("users_default_account_list_id_idx").on(t.defaultAccountListId),
    index("users_person_id_idx").on(t.personId),
  ],
);
