import type { Hono } from "hono";
import { bulkRoutes } from "../../engine/bulk";
import { resourceRoutes } from "../../engine/routes";
import type { AppEnv } from "../../env";
import { API } from "../paths";
import { taskResource } from "./resource";

export function registerTaskRoutes(app: Hono<AppEnv>): void {
  app.route(`${API}/tasks/bulk`, bulkRoutes(taskResource, { actions: ["create", "update", "delete"] }));
  app.route(`${API}/tasks`, resourceRoutes(taskResource, { actions: ["list", "show", "create", "update", "delete"] }));
}
