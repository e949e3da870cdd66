/**
 * Every route of /api/v2, mounted in one place. Each area's routes.ts mounts its own resources.
 */
import type { Hono } from "hono";
import { accountListParent, parentAccountList } from "../engine/account-list-scope";
import { bulkRoutes } from "../write/bulk";
import { resourceRoutes } from "../routes/resource-routes";
import type { AppEnv } from "../env";
import { registerAccountRoutes } from "./account-lists/routes";
import { announcementResource } from "./announcements/resource";
import { registerMoneyRoutes } from "./appeals/routes";
import { registerBatchRoutes } from "./batch/routes";
import { constantsRoutes } from "./constants/routes";
import { registerDeletedRecordRoutes } from "./deleted-records/routes";
import { registerDuplicateRoutes } from "./duplicates/routes";
import { registerMergeRoutes } from "./merges/routes";
import { registerImportRoutes } from "./imports/routes";
import { registerIntegrationRoutes } from "./integrations/routes";
import { registerContactRoutes } from "./contacts/routes";
import { registerContactExportRoutes } from "./contacts/exports";
import { notificationPreferenceResource } from "./notification-preferences/resource";
import { notificationResource } from "./notifications/resource";
import { API, LIST } from "./paths";
import { registerPeopleRoutes } from "./people/routes";
import { registerReportRoutes } from "./reports/routes";
import { registerTaskRoutes } from "./tasks/routes";
import { userOptionRoutes } from "./user-options/routes";
import { registerUserAccountRoutes } from "./users/accounts";
import { toolsAnalyticsRoutes } from "./tools/analytics";
import { registerWebhookRoutes } from "./webhooks/routes";


export function registerRoutes(app: Hono<AppEnv>): void {
  // Everything under one account list checks the list first (404 unknown, 403 not the viewer's).
  app.use(`${LIST}/*`, accountListParent);

  app.route(`${API}/constants`, constantsRoutes);
  app.route(`${API}/announcements`, resourceRoutes(announcementResource, { actions: ["list", "show"] }));
  // The web app's preferences page saves every preference at once: those the list has and those it adds.
  app.route(
    `${LIST}/notification_preferences/bulk`,
    bulkRoutes(notificationPreferenceResource, { actions: ["create"], fixedOnCreate: parentAccountList, createSavesExisting: true }),
  );
  app.route(
    `${LIST}/notification_preferences`,
    resourceRoutes(notificationPreferenceResource, { actions: ["list", "show", "create", "update", "delete"], fixedOnCreate: parentAccountList }),
  );
  // Raised by src/events; clients read them and mark them cleared.
  app.route(`${LIST}/notifications`, resourceRoutes(notificationResource, { actions: ["list", "show", "update", "delete"] }));
  app.route(`${API}/user/options`, userOptionRoutes());
  registerUserAccountRoutes(app);
  app.route(`${API}/tools/analytics`, toolsAnalyticsRoutes);
  registerAccountRoutes(app);
  registerIntegrationRoutes(app);
  // Before the contact routes: /contacts/people, /contacts/duplicates and /contacts/merges are not contact ids.
  registerDuplicateRoutes(app);
  registerMergeRoutes(app);
  registerPeopleRoutes(app);
  registerContactExportRoutes(app);
  registerContactRoutes(app);
  registerTaskRoutes(app);
  registerMoneyRoutes(app);
  registerImportRoutes(app);
  registerDeletedRecordRoutes(app);
  registerBatchRoutes(app);
  registerWebhookRoutes(app);
  registerReportRoutes(app);
}
