/**
 * A list read as a plan: everything a list request asks, resolved once against the resource's declaration into a
 * plain value (the lists in scope, the conditions, the order, the page window, the fields shown and the include
 * tree). The executor (src/read/run-list.ts) runs it; nothing below the plan reads the request's parameters again.
 */
import { getTableName, sql, type SQL } from "drizzle-orm";
import { listRowCounts } from "../../drizzle/schema";
import { and, inList, inOrder, isCandidateSource, noneOf, q } from "../db/sql";
import { otherTableReads, sqlText } from "../db/statements";
import type { DefaultExclusion, RequestContext, ResourceDef } from "../engine/define";
import { filterConditions, listsInScope, type Narrowing } from "../engine/filter-conditions";
import { readPlan, shapeFor, type ReadPlan } from "../engine/read-plan";
import { readScope, routeLists } from "../engine/scope";
import { ownEntry, type ParamValue } from "../jsonapi/params";
import { parseListQuery, type DocumentParams } from "../jsonapi/query";
import { includeNeedsRates, includePlan, includeTree, type IncludeStep } from "./included";
import { listOrder, sortTerms, type ListOrder } from "./list-order";
import type { ListsInScope } from "./list-pages";

/** The rows of the list a page shows: page `page` of `perPage` rows, from row `offset`. */
export interface ListWindow {
  page: number;
  perPage: number;
  offset: number;
}

export interface ListPlan {
  def: ResourceDef;
  /** The account lists whose rows it can return, and its conditions but their scope (to read a list at a time). */
  lists: ListsInScope;
  /** Every condition: the viewer's scope, the route's own, the filters'. */
  where: SQL | undefined;
  /** Whether a condition reads other tables: the page then counts its total in the same pass over the rows. */
  readsOtherTables: boolean;
  /** The total's statement: the counts kept per list where they answer it (`countKept`), else a count of the matching rows. */
  count: SQL;
  countKept: boolean;
  order: ListOrder;
  window: ListWindow;
  /** The fields shown (sparse fieldsets) and the includes, as asked. */
  document: DocumentParams;
  /** The select list and decoding of the fields each row shows. */
  shown: ReadPlan;
  /** What each row includes, step by step (none when nothing is asked). */
  includes: IncludeStep[] | undefined;
  /** Whether the rows or what they include show money converted at the stored rates (read in the same batch). */
  rates: boolean;
  /** The answer's `meta` besides its pagination: the sort as sent, the filters taken. */
  meta: { sort: string | null; filter: Record<string, unknown> };
  /** A route's own `meta` members, computed over the same conditions (an appeal's donation totals). */
  routeMeta?: (where: SQL | undefined) => Promise<Record<string, unknown>>;
}

/** A plan as plain values, for a test to print and the request log to carry: SQL with its placeholders, no values (they may be personal). */
export interface PlanSummary {
  type: string;
  lists: number;
  conditions: string | null;
  order: string[];
  window: ListWindow;
  fields: string[];
  includes: string[];
  total: "kept counts" | "counted";
}

export function summarizePlan(plan: ListPlan): PlanSummary {
  const steps = (below: IncludeStep[] = [], prefix = ""): string[] => below.flatMap((step) => [`${prefix}${step.name}`, ...steps(step.below, `${prefix}${step.name}.`)]);
  return {
    type: plan.def.type,
    lists: plan.lists.ids.length,
    conditions: plan.where ? sqlText(plan.where) : null,
    order: plan.order.terms.map(sqlText),
    window: plan.window,
    fields: [...plan.shown.shape.attributes, ...plan.shown.shape.relationships],
    includes: steps(plan.includes),
    total: plan.countKept ? "kept counts" : "counted",
  };
}

/**
 * What a route adds to its resource's list: its own condition (a webhook's deliveries), its own `meta`, and what it
 * does on each database it reads before reading it (the duplicate finder's look).
 */
export interface RouteListing {
  where?: SQL;
  meta?: (where: SQL | undefined) => Promise<Record<string, unknown>>;
  beforeReading?: (ctx: RequestContext) => Promise<void>;
}

/** The plan of a list request: its parameters parsed and checked once, its filters compiled from the declaration. */
export async function planList(def: ResourceDef, ctx: RequestContext, route: RouteListing = {}): Promise<ListPlan> {
  const query = parseListQuery(ctx.params);
  const order = listOrder(def, ctx, sortTerms(def, query.sort));
  const { conditions, echo, exclusion, narrowing } = await filterConditions(def, ctx, query.filters);
  const { where, readsOtherTables } = listWhere([readScope(def, ctx), route.where], conditions);
  const shown = readPlan(def, shapeFor(def, query.document, includeTree(def, query.document)));
  const kept = route.where === undefined ? maintainedTotal(def, ctx, query.filters, narrowing, exclusion) : undefined;
  return {
    def,
    lists: scopedLists(def, ctx, query.filters, listWhere([def.scope?.(ctx), route.where], conditions).where),
    where,
    readsOtherTables,
    count: kept ?? countOf(def, where),
    countKept: kept !== undefined,
    order,
    window: query.paging,
    document: query.document,
    shown,
    includes: includePlan(def, query.document),
    rates: shown.usesRates || includeNeedsRates(query.document),
    meta: { sort: query.sort, filter: echo },
    routeMeta: route.meta,
  };
}

function scopedLists(def: ResourceDef, ctx: RequestContext, filters: Record<string, ParamValue>, where: SQL | undefined): ListsInScope {
  const ids = listsInScope(def, ctx, filters);
  return { ids, where, narrowed: ids.length < routeLists(ctx).length };
}

const countOf = (def: ResourceDef, where: SQL | undefined) => sql`SELECT count(*) AS "count" FROM ${def.table}${where ? sql` WHERE ${where}` : sql``}`;

/**
 * The total of a list read from the counts kept per account list and bucket (`maintainedCounts`), when nothing
 * but its account lists, its default exclusion and the counted column's own filter narrows it: a handful of rows
 * instead of every row in scope (the default task page at 100,000 contacts counted 450,000 index entries).
 */
function maintainedTotal(
  def: ResourceDef,
  ctx: RequestContext,
  filters: Record<string, ParamValue>,
  narrowing: Narrowing,
  exclusion: DefaultExclusion | undefined,
): SQL | undefined {
  const counts = def.maintainedCounts;
  if (!counts || def.scope || narrowing.byDefault || narrowing.reversed.some((name) => name !== "account_list_id")) return undefined;
  if (exclusion && exclusion.column !== counts.column) return undefined;
  const filtered = narrowing.filters.filter((name) => name !== "account_list_id");
  const kept = filtered.length === 1 && !exclusion ? ownEntry(counts.keptTotals ?? {}, filtered[0]) : undefined;
  if (kept) return kept(filters[filtered[0]], ctx, listsInScope(def, ctx, filters));
  let buckets: string[] | undefined;
  if (filtered.length > 0) {
    if (filtered.length > 1 || filtered[0] !== counts.filter?.name) return undefined;
    buckets = counts.filter.buckets(filters[counts.filter.name]);
    if (buckets === undefined) return undefined;
  }
  const conditions = [
    sql`${q(listRowCounts.tableName)} = ${getTableName(def.table)}`,
    inList(q(listRowCounts.accountListId), listsInScope(def, ctx, filters)),
    buckets ? inList(q(listRowCounts.bucket), buckets) : undefined,
    exclusion ? noneOf(q(listRowCounts.bucket), exclusion.values) : undefined,
  ];
  // Through its key whatever the planner's statistics say: taken while the counts were few, they made it scan every
  // list's counts (121 rows for the viewer's 3 lists among 40), a cost that grows with the lists of the deployment.
  return sql`SELECT coalesce(sum(${q(listRowCounts.rows)}), 0) AS "count" FROM ${listRowCounts} INDEXED BY ${sql.identifier(LIST_ROW_COUNTS_KEY)} WHERE ${and(conditions)}`;
}

/** The index SQLite made for list_row_counts' primary key (table_name, account_list_id, bucket). */
const LIST_ROW_COUNTS_KEY = "sqlite_autoindex_list_row_counts_1";

/**
 * The scope, conditions on the row's own columns and candidate sources stay plain terms, for the planner to
 * choose an index from. Conditions that read other tables cost index lookups for every candidate row; they are
 * checked after those, each only on the rows still left, those that read the fewest tables first (a tag or a
 * donation date before a text search across people, e-mails and phones).
 */
function listWhere(scope: Array<SQL | undefined>, conditions: Array<SQL | undefined>): { where: SQL | undefined; readsOtherTables: boolean } {
  const plain: SQL[] = [];
  const checks: Array<{ condition: SQL; reads: number }> = [];
  // Whether any term reads other tables (which decides how the page counts its total; `pageIds` in src/read/run-list.ts).
  let readsOtherTables = scope.some((part) => part !== undefined && otherTableReads(part) > 0);
  for (const condition of conditions) {
    if (!condition) continue;
    const reads = otherTableReads(condition);
    if (reads > 0) readsOtherTables = true;
    if (reads === 0 || isCandidateSource(condition)) plain.push(condition);
    else checks.push({ condition, reads });
  }
  checks.sort((a, b) => a.reads - b.reads);
  return { where: and([...scope, ...plain, inOrder(checks.map((check) => check.condition))]), readsOtherTables };
}
