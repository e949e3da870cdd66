/**
 * Contact filters about giving: gifts (donations of the contact's donor accounts to its list), pledges and the
 * pledge history in partner status logs. Decisions the interface leaves open are written next to each filter.
 */
import { sql, type SQL } from "drizzle-orm";
import { contactDonorAccounts, contacts, donations, donorAccounts, partnerStatusLogs } from "../../../drizzle/schema";
import { and, dateInRange, inList, notIndexed, q } from "../../db/sql";
import type { FilterDef } from "../../engine/define";
import { isBlankValue, listValue, parseDateRange, type TimeRange } from "../../jsonapi/filter-values";
import type { ParamValue } from "../../jsonapi/params";
import { addDays } from "../../jsonapi/time";
import { firstDonationDate, hasContactDonation, lastDonationDate, selectFromContactDonations } from "./contact-sql";
import { moneyList, moneyRange, pickerDateRange } from "./filter-values";

/** Gifts needed in the ten months before a stopped-giving range ends for the giver to count as a regular one. */
const REGULAR_GIFTS = 3;

const donationDate = q(donations.donationDate);

/** A contact's monthly pledge, pledge_amount / pledge_frequency (a missing frequency counts as monthly). */
function monthlyAmount(amount: SQL, frequency: SQL): SQL {
  return sql`(COALESCE(${amount}, 0) / CAST(COALESCE(NULLIF(${frequency}, ''), '1') AS REAL))`;
}

const hasPledgeAmount = sql`COALESCE(${q(contacts.pledgeAmount)}, 0) > 0`;

function firstOfMonth(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number);
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, lastDay));
  return target.toISOString().slice(0, 10);
}

/** The `donation_date` range that the `donation` filter reads; none when that filter is absent or blank. */
function donationDateRange(all: Record<string, ParamValue>): TimeRange | undefined {
  return isBlankValue(all.donation_date) ? undefined : pickerDateRange("donation_date", all.donation_date);
}

export const givingFilters: Record<string, FilterDef> = {
  /**
   * none: no gift; one: at least one gift; first / last: the contact's first (or latest) gift falls in the
   * `donation_date` range (without that range: at least one gift). Several choices must all hold.
   */
  donation: (value, _ctx, all) => {
    const choices = listValue(value);
    const range = donationDateRange(all);
    return and(
      choices.map((choice) => {
        if (choice === "none") return sql`NOT ${hasContactDonation()}`;
        if (choice === "one") return hasContactDonation();
        if (choice === "first") return range ? dateInRange(firstDonationDate, range) : hasContactDonation();
        if (choice === "last") return range ? dateInRange(lastDonationDate, range) : hasContactDonation();
        return undefined;
      }),
    );
  },
  /** A gift of exactly one of these amounts. */
  donation_amount: (value, _ctx) => {
    const amounts = moneyList("donation_amount", value);
    return amounts.length === 0 ? undefined : hasContactDonation(inList(q(donations.amount), amounts.map(Number)));
  },
  /** A gift between min and max, both included. */
  donation_amount_range: (value) => {
    const { min, max } = moneyRange("donation_amount_range", value);
    if (min === undefined && max === undefined) return undefined;
    return hasContactDonation(
      and([
        min === undefined ? undefined : sql`${q(donations.amount)} >= ${Number(min)}`,
        max === undefined ? undefined : sql`${q(donations.amount)} <= ${Number(max)}`,
      ]),
    );
  },
  /** A gift on a day of the range. */
  donation_date: (value) => hasContactDonation(dateInRange(donationDate, pickerDateRange("donation_date", value))),
  /** A gift to one of these designation accounts. */
  designation_account_id: (value) => {
    const ids = listValue(value).map((id) => id.toLowerCase());
    return ids.length === 0 ? undefined : hasContactDonation(inList(notIndexed(donations.designationAccountId), ids));
  },
  /** A donor account of the contact held at one of these organizations. */
  organization_id: (value) => {
    const ids = listValue(value).map((id) => id.toLowerCase());
    if (ids.length === 0) return undefined;
    return sql`EXISTS (SELECT 1 FROM ${contactDonorAccounts} JOIN ${donorAccounts} ON ${q(donorAccounts.id)} = ${q(contactDonorAccounts.donorAccountId)} WHERE ${q(contactDonorAccounts.contactId)} = ${q(contacts.id)} AND ${inList(q(donorAccounts.organizationId), ids)})`;
  },
  /** A contact with a pledge whose first gift falls in the range. */
  started_giving_range: (value) => {
    const range = parseDateRange("started_giving_range", value);
    return sql`${hasPledgeAmount} AND ${dateInRange(firstDonationDate, range)}`;
  },
  /**
   * A regular giver who stopped: the latest gift falls in the range, and at least three gifts were given in the
   * ten months before the range ends.
   */
  stopped_giving_range: (value) => {
    const range = parseDateRange("stopped_giving_range", value);
    const lastDay = addDays(range.untilDate, -1);
    const recent = sql`${donationDate} >= ${addMonths(lastDay, -10)} AND ${donationDate} < ${range.untilDate}`;
    return sql`${dateInRange(lastDonationDate, range)} AND (${selectFromContactDonations(sql`count(*)`, recent)}) >= ${REGULAR_GIFTS}`;
  },
  /**
   * A contact with a pledge who gave more than pledged over the whole calendar months the range touches: the
   * gifts of those months exceed the monthly pledge times the number of months.
   */
  gave_more_than_pledged_range: (value) => {
    const range = parseDateRange("gave_more_than_pledged_range", value);
    const start = firstOfMonth(range.fromDate);
    const end = addMonths(firstOfMonth(addDays(range.untilDate, -1)), 1);
    const months = (Number(end.slice(0, 4)) - Number(start.slice(0, 4))) * 12 + Number(end.slice(5, 7)) - Number(start.slice(5, 7));
    const given = sql`(${selectFromContactDonations(sql`COALESCE(SUM(${q(donations.amount)}), 0)`, sql`${donationDate} >= ${start} AND ${donationDate} < ${end}`)})`;
    return sql`${hasPledgeAmount} AND ${given} > ${monthlyAmount(q(contacts.pledgeAmount), q(contacts.pledgeFrequency))} * ${months}`;
  },
  /**
   * The monthly pledge grew during the range: the latest status log recorded in the range shows a larger
   * monthly pledge than the latest one before the range (or, without one, the earliest in the range).
   */
  pledge_amount_increased_range: (value) => {
    const range = parseDateRange("pledge_amount_increased_range", value);
    const logs = partnerStatusLogs;
    const monthly = monthlyAmount(q(logs.pledgeAmount), q(logs.pledgeFrequency));
    const ofContact = sql`${q(logs.contactId)} = ${q(contacts.id)}`;
    const inRange = sql`${ofContact} AND ${dateInRange(q(logs.recordedOn), range)}`;
    const pick = (where: SQL, order: SQL) => sql`(SELECT ${monthly} FROM ${logs} WHERE ${where} ORDER BY ${order} LIMIT 1)`;
    const latestInRange = pick(inRange, sql`${q(logs.recordedOn)} DESC, ${q(logs.createdAt)} DESC`);
    const before = pick(sql`${ofContact} AND ${q(logs.recordedOn)} < ${range.fromDate}`, sql`${q(logs.recordedOn)} DESC, ${q(logs.createdAt)} DESC`);
    const earliestInRange = pick(inRange, sql`${q(logs.recordedOn)} ASC, ${q(logs.createdAt)} ASC`);
    return sql`${latestInRange} > COALESCE(${before}, ${earliestInRange})`;
  },
  /** One of these pledge amounts. */
  pledge_amount: (value) => {
    const amounts = moneyList("pledge_amount", value);
    return amounts.length === 0 ? undefined : inList(q(contacts.pledgeAmount), amounts.map(Number));
  },
};
