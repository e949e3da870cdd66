/** Account lists and the users and coaches who have access to them. */
import { index, type AnySQLiteColumn, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { appeals } from "./appeals";
import { bool, id, money, timestamps } from "./columns";
import { organizations } from "./organizations";
import { users } from "./users";

export const accountLists = sqliteTable(
  "account_lists",
  {
    id: id(),
    name: text("name").notNull(),
    currency: text("currency").notNull().default("USD"),
    homeCountry: text("home_country"),
    monthlyGoal: money("monthly_goal"),
    activeMpdStartAt: text("active_mpd_start_at"),
    activeMpdFinishAt: text("active_mpd_finish_at"),
    activeMpdMonthlyGoal: money("active_mpd_monthly_goal"),
    lastPrayerLetterAt: text("last_prayer_letter_at"),
    salaryOrganizationId: text("salary_organization_id").references(() => organizations.id, {
      onDelete: "set null",
    }),
    tester: bool("tester").notNull().default(false),
    // appeals.account_list_id points back here, so this reference closes a cycle: typed as AnySQLiteColumn,
    // and inserts set it after the appeal exists.
    primaryAppealId: text("primary_appeal_id").references((): AnySQLiteColumn => appeals.id, {
      onDelete: "set null",
    }),
    ...timestamps(),
  },
  (t) => [
    index("account_lists_salary_organization_id_idx").on(t.salaryOrganizationId),
    index("account_lists_primary_appeal_id_idx").on(t.primaryAppealId),
  ],
);

export const accountListUsers = sqliteTable(
  "account_list_users",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("account_list_users_account_list_id_user_id_unique").on(t.accountListId, t.userId),
    // A user's lists, read on every request that loads its viewer: from the index alone, so that no statistics make
    // the planner prefer walking every membership of the deployment through the unique index.
    index("account_list_users_user_id_account_list_id_idx").on(t.userId, t.accountListId),
  ],
);

export const accountListCoaches = sqliteTable(
  "account_list_coaches",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("account_list_coaches_account_list_id_user_id_unique").on(t.accountListId, t.userId),
    index("account_list_coaches_user_id_account_list_id_idx").on(t.userId, t.accountListId),
  ],
);
