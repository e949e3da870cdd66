import type { Hono } from "hono";
import { mirrorListRow } from "../../db/mirrors";
import { resourceRoutes } from "../../routes/resource-routes";
import { summaryRoutes } from "../../read/summaries";
import type { AppEnv } from "../../env";
import { designationAccountResource } from "../designation-accounts/resource";
import { registerInviteRoutes } from "../invites/routes";
// Organizations and organization accounts are answered only as included resources; importing registers them.
import "../organizations/resource";
import { API, LIST } from "../paths";
import { userRoutes } from "../users/routes";
import { registerMemberRoutes } from "./members";
import { accountListAnalyticsResource } from "./analytics";
import { accountListResource } from "./resource";
import { accountListCoachResource, coachedListResource } from "./coaches";
import { listDonorAccountResource } from "./donor-accounts";

/** The signed-in user, their account lists, and what belongs to a list as a whole (designation accounts, invites). */
export function registerAccountRoutes(app: Hono<AppEnv>): void {
  app.route(`${API}/user/account_list_coaches`, resourceRoutes(accountListCoachResource, { actions: ["list", "show"] }));
  app.route(`${API}/user`, userRoutes);
  app.route(`${API}/coaching/account_lists`, resourceRoutes(coachedListResource, { actions: ["list", "show"] }));
  // Lists come from the data store: no create or delete through the API.
  app.route(`${API}/account_lists`, resourceRoutes(accountListResource, {
      actions: ["list", "show", "update"],
      // The directory keeps a copy of the list's row (for invites and the user's lists).
      afterUpdate: (id, ctx) => mirrorListRow(ctx.db, ctx.directory ?? ctx.db, id),
    }));
  app.route(`${LIST}/analytics`, summaryRoutes(accountListAnalyticsResource));
  app.route(`${LIST}/donor_accounts`, resourceRoutes(listDonorAccountResource, { actions: ["list", "show"] }));
  app.route(`${LIST}/designation_accounts`, resourceRoutes(designationAccountResource, { actions: ["list", "show", "update"] }));
  registerInviteRoutes(app);
  registerMemberRoutes(app);
}
