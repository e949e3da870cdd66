import type { Hono } from "hono";
import { sql } from "drizzle-orm";
import { contactReferrals, contacts } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import { bulkRoutes } from "../../engine/bulk";
import { requestContext } from "../../engine/context";
import { assertVisible, listResources } from "../../engine/read";
import { resourceRoutes } from "../../engine/routes";
import type { AppEnv } from "../../env";
import { jsonApi } from "../../jsonapi/respond";
import { API, ID } from "../paths";
import { contactResource } from "./resource";

/** The referrers of a contact are listed whatever their status. */
const referrerList = { ...contactResource, defaultExclusion: undefined };

export function registerContactRoutes(app: Hono<AppEnv>): void {
  app.route(`${API}/contacts/bulk`, bulkRoutes(contactResource, { actions: ["update", "delete"] }));
  app.get(`${API}/contacts/${ID}/referrers`, async (c) => {
    const ctx = requestContext(c);
    const id = ctx.pathParams.id;
    await assertVisible(contactResource, id, ctx);
    const referrers = sql`${q(contacts.id)} IN (SELECT ${q(contactReferrals.referredById)} FROM ${contactReferrals} WHERE ${q(contactReferrals.referredToId)} = ${id})`;
    return jsonApi(c, await listResources(referrerList, ctx, { where: referrers }));
  });
  app.route(`${API}/contacts`, resourceRoutes(contactResource, { actions: ["list", "show", "create", "update", "delete"] }));
}
