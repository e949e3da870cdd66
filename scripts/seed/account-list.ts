/** One account list with everything in it. */
import { NOTIFICATION_TYPES } from "./catalog";
import type { Clock } from "./clock";
import { generateContacts } from "./contacts";
import { cents, type Dataset, stamps } from "./dataset";
import { generateGiving } from "./giving";
import { hashHex, Random, seedId } from "./random";
import { generateTasks } from "./tasks";
import type { ListContext, ListSpec } from "./types";

export function generateAccountList(data: Dataset, clock: Clock, spec: ListSpec, notificationTypeIds: Map<string, string>): void {
  const createdAt = clock.time(-spec.createdDaysAgo, 14);
  data.add("account_lists", {
    id: spec.id,
    name: spec.name,
    currency: spec.currency,
    home_country: spec.homeCountry,
    monthly_goal: spec.monthlyGoalCents === null ? null : cents(spec.monthlyGoalCents),
    active_mpd_start_at: spec.mpd ? clock.date(spec.mpd.startDays) : null,
    active_mpd_finish_at: spec.mpd ? clock.date(spec.mpd.finishDays) : null,
    active_mpd_monthly_goal: spec.mpd ? cents(spec.mpd.goalCents) : null,
    last_prayer_letter_at: spec.lastPrayerLetterDays === null ? null : clock.time(spec.lastPrayerLetterDays, 15),
    salary_organization_id: spec.organizationId,
    tester: spec.tester,
    // Set once the appeal exists (Dataset.setPrimaryAppeal).
    primary_appeal_id: null,
    ...stamps(createdAt, clock.time(-3, 10)),
  });
  data.add("account_list_users", {
    id: seedId("account-list-user", spec.id, spec.ownerId),
    account_list_id: spec.id,
    user_id: spec.ownerId,
    ...stamps(createdAt),
  });
  for (const coachId of spec.coachIds) {
    data.add("account_list_coaches", {
      id: seedId("account-list-coach", spec.id, coachId),
      account_list_id: spec.id,
      user_id: coachId,
      ...stamps(clock.time(-120, 16)),
    });
  }

  const ctx: ListContext = { spec, clock, data, notificationTypeIds, designations: [], contacts: [] };
  addDesignationAccounts(ctx, createdAt);
  ctx.contacts = generateContacts(ctx);
  generateGiving(ctx);
  generateTasks(ctx);
  addNotificationPreferences(ctx);
  addInvites(ctx);
}

/** Designation accounts with twelve monthly balance snapshots ending at the current balance. */
function addDesignationAccounts(ctx: ListContext, createdAt: string) {
  const { spec, clock, data } = ctx;
  for (const account of spec.designationAccounts) {
    const id = seedId("designation-account", spec.key, account.key);
    const r = new Random(id);
    ctx.designations.push({ ...account, id });
    data.add("designation_accounts", {
      id,
      account_list_id: spec.id,
      organization_id: account.organizationId,
      designation_number: account.number,
      legacy_designation_number: account.legacyNumber ?? null,
      name: account.name,
      balance: cents(account.balanceCents),
      balance_updated_at: clock.time(account.active ? -1 : -400, 5),
      currency: account.currency,
      active: account.active,
      staff_account_id: account.staffAccountId ?? null,
      ...stamps(createdAt, clock.time(account.active ? -1 : -400, 5)),
    });
    for (let month = 11; month >= 0; month--) {
      const days = (account.active ? -1 : -400) - month * 30;
      const drift = month === 0 ? 1 : 0.7 + r.next() * 0.5;
      data.add("balances", {
        id: seedId("balance", id, month),
        designation_account_id: id,
        balance: cents(Math.round(account.balanceCents * drift)),
        ...stamps(clock.time(days, 5)),
      });
    }
  }
}

function addNotificationPreferences(ctx: ListContext) {
  const { spec, clock, data, notificationTypeIds } = ctx;
  for (const key of spec.notificationTypeKeys) {
    if (!NOTIFICATION_TYPES.some((type) => type.key === key)) throw new Error(`unknown notification type ${key}`);
    const r = new Random(spec.key, "notification-preference", key);
    const app = r.chance(0.85);
    data.add("notification_preferences", {
      id: seedId("notification-preference", spec.id, key),
      account_list_id: spec.id,
      user_id: spec.ownerId,
      notification_type_id: notificationTypeIds.get(key)!,
      app,
      email: r.chance(0.6) || !app,
      task: r.chance(0.4),
      ...stamps(clock.time(-r.int(30, 400), 18)),
    });
  }
}

function addInvites(ctx: ListContext) {
  const { spec, clock, data } = ctx;
  for (const invite of spec.invites) {
    const createdAt = clock.time(-invite.daysAgo, 17);
    const settledAt = clock.time(-invite.daysAgo + 2, 9);
    data.add("account_list_invites", {
      id: seedId("account-list-invite", spec.id, invite.key),
      account_list_id: spec.id,
      invited_by_user_id: spec.ownerId,
      // 64 hex characters, like a freshly issued code.
      code: hashHex("invite-code", spec.id, invite.key) + hashHex("invite-code-2", spec.id, invite.key),
      recipient_email: invite.email,
      invite_user_as: invite.as,
      accepted_by_user_id: invite.state === "accepted" ? invite.acceptedByUserId! : null,
      accepted_at: invite.state === "accepted" ? settledAt : null,
      cancelled_by_user_id: invite.state === "cancelled" ? spec.ownerId : null,
      ...stamps(createdAt, invite.state === "pending" ? createdAt : settledAt),
    });
  }
}
