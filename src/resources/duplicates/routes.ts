import type { Hono } from "hono";
import type { RequestContext, ResourceDef } from "../../engine/define";
import { listResources } from "../../read/list-resources";
import { resourceRoutes } from "../../routes/resource-routes";
import type { AppEnv } from "../../env";
import { rawFilters } from "../../jsonapi/query";
import { listValue } from "../../jsonapi/filter-values";
import { API } from "../paths";
import { findDuplicatePairs } from "./finder";
import { contactPairResource, personPairResource } from "./resource";

/**
 * The lists a listing covers: the viewer's (on this database), or those `filter[account_list_id]` names. The
 * engine refuses a named list that is not the viewer's; the finder simply does not look at it.
 */
function listsListed(ctx: RequestContext): string[] {
  const named = listValue(rawFilters(ctx.params).account_list_id).map((id) => id.toLowerCase());
  return named.length > 0 ? ctx.viewer.readableListIds.filter((id) => named.includes(id)) : ctx.viewer.readableListIds;
}

function pairRoutes(def: ResourceDef): Hono<AppEnv> {
  return resourceRoutes(def, {
    actions: ["list", "show", "update"],
    // As the original, the pairs are found before they are listed: on each database the listing reads.
    list: (ctx) => listResources(def, ctx, { beforeReading: (here) => findDuplicatePairs(here.db, listsListed(here), here.now) }),
  });
}

/** `/contacts/duplicates` and `/contacts/people/duplicates`: listed (found first), shown, and marked `ignore`. */
export function registerDuplicateRoutes(app: Hono<AppEnv>): void {
  app.route(`${API}/contacts/duplicates`, pairRoutes(contactPairResource));
  app.route(`${API}/contacts/people/duplicates`, pairRoutes(personPairResource));
}
