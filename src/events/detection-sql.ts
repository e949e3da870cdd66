/**
 * SQL fragments the detection rules share. Every rule is one SELECT over one account list, read through the
 * indexes its conditions name (contacts by list and status or newsletter, a contact's donor accounts, donations by
 * donor account and date, people by contact), never a loop over contacts in the Worker. A rule's rows are
 * `contact_id, donation_id, event_date, event_key`; `event_key` names the event so that it is raised once.
 *
 * The fragments use fixed aliases: `c` is the contact row of the enclosing statement.
 *
 * A rule reads its contacts from `run.contacts`: every contact of the list on a list's first run (or for a type
 * just turned on), else only the candidates: the contacts marked as changed since the list's last run
 * (drizzle/run-marks.ts) and those whose inputs crossed one of the type's thresholds of time since then (its
 * `crossings`, each an index range). The rule's own conditions then decide exactly as over every contact: a
 * contact neither changed nor crossing a threshold answers today as it did at the last run, which raised it then.
 */
import { sql, type SQL } from "drizzle-orm";
import { addDays } from "../jsonapi/time";

export interface DetectionRun {
  accountListId: string;
  /** The run's day (UTC), `YYYY-MM-DD`: "today" for every rule. */
  today: string;
  /** The type's stable id, for rules that look at earlier notifications of their own type. */
  typeId: string;
  /** The FROM item of the contacts the rule looks at, as `c`. */
  contacts: SQL;
  /** The day of the list's last run, when this run looks only at what changed or came due since. */
  since?: string;
}

/** A run that looks only at what changed or came due since `since`. */
export type CrossingRun = DetectionRun & { since: string };

/** Gifts whose date arrived since the last run: the gift rules look at gifts dated up to today. */
export function giftsArrived(run: CrossingRun): SQL[] {
  return [sql`SELECT x.contact_id FROM donations g JOIN contact_donor_accounts x ON x.donor_account_id = g.donor_account_id
    WHERE g.account_list_id = ${run.accountListId} AND g.donation_date > ${run.since} AND g.donation_date <= ${run.today}`];
}

/**
 * Contacts whose next gift's due day (`contacts.gift_due_on`, kept from their last gift and pledge period) lies
 * within [from, to]: one range of the list's index.
 */
export function giftsComingDue(run: CrossingRun, from: SQL, to: SQL): SQL[] {
  return [sql`SELECT id FROM contacts WHERE account_list_id = ${run.accountListId} AND gift_due_on IS NOT NULL
    AND gift_due_on >= ${from} AND gift_due_on <= ${to}`];
}

/** Contacts whose pledge began `days` days before a day since the last run (a pledge comes of age). */
export function pledgesComingOfAge(run: CrossingRun, days: number): SQL[] {
  return [sql`SELECT id FROM contacts WHERE account_list_id = ${run.accountListId} AND pledge_start_date IS NOT NULL
    AND pledge_start_date >= date(${run.since}, ${`-${days + 1} days`}) AND pledge_start_date <= date(${run.today}, ${`-${days - 1} days`})`];
}

/**
 * `[from, to]`: the days a year before the days since the last run, what passed out of the year (a rule's "within
 * a year" is after `date(today, '-1 year')`, its "over a year ago" before it; both ends included serve both).
 */
function yearAgo(run: CrossingRun): [SQL, SQL] {
  return [sql`date(${run.since}, '-1 year')`, sql`date(${run.today}, '-1 year')`];
}

/** Contacts whose last notification of the run's type is a year old since the last run. */
export function raisedAYearAgo(run: CrossingRun): SQL[] {
  const [from, to] = yearAgo(run);
  return [sql`SELECT contact_id FROM notifications WHERE account_list_id = ${run.accountListId} AND event_date >= ${from} AND event_date <= ${to}
    AND notification_type_id = ${run.typeId}`];
}

/** Contacts known for a year, or whose tasks started or were completed a year ago, since the last run. */
export function aYearOfTasks(run: CrossingRun): SQL[] {
  const [from, to] = yearAgo(run);
  return [
    sql`SELECT id FROM contacts WHERE account_list_id = ${run.accountListId} AND created_at >= ${from} AND created_at <= ${to}`,
    sql`SELECT x.contact_id FROM tasks t JOIN activity_contacts x ON x.task_id = t.id WHERE t.account_list_id = ${run.accountListId} AND t.start_at >= ${from} AND t.start_at <= ${to}`,
    sql`SELECT x.contact_id FROM tasks t JOIN activity_contacts x ON x.task_id = t.id WHERE t.account_list_id = ${run.accountListId} AND t.completed_at >= ${from} AND t.completed_at <= ${to}`,
    ...raisedAYearAgo(run),
  ];
}

/** `MM-DD` of a day plus `days`. */
function monthDay(day: string, days: number): string {
  return addDays(day, days).slice(5);
}

/**
 * Contacts with a person whose `kind` of day came into the week ahead since the last run: month-days after the one
 * a week after the last run, up to a week from today (wrapping at the year's end).
 */
export function daysComingUp(run: CrossingRun, kind: string): SQL[] {
  const [after, upTo] = [monthDay(run.since, 7), monthDay(run.today, 7)];
  if (after === upTo) return [];
  const range = after < upTo ? sql`month_day > ${after} AND month_day <= ${upTo}` : sql`(month_day > ${after} OR month_day <= ${upTo})`;
  return [sql`SELECT p.contact_id FROM person_days d JOIN people p ON p.id = d.person_id
    WHERE d.account_list_id = ${run.accountListId} AND d.kind = ${kind} AND ${range}`];
}

export const FINANCIAL_PARTNER = "Partner - Financial";

/** Pledge frequencies of a semi-annual gift or longer (constants.pledge_frequencies keys as numbers). */
export const LONG_TIME_FRAME_MONTHS = 6;

/**
 * A date modifier for the contact's pledge period, e.g. `+1 months`; weekly and every-two-weeks pledges are 7 and
 * 14 days. `sign` is + or -.
 */
export function pledgePeriod(sign: "+" | "-"): SQL {
  return sql.raw(
    `(CASE c.pledge_frequency WHEN '0.23076923076923' THEN '${sign}7 days' WHEN '0.46153846153846' THEN '${sign}14 days' ` +
      `ELSE '${sign}' || CAST(CAST(c.pledge_frequency AS REAL) AS INTEGER) || ' months' END)`,
  );
}

/**
 * `(SELECT <select> FROM the contact's gifts [AND condition])`: its donor accounts' donations to its own list, read
 * by donor account and date. The gifts are `g` (so that a rule can compare them with an outer gift `d`).
 */
export function contactGifts(select: string, condition = ""): SQL {
  const extra = condition ? ` AND ${condition}` : "";
  return sql.raw(
    `(SELECT ${select} FROM contact_donor_accounts gx JOIN donations g ON g.donor_account_id = gx.donor_account_id ` +
      `AND g.account_list_id = c.account_list_id WHERE gx.contact_id = c.id${extra})`,
  );
}

/** The list's financial partners, read from contacts(account_list_id, status). */
export function financialPartners(run: DetectionRun): SQL {
  return sql`c.account_list_id = ${run.accountListId} AND c.status = ${FINANCIAL_PARTNER}`;
}

/** No notification of this type for the contact raised within the year before today, cleared or not. */
export function notRaisedWithinAYear(run: DetectionRun): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM notifications n WHERE n.contact_id = c.id AND n.notification_type_id = ${run.typeId} AND n.event_date > date(${run.today}, '-1 year'))`;
}

/** `<type>:<...parts>`: the text of an event key. */
export function eventKey(type: string, ...parts: SQL[]): SQL {
  return sql.join([sql`${type}`, ...parts], sql` || ':' || `);
}

/**
 * The list's recent gifts of financial partners, each with its contact, for the rules about a gift: the latest gift
 * of each partner dated within the last 60 days (older gifts raise nothing, as a late import of old gifts should
 * not), with the sums the rules compare with the pledge. `d` is the gift, `c` its contact.
 */
export function latestRecentPartnerGifts(run: DetectionRun, columns: SQL, condition: SQL): SQL {
  return sql`SELECT ${columns} FROM ${run.contacts}
    JOIN donations d ON d.id = (SELECT lg.id FROM contact_donor_accounts lx JOIN donations lg ON lg.donor_account_id = lx.donor_account_id
      AND lg.account_list_id = c.account_list_id WHERE lx.contact_id = c.id AND lg.donation_date <= ${run.today}
      ORDER BY lg.donation_date DESC, lg.created_at DESC, lg.id DESC LIMIT 1)
    WHERE ${financialPartners(run)} AND d.donation_date > date(${run.today}, '-60 days') AND d.donation_date <= ${run.today} AND (${condition})`;
}

/**
 * What the partner gave for the pledge period of gift `d`: for a weekly or every-two-weeks pledge the gift itself;
 * otherwise every gift in the calendar months of the period that ends with the gift's month (a monthly pledge: that
 * month), so that a gift given a few days early or late does not count twice in one period.
 */
export const pledgePeriodTotal = sql`(CASE WHEN CAST(c.pledge_frequency AS REAL) < 1 THEN d.amount ELSE ${contactGifts(
  "COALESCE(SUM(g.amount), 0)",
  "g.donation_date <= d.donation_date AND g.donation_date >= date(d.donation_date, 'start of month', " +
    "'-' || (CAST(CAST(c.pledge_frequency AS REAL) AS INTEGER) - 1) || ' months')",
)} END)`;

/** The sum of the contact's gifts in the calendar month of gift `d`. */
export const giftMonthTotal = contactGifts(
  "COALESCE(SUM(g.amount), 0)",
  "g.donation_date >= date(d.donation_date, 'start of month') AND g.donation_date <= date(d.donation_date, 'start of month', '+1 month', '-1 day')",
);

/** The date of the contact's latest gift before the month of gift `d` (NULL when there is none). */
export const giftBeforeMonth = contactGifts("MAX(g.donation_date)", "g.donation_date < date(d.donation_date, 'start of month')");

/** Whole calendar months from the month of `earlier` to the month of gift `d`. */
export function monthsSince(earlier: SQL): SQL {
  return sql`((CAST(strftime('%Y', d.donation_date) AS INTEGER) * 12 + CAST(strftime('%m', d.donation_date) AS INTEGER)) - (CAST(strftime('%Y', ${earlier}) AS INTEGER) * 12 + CAST(strftime('%m', ${earlier}) AS INTEGER)))`;
}
