/**
 * GET /api/v2/contacts/analytics (`contact_analytics`; the web app sends it as POST with X-HTTP-Method-Override:
 * GET): the home page's commitments (first gifts not come, partners late) and this week's birthdays and
 * anniversaries. Counts are sums of kept rows (drizzle/kept-sums.ts); the week's days are a range of the
 * `person_days` index: each reads what it answers, not the lists' contacts.
 */
import { sql, type SQL } from "drizzle-orm";
import { accountLists, keptSums, personDays } from "../../../drizzle/schema";
import { HIDDEN_STATUSES } from "../../constants";
import { idArray, inList, noneOf, or } from "../../db/sql";
import { computed } from "../../engine/attributes";
import { defineResource, type RequestContext } from "../../engine/define";
import { manyBy } from "../../engine/relationships";
import { summaryLists, summaryScope, type RelationshipOrder } from "../../read/summaries";
import { addDays } from "../../jsonapi/time";
import { viewerDays } from "../tasks/filters";

/** The rows of a kept kind over the summary's lists where `range` holds, summed. */
const keptRows = (kind: string, ctx: RequestContext, range: SQL = sql`1`) =>
  sql`(SELECT coalesce(sum(k.rows), 0) FROM ${keptSums} AS k WHERE k.kind = ${kind} AND ${inList(sql`k.owner_id`, summaryLists(ctx))} AND ${range})`;

const count = (select: (ctx: RequestContext) => SQL) => ({ ...computed(select), schema: { type: "integer" } });

/**
 * Financial partners whose next gift was due between `fromDaysAgo` and `toDaysAgo` days before the user's today
 * (no lower end when undefined). As the events' rule has it, a partner is late once a due gift is more than 30
 * days overdue, and not while their pledge is under 30 days old.
 */
function partnersDue(ctx: RequestContext, toDaysAgo: number, fromDaysAgo?: number): SQL {
  const today = viewerDays(ctx).today;
  const last = addDays(today, -toDaysAgo);
  const pledgeOldEnough = sql`(k.key2 = '' OR k.key2 < ${addDays(today, -30)})`;
  if (fromDaysAgo !== undefined) {
    return keptRows("partners_due_by_day", ctx, sql`k.key1 >= ${addDays(today, -fromDaysAgo)} AND k.key1 <= ${last} AND ${pledgeOldEnough}`);
  }
  // Open below: the months before the last day's month, then that month's days up to it.
  const month = last.slice(0, 7);
  return sql`${keptRows("partners_due_by_month", ctx, sql`k.key1 < ${month} AND ${pledgeOldEnough}`)}
    + ${keptRows("partners_due_by_day", ctx, sql`k.key1 >= ${month} AND k.key1 <= ${last} AND ${pledgeOldEnough}`)}`;
}

/** The user's week, Monday to Sunday, as `MM-DD` ranges (two when it spans the new year). */
function thisWeek(ctx: RequestContext): Array<[string, string]> {
  const today = viewerDays(ctx).today;
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
  const [monday, sunday] = [addDays(today, -weekday), addDays(today, 6 - weekday)];
  const [from, to] = [monday.slice(5), sunday.slice(5)];
  return from <= to ? [[from, to]] : [[from, "12-31"], ["01-01", to]];
}

/**
 * The people of the lists' active contacts, alive, with a `kind` day this week, by day and then name: read from the
 * `person_days` index alone (each day carries its person's name, contact and whether deceased, and the contact's
 * status), a row per person.
 */
function peopleWithDayThisWeek(kind: "birthday" | "anniversary", ctx: RequestContext, columns: SQL): SQL {
  const inWeek = or(thisWeek(ctx).map(([from, to]) => sql`d.month_day BETWEEN ${from} AND ${to}`));
  return sql`SELECT ${columns} FROM ${personDays} AS d
    WHERE ${inList(sql`d.account_list_id`, summaryLists(ctx))} AND d.kind = ${kind} AND ${inWeek}
      AND d.deceased = 0 AND ${noneOf(sql`COALESCE(d.contact_status, '')`, HIDDEN_STATUSES)}
    ORDER BY d.month_day, d.first_name, d.person_id`;
}

/** Anniversaries: each contact once, by its first day of the week, then id. */
const anniversaryContacts = (ctx: RequestContext, columns: SQL) =>
  sql`SELECT ${columns} FROM (${peopleWithDayThisWeek("anniversary", ctx, sql`d.contact_id AS id, d.month_day AS day`)}) GROUP BY id ORDER BY min(day), id`;

/** The order keys of the week's people and contacts, for the parts of several databases to be put in that order. */
export const CONTACT_ANALYTICS_ORDERS: Record<string, RelationshipOrder> = {
  birthdays_this_week: (ctx) => peopleWithDayThisWeek("birthday", ctx, sql`d.person_id AS id, d.month_day AS day, d.first_name AS first_name, d.person_id AS tie`),
  anniversaries_this_week: (ctx) => anniversaryContacts(ctx, sql`id, min(day) AS first_day, id AS tie`),
};

export const contactAnalyticsResource = defineResource({
  type: "contact_analytics",
  model: "AccountList",
  table: accountLists,
  scope: summaryScope,
  scopeHidesRows: true,
  attributes: {
    first_gift_not_received_count: count((ctx) => keptRows("awaiting_first_gift", ctx)),
    partners_30_days_late_count: count((ctx) => partnersDue(ctx, 31, 60)),
    partners_60_days_late_count: count((ctx) => partnersDue(ctx, 61, 90)),
    partners_90_days_late_count: count((ctx) => partnersDue(ctx, 91)),
  },
  relationships: {
    // People, each with their `parent_contact`.
    birthdays_this_week: manyBy("people", (ctx) => idArray(peopleWithDayThisWeek("birthday", ctx, sql`d.person_id AS id`))),
    // Contacts, once each however many of their people have the day.
    anniversaries_this_week: manyBy("contacts", (ctx) => idArray(anniversaryContacts(ctx, sql`id`))),
  },
});
