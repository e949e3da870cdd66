/**
 * GET /reports/activity_results: for each period (by default the last four weeks), the list's tasks created in it,
 * counted by activity and by whether they are completed (`completed_call`, `uncompleted_text_message`, ...).
 */
import { sql } from "drizzle-orm";
import { tasks } from "../../../drizzle/schema";
import { ACTIVITIES } from "../../constants/activities";
import { q } from "../../db/sql";
import { definePeriodReport } from "./report";

/** The original's activities; its Facebook Message is a Social Message now, and counts both. */
const COUNTED: Array<{ name: string; activities: string[] }> = [
  ...ACTIVITIES.map((activity) => ({ name: activity, activities: [activity] })),
  { name: "Facebook Message", activities: ["Facebook Message", "Social Message"] },
];

const attributeName = (state: string, activity: string) => `${state}_${activity.toLowerCase().replace(/[^a-z0-9]+/g, "_")}`;

const FIELDS = COUNTED.flatMap(({ name }) => ["completed", "uncompleted"].map((state) => attributeName(state, name)));

export const activityResults = definePeriodReport({
  path: "activity_results",
  type: "reports_activity_results_periods",
  coaches: true,
  defaultRange: "4w",
  averages: FIELDS,
  periods: async ({ list, read }, periods) => {
    const [rows] = await read([
      sql`SELECT ${q(tasks.createdAt)} AS created_at, ${q(tasks.activityType)} AS activity_type, ${q(tasks.completed)} AS completed FROM ${tasks}
        WHERE ${q(tasks.accountListId)} = ${list.id} AND ${q(tasks.createdAt)} >= ${periods.at(-1)!.from} AND ${q(tasks.createdAt)} < ${periods[0].until}`,
    ]);
    return periods.map((period) => {
      const created = rows.filter((row) => String(row.created_at) >= period.from && String(row.created_at) < period.until);
      return Object.fromEntries(
        COUNTED.flatMap(({ name, activities }) =>
          [true, false].map((completed) => [
            attributeName(completed ? "completed" : "uncompleted", name),
            created.filter((row) => activities.includes(String(row.activity_type)) && Boolean(row.completed) === completed).length,
          ]),
        ),
      );
    });
  },
});
