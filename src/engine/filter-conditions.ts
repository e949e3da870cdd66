/**
 * A request's filters as SQL conditions, from the filters a resource declares: `reverse_` negation, the
 * account-list filter every owned resource shares, and the lists a list request can return.
 */
import type { SQL, SQLWrapper } from "drizzle-orm";
import { inList, not, notAmong } from "../db/sql";
import { ApiError } from "../jsonapi/errors";
import { booleanValue, isBlankValue, listValue } from "../jsonapi/filter-values";
import { ownEntry, type ParamValue } from "../jsonapi/params";
import { rawFilters } from "../jsonapi/query";
import type { DefaultExclusion, FilterDef, RequestContext, ResourceDef } from "./define";
import { routeLists } from "./scope";

/** The parts of a declaration that turn a filter object into conditions. */
export type FilterSet = Pick<ResourceDef, "filters" | "reversibleFilters" | "defaultFilters" | "defaultExclusion" | "accountListColumn">;

/** The filter `name` the resource declares, or for `account_list_id` the account-list filter every owned resource shares. */
function filterNamed(def: FilterSet, name: string): FilterDef | undefined {
  const declared = ownEntry(def.filters, name);
  if (declared || name !== "account_list_id" || !def.accountListColumn) return declared;
  const column = def.accountListColumn;
  return (value, ctx) => accountListFilter(column, value, ctx);
}

/** Whether `filter[reverse_<name>]=true` negates the filter `name`: only where the resource's filters can be negated. */
function isReversed(def: Pick<ResourceDef, "reversibleFilters">, filters: Record<string, ParamValue>, name: string): boolean {
  return def.reversibleFilters === true && booleanValue(filters[`reverse_${name}`]) === true;
}

/**
 * Filters the resource declares, `reverse_` negation, and the account-list filter shared by every owned resource.
 * Exported so that a filter object stored elsewhere (an appeal's inclusion filter) selects rows the same way.
 */
export async function filterConditions(
  def: FilterSet,
  ctx: RequestContext,
  filters: Record<string, ParamValue> = rawFilters(ctx.params),
): Promise<{ conditions: Array<SQL | undefined>; echo: Record<string, unknown>; exclusion?: DefaultExclusion; narrowing: Narrowing }> {
  const echo: Record<string, unknown> = {};
  const conditions: Array<SQL | undefined> = [];
  const narrowing: Narrowing = { filters: [], reversed: [], byDefault: false };
  for (const [name, value] of Object.entries(filters)) {
    const filter = filterNamed(def, name);
    if (filter) {
      echo[name] = value;
      // A blank value (a cleared field of a filter form) is no filter, whatever the filter's value form (list, date
      // range, map box, min/max object); a value that is not blank gets the filter's own checks.
      const condition = isBlankValue(value) ? undefined : await filter(value, ctx, filters);
      const reversed = isReversed(def, filters, name);
      if (condition) (reversed ? narrowing.reversed : narrowing.filters).push(name);
      conditions.push(condition && reversed ? not(condition) : condition);
    } else if (def.reversibleFilters && name.startsWith("reverse_") && filterNamed(def, name.slice(8))) {
      echo[name] = value;
    }
  }
  const byDefault = def.defaultFilters?.(filters, ctx);
  narrowing.byDefault = byDefault !== undefined;
  conditions.push(byDefault);
  const exclusion = def.defaultExclusion?.(filters, ctx);
  if (exclusion) conditions.push(notAmong(exclusion.column, exclusion.values));
  return { conditions, echo, exclusion, narrowing };
}

/** Which filters gave a condition (plainly or reversed), and whether the resource's default filters did. */
export interface Narrowing {
  filters: string[];
  reversed: string[];
  byDefault: boolean;
}

export function accountListFilter(column: SQLWrapper, value: ParamValue, ctx: RequestContext): SQL | undefined {
  const ids = requestedLists(value);
  if (ids.length === 0) return undefined;
  const readable = ctx.viewer.allReadableListIds ?? ctx.viewer.readableListIds;
  for (const id of ids) {
    if (!readable.includes(id)) {
      throw new ApiError(404, [{ detail: `Resource 'AccountList' with id '${id}' does not exist` }]);
    }
  }
  return inList(column, ids);
}

/** The account list ids `filter[account_list_id]` names. */
function requestedLists(value: ParamValue): string[] {
  return listValue(value).map((id) => id.toLowerCase());
}

/**
 * The account lists whose rows a list request can return: the viewer's, narrowed to the nested route's parent
 * and to those `filter[account_list_id]` names, or when reversed to the viewer's others (every resource's
 * account-list filter, the shared one or a resource's own, is `accountListFilter`).
 */
export function listsInScope(def: ResourceDef, ctx: RequestContext, filters: Record<string, ParamValue>): string[] {
  const lists = routeLists(ctx);
  const named = filters.account_list_id === undefined ? [] : requestedLists(filters.account_list_id);
  if (named.length === 0) return lists;
  const reversed = isReversed(def, filters, "account_list_id");
  return lists.filter((id) => named.includes(id) !== reversed);
}
