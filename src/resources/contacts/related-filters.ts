/**
 * Contact filters on the records around a contact: addresses, people and their contact details, appeals and
 * pledges, referrals and tasks. Each is one EXISTS subquery served by the child table's contact (or person)
 * index.
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  addresses,
  appealContacts,
  appealExcludedContacts,
  contactReferrals,
  contacts,
  emailAddresses,
  facebookAccounts,
  people,
  phoneNumbers,
  pledges,
  tasks,
} from "../../../drizzle/schema";
import { and, candidateSource, inList, notIndexed, or, q, timestampInRange } from "../../db/sql";
import type { FilterDef } from "../../engine/define";
import { booleanValue, listValue, parseDateRange } from "../../jsonapi/filter-values";
import type { ParamValue } from "../../jsonapi/params";
import { hasContactPerson, hasContactTask, isBlank, isOpenTask, personIdsOfContact } from "./contact-sql";
import { latLngBox, monthDayWindow, pickerDateRange, yesNo } from "./filter-values";

/** Choices with `none` standing for "no value": the named values, or blank when `none` is among them. */
export function splitNone(value: ParamValue): { names: string[]; none: boolean } {
  const values = listValue(value);
  return { names: values.filter((v) => v !== "none"), none: values.includes("none") };
}

function hasAddress(condition: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM ${addresses} WHERE ${q(addresses.contactId)} = ${q(contacts.id)} AND ${condition})`;
}

/**
 * An address matching a condition an index serves (place names): written as `contacts.id IN (uncorrelated
 * subquery)` so that SQLite evaluates it once and, with table statistics, starts from it when it is the most
 * selective condition (a rare city) instead of probing every contact of the list. Conditions no index serves
 * keep the correlated form: uncorrelated, they would read the whole table, every list's rows.
 */
function hasAddressIndexed(condition: SQL): SQL {
  return candidateSource(sql`${q(contacts.id)} IN (SELECT ${q(addresses.contactId)} FROM ${addresses} WHERE ${condition})`);
}

/** Address filters look at current addresses, or at past ones when `address_historic=true` is also given. */
function historicWanted(all: Record<string, ParamValue>): number {
  return booleanValue(all.address_historic) === true ? 1 : 0;
}

const currentAddress = sql`${q(addresses.historic)} = 0`;

/** city, state, ...: an address in one of these places; `none`: no address that names one. */
function placeFilter(column: SQLiteColumn): FilterDef {
  return (value, _ctx, all) => {
    const { names, none } = splitNone(value);
    const historic = sql`${q(addresses.historic)} = ${historicWanted(all)}`;
    const named = names.length > 0 ? hasAddressIndexed(sql`${inList(q(column), names)} AND ${historic}`) : undefined;
    if (!none) return named;
    return or([named, sql`NOT ${hasAddress(sql`${historic} AND NOT ${isBlank(q(column))}`)}`]);
  };
}

function contactDetail(table: typeof emailAddresses | typeof phoneNumbers | typeof facebookAccounts, condition?: SQL): SQL {
  const extra = condition ? sql` AND ${condition}` : sql``;
  return sql`EXISTS (SELECT 1 FROM ${table} WHERE ${q(table.personId)} IN (${personIdsOfContact})${extra})`;
}

/** Yes: the contact has it; No: it has not. */
function yesNoFilter(condition: SQL): FilterDef {
  return (value) => {
    const wanted = yesNo(value);
    if (wanted === undefined) return undefined;
    return wanted ? condition : sql`NOT ${condition}`;
  };
}

function currentPhone(location: string): SQL {
  return contactDetail(phoneNumbers, sql`${q(phoneNumbers.historic)} = 0 AND lower(${q(phoneNumbers.location)}) = ${location}`);
}

/** birthday / anniversary: a person whose day falls in the range, whatever the year. */
function monthDayFilter(name: string, month: SQLiteColumn, day: SQLiteColumn): FilterDef {
  return (value) => {
    const window = monthDayWindow(parseDateRange(name, value));
    const monthDay = sql`(${q(month)} * 100 + ${q(day)})`;
    const known = sql`${q(month)} IS NOT NULL AND ${q(day)} IS NOT NULL`;
    if (window.all) return hasContactPerson(known);
    const inWindow =
      window.from <= window.to
        ? sql`${monthDay} BETWEEN ${window.from} AND ${window.to}`
        : sql`(${monthDay} >= ${window.from} OR ${monthDay} <= ${window.to})`;
    return hasContactPerson(sql`${known} AND ${inWindow}`);
  };
}

/** Pledge states of the `pledge` filter. */
const PLEDGE_STATES: Record<string, string> = {
  completed: "processed",
  pending: "received_not_processed",
  outstanding: "not_received",
};

const APPEAL_PLEDGE_STATUSES = ["not_received", "received_not_processed", "processed"];

function appealIds(all: Record<string, ParamValue>): string[] {
  return listValue(all.appeal)
    .filter((id) => id !== "no_appeals")
    .map((id) => id.toLowerCase());
}

function hasPledge(condition: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM ${pledges} WHERE ${q(pledges.contactId)} = ${q(contacts.id)} AND ${condition})`;
}

/** A contact in one of the appeals, in one of the `appeal_status` states when that is given. */
function inAppeals(ids: string[], statuses: string[]): SQL {
  const asked = sql`EXISTS (SELECT 1 FROM ${appealContacts} WHERE ${q(appealContacts.contactId)} = ${q(contacts.id)} AND ${inList(q(appealContacts.appealId), ids)})`;
  if (statuses.length === 0) return asked;
  const parts = statuses.map((status) => {
    if (status === "excluded") {
      return sql`EXISTS (SELECT 1 FROM ${appealExcludedContacts} WHERE ${q(appealExcludedContacts.contactId)} = ${q(contacts.id)} AND ${inList(q(appealExcludedContacts.appealId), ids)})`;
    }
    if (status === "asked") {
      // Asked and not (yet) pledged in that same appeal.
      return sql`EXISTS (SELECT 1 FROM ${appealContacts} WHERE ${q(appealContacts.contactId)} = ${q(contacts.id)} AND ${inList(q(appealContacts.appealId), ids)} AND NOT EXISTS (SELECT 1 FROM ${pledges} WHERE ${q(pledges.contactId)} = ${q(contacts.id)} AND ${q(pledges.appealId)} = ${q(appealContacts.appealId)}))`;
    }
    if (APPEAL_PLEDGE_STATUSES.includes(status)) return hasPledge(sql`${inList(q(pledges.appealId), ids)} AND ${q(pledges.status)} = ${status}`);
    return sql`0`;
  });
  return or(parts)!;
}

export const relatedFilters: Record<string, FilterDef> = {
  city: placeFilter(addresses.city),
  state: placeFilter(addresses.state),
  region: placeFilter(addresses.region),
  metro_area: placeFilter(addresses.metroArea),
  country: placeFilter(addresses.country),
  /** true: an address no longer in use; false: a current one. Also switches the place filters to past addresses. */
  address_historic: (value) => {
    const historic = booleanValue(value);
    return historic === undefined ? undefined : hasAddress(sql`${q(addresses.historic)} = ${historic ? 1 : 0}`);
  },
  /** false: an address marked invalid, or more than one current primary mailing address. Other values: no filter. */
  address_valid: (value) => {
    if (booleanValue(value) !== false) return undefined;
    const primaries = sql`(SELECT count(*) FROM ${addresses} WHERE ${q(addresses.contactId)} = ${q(contacts.id)} AND ${currentAddress} AND ${q(addresses.primaryMailingAddress)} = 1)`;
    return or([hasAddress(sql`${q(addresses.valid)} = 0`), sql`${primaries} > 1`]);
  },
  /** A current address inside the map box (a box whose west edge is east of its east edge crosses the date line). */
  address_lat_lng: (value) => {
    const box = latLngBox("address_lat_lng", value);
    const lat = sql`${q(addresses.latitude)} BETWEEN ${Math.min(box.south, box.north)} AND ${Math.max(box.south, box.north)}`;
    const lng =
      box.west <= box.east
        ? sql`${q(addresses.longitude)} BETWEEN ${box.west} AND ${box.east}`
        : sql`(${q(addresses.longitude)} >= ${box.west} OR ${q(addresses.longitude)} <= ${box.east})`;
    return hasAddress(sql`${currentAddress} AND ${lat} AND ${lng}`);
  },
  /** primary: a current primary mailing address; active: a current address; inactive: a past one; null: any. */
  primary_address: (value) => {
    const choices = listValue(value);
    if (choices.length === 0 || choices.includes("null")) return undefined;
    return or(
      choices.map((choice) => {
        if (choice === "primary") return hasAddress(sql`${currentAddress} AND ${q(addresses.primaryMailingAddress)} = 1`);
        if (choice === "active") return hasAddress(currentAddress);
        if (choice === "inactive") return hasAddress(sql`${q(addresses.historic)} = 1`);
        return sql`0`;
      }),
    );
  },
  contact_info_addr: yesNoFilter(hasAddress(currentAddress)),
  contact_info_email: yesNoFilter(contactDetail(emailAddresses, sql`${q(emailAddresses.historic)} = 0`)),
  contact_info_facebook: yesNoFilter(contactDetail(facebookAccounts)),
  contact_info_mobile: yesNoFilter(currentPhone("mobile")),
  contact_info_phone: yesNoFilter(currentPhone("home")),
  contact_info_work_phone: yesNoFilter(currentPhone("work")),
  /** Yes: someone of the contact opted out of the e-mail newsletter; No: nobody did. */
  opt_out: yesNoFilter(hasContactPerson(sql`${q(people.optoutEnewsletter)} = 1`)),
  alma_mater: (value) => {
    const { names, none } = splitNone(value);
    return or([
      names.length > 0 ? hasContactPerson(inList(notIndexed(people.almaMater), names)) : undefined,
      none ? sql`NOT ${hasContactPerson(sql`NOT ${isBlank(q(people.almaMater))}`)}` : undefined,
    ]);
  },
  birthday: monthDayFilter("birthday", people.birthdayMonth, people.birthdayDay),
  anniversary: monthDayFilter("anniversary", people.anniversaryMonth, people.anniversaryDay),
  /** Appeal ids (asked in them, or in the `appeal_status` state) and/or `no_appeals` (the contact asks not to be asked). */
  appeal: (value, _ctx, all) => {
    const choices = listValue(value);
    const ids = appealIds(all);
    const statuses = listValue(all.appeal_status);
    return and([
      choices.includes("no_appeals") ? sql`${q(contacts.noAppeals)} = 1` : undefined,
      ids.length > 0 ? inAppeals(ids, statuses) : undefined,
    ]);
  },
  /** A modifier of `appeal`. */
  appeal_status: () => undefined,
  /**
   * completed: a processed pledge; pending: received but not processed; outstanding: not received. Limited to the
   * `appeal` filter's appeals when that is given.
   */
  pledge: (value, _ctx, all) => {
    const states = listValue(value).map((choice) => PLEDGE_STATES[choice]).filter(Boolean);
    if (listValue(value).length === 0) return undefined;
    if (states.length === 0) return sql`0`;
    const ids = appealIds(all);
    return hasPledge(and([inList(q(pledges.status), states), ids.length > 0 ? inList(q(pledges.appealId), ids) : undefined])!);
  },
  /** none: nobody referred the contact; any: someone did; ids: one of these contacts did. */
  referrer: (value) => {
    const choices = listValue(value);
    const referredBy = (condition?: SQL) =>
      sql`EXISTS (SELECT 1 FROM ${contactReferrals} WHERE ${q(contactReferrals.referredToId)} = ${q(contacts.id)}${condition ? sql` AND ${condition}` : sql``})`;
    const ids = choices.filter((c) => c !== "none" && c !== "any").map((id) => id.toLowerCase());
    return or([
      choices.includes("none") ? sql`NOT ${referredBy()}` : undefined,
      choices.includes("any") ? referredBy() : undefined,
      ids.length > 0 ? referredBy(inList(q(contactReferrals.referredById), ids)) : undefined,
    ]);
  },
  referrer_ids: (value) => {
    const ids = listValue(value).map((id) => id.toLowerCase());
    if (ids.length === 0) return undefined;
    return sql`EXISTS (SELECT 1 FROM ${contactReferrals} WHERE ${q(contactReferrals.referredToId)} = ${q(contacts.id)} AND ${inList(q(contactReferrals.referredById), ids)})`;
  },
  /** none (or null): no uncompleted task; activity types: an uncompleted task of one of them. */
  related_task_action: (value) => {
    const choices = listValue(value);
    if (choices.length === 0) return undefined;
    const types = choices.filter((c) => c !== "none" && c !== "null");
    return or([
      types.length < choices.length ? sql`NOT ${hasContactTask(isOpenTask)}` : undefined,
      types.length > 0 ? hasContactTask(sql`${isOpenTask} AND ${inList(q(tasks.activityType), types)}`) : undefined,
    ]);
  },
  /** true: no uncompleted task. */
  tasks_all_completed: (value) => (booleanValue(value) === true ? sql`NOT ${hasContactTask(isOpenTask)}` : undefined),
  /** A task (done or not) starting in the range. */
  task_due_date: (value) => hasContactTask(timestampInRange(q(tasks.startAt), pickerDateRange("task_due_date", value))),
};
