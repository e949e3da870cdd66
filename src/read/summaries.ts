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
import { asSent, onEachDatabase } from "./each-database";
import { databaseOfList } from "../db/placement";
import { mergeSummaryResources } from "../db/merge-summaries";
import type { SummaryOrders } from "../db/list-parts";
import { described, readsEachDatabase } from "../engine/route-descriptions";

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
 * The databases a summary over the viewer's lists on several reads (`listDatabases`, src/routing.ts): those holding
 * a list it covers (`summaryLists`, which refuses a list not the viewer's as each part would), the one holding the
 * first of them first (the summary bears that list's id).
 */
export function summaryDatabases(ctx: RequestContext, databases: string[]): string[] {
  const covered = summaryLists(ctx);
  const first = databaseOfList(ctx.viewer, covered[0]);
  const holding = new Set(covered.map((id) => databaseOfList(ctx.viewer, id)));
  return [first, ...databases.filter((database) => database !== first && holding.has(database))];
}

/**
 * GET (the web app sends it as POST with `X-HTTP-Method-Override: GET`, its parameters in the body). Over the
 * viewer's lists on several databases, each database answers over its lists and the order keys of its to-many
 * relationships (`orders`), by which their linkage is put together (src/db/merge-summaries.ts).
 */
export function summaryRoutes(def: ResourceDef, orders: Record<string, RelationshipOrder> = {}): Hono<AppEnv> {
  const summaryOf = async (ctx: RequestContext) => {
    const [first] = summaryLists(ctx);
    if (!first) throw recordNotFound("AccountList", ctx.pathParams.account_list_id ?? "");
    return showResource(def, first, ctx);
  };
  const ordersOf = async (ctx: RequestContext): Promise<SummaryOrders> => {
    const names = Object.keys(orders);
    const results = names.length > 0 ? await rowsOf(ctx.db, names.map((name) => orders[name](ctx))) : [];
    return Object.fromEntries(names.map((name, index) => [name, new Map(results[index].map(({ id, ...key }) => [String(id), Object.values(key)]))]));
  };
  const answer = async (c: Context<AppEnv>, ctx: RequestContext) => {
    if (!ctx.listDatabases) return jsonApi(c, await summaryOf(ctx));
    const parts = await onEachDatabase(ctx, summaryDatabases(ctx, ctx.listDatabases), async (here) => ({ document: asSent(await summaryOf(here)), orders: await ordersOf(here) }));
    return jsonApi(c, mergeSummaryResources(parts));
  };
  return new Hono<AppEnv>().get("/", readsEachDatabase(described((c: Context<AppEnv>) => answer(c, requestContext(c)), { action: "show", resource: def, alsoSentAsPost: true })));
}
