/**
 * The read side of the engine: one statement per resource set (rows + linkage + computed fields, the page and
 * its total together), and one query per include path. Statements are written here with the select list of
 * the shape's read plan; rows come back as D1 gives them and are decoded by the plan, not by a query builder.
 */
import { Column, getTableName, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { getTableConfig, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { currencyRates, listRowCounts } from "../../drizzle/schema";
import { ratioFromDecimalString, type Ratio } from "../decimal";
import { and, compoundOf, MOST_COMPOUND_TERMS, inList, inOrder, isCandidateSource, literal, noneOf, not, notAmong, or, q } from "../db/sql";
import { boundParameters, otherTableReads, rowsAfter, rowsOf, type BuiltQuery, type Rows } from "../db/statements";
import { ApiError, forbidden, recordNotFound } from "../jsonapi/errors";
import { booleanValue, isBlankValue, listValue } from "../jsonapi/filter-values";
import { listDocument, paginationMeta, singleDocument, type ResourceObject } from "../jsonapi/document";
import { clientObject, ownEntry, type ParamValue } from "../jsonapi/params";
import { asksForIncludes, parseDocumentParams, parseListQuery, parseSort, rawFilters, type DocumentParams, type IncludeTree } from "../jsonapi/query";
import { resourceFor, type BatchStatement, type DefaultExclusion, type FilterDef, type OrderKey, type OrderPart, type OrderWalk, type ReadExtras, type RequestContext, type ResourceDef, type Row } from "./define";
import { linkageIds, readPlan, shapeFor, type ReadPlan, type Shape } from "./read-plan";
import { STREAMED_PAGE_ROWS, streamedDocument } from "./streamed-list";
import { RecordSet } from "./record-set";

type RateRow = { code: string; rate: string };

/** The viewer's account lists, or under /account_lists/:account_list_id that one list (none when not theirs). */
function routeLists(ctx: RequestContext): string[] {
  const parent = ctx.pathParams.account_list_id;
  return parent ? ctx.viewer.readableListIds.filter((id) => id === parent) : ctx.viewer.readableListIds;
}

/**
 * Rows the viewer may reach through a relationship: those they may include in an answer, and the only ones a
 * write may link by id (see `checkLinkable` in write.ts).
 */
export function linkableScope(def: ResourceDef, ctx: RequestContext): SQL | undefined {
  return def.includeScope ? def.includeScope(ctx) : readScope(def, ctx);
}

/** Rows the viewer may read: their account lists (the nested route's parent only), and the resource's own scope. */
export function readScope(def: ResourceDef, ctx: RequestContext): SQL | undefined {
  return and([def.accountListColumn ? inList(def.accountListColumn, routeLists(ctx)) : undefined, def.scope?.(ctx)]);
}

/** Currency rates keyed by upper-case code, from rows of currency_rates. */
export function ratesMap(rows: Array<{ code: string; rate: string }>): Map<string, Ratio> {
  return new Map(rows.map((r) => [r.code.toUpperCase(), ratioFromDecimalString(r.rate)]));
}

interface ListOrder {
  /** The order's terms, the id last; `terms` is the same as SQL. */
  keys: OrderKey[];
  terms: SQL[];
  /**
   * The default order's first parts (`defaultOrderParts`), the default order within each part and the rest, and
   * how an index walks the rest (`defaultOrderRest`).
   */
  parts?: { first: OrderPart[]; within: SQL[]; rest?: OrderWalk };
  /**
   * The column the order starts with, when an index that has it after the account list can give the rows in
   * that order (a plain column, ascending or descending, NULLs where SQLite keeps them).
   */
  leadingColumn?: SQLiteColumn;
  /** The order as plain columns, when every term is one (no expression, no NULLS placement). */
  columns?: Array<{ column: SQLiteColumn; descending: boolean }>;
}

function orderTerm({ expression, descending, nulls }: OrderKey): SQL {
  return sql`${expression} ${descending ? sql`DESC` : sql`ASC`}${nulls === "first" ? sql` NULLS FIRST` : nulls === "last" ? sql` NULLS LAST` : sql``}`;
}

function orderOf(keys: OrderKey[], rest: Omit<ListOrder, "keys" | "terms"> = {}): ListOrder {
  return { keys, terms: keys.map(orderTerm), ...rest };
}

function orderFor(def: ResourceDef, ctx: RequestContext, raw: string | null): ListOrder {
  const allowed = Object.keys(def.sorts ?? {});
  const terms = parseSort(raw, ["created_at", "updated_at", ...allowed], def.multipleSorts ?? false);
  if (terms.length === 0) {
    if (def.defaultOrder) {
      const within = def.defaultOrder(ctx);
      const first = def.defaultOrderParts?.(ctx) ?? [];
      if (first.length === 0) return orderOf(within);
      const rank = sql`CASE ${sql.join(first.map((part, index) => sql`WHEN ${part.condition} THEN ${sql.raw(String(index))}`), sql` `)} ELSE ${sql.raw(String(first.length))} END`;
      return orderOf([{ expression: rank, descending: false }, ...within], { parts: { first, within: within.map(orderTerm), rest: def.defaultOrderRest?.(ctx) } });
    }
    const leadingColumn = def.createdAtColumn ?? def.idColumn;
    const columns = [leadingColumn, def.idColumn].map((column) => ({ column, descending: false }));
    return orderOf(columns.map(({ column }) => ({ expression: column, descending: false })), { leadingColumn, columns });
  }
  const expressions = terms.map(
    (term) => ownEntry(def.sorts, term.field) ?? (term.field === "created_at" ? def.createdAtColumn : def.updatedAtColumn) ?? def.idColumn,
  );
  const keys: OrderKey[] = terms.map((term, index) => ({ expression: expressions[index], descending: term.descending, nulls: term.nulls }));
  const leading = expressions[0];
  const plain = terms.every((term, index) => expressions[index] instanceof Column && term.nulls === undefined);
  return orderOf([...keys, { expression: def.idColumn, descending: false }], {
    leadingColumn: leading instanceof Column && terms[0].nulls === undefined ? (leading as SQLiteColumn) : undefined,
    columns: plain
      ? [...terms.map((term, index) => ({ column: expressions[index] as SQLiteColumn, descending: term.descending })), { column: def.idColumn, descending: false }]
      : undefined,
  });
}

const listOrderIndexes = new Map<string, boolean>();

/** Whether the table has an index that starts with the account list column and then the order's column. */
function hasListOrderIndex(listColumn: SQLiteColumn, orderColumn: SQLiteColumn): boolean {
  const key = `${getTableName(listColumn.table)}.${listColumn.name}.${orderColumn.name}`;
  let known = listOrderIndexes.get(key);
  if (known === undefined) {
    known = getTableConfig(listColumn.table).indexes.some(({ config }) => config.columns[0] === listColumn && config.columns[1] === orderColumn);
    listOrderIndexes.set(key, known);
  }
  return known;
}

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
function listsInScope(def: ResourceDef, ctx: RequestContext, filters: Record<string, ParamValue>): string[] {
  const lists = routeLists(ctx);
  const named = filters.account_list_id === undefined ? [] : requestedLists(filters.account_list_id);
  if (named.length === 0) return lists;
  const reversed = isReversed(def, filters, "account_list_id");
  return lists.filter((id) => named.includes(id) !== reversed);
}

function scopedLists(def: ResourceDef, ctx: RequestContext, filters: Record<string, ParamValue>, where: SQL | undefined): ListsInScope {
  const ids = listsInScope(def, ctx, filters);
  return { ids, where, narrowed: ids.length < routeLists(ctx).length };
}

/** A list document: one statement for the page and its total (+ rates), then one query per include path. */
export async function listResources(def: ResourceDef, ctx: RequestContext, extra: { where?: SQL; meta?: (where: SQL | undefined) => Promise<Record<string, unknown>> } = {}) {
  const query = parseListQuery(ctx.params);
  // One database's part of a list over several answers the first rows up to the page's end (src/routing.ts).
  const { page, perPage, offset } = ctx.listPart ? { page: 1, perPage: ctx.listPart.rows, offset: 0 } : query.paging;
  const params = query.document;
  const listOrder = orderFor(def, ctx, query.sort);
  const order = sql.join(listOrder.terms, sql`, `);
  const { conditions, echo, exclusion, narrowing } = await filterConditions(def, ctx, query.filters);
  const scope = readScope(def, ctx);
  const { where, readsOtherTables } = listWhere([scope, extra.where], conditions);
  const plan = readPlan(def, shapeFor(def, params, includeTree(def, params)));
  const wantRates = plan.usesRates || includeNeedsRates(params);
  const countQuery = (extra.where === undefined ? maintainedTotal(def, ctx, query.filters, narrowing, exclusion) : undefined) ?? countOf(def, where);
  let rows: Row[] = [];
  let totalCount: number;
  let rateRows: RateRow[];
  const orderTerms = listOrder.keys.map(({ descending, nulls }) => ({ descending, nulls }));
  if (perPage === 0) {
    ctx.listPart?.report?.({ terms: orderTerms, rows: new Map() });
    const [counted, rates] = await withRates(ctx, countQuery, wantRates);
    totalCount = Number(counted[0]?.count ?? 0);
    rateRows = rates;
  } else {
    /*
     * Two steps in one statement. A narrow inner query finds the page's ids in order; only then are the wide
     * columns (linkage and computed subqueries) read, for the page's rows alone (selecting them directly would
     * compute them for every matching row whenever the order needs a sort).
     *
     * The total comes with the page in one of two ways. When the conditions only look at the row's own columns,
     * the count is its own subquery: it and the page each take their best index, and the page's sort keeps just
     * the rows it shows. When they read other tables (tags, addresses, donations, text search), evaluating them
     * twice costs more than it saves, so the page query counts its matches with a window in the same pass.
     */
    const id = q(def.idColumn);
    const countOnce = readsOtherTables;
    const report = ctx.listPart?.report;
    const idsOnly = ctx.listPart?.idsOnly === true;
    // A part that only names its rows takes their order keys from the rows that chose them: reading each row
    // again by id would cost two rows read per row of the page.
    const carry: Carried = idsOnly ? carriedKeys(listOrder, true) : NOTHING_CARRIED;
    // Rendering rows a list over several databases already chose: read by id, no order walked, no total counted.
    const rendering = ctx.listPart?.ids !== undefined;
    // The CROSS JOIN keeps SQLite from walking the list's rows instead of looking the few ids up by key.
    const pageIds = countOnce
      ? orderedPage(def, where, order, perPage, offset, { withTotal: true, carry })
      : ownColumnsPage(def, scopedLists(def, ctx, query.filters, listWhere([def.scope?.(ctx), extra.where], conditions).where), where, listOrder, perPage, offset, carry);
    if (perPage > STREAMED_PAGE_ROWS && !ctx.listPart) {
      // The ids and the total first; the records are read and encoded chunk by chunk as the body is sent. The ids
      // come in the page's order as its query gives them: reading each row again to sort them would double the
      // rows read of a sparse page (the web app's "select all" of 25,000 tasks).
      const idsQuery = sql`SELECT "page"."page_id" AS "id", ${countOnce ? sql`"page"."page_total"` : sql`(${countQuery})`} AS "$total" FROM (${pageIds}) AS "page"`;
      const [idRows, rates] = await withRates(ctx, idsQuery, wantRates);
      const total = idRows.length > 0 ? Number(idRows[0].$total) : page === 1 ? 0 : Number((await rowsOf(ctx.db, [countQuery]))[0][0]?.count ?? 0);
      const extras: ReadExtras = { rates: ratesMap(rates) };
      const meta = { pagination: paginationMeta(page, perPage, total), sort: query.sort, filter: echo, ...(extra.meta ? await extra.meta(where) : {}) };
      const include = asksForIncludes(params) ? (rows: Row[], seen: RecordSet) => loadIncluded(def, rows, params, ctx, extras, seen) : undefined;
      return streamedDocument({ def, ctx, plan, ids: idRows.map((row) => String(row.id)), meta, extras, include });
    }
    const orderKeys = report && !idsOnly ? sql`, ${sql.join(listOrder.keys.map(({ expression }, index) => sql`${expression} AS ${sql.identifier(orderKeyName(index))}`), sql`, `)}` : sql``;
    // Rows already chosen, or already counted, are not counted again.
    const counted = !rendering && ctx.listPart?.uncounted !== true;
    const total = !counted ? sql`0` : countOnce ? sql`"page"."page_total"` : sql`(${countQuery})`;
    const pageQuery = idsOnly
      ? sql`SELECT "page"."page_id" AS "id", ${total} AS "$total"${carry.names} FROM (${pageIds}) AS "page"`
      : rendering
        ? // The CROSS JOIN keeps SQLite from walking the list's rows instead of looking the few ids up by key.
          sql`SELECT ${plan.selectList(ctx)}, ${total} AS "$total"${orderKeys}
            FROM json_each(${JSON.stringify(ctx.listPart!.ids)}) AS "chosen" CROSS JOIN ${def.table} ON ${id} = "chosen"."value" WHERE ${where} ORDER BY ${order}`
        : sql`SELECT ${plan.selectList(ctx)}, ${total} AS "$total"${orderKeys}
            FROM ${def.table} INNER JOIN (${pageIds}) AS "page" ON ${id} = "page"."page_id" ORDER BY ${order}`;
    const [pageRows, rates] = await withRates(ctx, pageQuery, wantRates && !idsOnly);
    report?.({
      terms: orderTerms,
      rows: new Map(pageRows.map((row) => [String(row.id), listOrder.keys.map((_, index) => row[orderKeyName(index)])])),
      rendered: idsOnly && plan.shape.attributes.length === 0 && plan.shape.relationships.length === 0 && !asksForIncludes(params),
    });
    if (idsOnly) {
      const total = pageRows.length > 0 ? Number(pageRows[0].$total) : counted ? Number((await rowsOf(ctx.db, [countQuery]))[0][0]?.count ?? 0) : 0;
      // Members in the order a rendered row has them (`ReadPlan.toResourceObject`): the rows may be the answer's.
      const chosen = pageRows.map((row) => ({ id: String(row.id), type: def.type }));
      return listDocument(chosen, { pagination: paginationMeta(page, perPage, total), sort: query.sort, filter: echo, ...(extra.meta ? await extra.meta(where) : {}) });
    }
    rows = plan.decode(pageRows);
    rateRows = rates;
    // A page past the end has no row to carry the total: count separately, only then (an empty first page is 0).
    totalCount = rows.length > 0 || rendering ? Number(rows[0]?.$total ?? 0) : page === 1 ? 0 : Number((await rowsOf(ctx.db, [countQuery]))[0][0]?.count ?? 0);
  }
  const extras: ReadExtras = { rates: ratesMap(rateRows) };
  const data = rows.map((row) => plan.toResourceObject(row, ctx, extras));
  const included = await loadIncluded(def, rows, params, ctx, extras, RecordSet.of(data));
  const meta = {
    pagination: paginationMeta(page, perPage, totalCount),
    sort: query.sort,
    filter: echo,
    ...(extra.meta ? await extra.meta(where) : {}),
  };
  return listDocument(data, meta, included);
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

/** What a page's ids carry beside them: the order keys a part of a list over several databases reports. */
interface Carried {
  /** Selected where the page's rows are read (`, expression AS "$order_0", …`). */
  select: SQL;
  /** The same values passed on by name (`, "$order_0", …`). */
  names: SQL;
  /**
   * The rows go to a merge that orders them by these keys (src/db/merge.ts): a page put together from parts
   * answers every part's rows unsorted, sparing the sort (a row read for each row sorted). They hold the page's
   * rows, as the cut page would; the merge cuts. Only while the parts' rows stay few (`unsorted`).
   */
  merged: boolean;
}

/** The most rows a page put together from parts answers unsorted to a merge: past it, the page is cut here. */
const UNSORTED_ROWS = 2_000;

/** Whether the parts' rows go to the merge as they are, or sorted and cut to the page here. */
const unsorted = (carry: Carried, parts: number, end: number) => carry.merged && parts * end <= UNSORTED_ROWS;

const NOTHING_CARRIED: Carried = { select: sql``, names: sql``, merged: false };

const orderKeyName = (index: number) => `$order_${index}`;

function carriedKeys(listOrder: ListOrder, merged = false): Carried {
  return {
    select: sql.join(listOrder.keys.map(({ expression }, index) => sql`, ${expression} AS ${sql.identifier(orderKeyName(index))}`), sql``),
    names: sql.join(listOrder.keys.map((_, index) => sql`, ${sql.identifier(orderKeyName(index))}`), sql``),
    merged,
  };
}

/** A page's ids (`page_id`) in order, from one pass over the matching rows; `withTotal` counts them all too (a window). */
function orderedPage(def: ResourceDef, where: SQL | undefined, order: SQL, limit: number | SQL, offset: number, { withTotal = false, carry = NOTHING_CARRIED } = {}): SQL {
  const limited = typeof limit === "number" ? literal(limit) : limit;
  return sql`SELECT ${q(def.idColumn)} AS "page_id"${carry.select}${withTotal ? sql`, count(*) OVER () AS "page_total"` : sql``}
    FROM ${def.table}${where ? sql` WHERE ${where}` : sql``} ORDER BY ${order} LIMIT ${limited} OFFSET ${literal(offset)}`;
}

/** Bounds of reading a page in parts (`ownColumnsPage`): past them one sort of every matching row is cheaper or safer. */
const PAGE_IN_PARTS = {
  /** Lists read one by one (each adds a subquery). */
  maxLists: 8,
  /** Rows read from each part: the page's end (`offset + per_page`). */
  maxRowsPerPart: 1000,
  /** Parameters the parts bind together, leaving room under D1's 100 for the rest of the statement. */
  maxParameters: 50,
};

/**
 * The ids of one page whose conditions look at the row's own columns only, in order, read in parts when that
 * reads fewer rows than one sort of every matching row:
 * - list by list, when an index gives each account list's rows in the order (`listByListPage`);
 * - the order's first parts apart from the rest, when the order puts the rows meeting conditions first
 *   (`partsPage`).
 * Each part is read up to the page's end: the first `offset + perPage` rows of all parts are among the first
 * `offset + perPage` of each.
 */
/**
 * The account lists a list request reads, and its conditions without the account-list scope: a part read within
 * one of those lists needs no other check of its list.
 */
interface ListsInScope {
  ids: string[];
  where: SQL | undefined;
  /** Whether the account-list filter left out some of the lists the route reaches. */
  narrowed?: boolean;
}

/** One list's rows of those in scope, meeting `condition` too: the piece a page read list by list walks. */
function inOneList(listColumn: SQLiteColumn, listId: string, lists: ListsInScope, condition?: SQL): SQL | undefined {
  return and([sql`${listColumn} = ${literal(listId)}`, lists.where, condition]);
}

function ownColumnsPage(def: ResourceDef, lists: ListsInScope, where: SQL | undefined, listOrder: ListOrder, perPage: number, offset: number, carry: Carried): SQL {
  const order = sql.join(listOrder.terms, sql`, `);
  const whole = () => orderedPage(def, where, order, perPage, offset, { carry });
  const walked = walkedPage(def, lists, listOrder, perPage, offset, carry);
  if (walked) return walked;
  if (offset + perPage > PAGE_IN_PARTS.maxRowsPerPart) return whole();
  const listColumn = def.accountListColumn;
  if (
    listColumn !== undefined &&
    listOrder.leadingColumn !== undefined &&
    hasListOrderIndex(listColumn, listOrder.leadingColumn) &&
    // One list left by the account-list filter is walked alone too: the scope's other lists, ruled out by a
    // condition the planner does not see through, would otherwise have every row of theirs sorted.
    (lists.ids.length >= 2 || (lists.ids.length === 1 && lists.narrowed === true)) &&
    lists.ids.length <= PAGE_IN_PARTS.maxLists
  ) {
    const page = listByListPage(def, listColumn, lists, listOrder, perPage, offset, carry);
    if (boundParameters(page) <= PAGE_IN_PARTS.maxParameters) return page;
  }
  if (listOrder.parts) {
    const page = partsPage(def, lists, where, listOrder, perPage, offset, carry);
    if (boundParameters(page) <= PAGE_IN_PARTS.maxParameters) return page;
  }
  return whole();
}

/**
 * A page in a default order whose every part an index walks (`defaultOrderParts` and `defaultOrderRest`), at any
 * depth and size, without sorting the rows before it: each part is read by walking each list's index in the
 * part's order, the lists merged as they are walked (SQLite merges the terms of a compound SELECT whose ORDER BY
 * each term's index gives, reading each only as far as the merge takes it), and the parts follow one another up
 * to the page's end. A part the page does not reach is not read. Rows read: those before the page's end, and
 * for a part that passes over another's rows (the tasks after the overdue ones pass over those), those too.
 *
 * Not taken past D1's five terms of a compound SELECT (lists at once): a nested merge is a sort of its terms.
 */
function walkedPage(def: ResourceDef, lists: ListsInScope, listOrder: ListOrder, perPage: number, offset: number, carry: Carried): SQL | undefined {
  const parts = listOrder.parts;
  const listColumn = def.accountListColumn;
  if (!parts?.rest || !listColumn || lists.ids.length === 0 || lists.ids.length > MOST_COMPOUND_TERMS) return undefined;
  const walks = [...parts.first.map((part) => part.walk && { condition: part.condition, walk: part.walk }), { condition: not(or(parts.first.map((part) => part.condition))!), walk: parts.rest }];
  if (walks.some((part) => part === undefined)) return undefined;
  const end = offset + perPage;
  const keyName = (index: number) => sql.identifier(`$walk_${index}`);
  const segments = walks.map((part) => {
    const { condition, walk } = part!;
    const keys = sql.join(walk.keys.map(({ expression }, index) => sql`, ${expression} AS ${keyName(index)}`), sql``);
    const from = walk.index ? sql`${def.table} INDEXED BY ${sql.identifier(walk.index)}` : def.table;
    const terms = lists.ids.map(
      (listId) => sql`SELECT ${q(def.idColumn)} AS "page_id"${keys}${carry.select} FROM ${from} WHERE ${inOneList(listColumn, listId, lists, condition)}`,
    );
    const byKeys = sql.join(walk.keys.map(({ descending }, index) => sql`${keyName(index)} ${sql.raw(descending ? "DESC" : "ASC")}`), sql`, `);
    return sql`SELECT "page_id"${carry.names} FROM (${sql.join(terms, sql` UNION ALL `)} ORDER BY ${byKeys} LIMIT ${literal(end)})`;
  });
  const page = sql`SELECT "page_id"${carry.names} FROM (${compoundOf(segments, "UNION ALL")} LIMIT ${literal(perPage)} OFFSET ${literal(offset)})`;
  return boundParameters(page) <= PAGE_IN_PARTS.maxParameters ? page : undefined;
}

/**
 * A page taken from the rows each part gave (`partOf`), in the whole order: each part's rows carry their order
 * keys, so the page is sorted from them without reading the table again (two rows read for each part's row).
 */
function pageOfParts(listOrder: ListOrder, partOf: (keys: Carried) => { parts: SQL[]; with?: SQL[] }, perPage: number, offset: number, carry: Carried): SQL {
  const { parts, with: defined = [] } = partOf(carriedKeys(listOrder));
  const union = compoundOf(parts.map((part) => sql`SELECT * FROM (${part})`), "UNION ALL");
  const byKeys = sql.join(listOrder.keys.map((key, index) => orderTerm({ ...key, expression: sql`${sql.identifier(orderKeyName(index))}` })), sql`, `);
  const prefix = defined.length > 0 ? sql`WITH ${sql.join(defined, sql`, `)} ` : sql``;
  if (unsorted(carry, parts.length, offset + perPage)) return sql`${prefix}SELECT "page_id"${carry.names} FROM (${union})`;
  return sql`${prefix}SELECT "page_id"${carry.names} FROM (${union}) ORDER BY ${byKeys} LIMIT ${perPage} OFFSET ${offset}`;
}

/**
 * Over several account lists SQLite reads one index range per list as one unordered set, so ORDER BY sorts every
 * matching row to keep a page (all of a viewer's contacts for the default page). When an index gives each list's
 * rows in the order, each list is walked in it up to the page's end instead. (Without such an index each list
 * would be sorted on its own, which costs more than one sort: the default task order.) When the order is plain
 * columns, each list's rows carry them, so the page is sorted from those rows without reading the table again.
 */
function listByListPage(def: ResourceDef, listColumn: SQLiteColumn, lists: ListsInScope, listOrder: ListOrder, perPage: number, offset: number, carry: Carried): SQL {
  const end = offset + perPage;
  const order = sql.join(listOrder.terms, sql`, `);
  const columns = listOrder.columns;
  const within = (listId: string) => inOneList(listColumn, listId, lists);
  if (!columns) return pageOfParts(listOrder, (keys) => ({ parts: lists.ids.map((listId) => orderedPage(def, within(listId), order, end, 0, { carry: keys })) }), perPage, offset, carry);
  const keys = columns.map((_, index) => sql.raw(`"order_key_${index}"`));
  const carried = sql.join(columns.map(({ column }, index) => sql`${q(column)} AS ${keys[index]}`), sql`, `);
  const pieces = lists.ids.map(
    (listId) => sql`SELECT * FROM (SELECT ${q(def.idColumn)} AS "page_id", ${carried}${carry.select} FROM ${def.table} WHERE ${within(listId)} ORDER BY ${order} LIMIT ${literal(end)})`,
  );
  const keyOrder = sql.join(columns.map(({ descending }, index) => sql`${keys[index]} ${sql.raw(descending ? "DESC" : "ASC")}`), sql`, `);
  if (unsorted(carry, pieces.length, end)) return sql`SELECT "page_id"${carry.names} FROM (${compoundOf(pieces, "UNION ALL")})`;
  return sql`SELECT "page_id"${carry.names} FROM (${compoundOf(pieces, "UNION ALL")}) ORDER BY ${keyOrder} LIMIT ${perPage} OFFSET ${offset}`;
}

/**
 * An order that puts the rows meeting conditions first (the default task order: overdue first) has no index to
 * give it whole, so it takes a sort; but each first part is read only for what the parts before it leave of the
 * page's end, and the rest only for what all of them leave: SQLite reads nothing for a LIMIT of 0. Counting a
 * part's rows stops at the page's end too. A part whose order an index gives is walked in it, list by list, up
 * to that end, instead of sorted (the overdue tasks of a viewer at 100,000 contacts: about 70,000).
 */
function partsPage(def: ResourceDef, lists: ListsInScope, where: SQL | undefined, listOrder: ListOrder, perPage: number, offset: number, carry: Carried): SQL {
  const parts = listOrder.parts!;
  const end = offset + perPage;
  const within = sql.join(parts.within, sql`, `);
  return pageOfParts(
    listOrder,
    (keys) => {
      const pieces: SQL[] = [];
      // What each part leaves of the page's end, counted once per part from what the part before left (a part
      // left nothing reads nothing), each kept in a one-row table its successors read.
      const lefts: SQL[] = [];
      const left = () => (lefts.length === 0 ? literal(end) : sql`(SELECT "n" FROM ${sql.identifier(`left_${lefts.length}`)})`);
      for (const part of parts.first) {
        const rows = and([where, part.condition]);
        const limit = left();
        if (part.walk && def.accountListColumn && lists.ids.length <= PAGE_IN_PARTS.maxLists) {
          const listColumn = def.accountListColumn;
          const indexOrder = sql.join(part.walk.keys.map(orderTerm), sql`, `);
          pieces.push(...lists.ids.map((listId) => orderedPage(def, inOneList(listColumn, listId, lists, part.condition), indexOrder, limit, 0, { carry: keys })));
        } else {
          pieces.push(orderedPage(def, rows, within, limit, 0, { carry: keys }));
        }
        lefts.push(
          sql`${sql.identifier(`left_${lefts.length + 1}`)} AS MATERIALIZED (SELECT max(0, ${limit} - (SELECT count(*) FROM (SELECT 1 FROM ${def.table} WHERE ${rows} LIMIT ${limit}))) AS "n")`,
        );
      }
      const rest = and([where, not(or(parts.first.map((part) => part.condition))!)]);
      pieces.push(orderedPage(def, rest, within, left(), 0, { carry: keys }));
      return { parts: pieces, with: lefts };
    },
    perPage,
    offset,
    carry,
  );
}

/**
 * The scope, conditions on the row's own columns and candidate sources stay plain terms, for the planner to
 * choose an index from. Conditions that read other tables cost index lookups for every candidate row; they are
 * checked after those, each only on the rows still left, those that read the fewest tables first (a tag or a
 * donation date before a text search across people, e-mails and phones).
 */
function listWhere(scope: Array<SQL | undefined>, conditions: Array<SQL | undefined>): { where: SQL | undefined; readsOtherTables: boolean } {
  const plain: SQL[] = [];
  const checks: Array<{ condition: SQL; reads: number }> = [];
  // Whether any term reads other tables (which decides how the page counts its total; see listResources).
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

/** Every stored currency rate, for `ratesMap`; a statement of its own so it can join any round trip. */
export const RATES = sql`SELECT ${q(currencyRates.code)} AS "code", ${q(currencyRates.rate)} AS "rate" FROM ${currencyRates}`;

/** Runs a query, with the currency rates in the same D1 batch when they are wanted. */
async function withRates(ctx: RequestContext, query: SQL, wanted: boolean): Promise<[Row[], RateRow[]]> {
  const [rows, rates = []] = await rowsOf(ctx.db, wanted ? [query, RATES] : [query]);
  return [rows, rates as RateRow[]];
}

/**
 * One resource by id: 404 when it does not exist, 403 when it exists outside the viewer's scope. `writes` run first
 * in the same atomic batch, so an update is answered with the row it wrote.
 */
export async function showResource(def: ResourceDef, id: string, ctx: RequestContext, scope: SQL | undefined = readScope(def, ctx), writes: BatchStatement[] = []) {
  const params = parseDocumentParams(ctx.params);
  const plan = readPlan(def, shapeFor(def, params, includeTree(def, params), true));
  const { row, rates } = await visibleRow(def, id, ctx, plan, scope, plan.usesRates || includeNeedsRates(params), writes);
  const extras: ReadExtras = { rates };
  const data = plan.toResourceObject(row, ctx, extras);
  const included = await loadIncluded(def, [row], params, ctx, extras, RecordSet.of([data]));
  return singleDocument(data, included);
}

/** Throws the 404 or 403 of `showResource` unless the viewer may read the record. */
export async function assertVisible(def: ResourceDef, id: string, ctx: RequestContext): Promise<void> {
  await visibleRow(def, id, ctx, undefined, readScope(def, ctx), false);
}

/** Reads a row the viewer may see, telling "not there" (404) from "not yours" (403), in one round trip. */
async function visibleRow(
  def: ResourceDef,
  id: string,
  ctx: RequestContext,
  plan: ReadPlan | undefined,
  scope: SQL | undefined,
  wantRates: boolean,
  writes: BatchStatement[] = [],
): Promise<{ row: Row; rates: Map<string, Ratio> }> {
  const byId = sql`${q(def.idColumn)} = ${id}`;
  const select = plan ? plan.selectList(ctx) : sql`${q(def.idColumn)} AS "id"`;
  const queries = [
    sql`SELECT ${select} FROM ${def.table} WHERE ${and([byId, scope])} LIMIT 1`,
    sql`SELECT 1 AS "found" FROM ${def.table} WHERE ${byId} LIMIT 1`,
  ];
  const reads = wantRates ? [...queries, RATES] : queries;
  const [rows, existing, rateRows] = writes.length > 0 ? await rowsAfter(ctx.db, writes as unknown as BuiltQuery[], reads) : await rowsOf(ctx.db, reads);
  if (rows[0]) return { row: plan ? plan.decode(rows)[0] : rows[0], rates: ratesMap((rateRows ?? []) as RateRow[]) };
  if (existing[0] && !isNestedRoute(def, ctx) && !def.scopeHidesRows) throw forbidden(id, def.type);
  throw recordNotFound(def.model, id);
}

/** Under a parent in the path (an account list, or the resource's own parentParam), another parent's record is simply not there. */
export function isNestedRoute(def: ResourceDef, ctx: RequestContext): boolean {
  return Boolean(ctx.pathParams.account_list_id || (def.parentParam && ctx.pathParams[def.parentParam]));
}

/**
 * What a read of `def` includes: `include=*` adds every direct relationship to the paths named, whose nested paths
 * still apply (`*,account_list.users` includes the account list's users as well as every relationship).
 */
function includeTree(def: ResourceDef, params: DocumentParams): IncludeTree {
  if (!params.includeAll) return params.include;
  return Object.assign(clientObject<IncludeTree>(), Object.fromEntries(Object.keys(def.relationships).map((name) => [name, {}])), params.include);
}

/** Included resources may show converted money; rates are loaded with the page whenever anything is included. */
function includeNeedsRates(params: DocumentParams): boolean {
  return asksForIncludes(params);
}

/**
 * An order of the types an include tree includes, each after the types it is included below: an included record
 * links only to types after its own (and to the primary data's, never in `included`), so following
 * linkage through `included` always goes on to a later type and ends. A reader resolving linkage that way with no
 * guard against cycles (the web app's) would otherwise go round for ever: a person included through a contact's
 * people and that person's e-mail addresses name each other, as two contacts included as referrals do. A
 * relationship the tree itself goes on through is kept. The order depends on the request alone, so a record
 * answers alike on a small page and on a streamed one (docs/decisions.md).
 */
function includedTypeOrder(rootDef: ResourceDef, rootTree: IncludeTree): Map<string, number> {
  // The types in the order the tree first reaches them (breadth first), and which type the tree includes below which.
  const reached: string[] = [];
  const below = new Map<string, Set<string>>();
  let level: Array<{ def: ResourceDef; tree: IncludeTree; included: boolean }> = [{ def: rootDef, tree: rootTree, included: false }];
  while (level.length > 0) {
    const next: typeof level = [];
    for (const { def, tree, included } of level) {
      for (const name of Object.keys(tree).filter((n) => n in def.relationships)) {
        const rel = def.relationships[name];
        const target = resourceFor(rel.resource ?? rel.type);
        if (!target) continue;
        if (!reached.includes(target.type)) reached.push(target.type);
        if (included && def.type !== target.type) below.set(target.type, (below.get(target.type) ?? new Set()).add(def.type));
        next.push({ def: target, tree: tree[name], included: true });
      }
    }
    level = next;
  }
  // Each type after every type the tree includes it below (a type reached at two depths, as users through a task's
  // `user` and its `account_list.users`, goes after the deeper one's parent), else in the order first reached.
  // The primary data's type, where it is included too, goes as late as it can: links to it mostly name primary data.
  const candidates = [...reached.filter((type) => type !== rootDef.type), ...reached.filter((type) => type === rootDef.type)];
  const order = new Map<string, number>();
  while (order.size < reached.length) {
    const ready = candidates.find((type) => !order.has(type) && [...(below.get(type) ?? [])].every((above) => order.has(above)));
    // Types the tree itself includes in a circle are put in the order first reached.
    order.set(ready ?? candidates.find((type) => !order.has(type))!, order.size);
  }
  return order;
}

/** The shape of a record included along `tree`, its links to types no later than its own left out (`includedTypeOrder`). */
function linkingOnward(def: ResourceDef, shape: Shape, tree: IncludeTree, order: Map<string, number>): Shape {
  const own = order.get(def.type)!;
  const relationships = shape.relationships.filter((name) => {
    const rank = order.get(def.relationships[name].type);
    return name in tree || rank === undefined || rank > own;
  });
  return relationships.length === shape.relationships.length ? shape : { ...shape, relationships };
}

/** What `rootRows` include, leaving out the records already answered (`seen`, which it adds to). */
async function loadIncluded(
  rootDef: ResourceDef,
  rootRows: Row[],
  params: DocumentParams,
  ctx: RequestContext,
  extras: ReadExtras,
  seen: RecordSet,
): Promise<ResourceObject[] | undefined> {
  if (!asksForIncludes(params)) return undefined;
  const included: ResourceObject[] = [];
  const rootTree = includeTree(rootDef, params);
  const typeOrder = includedTypeOrder(rootDef, rootTree);
  let frontier: Array<{ def: ResourceDef; rows: Row[]; tree: IncludeTree }> = [{ def: rootDef, rows: rootRows, tree: rootTree }];
  while (frontier.length > 0) {
    const pending: Array<{ def: ResourceDef; tree: IncludeTree; plan: ReadPlan; ids: string[] }> = [];
    for (const { def, rows, tree } of frontier) {
      for (const name of Object.keys(tree).filter((n) => n in def.relationships)) {
        const rel = def.relationships[name];
        const target = resourceFor(rel.resource ?? rel.type);
        if (!target) continue;
        const ids = [...new Set(rows.flatMap((row) => linkageIds(row[`@${name}`], rel.kind, rel.identifierMembers)))];
        if (ids.length === 0) continue;
        const subtree = tree[name];
        pending.push({ def: target, tree: subtree, plan: readPlan(target, linkingOnward(target, shapeFor(target, params, subtree), subtree, typeOrder)), ids });
      }
    }
    if (pending.length === 0) break;
    // Included rows are scoped like any read: a relationship must never carry the viewer outside their lists.
    const results = await rowsOf(
      ctx.db,
      pending.map(
        ({ def, plan, ids }) =>
          sql`SELECT ${plan.selectList(ctx)} FROM ${def.table} WHERE ${and([inList(q(def.idColumn), ids), linkableScope(def, ctx)])}`,
      ),
    );
    frontier = [];
    pending.forEach(({ def, tree, plan, ids }, index) => {
      // Answer included resources in the order they are linked, not in the order an index returned them.
      const byId = new Map<string, Row>(plan.decode(results[index]).map((row) => [String(row.id), row]));
      const rows = ids.flatMap((id): Row[] => { const row = byId.get(id); return row ? [row] : []; });
      for (const row of rows) {
        if (seen.add(def.type, String(row.id))) included.push(plan.toResourceObject(row, ctx, extras));
      }
      if (Object.keys(tree).length > 0) frontier.push({ def, rows, tree });
    });
  }
  return included;
}

/**
 * Several resources by id as their resource objects (no includes), in one query: for answers that hold many
 * written resources, such as bulk endpoints.
 */
export async function readResourcesById(def: ResourceDef, ids: string[], ctx: RequestContext, writes: BatchStatement[] = [], { asShown = false } = {}): Promise<Map<string, ResourceObject>> {
  if (ids.length === 0 && writes.length === 0) return new Map();
  const read = resourcesByIdRead(def, ids, ctx, { asShown });
  // `writes` run first in the same atomic batch: the rows answered are the ones they wrote.
  return read.resources(writes.length > 0 ? await rowsAfter(ctx.db, writes as unknown as BuiltQuery[], read.queries) : await rowsOf(ctx.db, read.queries));
}

/**
 * The statements of `readResourcesById` (to run in a batch with others), and what makes the resources of their rows.
 * `asShown`: every field a show answers (an export), not only a list's.
 */
export function resourcesByIdRead(def: ResourceDef, ids: string[], ctx: RequestContext, { asShown = false } = {}): { queries: SQL[]; resources: (rows: Rows[]) => Map<string, ResourceObject> } {
  const plan = readPlan(def, shapeFor(def, parseDocumentParams(ctx.params), {}, asShown));
  const query = sql`SELECT ${plan.selectList(ctx)} FROM ${def.table} WHERE ${and([readScope(def, ctx), inList(q(def.idColumn), ids)])}`;
  return {
    queries: plan.usesRates ? [query, RATES] : [query],
    resources: ([rows, rateRows = []]) => {
      const extras: ReadExtras = { rates: ratesMap(rateRows as RateRow[]) };
      return new Map(plan.decode(rows).map((row) => [String(row.id), plan.toResourceObject(row, ctx, extras)]));
    },
  };
}

/**
 * The resource object a stored row would be answered as (no includes), from a JSON snapshot of its columns taken
 * when it was written (a webhook event's, drizzle/webhook-triggers.ts): the resource's own read plan runs over the
 * snapshot in place of the table, so attributes read from the row are as they were then; attributes computed from
 * other tables are read as those are now. `otherTables`: further common table expressions, named as tables, that
 * stand in for those tables (a narrower view of them). `snapshotRead` gives the statements (to run in a batch with
 * others) and what makes the resource of their rows.
 */
export interface SnapshotRead {
  queries: SQL[];
  resource: (rows: Rows[]) => ResourceObject | undefined;
}

export function snapshotRead(def: ResourceDef, snapshot: string, ctx: RequestContext, otherTables: SQL[] = []): SnapshotRead {
  const plan = readPlan(def, shapeFor(def, parseDocumentParams({}), {}, true));
  const columns = getTableConfig(def.table).columns.map((column) => column.name);
  const asRow = sql.raw(columns.map((name) => `json_extract(snapshot.row, '$.${name}') AS "${name}"`).join(", "));
  const others = otherTables.length > 0 ? sql`, ${sql.join(otherTables, sql`, `)}` : sql``;
  const query = sql`WITH snapshot(row) AS (SELECT ${snapshot}), ${sql.identifier(getTableName(def.table))} AS (SELECT ${asRow} FROM snapshot)${others}
    SELECT ${plan.selectList(ctx)} FROM ${def.table}`;
  return {
    queries: plan.usesRates ? [query, RATES] : [query],
    resource: ([rows, rateRows = []]) => {
      const [row] = plan.decode(rows);
      return row ? plan.toResourceObject(row, ctx, { rates: ratesMap(rateRows as RateRow[]) }) : undefined;
    },
  };
}

export async function resourceFromSnapshot(def: ResourceDef, snapshot: string, ctx: RequestContext, otherTables: SQL[] = []): Promise<ResourceObject | undefined> {
  const read = snapshotRead(def, snapshot, ctx, otherTables);
  return read.resource(await rowsOf(ctx.db, read.queries));
}
