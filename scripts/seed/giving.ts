/**
 * Giving of one account list: donor accounts, three years of donations, appeals with their contacts,
 * exclusions and pledges, and the notifications that giving raises.
 */
import { PLEDGE_FREQUENCIES } from "./catalog";
import { addDays } from "./clock";
import { cents, stamps } from "./dataset";
import { Random, seedId } from "./random";
import { dueDates } from "./schedule";
import type { AppealSpec, ContactInfo, ListContext } from "./types";

const HISTORY_DAYS = 3 * 365;
const ONE_OFF_DOLLARS: ReadonlyArray<readonly [number, number]> = [[50, 4], [100, 5], [250, 3], [500, 2], [1000, 1], [2500, 0.3]];
const APPEAL_PLEDGE_DOLLARS = [50, 100, 100, 150, 250, 500, 1000];
const PAYMENT_METHODS: ReadonlyArray<readonly [string, number]> = [["EFT", 5], ["Credit Card", 4], ["Check", 3], ["Bank Transfer", 2], ["Cash", 0.5]];
type PledgeStatus = "not_received" | "received_not_processed" | "processed";

interface Appeal extends AppealSpec {
  id: string;
  start: string;
  end: string;
  contactIds: Set<string>;
}

export function generateGiving(ctx: ListContext): void {
  const { spec, clock, contacts } = ctx;
  const appeals = addAppeals(ctx);
  const giving = new GiftWriter(ctx);

  for (const contact of contacts) {
    const r = new Random(spec.key, "gifts", contact.index);
    const pledge = contact.pledge;
    if (pledge) {
      const until = pledge.stoppedOn && pledge.stoppedOn < clock.date(-1) ? pledge.stoppedOn : clock.date(-1);
      const dues = dueDates(pledge.startDate, pledge.frequency, until).filter((date) => date >= clock.date(-HISTORY_DAYS));
      dues.forEach((due, n) => {
        const date = minDate(addDays(due, r.int(0, 3)), clock.date(-1));
        let amount = pledge.increasedOn && due < pledge.increasedOn ? pledge.increasedFrom! : pledge.amountCents;
        let event: string | null = null;
        if (r.chance(0.04)) [amount, event] = [amount * 2, "larger_gift"];
        else if (r.chance(0.03)) [amount, event] = [Math.round(amount / 2), "smaller_gift"];
        if (n === 0 && clock.daysUntil(pledge.startDate) > -90) event = "started_giving";
        if (PLEDGE_FREQUENCIES[pledge.frequency].months >= 6 && !event) event = "long_time_frame_gift";
        const appeal = appeals.find((a) => a.contactIds.has(contact.id) && date >= a.start && date <= a.end);
        const forAppeal = appeal && r.chance(0.25) ? appeal : null;
        const donationId = giving.add(contact, r, `pledged-${n}`, {
          amountCents: amount,
          currency: pledge.currency,
          date,
          appealId: forAppeal?.id ?? null,
          appealAmountCents: forAppeal && r.chance(0.5) ? Math.round(amount / 2) : null,
        });
        if (event && clock.daysUntil(date) >= -120) giving.notify(contact, event, date, donationId);
      });
      if (pledge.stoppedOn && contact.status === "Partner - Financial") giving.notify(contact, "stopped_giving", pledge.stoppedOn, null);
    }
    for (let n = 0; n < contact.oneOffGifts; n++) {
      const date = clock.date(-r.int(1, HISTORY_DAYS));
      const donationId = giving.add(contact, r, `one-off-${n}`, {
        amountCents: r.weighted(ONE_OFF_DOLLARS) * 100,
        currency: pledge?.currency ?? spec.currency,
        date,
        appealId: null,
        appealAmountCents: null,
      });
      if (clock.daysUntil(date) >= -90) giving.notify(contact, "special_gift", date, donationId);
    }
    for (const person of contact.people) {
      if (person.birthdayMonth === null || person.birthdayDay === null) continue;
      const days = daysToAnniversary(clock.reference, person.birthdayMonth, person.birthdayDay);
      if (days >= 0 && days <= 14) giving.notify(contact, "upcoming_birthday", clock.date(days), null, person.id);
    }
  }

  for (const appeal of appeals) addPledges(ctx, appeal, giving);
}

/** Appeals, the contacts asked in each, and the contacts its exclusion filter set aside (with the reasons). */
function addAppeals(ctx: ListContext): Appeal[] {
  const { spec, clock, data, contacts } = ctx;
  return spec.appeals.map((appealSpec) => {
    const r = new Random(spec.key, "appeal", appealSpec.key);
    const appeal: Appeal = {
      ...appealSpec,
      id: seedId("appeal", spec.key, appealSpec.key),
      start: clock.date(appealSpec.endDays - appealSpec.windowDays),
      end: clock.date(appealSpec.endDays),
      contactIds: new Set(),
    };
    const createdAt = clock.time(Math.min(appealSpec.endDays - appealSpec.windowDays, -1) - 7, 15, r.int(0, 59));
    data.add("appeals", {
      id: appeal.id,
      account_list_id: spec.id,
      name: appeal.name,
      amount: cents(appeal.amountCents),
      description: appeal.description,
      end_date: appeal.end,
      active: appeal.active,
      ...stamps(createdAt, clock.time(Math.min(appealSpec.endDays, -1), 10, r.int(0, 59))),
    });
    if (appeal.primary) data.setPrimaryAppeal(spec.id, appeal.id);

    for (const contact of contacts) {
      if (contact.createdAt > createdAt) continue;
      const reasons = exclusionReasons(contact, appeal);
      if (reasons.length > 0) {
        data.add("appeal_excluded_contacts", {
          id: seedId("appeal-excluded-contact", appeal.id, contact.id),
          appeal_id: appeal.id,
          contact_id: contact.id,
          reasons,
          ...stamps(createdAt),
        });
        continue;
      }
      if (contact.hidden || contact.status === null) continue;
      if (!r.chance(contact.status.startsWith("Partner") ? 0.5 : 0.2)) continue;
      appeal.contactIds.add(contact.id);
      data.add("appeal_contacts", {
        id: seedId("appeal-contact", appeal.id, contact.id),
        appeal_id: appeal.id,
        contact_id: contact.id,
        ...stamps(createdAt),
      });
    }
    return appeal;
  });
}

/** The exclusion_filter keys that set a contact aside when the appeal was created. */
function exclusionReasons(contact: ContactInfo, appeal: Appeal): string[] {
  const reasons: string[] = [];
  if (contact.noAppeals) reasons.push("no_appeals");
  const pledge = contact.pledge;
  if (pledge) {
    const within = (date: string | null, days: number) => date !== null && date <= appeal.start && date > addDays(appeal.start, -days);
    if (within(pledge.startDate, 90)) reasons.push("started_giving_range");
    if (within(pledge.increasedOn, 90)) reasons.push("pledge_amount_increased_range");
    if (within(pledge.stoppedOn, 365)) reasons.push("stopped_giving_range");
  }
  return reasons;
}

/**
 * Pledges of an appeal's contacts. Past appeals are mostly processed (each processed pledge has its
 * donation); the current ones mostly not received. The primary appeal always has a pledge in every status.
 */
function addPledges(ctx: ListContext, appeal: Appeal, giving: GiftWriter) {
  const { spec, clock, data, contacts } = ctx;
  const r = new Random(spec.key, "pledges", appeal.key);
  const past = appeal.end < clock.date(0);
  const forced: PledgeStatus[] = appeal.primary ? ["processed", "received_not_processed", "not_received"] : [];
  let n = 0;
  for (const contact of contacts) {
    if (!appeal.contactIds.has(contact.id)) continue;
    if (n >= forced.length && !r.chance(past ? 0.5 : 0.45)) continue;
    let status: PledgeStatus =
      forced[n] ??
      r.weighted<PledgeStatus>(
        past
          ? [["processed", 8], ["received_not_processed", 1], ["not_received", 1]]
          : [["not_received", 6], ["received_not_processed", 2.5], ["processed", 1.5]],
      );
    n++;
    // A gift can only have been processed if the appeal had started before the reference date.
    if (status === "processed" && appeal.start >= clock.date(0)) status = "received_not_processed";
    const amountCents = r.pick(APPEAL_PLEDGE_DOLLARS) * 100;
    const currency = contact.pledge?.currency ?? spec.currency;
    const pledgeId = seedId("pledge", appeal.id, contact.id);
    const createdAt = clock.time(Math.min(clock.daysUntil(appeal.start) + r.int(0, 20), -1), 16, r.int(0, 59));
    data.add("pledges", {
      id: pledgeId,
      account_list_id: spec.id,
      contact_id: contact.id,
      appeal_id: appeal.id,
      amount: cents(amountCents),
      amount_currency: currency,
      expected_date: addDays(appeal.end, -r.int(0, 20)),
      status,
      ...stamps(createdAt),
    });
    if (status !== "processed") continue;
    const lastDay = minDate(appeal.end, clock.date(-1));
    const date = addDays(appeal.start, r.int(0, Math.max(0, clock.daysUntil(lastDay) - clock.daysUntil(appeal.start))));
    const donationId = giving.add(contact, r, `appeal-${appeal.key}`, {
      amountCents,
      currency,
      date,
      appealId: appeal.id,
      appealAmountCents: null,
    });
    data.add("pledge_donations", { pledge_id: pledgeId, donation_id: donationId });
  }
}

/** Writes donations (creating each giver's donor account on first use) and notifications. */
class GiftWriter {
  private readonly donorAccounts = new Map<string, string>();

  constructor(private readonly ctx: ListContext) {}

  add(
    contact: ContactInfo,
    r: Random,
    key: string,
    gift: { amountCents: number; currency: string; date: string; appealId: string | null; appealAmountCents: number | null },
  ): string {
    const { spec, clock, data } = this.ctx;
    const designation = this.designationFor(gift.currency, gift.date, r);
    const id = seedId("donation", spec.key, contact.index, key);
    data.add("donations", {
      id,
      account_list_id: spec.id,
      designation_account_id: designation.id,
      donor_account_id: this.donorAccountFor(contact, designation.organizationId),
      appeal_id: gift.appealId,
      appeal_amount: gift.appealAmountCents === null ? null : cents(gift.appealAmountCents),
      amount: cents(gift.amountCents),
      currency: gift.currency,
      donation_date: gift.date,
      motivation: gift.appealId ? "Appeal" : r.chance(0.1) ? r.pick(["Year-end", "Birthday", "Ministry partner"]) : null,
      payment_method: r.weighted(PAYMENT_METHODS),
      memo: r.chance(0.05) ? r.pick(["In memory of Dad", "For the summer project", "Merry Christmas!", "Keep it up"]) : null,
      remote_id: `${spec.key.toUpperCase()}-${String(contact.index).padStart(4, "0")}-${key}`,
      ...stamps(clock.time(Math.min(clock.daysUntil(gift.date) + 2, 0), 6, r.int(0, 59))),
    });
    return id;
  }

  notify(contact: ContactInfo, typeKey: string, eventDate: string, donationId: string | null, key?: string): void {
    const { spec, clock, data, notificationTypeIds } = this.ctx;
    const typeId = notificationTypeIds.get(typeKey);
    if (!typeId) throw new Error(`unknown notification type ${typeKey}`);
    const at = clock.time(Math.min(clock.daysUntil(eventDate), 0), 7);
    data.add("notifications", {
      id: seedId("notification", spec.key, typeKey, contact.id, key ?? donationId ?? eventDate),
      account_list_id: spec.id,
      // The keys the daily run gives the same events (src/events), so that a run does not raise them again.
      event_key: donationId
        ? `${typeKey}:${donationId}`
        : typeKey === "started_giving"
          ? `${typeKey}:${contact.id}`
          : `${typeKey}:${key ?? contact.id}:${eventDate}`,
      app: true,
      contact_id: contact.id,
      notification_type_id: typeId,
      donation_id: donationId,
      event_date: at.slice(0, 10),
      cleared: clock.daysUntil(eventDate) < -30,
      ...stamps(at),
    });
  }

  /** Gifts go to the active account in their currency; some old ones to a closed account of that currency. */
  private designationFor(currency: string, date: string, r: Random) {
    const { designations, clock } = this.ctx;
    const closed = designations.find((d) => !d.active && d.currency === currency);
    if (closed && date < clock.date(-700) && r.chance(0.4)) return closed;
    const active = designations.filter((d) => d.active);
    return active.find((d) => d.currency === currency) ?? active[0];
  }

  private donorAccountFor(contact: ContactInfo, organizationId: string): string {
    const { spec, data } = this.ctx;
    const cacheKey = `${contact.id}:${organizationId}`;
    const existing = this.donorAccounts.get(cacheKey);
    if (existing) return existing;
    const id = seedId("donor-account", spec.key, contact.index, organizationId);
    const number = String(spec.donorNumberBase + contact.index * 7 + (organizationId === spec.organizationId ? 0 : 3));
    data.add("donor_accounts", {
      id,
      organization_id: organizationId,
      account_number: number,
      name: contact.name,
      ...stamps(contact.createdAt),
    });
    data.add("contact_donor_accounts", {
      id: seedId("contact-donor-account", contact.id, id),
      contact_id: contact.id,
      donor_account_id: id,
      ...stamps(contact.createdAt),
    });
    this.donorAccounts.set(cacheKey, id);
    return id;
  }
}

function minDate(a: string, b: string): string {
  return a < b ? a : b;
}

/** Days from `reference` to the next month/day (0 when it is that day). */
function daysToAnniversary(reference: Date, month: number, day: number): number {
  const year = reference.getUTCFullYear();
  let next = Date.UTC(year, month - 1, day);
  if (next < reference.getTime()) next = Date.UTC(year + 1, month - 1, day);
  return Math.round((next - reference.getTime()) / 86_400_000);
}
