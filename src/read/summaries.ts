/**
 * Summaries of the viewer's lists (the home pages' analytics): one resource object computed from the lists a
 * request covers, declared like any resource over the `account_lists` table so that its attributes are SQL the
 * engine selects, its relationships take `include` and sparse fieldsets, and the API description follows. Its id is
 * the first list it covers.
 */
import { sql, type SQL } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { accountLists } from "../../drizzle/schema";
import { inList } from "../db/sql";
import type { AppEnv } from "../env";
import { listValue } from "../jsonapi/filter-values";
import { rawFilters } from "../jsonapi/query";
import { jsonApi } from "../jsonapi/respond";
import { recordNotFound } from "../jsonapi/errors";
import { rowsOf } from "../db/statements";
import { requestContext } from "../engine/context";
import type { RequestContext, ResourceDef } from "../engine/define";
import { accountListFilter } from "../engine/filter-conditions";
import { showResource } from "./records";
import { described } from "../engine/route-descriptions";

/**
 * The lists a summary covers: the path's list, else those `filter[account_list_id]` names (another user's is not
 * found, 404), else every list the viewer may read (a coach's included).
 */
export function summaryLists(ctx: RequestContext): string[] {
  const parent = ctx.pathParams.account_list_id;
  if (parent) return ctx.viewer.readableListIds.filter((id) => id === parent);
  const named = rawFilters(ctx.params).account_list_id;
  if (named === undefined || listValue(named).length === 0) return ctx.viewer.readableListIds;
  accountListFilter(sql`1`, named, ctx);
  const ids = listValue(named).map((id) => id.toLowerCase());
  return ctx.viewer.readableListIds.filter((id) => ids.includes(id));
}

/** `column IN (the lists the summary covers)`. */
export const inSummaryLists = (column: SQL | Parameters<typeof inList>[0], ctx: RequestContext): SQL => inList(column, summaryLists(ctx));

/** The read scope of a summary's declaration: its row is one of the lists it covers. */
export const summaryScope = (ctx: RequestContext) => inSummaryLists(accountLists.id, ctx);

/**
 * The order of a summary's to-many relationship, for its parts over several databases to be put together: a
 * statement answering each related id (`id`) with its order key (the other columns, in order).
 */
export type RelationshipOrder = (ctx: RequestContext) => SQL;

/**
 * GET (the web app sends it as POST with `X-HTTP-Method-Override: GET`, its parameters in the body). Asked of
 * each database holding some of the viewer's lists (src/routing.ts), each answers over its lists and reports the
 * order keys of its to-many relationships (`orders`), by which their linkage is put together.
 */
export function summaryRoutes(def: ResourceDef, orders: Record<string, RelationshipOrder> = {}): Hono<AppEnv> {
  const answer = async (c: Context<AppEnv>, ctx: RequestContext) => {
    const [first] = summaryLists(ctx);
    if (!first) throw recordNotFound("AccountList", ctx.pathParams.account_list_id ?? "");
    const document = await showResource(def, first, ctx);
    if (ctx.summaryPart) {
      const names = Object.keys(orders);
      const results = names.length > 0 ? await rowsOf(ctx.db, names.map((name) => orders[name](ctx))) : [];
      ctx.summaryPart.report(Object.fromEntries(names.map((name, index) => [name, new Map(results[index].map(({ id, ...key }) => [String(id), Object.values(key)]))])));
    }
    return jsonApi(c, document);
  };
  return new Hono<AppEnv>().get("/", described((c: Context<AppEnv>) => answer(c, requestContext(c)), { action: "show", resource: def, alsoSentAsPost: true }));
}
