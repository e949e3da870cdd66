/**
 * GET /reports/activity_results: for each period (by default the last four weeks), the list's tasks created in it,
 * counted by activity and by whether they are completed (`completed_call`, `uncompleted_text_message`, ...).
 */
import { ACTIVITIES } from "../../constants/activities";
import { sumsByTime } from "./kept-by-time";
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
  // The tasks created in each period are kept counts by activity and completion (drizzle/kept-sums.ts, created_tasks).
  periods: async ({ list, read }, periods) => {
    const created = await sumsByTime(read, "created_tasks", list.id, periods);
    return created.map((groups) =>
      Object.fromEntries(
        COUNTED.flatMap(({ name, activities }) =>
          [true, false].map((completed) => [
            attributeName(completed ? "completed" : "uncompleted", name),
            groups.filter((group) => activities.includes(group.key2) && (group.key3 === "1") === completed).reduce((count, group) => count + group.rows, 0),
          ]),
        ),
      ),
    );
  },
});
