/**
 * Task list filters. Day-based values (date_range, overdue) are evaluated in the viewer's time zone, so
 * "today" is the user's today wherever the server runs.
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { keptSums, taskTags, tasks } from "../../../drizzle/schema";
import { OPEN_COMPLETED_INDEX } from "../../../drizzle/tasks";
import { containsText, inList, not, notIndexed, or, timestampInRange } from "../../db/sql";
import type { FilterDef, OrderKey, OrderPart, OrderWalk, RequestContext } from "../../engine/define";
import { tagFilters, type TagTable } from "../../engine/tags";
import { booleanValue, listValue, parseDateRange, textValue } from "../../jsonapi/filter-values";
import { ownEntry, type ParamValue } from "../../jsonapi/params";
import { addDays, addMonths, isValidTimeZone, startOfDayUtc, todayIn } from "../../jsonapi/time";
import { taskContactFilters } from "./contact-filters";

export const TASK_TAGS: TagTable = { table: taskTags, owner: taskTags.taskId, name: taskTags.name };

/** The viewer's calendar: today's date and the UTC instant a day starts, `days` from today. */
export function viewerDays(ctx: RequestContext) {
  const zone = isValidTimeZone(ctx.viewer.timeZone) ? ctx.viewer.timeZone : "UTC";
  const today = todayIn(zone, new Date(ctx.now));
  return { today, startOf: (days: number) => startOfDayUtc(addDays(today, days), zone), startOfDate: (date: string) => startOfDayUtc(date, zone) };
}

/** Not completed and starting before the viewer's today. */
export function overdue(ctx: RequestContext): SQL {
  return sql`(${tasks.completed} = 0 AND ${tasks.startAt} < ${viewerDays(ctx).startOf(0)})`;
}

/**
 * The default order's first parts: overdue tasks. Those without a completion time (every open task the API wrote)
 * come first in the order, by start time, which the (account_list_id, completed, start_at, completed_at, id) index
 * gives; an open task that carries a completion time (written before that rule, or imported) follows them, from
 * an index of such tasks alone (drizzle/tasks.ts).
 */
export function overdueFirst(ctx: RequestContext): OrderPart[] {
  const late = overdue(ctx);
  return [
    // Written so that no index on completed_at is taken for them: they narrow the overdue tasks the start index finds.
    {
      condition: sql`(${late} AND ${notIndexed(tasks.completedAt)} IS NULL)`,
      walk: { keys: [ascending(tasks.startAt), ascending(tasks.completedAt), ascending(tasks.id)] },
    },
    {
      condition: sql`(${late} AND ${tasks.completedAt} IS NOT NULL)`,
      walk: { keys: [descending(tasks.completedAt), ascending(tasks.startAt), ascending(tasks.id)], index: OPEN_COMPLETED_INDEX },
    },
  ];
}

/**
 * The tasks after the overdue ones in the default order (completed_at descending, those without one first; then
 * start_at, those without one last; then id), as the (account_list_id, completed_at IS NOT NULL, completed_at DESC,
 * start_at IS NULL, start_at, id) index walks them: each NULL placement is a key of its own.
 */
export function afterOverdue(): OrderWalk {
  return {
    keys: [
      ascending(sql`(${tasks.completedAt} IS NOT NULL)`),
      descending(tasks.completedAt),
      ascending(sql`(${tasks.startAt} IS NULL)`),
      ascending(tasks.startAt),
      ascending(tasks.id),
    ],
  };
}

const ascending = (expression: SQL | SQLiteColumn): OrderKey => ({ expression, descending: false });
const descending = (expression: SQL | SQLiteColumn): OrderKey => ({ expression, descending: true });

const between = (column: SQLWrapper, from: string, until: string) => sql`(${column} >= ${from} AND ${column} < ${until})`;
const startsBetween = (from: string, until: string) => between(tasks.startAt, from, until);

/** Completed from the start of `since` (a date in the viewer's calendar) up to the end of today. */
function completedSince(ctx: RequestContext, since: (today: string) => string): SQL {
  const days = viewerDays(ctx);
  return sql`(${tasks.completed} = 1 AND ${between(tasks.completedAt, days.startOfDate(since(days.today)), days.startOf(1))})`;
}

const DATE_RANGES: Record<string, (ctx: RequestContext) => SQL> = {
  overdue,
  today: (ctx) => startsBetween(viewerDays(ctx).startOf(0), viewerDays(ctx).startOf(1)),
  tomorrow: (ctx) => startsBetween(viewerDays(ctx).startOf(1), viewerDays(ctx).startOf(2)),
  future: (ctx) => sql`${tasks.startAt} > ${ctx.now}`,
  upcoming: (ctx) => sql`${tasks.startAt} >= ${viewerDays(ctx).startOf(1)}`,
  no_date: () => sql`${tasks.startAt} IS NULL`,
  last_week: (ctx) => completedSince(ctx, (today) => addDays(today, -7)),
  last_month: (ctx) => completedSince(ctx, (today) => addMonths(today, -1)),
  last_year: (ctx) => completedSince(ctx, (today) => addMonths(today, -12)),
  last_two_years: (ctx) => completedSince(ctx, (today) => addMonths(today, -24)),
};

/**
 * Named periods (several are alternatives), or an explicit range of start_at. Any other value is read as a range,
 * so it fails as every `_range` filter does: the one date-range error clients match on.
 */
const dateRange: FilterDef = (value, ctx) => {
  const names = listValue(value);
  const periods = names.map((name) => ownEntry(DATE_RANGES, name));
  if (periods.every((period) => period !== undefined)) return or(periods.map((period) => period!(ctx)));
  return timestampInRange(tasks.startAt, parseDateRange("date_range", value));
};

function timeRange(name: string, column: SQLWrapper): FilterDef {
  return (value) => timestampInRange(column, parseDateRange(name, value));
}

function oneOf(column: SQLWrapper, expand: (value: string) => string[] = (value) => [value]): FilterDef {
  return (value) => {
    const values = listValue(value).flatMap(expand);
    return values.length === 0 ? undefined : inList(column, values);
  };
}

function flag(condition: (on: boolean, ctx: RequestContext) => SQL): FilterDef {
  return (value, ctx) => {
    const on = booleanValue(value);
    return on === undefined ? undefined : condition(on, ctx);
  };
}

/** The maintained-count buckets (see `maintainedCounts`) a completed filter selects. */
export function completionBuckets(value: ParamValue): string[] | undefined {
  const on = booleanValue(value);
  return on === undefined ? undefined : [on ? "1" : "0"];
}

/**
 * The total of `filter[date_range]=overdue` from the open tasks kept per list by UTC start month and day
 * (drizzle/kept-sums.ts): the months before this one and this month's days before the one the viewer's today
 * starts in, summed, and the tasks of that one UTC day counted through the (account_list_id, completed, start_at)
 * index. A few dozen rows whatever the number of tasks.
 */
export function overdueTotal(value: ParamValue, ctx: RequestContext, lists: string[]): SQL | undefined {
  if (textValue(value) !== "overdue") return undefined;
  const todayStarts = viewerDays(ctx).startOf(0);
  const [month, day] = [todayStarts.slice(0, 7), todayStarts.slice(0, 10)];
  const kept = (kind: string, range: SQL) =>
    sql`(SELECT coalesce(sum(k.rows), 0) FROM ${keptSums} AS k WHERE k.kind = ${kind} AND ${inList(sql`k.owner_id`, lists)} AND ${range})`;
  return sql`SELECT ${kept("open_tasks_by_month", sql`k.key1 < ${month}`)} + ${kept("open_tasks_by_day", sql`k.key1 >= ${month} AND k.key1 < ${day}`)}
    + (SELECT count(*) FROM ${tasks} WHERE ${inList(tasks.accountListId, lists)} AND ${tasks.completed} = 0 AND ${tasks.startAt} >= ${day} AND ${tasks.startAt} < ${todayStarts}) AS "count"`;
}

const ids = (column: SQLWrapper): FilterDef => (value: ParamValue) => {
  const values = listValue(value).map((id) => id.toLowerCase());
  return values.length === 0 ? undefined : inList(column, values);
};

/** "Newsletter" stands for both newsletter activities. */
const NEWSLETTERS = ["Newsletter - Physical", "Newsletter - Email"];

export const taskFilters: Record<string, FilterDef> = {
  activity_type: oneOf(tasks.activityType, (value) => (value.toLowerCase() === "newsletter" ? NEWSLETTERS : [value])),
  completed: flag((on) => sql`${tasks.completed} = ${on ? 1 : 0}`),
  completed_at: timeRange("completed_at", tasks.completedAt),
  created_at: timeRange("created_at", tasks.createdAt),
  date_range: dateRange,
  ids: ids(tasks.id),
  next_action: oneOf(tasks.nextAction),
  overdue: flag((on, ctx) => (on ? overdue(ctx) : not(overdue(ctx)))),
  result: oneOf(tasks.result),
  starred: flag((on) => sql`${tasks.starred} = ${on ? 1 : 0}`),
  start_at: timeRange("start_at", tasks.startAt),
  updated_at: timeRange("updated_at", tasks.updatedAt),
  user_ids: ids(tasks.userId),
  wildcard_search: (value) => {
    const text = textValue(value);
    return text === "" ? undefined : containsText(tasks.subject, text);
  },
  ...tagFilters(TASK_TAGS, tasks.id),
  ...taskContactFilters,
};
