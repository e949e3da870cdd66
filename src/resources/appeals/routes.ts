import type { Hono } from "hono";
import { parentAccountList } from "../../engine/account-list-scope";
import { listResources } from "../../read/list-resources";
import { resourceRoutes, UUID_PARAM } from "../../routes/resource-routes";
import type { AppEnv } from "../../env";
import { donationResource, donationTotals } from "../donations/resource";
import { runNotificationsAfterWrites } from "../../events/queue";
import { API, LIST } from "../paths";
import { pledgeResource } from "../pledges/resource";
import { appealContactResource, appealParent, excludedAppealContactResource, parentAppeal } from "./appeal-contacts";
import { appealResource } from "./resource";

const APPEAL = `${API}/appeals/:appeal_id${UUID_PARAM}`;

/** Appeals with their contacts, and the donations and pledges of account lists that drive their totals. */
export function registerMoneyRoutes(app: Hono<AppEnv>): void {
  app.route(`${API}/appeals`, resourceRoutes(appealResource, { actions: ["list", "show", "create", "update", "delete"] }));

  app.use(`${APPEAL}/*`, appealParent);
  app.route(`${APPEAL}/appeal_contacts`, resourceRoutes(appealContactResource, { actions: ["list", "show", "create", "delete"], fixedOnCreate: parentAppeal }));
  app.route(`${APPEAL}/excluded_appeal_contacts`, resourceRoutes(excludedAppealContactResource, { actions: ["list", "show", "delete"] }));

  app.use(`${LIST}/donations`, runNotificationsAfterWrites);
  app.use(`${LIST}/donations/*`, runNotificationsAfterWrites);
  app.route(
    `${LIST}/donations`,
    resourceRoutes(donationResource, {
      actions: ["list", "show", "create", "update", "delete"],
      fixedOnCreate: parentAccountList,
      list: (ctx) => listResources(donationResource, ctx, { meta: (where) => donationTotals(where, ctx) }),
    }),
  );
  app.route(`${LIST}/pledges`, resourceRoutes(pledgeResource, { actions: ["list", "show", "create", "update", "delete"], fixedOnCreate: parentAccountList }));
}
