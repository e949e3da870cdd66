import { panelRoutes } from "../../read/filter-panels";
import { summaryRoutes } from "../../read/summaries";
import { taskAnalyticsResource } from "./analytics";
import { TASK_PANEL } from "./filter-panel";
import type { Hono } from "hono";
import { bulkRoutes } from "../../write/bulk";
import { resourceRoutes } from "../../routes/resource-routes";
import type { AppEnv } from "../../env";
import { API } from "../paths";
import { tasks } from "../../../drizzle/schema";
import { registerTagRoutes } from "../tags/routes";
import { TASK_TAGS } from "./filters";
import { taskResource } from "./resource";

export function registerTaskRoutes(app: Hono<AppEnv>): void {
  registerTagRoutes(app, `${API}/tasks`, { id: tasks.id, accountList: tasks.accountListId, updatedAt: tasks.updatedAt, tags: TASK_TAGS, idsFilter: "task_ids" });
  app.route(`${API}/tasks/analytics`, summaryRoutes(taskAnalyticsResource));
  app.route(`${API}/tasks/filters`, panelRoutes(TASK_PANEL, "task_filters"));
  app.route(`${API}/tasks/bulk`, bulkRoutes(taskResource, { actions: ["create", "update", "delete"] }));
  app.route(`${API}/tasks`, resourceRoutes(taskResource, { actions: ["list", "show", "create", "update", "delete"] }));
}
