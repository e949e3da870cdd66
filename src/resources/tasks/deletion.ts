import { tasks } from "../../../drizzle/schema";
import type { DeletionRecord } from "../../engine/deletions";

/**
 * A task's deletion as offline clients learn it: `Activity`, the original's model name (`filter[types]=Task` finds
 * it too). Declared by the task resource, and used by the deletes of tasks written as SQL (a cleared notification's
 * open task).
 */
export const TASK_DELETION: DeletionRecord = { deletableType: "Activity", idColumn: tasks.id, accountListColumn: tasks.accountListId };
