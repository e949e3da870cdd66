/**
 * SQL fragments the detection rules share. Every rule is one SELECT over one account list, read through the
 * indexes its conditions name (contacts by list and status or newsletter, a contact's donor accounts, donations by
 * donor account and date, people by contact), never a loop over contacts in the Worker. A rule's rows are
 * `contact_id, donation_id, event_date, event_key`; `event_key` names the event so that it is raised once.
 *
 * The fragments use fixed aliases: `c` is the contact row of the enclosing statement.
 */
import { sql, type SQL } from "drizzle-orm";

export interface DetectionRun {
  accountListId: string;
  /** The run's day (UTC), `YYYY-MM-DD`: "today" for every rule. */
  today: string;
  /** The type's stable id, for rules that look at earlier notifications of their own type. */
  typeId: string;
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
  return sql`SELECT ${columns} FROM contacts c
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
