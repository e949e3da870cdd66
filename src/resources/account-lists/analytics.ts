/**
 * GET /api/v2/account_lists/<id>/analytics (`account_list_analytics`): what the list did in a period, counted as
 * the original counts it: its tasks completed in the period by activity, result and next action, and its contacts
 * open to an appointment and referred. The period is `filter[date_range]`, or `filter[start_date]` and
 * `filter[end_date]`; by default the month up to now.
 */
import { sql, type SQL } from "drizzle-orm";
import { COUNTED_ACTIVITIES } from "../../../drizzle/kept-sums";
import { accountLists, keptSums, listRowCounts, tasks } from "../../../drizzle/schema";
import { inList } from "../../db/sql";
import { defineResource, type AttributeDef, type RequestContext, type SharedSelect } from "../../engine/define";
import { summaryLists, summaryScope } from "../../read/summaries";
import { dateRangeError, parseDateRange, textValue } from "../../jsonapi/filter-values";
import { TIMESTAMP } from "../../jsonapi/formats";
import { rawFilters } from "../../jsonapi/query";
import { addDays, addMonths, parseTimestamp } from "../../jsonapi/time";

const DONE = ["Completed", "Done"];

/** The period asked for, as [from, until) in UTC timestamps; a date as an end covers its whole day. */
function period(ctx: RequestContext): { from: string; until: string } {
  const filters = rawFilters(ctx.params);
  if (filters.date_range !== undefined) return parseDateRange("date_range", filters.date_range);
  const bound = (name: "start_date" | "end_date", fallback: string) => {
    if (filters[name] === undefined) return fallback;
    const text = textValue(filters[name]).trim();
    const value = parseTimestamp(text);
    if (!value) throw dateRangeError(name);
    if (name === "start_date") return value;
    return DATE_ONLY.test(text) ? addDays(text, 1) + "T00:00:00Z" : new Date(Date.parse(value) + 1000).toISOString().slice(0, 19) + "Z";
  };
  return { from: bound("start_date", addMonths(ctx.now.slice(0, 10), -1) + ctx.now.slice(10)), until: bound("end_date", ctx.now) };
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The answered end: the last second of the period. */
const lastSecond = (until: string) => new Date(Date.parse(until) - 1000).toISOString().slice(0, 19) + "Z";

/** Completed tasks of the period of these activities, with one of these results, or with this next action. */
interface TaskCount {
  activities: string[];
  results?: string[];
  nextAction?: string;
}

const TASK_COUNTS: Record<string, Record<string, TaskCount>> = {
  appointments: { completed: { activities: ["Appointment"], results: DONE } },
  correspondence: {
    precall: { activities: ["Pre Call Letter"], results: DONE },
    reminders: { activities: ["Reminder Letter"], results: DONE },
    support_letters: { activities: ["Support Letter"], results: DONE },
    thank_yous: { activities: ["Thank"], results: DONE },
  },
  email: { received: { activities: ["Email"], results: ["Received"] }, sent: { activities: ["Email"], results: DONE } },
  // The original's Facebook Message is a Social Message now.
  facebook: { received: { activities: ["Facebook Message", "Social Message"], results: ["Received"] }, sent: { activities: ["Facebook Message", "Social Message"], results: DONE } },
  text_message: { received: { activities: ["Text Message"], results: ["Received"] }, sent: { activities: ["Text Message"], results: DONE } },
  phone: {
    appointments: { activities: ["Call", "Talk to In Person"], nextAction: "Appointment" },
    attempted: { activities: ["Call"], results: ["Attempted - Left Message", "Attempted"] },
    completed: { activities: ["Call"], results: DONE },
    received: { activities: ["Call"], results: ["Received"] },
    talktoinperson: { activities: ["Talk to In Person"] },
  },
  electronic: { appointments: { activities: ["Email", "Facebook Message", "Social Message", "Text Message"], nextAction: "Appointment" } },
};

const countName = (group: string, name: string) => `${group}.${name}`;

/** Every activity a count names is one whose completed tasks are kept (drizzle/kept-sums.ts). */
for (const count of Object.values(TASK_COUNTS).flatMap((named) => Object.values(named))) {
  if (count.activities.some((activity) => !COUNTED_ACTIVITIES.includes(activity))) throw new Error(`${count.activities.join(", ")}: not all kept`);
  if (count.nextAction !== undefined && count.nextAction !== "Appointment") throw new Error(`next action ${count.nextAction}: not kept`);
}

const nextDay = (day: string) => addDays(day, 1);
const nextMonth = (month: string) => addMonths(`${month}-01`, 1).slice(0, 7);

/**
 * The period's completed tasks as rows of (activity_type, result, appointment, n): the kept counts of its whole
 * months and its other whole days, and the tasks of its first and last part days, read from the tasks (the
 * (account_list_id, completed_at) index).
 */
function completedInPeriod(ctx: RequestContext): SQL {
  const lists = summaryLists(ctx);
  const { from, until } = period(ctx);
  const tasksBetween = (start: string, end: string) =>
    sql`SELECT ${tasks.activityType} AS activity_type, ${tasks.result} AS result, ${tasks.nextAction} = 'Appointment' AS appointment, 1 AS n FROM ${tasks}
      WHERE ${inList(tasks.accountListId, lists)} AND ${tasks.completedAt} >= ${start} AND ${tasks.completedAt} < ${end} AND ${tasks.completed} = 1`;
  const kept = (period: "month" | "day", ranges: Array<[string, string]>) =>
    sql`SELECT k.key2 AS activity_type, NULLIF(substr(k.key3, 1, length(k.key3) - 2), '') AS result, substr(k.key3, -1) = 'a' AS appointment, k.rows AS n
      FROM ${keptSums} AS k WHERE k.kind = ${`completed_tasks_by_${period}`} AND ${inList(sql`k.owner_id`, lists)}
      AND (${sql.join(ranges.map(([first, end]) => sql`(k.key1 >= ${first} AND k.key1 < ${end})`), sql` OR `)})`;
  const midnight = (day: string) => `${day}T00:00:00Z`;
  // The whole days: from the first midnight in the period to the last.
  const firstDay = from === midnight(from.slice(0, 10)) ? from.slice(0, 10) : nextDay(from.slice(0, 10));
  const lastDay = until.slice(0, 10);
  if (firstDay >= lastDay) return tasksBetween(from, until);
  const parts: SQL[] = [];
  if (from < midnight(firstDay)) parts.push(tasksBetween(from, midnight(firstDay)));
  if (midnight(lastDay) < until) parts.push(tasksBetween(midnight(lastDay), until));
  // The whole months among the whole days, and the days before and after them.
  const firstMonth = firstDay.endsWith("-01") ? firstDay.slice(0, 7) : nextMonth(firstDay.slice(0, 7));
  const endMonth = lastDay.slice(0, 7);
  // (At most four terms: D1 allows a compound SELECT only a few.)
  if (firstMonth < endMonth) {
    parts.push(kept("month", [[firstMonth, endMonth]]), kept("day", [[firstDay, `${firstMonth}-01`], [`${endMonth}-01`, lastDay]]));
  } else {
    parts.push(kept("day", [[firstDay, lastDay]]));
  }
  return sql.join(parts, sql` UNION ALL `);
}

/** Every task count from the period's kept counts and its part days' tasks, as one JSON object. */
const taskCounts: SharedSelect = {
  key: "task_counts",
  select: (ctx) => {
    const counts = Object.entries(TASK_COUNTS).flatMap(([group, named]) =>
      Object.entries(named).map(([name, count]) => {
        const conditions: SQL[] = [inList(sql`activity_type`, count.activities)];
        if (count.results) conditions.push(inList(sql`result`, count.results));
        if (count.nextAction) conditions.push(sql`appointment`);
        return sql`${countName(group, name)}, coalesce(sum(CASE WHEN ${sql.join(conditions, sql` AND `)} THEN n END), 0)`;
      }),
    );
    return sql`(SELECT json_object(${sql.join(counts, sql`, `)}) FROM (${completedInPeriod(ctx)}))`;
  },
};

const parsed = (selected: unknown) => (typeof selected === "string" ? JSON.parse(selected) : selected) as Record<string, number>;
const counts = (group: string, extra: (all: Record<string, number>) => Record<string, number> = () => ({})): AttributeDef => ({
  shared: taskCounts,
  read: (_row, _ctx, _extras, selected) => {
    const all = parsed(selected);
    const own = Object.fromEntries(Object.keys(TASK_COUNTS[group] ?? {}).map((name) => [name, all[countName(group, name)]]));
    return { ...own, ...extra(all) };
  },
  schema: { type: "object", additionalProperties: { type: "integer" } },
});

/** Statuses of contacts a referral is still on hand in (no status too). */
const ON_HAND = ["Never Contacted", "Ask in Future", "Cultivate Relationship", "Contact for Appointment"];

/**
 * The lists' contacts open to an appointment, their contacts referred in the period (the kept referrals of the
 * period, a row each) and their referred contacts on hand (kept counts by status): none of it reads the contacts.
 */
const contactCounts: AttributeDef = {
  select: (ctx) => {
    const lists = summaryLists(ctx);
    const { from, until } = period(ctx);
    const kept = (kind: string) => sql`k.kind = ${kind} AND ${inList(sql`k.owner_id`, lists)}`;
    return sql`json_object(
      'active', (SELECT coalesce(sum(${listRowCounts.rows}), 0) FROM ${listRowCounts} WHERE ${listRowCounts.tableName} = 'contacts' AND ${inList(listRowCounts.accountListId, lists)} AND ${inList(listRowCounts.bucket, ["Never Contacted", "Contact for Appointment"])}),
      'referrals', (SELECT count(DISTINCT k.key2) FROM ${keptSums} AS k WHERE ${kept("referrals_by_time")} AND k.key1 >= ${from} AND k.key1 < ${until}),
      'referrals_on_hand', (SELECT coalesce(sum(k.rows), 0) FROM ${keptSums} AS k WHERE ${kept("referred_contacts")} AND ${inList(sql`k.key1`, ["", ...ON_HAND])}))`;
  },
  read: (_row, _ctx, _extras, selected) => parsed(selected),
  schema: { type: "object", additionalProperties: { type: "integer" } },
};

const sumOf = (all: Record<string, number>, names: string[]) => names.reduce((sum, name) => sum + all[name], 0);

export const accountListAnalyticsResource = defineResource({
  type: "account_list_analytics",
  model: "AccountList",
  table: accountLists,
  scope: summaryScope,
  scopeHidesRows: true,
  attributes: {
    appointments: counts("appointments"),
    contacts: contactCounts,
    correspondence: counts("correspondence"),
    electronic: counts("electronic", (all) => ({
      received: sumOf(all, ["email.received", "facebook.received", "text_message.received"]),
      sent: sumOf(all, ["email.sent", "facebook.sent", "text_message.sent"]),
    })),
    email: counts("email"),
    facebook: counts("facebook"),
    phone: counts("phone"),
    text_message: counts("text_message"),
    start_date: { select: (ctx) => sql`${period(ctx).from}`, schema: TIMESTAMP },
    end_date: { select: (ctx) => sql`${lastSecond(period(ctx).until)}`, schema: TIMESTAMP },
  },
  relationships: {},
});
