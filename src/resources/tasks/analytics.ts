/**
 * GET /api/v2/tasks/analytics (`task_analytics`): the home page's tasks due today or earlier by activity, and when
 * the last newsletters went out. The counts are sums of kept rows (drizzle/kept-sums.ts), not a walk of the tasks.
 */
import { sql } from "drizzle-orm";
import { accountLists, keptSums, tasks } from "../../../drizzle/schema";
import { ACTIVITIES } from "../../constants";
import { inList, q } from "../../db/sql";
import { computed } from "../../engine/attributes";
import { defineResource, type RequestContext, type SharedSelect } from "../../engine/define";
import { summaryLists, summaryScope } from "../../read/summaries";
import { TIMESTAMP } from "../../jsonapi/formats";
import { viewerDays } from "./filters";

/**
 * The open tasks that start before the end of the viewer's today, by activity type ('' for none), as a JSON
 * object: the kept years before the one today ends in, that year's months before its month, that month's days
 * before its day, and the tasks of that one UTC day counted.
 */
const dueByType: SharedSelect = {
  key: "due_by_type",
  select: (ctx: RequestContext) => {
    const lists = summaryLists(ctx);
    const until = viewerDays(ctx).startOf(1);
    const [year, month, day] = [until.slice(0, 4), until.slice(0, 7), until.slice(0, 10)];
    const kept = (kind: string, range: ReturnType<typeof sql>) =>
      sql`SELECT k.key2 AS type, k.rows AS n FROM ${keptSums} AS k WHERE k.kind = ${kind} AND ${inList(sql`k.owner_id`, lists)} AND ${range}`;
    return sql`(SELECT json_group_object(type, n) FROM (SELECT type, sum(n) AS n FROM (
      ${kept("open_tasks_by_type_year", sql`k.key1 < ${year}`)}
      UNION ALL ${kept("open_tasks_by_type_month", sql`k.key1 >= ${year} AND k.key1 < ${month}`)}
      UNION ALL ${kept("open_tasks_by_type_day", sql`k.key1 >= ${month} AND k.key1 < ${day}`)}
      UNION ALL SELECT COALESCE(${q(tasks.activityType)}, '') AS type, 1 AS n FROM ${tasks}
        WHERE ${inList(tasks.accountListId, lists)} AND ${tasks.completed} = 0 AND ${tasks.startAt} >= ${day} AND ${tasks.startAt} < ${until}
    ) GROUP BY type))`;
  },
};

const dueCounts = (selected: unknown): Record<string, number> => (typeof selected === "string" ? JSON.parse(selected) : (selected ?? {})) as Record<string, number>;

/** When the lists' last newsletter of the kind was completed. */
const lastCompleted = (activity: string) => ({
  ...computed((ctx) => sql`(SELECT max(${q(tasks.completedAt)}) FROM ${tasks} WHERE ${inList(tasks.accountListId, summaryLists(ctx))} AND ${tasks.activityType} = ${activity} AND ${tasks.completed} = 1)`),
  schema: { anyOf: [TIMESTAMP, { type: "null" }] },
});

export const taskAnalyticsResource = defineResource({
  type: "task_analytics",
  model: "AccountList",
  table: accountLists,
  scope: summaryScope,
  scopeHidesRows: true,
  attributes: {
    last_electronic_newsletter_completed_at: lastCompleted("Newsletter - Email"),
    last_physical_newsletter_completed_at: lastCompleted("Newsletter - Physical"),
    // Every activity in its order, zeros included.
    tasks_overdue_or_due_today_counts: {
      shared: dueByType,
      read: (_row, _ctx, _extras, selected) => ACTIVITIES.map((label) => ({ label, count: dueCounts(selected)[label] ?? 0 })),
      schema: { type: "array", items: { type: "object", required: ["label", "count"], properties: { label: { type: "string" }, count: { type: "integer" } } } },
    },
    // Tasks without an activity too.
    total_tasks_due_count: {
      shared: dueByType,
      read: (_row, _ctx, _extras, selected) => Object.values(dueCounts(selected)).reduce((sum, n) => sum + n, 0),
      schema: { type: "integer" },
    },
  },
  relationships: {},
});
