/**
 * The contacts' filter panel (`GET /api/v2/contacts/filters`): the filters the original advertises, in its order
 * (the order is each item's priority and id), with their titles, kinds and options. The original's "Increase Gift
 * Recommendation" is left out: the service keeps no recommendations to filter by.
 */
import { sql, type SQL } from "drizzle-orm";
import { addressValuesKind } from "../../../drizzle/kept-sums";
import { accountLists, appeals, contacts, designationAccounts, keptSums, tasks } from "../../../drizzle/schema";
import { ACTIVITIES, LIKELY_TO_GIVE, PLEDGE_FREQUENCIES, STATUSES } from "../../constants";
import { formatMoney } from "../../decimal";
import { inList, q } from "../../db/sql";
import type { RequestContext } from "../../engine/define";
import { distinctValues, type PanelFilter, type PanelOption, type SharedRead } from "../../read/filter-panels";
import { addDays } from "../../jsonapi/time";
import { viewerDays } from "../tasks/filters";

const NONE: PanelOption = { name: "-- None --", id: "none" };
const YES_NO: PanelOption[] = [
  { name: "Yes", id: "Yes" },
  { name: "No", id: "No" },
];
const money = (value: unknown) => formatMoney(Number(value)) ?? "";
/** Amounts in the order of their value (money units), not of their text. */
const byValue = (row: Record<string, unknown>) => [Number(row.id)];
const named = (values: readonly string[]): PanelOption[] => values.map((value) => ({ name: value, id: value }));
/** Options as `[id, name]` pairs. */
const choices = (pairs: Array<[string, string]>): PanelOption[] => pairs.map(([id, name]) => ({ name, id }));

/** Every location filter's values of one list, each as (column, id): the kept values of its addresses, a row each. */
const ADDRESS_VALUES: SharedRead = {
  key: "addresses",
  read: (list) => sql`SELECT substr(k.kind, ${addressValuesKind("").length + 1}) AS "column", k.key1 AS id FROM ${keptSums} AS k
    WHERE ${inList(sql`k.kind`, LOCATION_COLUMNS.map(addressValuesKind))} AND k.owner_id = ${list}`,
};

const location = (name: string, title: string, column: string): PanelFilter => ({
  name,
  title,
  type: "multiselect",
  parent: "Contact Location",
  options: [NONE],
  shared: { read: ADDRESS_VALUES, pick: column },
});

const LOCATION_COLUMNS = ["city", "state", "country", "region", "metro_area"];

const contactInfo = (name: string, title: string): PanelFilter => ({ name, title, type: "radio", parent: "Contact Information", options: YES_NO });

/** Date ranges as the date pickers offer them, each as the value the filter takes. */
function ranges(ctx: RequestContext, named: Array<[string, number, number]>): PanelOption[] {
  const today = viewerDays(ctx).today;
  return named.map(([name, from, to]) => {
    const [start, end] = [addDays(today, from), addDays(today, to)];
    return { name, id: `${start}..${end}`, start, end };
  });
}

/** Relative ranges of months: this month, last month, ... (day offsets from the first of this month). */
function monthStart(ctx: RequestContext, monthsBack: number): string {
  const today = viewerDays(ctx).today;
  const date = new Date(`${today.slice(0, 8)}01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() - monthsBack);
  return date.toISOString().slice(0, 10);
}

function monthRanges(ctx: RequestContext): PanelOption[] {
  const range = (name: string, start: string, end: string) => ({ name, id: `${start}..${end}`, start, end });
  const today = viewerDays(ctx).today;
  return [
    range("Last 30 Days", addDays(today, -30), today),
    range("This Month", monthStart(ctx, 0), today),
    range("Last Month", monthStart(ctx, 1), addDays(monthStart(ctx, 0), -1)),
    range("Last Two Months", monthStart(ctx, 2), addDays(monthStart(ctx, 0), -1)),
    range("Last Three Months", monthStart(ctx, 3), addDays(monthStart(ctx, 0), -1)),
    range("Last Year", `${Number(today.slice(0, 4)) - 1}-01-01`, `${Number(today.slice(0, 4)) - 1}-12-31`),
    range("This Year", `${today.slice(0, 4)}-01-01`, today),
  ];
}

/** Task start ranges around today, as the original offers them. */
export const dueDateRanges = (ctx: RequestContext) =>
  ranges(ctx, [
    ["Yesterday", -1, -1],
    ["Today", 0, 0],
    ["Tomorrow", 1, 1],
    ["Next 7 Days", 0, 7],
    ["Next 30 Days", 0, 30],
    ["Overdue", -3650, -1],
  ]);

/** The activity types the list's tasks use. */
export const usedActivities = (list: string): SQL =>
  sql`SELECT value AS id FROM json_each(${JSON.stringify(ACTIVITIES)}) WHERE EXISTS (SELECT 1 FROM ${tasks} WHERE ${q(tasks.accountListId)} = ${list} AND ${q(tasks.activityType)} = value)`;

/** Activities in the order of the constants. */
const inActivityOrder = (row: Record<string, unknown>) => [ACTIVITIES.indexOf(String(row.id) as (typeof ACTIVITIES)[number])];

export const CONTACT_PANEL: PanelFilter[] = [
  {
    name: "status",
    title: "Status",
    type: "multiselect",
    defaultSelection: "active, null",
    noAnyOption: true,
    options: [{ name: "-- All Active --", id: "active" }, { name: "-- All Hidden --", id: "hidden" }, { name: "-- None --", id: "null" }, ...named(STATUSES)],
  },
  { name: "pledge_received", title: "Commitment Received", type: "radio", parent: "Commitment Details", options: [{ name: "Received", id: "true" }, { name: "Not Received", id: "false" }] },
  {
    name: "pledge_amount",
    title: "Commitment Amount",
    type: "multiselect",
    parent: "Commitment Details",
    read: (list) => distinctValues(contacts.pledgeAmount, contacts.accountListId, list, true),
    format: money,
    order: byValue,
  },
  {
    name: "pledge_currency",
    title: "Commitment Currency",
    type: "multiselect",
    parent: "Commitment Details",
    read: (list) => sql`SELECT ${q(accountLists.currency)} AS id FROM ${accountLists} WHERE ${q(accountLists.id)} = ${list} AND ${q(accountLists.currency)} > ''
      UNION SELECT upper(id) FROM (${distinctValues(contacts.pledgeCurrency, contacts.accountListId, list)})`,
    format: (value) => String(value).toUpperCase(),
  },
  {
    name: "pledge_frequency",
    title: "Commitment Frequency",
    type: "multiselect",
    parent: "Commitment Details",
    options: Object.entries(PLEDGE_FREQUENCIES).map(([id, name]) => ({ name, id })),
  },
  {
    name: "pledge_late_by",
    title: "Late By",
    type: "radio",
    parent: "Commitment Details",
    options: choices([
      ["0_30", "Less than 30 days late"],
      ["30_60", "More than 30 days late"],
      ["60_90", "More than 60 days late"],
      ["90", "More than 90 days late"],
    ]),
  },
  {
    name: "newsletter",
    title: "Newsletter Recipients",
    type: "radio",
    noAnyOption: true,
    options: choices([
      ["no_value", "Nothing Selected"],
      ["none", "None"],
      ["all", "All"],
      ["address", "Physical and Both"],
      ["email", "Email and Both"],
      ["address_only", "Physical Only"],
      ["email_only", "Email Only"],
      ["both", "Both Only"],
    ]),
  },
  {
    name: "referrer",
    title: "Referrer",
    type: "multiselect",
    options: [NONE, { name: "-- Has referrer --", id: "any" }],
    // The list's kept referrers with their names, a row each (ordered by name with the panel's other options).
    read: (list) => sql`SELECT k.key1 AS id, k.key2 AS name FROM ${keptSums} AS k WHERE k.kind = 'referrers' AND k.owner_id = ${list}`,
  },
  { name: "likely", title: "Likely To Give", type: "multiselect", parent: "Contact Details", options: [NONE, ...named(LIKELY_TO_GIVE)] },
  { name: "contact_type", title: "Type", type: "multiselect", parent: "Contact Details", options: [{ name: "Person", id: "person" }, { name: "Company", id: "company" }] },
  {
    name: "primary_address",
    title: "Address Type",
    type: "multiselect",
    parent: "Contact Location",
    defaultSelection: "primary, null",
    noAnyOption: true,
    options: [{ name: "Primary", id: "primary" }, { name: "Active", id: "active" }, { name: "Inactive", id: "inactive" }, { name: "All", id: "null" }],
  },
  location("city", "City", "city"),
  location("state", "State", "state"),
  location("country", "Country", "country"),
  { name: "address_historic", title: "Address No Longer Valid", type: "single_checkbox", parent: "Contact Location", defaultSelection: false },
  location("metro_area", "Metro Area", "metro_area"),
  location("region", "Region", "region"),
  contactInfo("contact_info_email", "Email"),
  contactInfo("contact_info_phone", "Home Phone"),
  contactInfo("contact_info_mobile", "Mobile Phone"),
  contactInfo("contact_info_work_phone", "Work Phone"),
  contactInfo("contact_info_addr", "Address"),
  contactInfo("contact_info_facebook", "Facebook Profile"),
  { name: "church", title: "Church", type: "multiselect", parent: "Contact Details", options: [NONE], read: (list) => distinctValues(contacts.churchName, contacts.accountListId, list) },
  { name: "related_task_action", title: "Action", type: "multiselect", parent: "Tasks", options: [NONE], read: usedActivities, order: inActivityOrder },
  {
    name: "appeal",
    title: "Appeal",
    type: "multiselect",
    options: [{ name: "-- Do not ask --", id: "no_appeals" }],
    read: (list) => sql`SELECT ${q(appeals.id)} AS id, ${q(appeals.name)} AS name FROM ${appeals} WHERE ${q(appeals.accountListId)} = ${list} ORDER BY ${q(appeals.name)}`,
  },
  { name: "timezone", title: "Timezone", type: "multiselect", read: (list) => distinctValues(contacts.timezone, contacts.accountListId, list) },
  { name: "locale", title: "Language", type: "multiselect", parent: "Contact Details", read: (list) => distinctValues(contacts.locale, contacts.accountListId, list) },
  {
    name: "donation",
    title: "Gift Options",
    type: "multiselect",
    parent: "Gift Details",
    options: [{ name: "No Gifts", id: "none" }, { name: "One or More Gifts", id: "one" }, { name: "First Gift", id: "first" }, { name: "Last Gift", id: "last" }],
  },
  {
    name: "donation_amount",
    title: "Exact Gift Amount",
    type: "multiselect",
    parent: "Gift Details",
    // The list's kept gift amounts, a row each (kept as text: ordered by value).
    read: (list) => sql`SELECT k.key1 AS id FROM ${keptSums} AS k WHERE k.kind = 'donation_amounts' AND k.owner_id = ${list}`,
    format: money,
    order: byValue,
  },
  {
    name: "donation_amount_range",
    title: "Gift Amount Range",
    type: "text",
    parent: "Gift Details",
    options: [{ name: "Gift Amount Higher Than or Equal To", id: "min", placeholder: 0 }, { name: "Gift Amount Less Than or Equal To", id: "max" }],
  },
  { name: "donation_date", title: "Gift Date", type: "daterange", parent: "Gift Details", options: monthRanges },
  {
    name: "designation_account_id",
    title: "Designation Acccount",
    type: "multiselect",
    parent: "Gift Details",
    read: (list) => sql`SELECT ${q(designationAccounts.id)} AS id, trim(COALESCE(${q(designationAccounts.name)}, '') || COALESCE(' (' || ${q(designationAccounts.designationNumber)} || ')', '')) AS name
      FROM ${designationAccounts} WHERE ${q(designationAccounts.accountListId)} = ${list}`,
  },
  { name: "tasks_all_completed", title: "No Incomplete Tasks", type: "single_checkbox", parent: "Tasks", defaultSelection: false },
  { name: "task_due_date", title: "Due Date", type: "daterange", parent: "Tasks", options: dueDateRanges },
  { name: "notes", title: "Notes", type: "text", parent: "Search Notes", options: [{ name: "Search note contents", id: "wildcard_note_search" }] },
];
