import type { RequestContext, ResourceDef } from "../engine/define";
import { planList, summarizePlan, type RouteListing } from "./list-plan";
import { runList } from "./run-list";
import { spreadList } from "./spread-list";

/**
 * A resource's list as a route answers it: planned and run on the request's database, or, where the viewer's lists
 * it covers are on several (`listDatabases`, src/routing.ts), on each of them and merged (src/read/spread-list.ts).
 */
export async function listResources(def: ResourceDef, ctx: RequestContext, route: RouteListing = {}) {
  if (ctx.listDatabases && ctx.listDatabases.length > 1) return spreadList(def, ctx, route, ctx.listDatabases);
  await route.beforeReading?.(ctx);
  const plan = await planList(def, ctx, route);
  ctx.log?.({ plan: summarizePlan(plan) });
  return runList(plan, ctx);
}
