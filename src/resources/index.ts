/**
 * Every route of /api/v2, mounted in one place. Each resource folder exports its declaration and routes.
 */
import type { Hono } from "hono";
import { resourceRoutes, UUID_PARAM } from "../engine/routes";
import type { AppEnv } from "../env";
import { announcementResource } from "./announcements/resource";
import { constantsRoutes } from "./constants/routes";
import { notificationPreferenceResource } from "./notification-preferences/resource";
import { accountListParent, parentAccountList } from "../engine/account-list-scope";

export const API = "/api/v2";
/** Prefix of routes nested under one account list. */
export const LIST = `${API}/account_lists/:account_list_id${UUID_PARAM}`;

export function registerRoutes(app: Hono<AppEnv>): void {
  app.route(`${API}/constants`, constantsRoutes);
  app.route(`${API}/announcements`, resourceRoutes(announcementResource, { actions: ["list", "show"] }));

  // Everything under one account list checks the list first (404 unknown, 403 not the viewer's).
  app.use(`${LIST}/*`, accountListParent);
  app.route(
    `${LIST}/notification_preferences`,
    resourceRoutes(notificationPreferenceResource, { actions: ["list", "show", "create", "update", "delete"], fixedOnCreate: parentAccountList }),
  );
}
