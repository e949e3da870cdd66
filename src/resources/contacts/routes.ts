import type { Hono } from "hono";
import { sql } from "drizzle-orm";
import { contactReferrals, contacts } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import { bulkRoutes } from "../../write/bulk";
import { panelRoutes } from "../../read/filter-panels";
import { summaryRoutes } from "../../read/summaries";
import { assertVisible } from "../../read/records";
import { listResources } from "../../read/list-resources";
import { listRoutes, resourceRoutes } from "../../routes/resource-routes";
import type { AppEnv } from "../../env";
import { API, ID } from "../paths";
import { registerTagRoutes } from "../tags/routes";
import { CONTACT_ANALYTICS_ORDERS, contactAnalyticsResource } from "./analytics";
import { CONTACT_PANEL } from "./filter-panel";
import { contactResource, contactTagTable } from "./resource";

/** The referrers of a contact are listed whatever their status. */
const referrerList = { ...contactResource, defaultExclusion: undefined };

export function registerContactRoutes(app: Hono<AppEnv>): void {
  registerTagRoutes(app, `${API}/contacts`, { id: contacts.id, accountList: contacts.accountListId, updatedAt: contacts.updatedAt, tags: contactTagTable, idsFilter: "contact_ids" });
  app.route(`${API}/contacts/analytics`, summaryRoutes(contactAnalyticsResource, CONTACT_ANALYTICS_ORDERS));
  app.route(`${API}/contacts/filters`, panelRoutes(CONTACT_PANEL, "contact_filters"));
  app.route(`${API}/contacts/bulk`, bulkRoutes(contactResource, { actions: ["update", "delete"] }));
  listRoutes(app, `${API}/contacts/${ID}/referrers`, referrerList, async (ctx) => {
    const id = ctx.pathParams.id;
    await assertVisible(contactResource, id, ctx);
    const referrers = sql`${q(contacts.id)} IN (SELECT ${q(contactReferrals.referredById)} FROM ${contactReferrals} WHERE ${q(contactReferrals.referredToId)} = ${id})`;
    return listResources(referrerList, ctx, { where: referrers });
  });
  app.route(`${API}/contacts`, resourceRoutes(contactResource, { actions: ["list", "show", "create", "update", "delete"] }));
}
