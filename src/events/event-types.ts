/**
 * The notification types as events: what each one detects, the task it makes and how it reads in a task or an
 * e-mail. A type is one declaration here; the runner (run.ts) does the rest the same way for every type.
 *
 * The rules follow the original service's, re-expressed as one statement per type over an account list. Where our
 * data lacks an input the original used (a contact's status history, gift aid), the rule does without it; see
 * docs/decisions.md "Events".
 */
import { sql, type SQL } from "drizzle-orm";
import { NOTIFICATION_TYPE_IDS, type NotificationTypeKey } from "../constants/notifications";
import {
  contactGifts,
  eventKey,
  financialPartners,
  FINANCIAL_PARTNER,
  giftBeforeMonth,
  giftMonthTotal,
  latestRecentPartnerGifts,
  LONG_TIME_FRAME_MONTHS,
  monthsSince,
  notRaisedWithinAYear,
  pledgePeriod,
  pledgePeriodTotal,
  aYearOfTasks,
  daysComingUp,
  giftsComingDue,
  giftsArrived,
  pledgesComingOfAge,
  raisedAYearAgo,
  type CrossingRun,
  type DetectionRun,
} from "./detection-sql";

/** What a notification's task subject and e-mail line are written from. */
export interface NotificationFacts {
  contactName: string;
  /** The gift's amount and currency and its date, for types about a gift. */
  gift?: { amount: string; currency: string; date: string };
  /** The person and the date, for birthdays and anniversaries. */
  person?: { name: string; date: string };
}

export interface EventType {
  key: NotificationTypeKey;
  /** The activity of the task the `task` channel makes. */
  activity: string;
  subject: (facts: NotificationFacts) => string;
  /**
   * The rows of events found in one account list: `contact_id, donation_id, event_date, event_key`. Absent for the
   * types that imports raise (see raise.ts).
   */
  detect?: (run: DetectionRun) => SQL;
  /**
   * Contacts whose inputs crossed one of the rule's thresholds of time since the last run (each a SELECT of contact
   * ids over an index range): with the contacts changed since then, all that a run after the first looks at.
   */
  crossings?: (run: CrossingRun) => SQL[];
  /**
   * Notifications of this type the run clears before detecting (the partner has given again): their open tasks are
   * removed in the same step. The condition is on `n`, a notification of this type in the list.
   */
  clearedWhen?: (run: DetectionRun) => SQL;
}

const giftText = (facts: NotificationFacts) => (facts.gift ? ` of ${facts.gift.amount} ${facts.gift.currency} on ${facts.gift.date}` : "");

/** The contact's pledge frequency in months, as a number. */
const frequency = sql.raw("CAST(c.pledge_frequency AS REAL)");
const hasPledge = sql.raw("c.pledge_amount > 0 AND c.pledge_frequency IS NOT NULL");
const today = (run: DetectionRun) => run.today;

/** The rule of a gift-driven type: the latest recent gift of a financial partner, when `condition` holds for it. */
function latestGiftWhen(key: NotificationTypeKey, condition: (run: DetectionRun) => SQL): (run: DetectionRun) => SQL {
  return (run) => latestRecentPartnerGifts(run, sql`c.id, d.id, ${today(run)}, ${eventKey(key, sql`d.id`)}`, condition(run));
}

const lastGiftDate = contactGifts("MAX(g.donation_date)");

/** The partners a missed gift is looked for in: financial partners with a received pledge begun over 30 days ago. */
const missedGiftScope = (run: DetectionRun) => sql`${financialPartners(run)} AND c.pledge_received = 1 AND c.pledge_frequency IS NOT NULL
  AND (c.pledge_start_date IS NULL OR c.pledge_start_date < date(${run.today}, '-30 days'))`;

/** A partner is late when the pledge period after the latest gift has passed by more than 30 days. */
const lateForGift = (run: DetectionRun) => sql`${lastGiftDate} IS NOT NULL AND COALESCE(date(${lastGiftDate}, ${pledgePeriod("+")}, '+30 days') < ${run.today}, 0)`;

/** Recontinued: a gift that covers the pledge after a gap of at least two months more than the pledge period. */
const recontinued = sql`${hasPledge} AND ${frequency} < ${LONG_TIME_FRAME_MONTHS} AND c.pledge_received = 1 AND ${giftMonthTotal} >= c.pledge_amount
  AND ${giftBeforeMonth} IS NOT NULL AND ${monthsSince(giftBeforeMonth)} >= ${frequency} + 2`;

/** Financial partners with no task of `activity` started or completed within the year, known for more than a year. */
function yearWithout(key: NotificationTypeKey, activity: string, extra?: SQL): (run: DetectionRun) => SQL {
  return (run) => sql`SELECT c.id, NULL, ${run.today}, ${eventKey(key, sql`c.id`, sql`${run.today}`)} FROM ${run.contacts}
    WHERE ${financialPartners(run)} ${extra ? sql`AND ${extra}` : sql``}
      AND (c.created_at < date(${run.today}, '-1 year') OR EXISTS (SELECT 1 FROM activity_contacts ac JOIN tasks t ON t.id = ac.task_id
        WHERE ac.contact_id = c.id AND t.start_at < date(${run.today}, '-1 year')))
      AND NOT EXISTS (SELECT 1 FROM activity_contacts ac JOIN tasks t ON t.id = ac.task_id WHERE ac.contact_id = c.id
        AND t.activity_type = ${activity} AND (t.start_at > date(${run.today}, '-1 year') OR t.completed_at > date(${run.today}, '-1 year')))
      AND ${notRaisedWithinAYear(run)}`;
}

/** Contacts on a newsletter of `kinds` that lack what it needs (`missing`), at most once a year. */
function newsletterMissing(key: NotificationTypeKey, kinds: string[], missing: SQL): (run: DetectionRun) => SQL {
  return (run) => sql`SELECT c.id, NULL, ${run.today}, ${eventKey(key, sql`c.id`, sql`${run.today}`)} FROM ${run.contacts}
    WHERE c.account_list_id = ${run.accountListId} AND c.send_newsletter IN (${sql.join(kinds.map((kind) => sql`${kind}`), sql`, `)})
      AND c.deceased = 0 AND ${missing} AND ${notRaisedWithinAYear(run)}`;
}

/**
 * People of the list's contacts whose day (birthday or anniversary) falls within the coming week: the event date
 * is the next such day, this year or next; one event per person and date.
 */
function upcomingDay(key: NotificationTypeKey, month: string, day: string): (run: DetectionRun) => SQL {
  const [m, d] = [sql.raw(`p.${month}`), sql.raw(`p.${day}`)];
  return (run) => {
    const year = sql`CAST(strftime('%Y', ${run.today}) AS INTEGER)`;
    const thisYear = sql`printf('%04d-%02d-%02d', ${year}, ${m}, ${d})`;
    const next = sql`(CASE WHEN ${thisYear} >= ${run.today} THEN ${thisYear} ELSE printf('%04d-%02d-%02d', ${year} + 1, ${m}, ${d}) END)`;
    return sql`SELECT c.id, NULL, ${next}, ${eventKey(key, sql`p.id`, next)} FROM ${run.contacts} JOIN people p ON p.contact_id = c.id
      WHERE c.account_list_id = ${run.accountListId} AND c.deceased = 0 AND p.deceased = 0
        AND ${m} BETWEEN 1 AND 12 AND ${d} BETWEEN 1 AND 31 AND ${next} <= date(${run.today}, '+7 days')`;
  };
}

export const EVENT_TYPES: EventType[] = [
  {
    key: "stopped_giving",
    activity: "Call",
    subject: (f) => `${f.contactName} appears to have missed a gift: call to follow up`,
    // Late, and not already told: one notification per lapse however the history arrives (oldest gift first, each
    // gift's run finds the partner still late and raises nothing new).
    detect: (run) => sql`SELECT c.id, NULL, ${run.today}, ${eventKey("stopped_giving", sql`c.id`, lastGiftDate)} FROM ${run.contacts}
      WHERE ${missedGiftScope(run)} AND ${lateForGift(run)}
        AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.contact_id = c.id AND n.notification_type_id = ${run.typeId} AND n.cleared = 0)`,
    // A partner becomes late the day their last gift's period and 30 days pass, or their pledge comes of age.
    crossings: (run) => [
      ...giftsComingDue(run, sql`date(${run.since}, '-30 days')`, sql`date(${run.today}, '-30 days')`),
      ...pledgesComingOfAge(run, 30),
    ],
    // Cleared only once the partner is no longer late (a gift that still leaves them late clears nothing), or no
    // longer one whose gifts are looked for: otherwise a partner who left and came back could never be raised again.
    clearedWhen: (run) => sql`NOT EXISTS (SELECT 1 FROM contacts c WHERE c.id = n.contact_id AND ${missedGiftScope(run)} AND ${lateForGift(run)})`,
  },
  {
    key: "started_giving",
    activity: "Thank",
    subject: (f) => `${f.contactName} has given a first gift${giftText(f)}: send a thank-you`,
    detect: (run) => {
      const first = contactGifts("MIN(g.donation_date)");
      return sql`SELECT c.id, ${contactGifts("g.id", `g.donation_date = (SELECT MIN(g2.donation_date) FROM contact_donor_accounts gx2 JOIN donations g2 ON g2.donor_account_id = gx2.donor_account_id AND g2.account_list_id = c.account_list_id WHERE gx2.contact_id = c.id) ORDER BY g.created_at, g.id LIMIT 1`)}, ${run.today}, ${eventKey("started_giving", sql`c.id`)} FROM ${run.contacts}
        WHERE ${financialPartners(run)} AND c.pledge_received = 0
          AND ${first} > date(${run.today}, '-14 days') AND ${first} <= ${run.today}`;
    },
    crossings: giftsArrived,
  },
  {
    key: "recontinuing_gift",
    activity: "Thank",
    subject: (f) => `${f.contactName} has resumed giving with a gift${giftText(f)}: send a thank-you`,
    detect: latestGiftWhen("recontinuing_gift", () => recontinued),
    crossings: giftsArrived,
  },
  {
    key: "larger_gift",
    activity: "Thank",
    subject: (f) => `${f.contactName} gave more than their commitment, a gift${giftText(f)}: send a thank-you`,
    detect: latestGiftWhen("larger_gift", () => sql`${hasPledge} AND ${pledgePeriodTotal} > c.pledge_amount`),
    crossings: giftsArrived,
  },
  {
    key: "smaller_gift",
    activity: "To Do",
    subject: (f) => `${f.contactName} gave less than their commitment, a gift${giftText(f)}: look into the gift`,
    detect: latestGiftWhen("smaller_gift", () => sql`${hasPledge} AND ${pledgePeriodTotal} < c.pledge_amount AND NOT (${recontinued})`),
    crossings: giftsArrived,
  },
  {
    key: "long_time_frame_gift",
    activity: "Thank",
    subject: (f) => `${f.contactName} gave their gift for a long pledge period${giftText(f)}: send a thank-you`,
    detect: latestGiftWhen(
      "long_time_frame_gift",
      () => sql`${hasPledge} AND ${frequency} >= ${LONG_TIME_FRAME_MONTHS} AND ${giftMonthTotal} = c.pledge_amount AND ${giftBeforeMonth} IS NOT NULL`,
    ),
    crossings: giftsArrived,
  },
  {
    key: "special_gift",
    activity: "Thank",
    subject: (f) => `${f.contactName} gave a special gift${giftText(f)}: send a thank-you`,
    // Every gift within the last 30 days from a contact who is not a financial partner: on a first run read by list
    // and date, after it through the candidate contacts' donor accounts.
    detect: (run) => {
      const source = run.since
        ? sql`${run.contacts} JOIN contact_donor_accounts x ON x.contact_id = c.id
          JOIN donations d ON d.donor_account_id = x.donor_account_id AND d.account_list_id = c.account_list_id`
        : sql`donations d JOIN contact_donor_accounts x ON x.donor_account_id = d.donor_account_id
          JOIN contacts c ON c.id = x.contact_id AND c.account_list_id = d.account_list_id`;
      return sql`SELECT c.id, d.id, ${run.today}, ${eventKey("special_gift", sql`d.id`)} FROM ${source}
        WHERE d.account_list_id = ${run.accountListId} AND d.donation_date > date(${run.today}, '-30 days') AND d.donation_date <= ${run.today}
          AND COALESCE(c.status, '') <> ${FINANCIAL_PARTNER}`;
    },
    crossings: giftsArrived,
  },
  {
    key: "remind_partner_in_advance",
    activity: "To Do",
    subject: (f) => `${f.contactName} has a gift expected in a month: get in touch before it`,
    detect: (run) => {
      const next = sql`date(COALESCE(${lastGiftDate}, c.pledge_start_date), ${pledgePeriod("+")})`;
      return sql`SELECT c.id, NULL, ${run.today}, ${eventKey("remind_partner_in_advance", sql`c.id`, next)} FROM ${run.contacts}
        WHERE ${financialPartners(run)} AND c.pledge_received = 1 AND c.direct_deposit = 0 AND ${frequency} >= 3
          AND (c.pledge_start_date IS NULL OR c.pledge_start_date < date(${run.today}, '-30 days'))
          AND ${lastGiftDate} IS NOT NULL AND ${next} > ${run.today} AND ${next} <= date(${run.today}, '+1 month', '+1 day')`;
    },
    // A gift comes within the month ahead as the month ahead reaches its due day.
    crossings: (run) => [
      ...giftsComingDue(run, sql`date(${run.since}, '+1 month', '+1 day')`, sql`date(${run.today}, '+1 month', '+1 day')`),
      ...pledgesComingOfAge(run, 30),
    ],
  },
  {
    key: "call_partner_once_per_year",
    activity: "Call",
    subject: (f) => `${f.contactName} has had no call logged in a year: call them`,
    detect: yearWithout("call_partner_once_per_year", "Call"),
    crossings: aYearOfTasks,
  },
  {
    key: "thank_partner_once_per_year",
    activity: "Thank",
    subject: (f) => `${f.contactName} has had no thank-you logged in a year: send one`,
    detect: yearWithout("thank_partner_once_per_year", "Thank", sql`${frequency} < ${LONG_TIME_FRAME_MONTHS}`),
    crossings: aYearOfTasks,
  },
  {
    key: "missing_address_in_newsletter",
    activity: "To Do",
    subject: (f) => `${f.contactName} gets the physical newsletter but has no current mailing address`,
    detect: newsletterMissing(
      "missing_address_in_newsletter",
      ["Physical", "Both"],
      sql`NOT EXISTS (SELECT 1 FROM addresses a WHERE a.contact_id = c.id AND a.historic = 0)`,
    ),
    crossings: raisedAYearAgo,
  },
  {
    key: "missing_email_in_newsletter",
    activity: "To Do",
    subject: (f) => `${f.contactName} gets the e-mail newsletter but nobody on the contact has a valid e-mail address`,
    detect: newsletterMissing(
      "missing_email_in_newsletter",
      ["Email", "Both"],
      sql`NOT EXISTS (SELECT 1 FROM people p JOIN email_addresses e ON e.person_id = p.id WHERE p.contact_id = c.id AND e.historic = 0 AND e.valid = 1)`,
    ),
    crossings: raisedAYearAgo,
  },
  {
    key: "upcoming_birthday",
    activity: "To Do",
    subject: (f) => `${f.person?.name ?? f.contactName} (${f.contactName}) has a birthday on ${f.person?.date ?? "a day this week"}`,
    detect: upcomingDay("upcoming_birthday", "birthday_month", "birthday_day"),
    crossings: (run) => daysComingUp(run, "birthday"),
  },
  {
    key: "upcoming_anniversary",
    activity: "To Do",
    subject: (f) => `${f.person?.name ?? f.contactName} (${f.contactName}) has an anniversary on ${f.person?.date ?? "a day this week"}`,
    detect: upcomingDay("upcoming_anniversary", "anniversary_month", "anniversary_day"),
    crossings: (run) => daysComingUp(run, "anniversary"),
  },
  // Raised by imports this service does not run (see raise.ts): a new partner from the donation system, with or
  // without a duplicate, a subscription form, and an address from the donation system.
  ...(
    [
      ["new_partner_duplicate_merged", "New partner %s was added and merged with a duplicate contact: check the merge"],
      ["new_partner_duplicate_not_merged", "New partner %s was added and may duplicate another contact: check them"],
      ["new_partner_no_duplicate", "New partner %s was added: welcome them"],
      ["new_form_subscriber", "%s signed up through a subscription form: welcome them"],
      ["new_form_subscriber_existing_contact", "%s signed up through a subscription form again: check their details"],
      ["new_donation_system_address", "%s has a new address from the donation system: check it"],
    ] as const
  ).map(([key, text]): EventType => ({ key, activity: "To Do", subject: (f) => text.replace("%s", f.contactName) })),
];

export const EVENT_TYPE_BY_ID = new Map(EVENT_TYPES.map((type) => [NOTIFICATION_TYPE_IDS[type.key], type]));
export const EVENT_TYPE_BY_KEY = new Map(EVENT_TYPES.map((type) => [type.key, type]));
