import type { Hono } from "hono";
import { resourceRoutes } from "../../routes/resource-routes";
import type { AppEnv } from "../../env";
import { API } from "../paths";
import { deletedRecordResource } from "./resource";

/** Deletions, for offline clients; only listed (rows are written by the deletes, removed by the daily job). */
export function registerDeletedRecordRoutes(app: Hono<AppEnv>): void {
  app.route(`${API}/deleted_records`, resourceRoutes(deletedRecordResource, { actions: ["list"] }));
}
