/**
 * The read side of the engine: builds one statement per resource set (rows + linkage + computed fields),
 * runs the count and the page in one D1 batch, and loads includes with one query per relationship path.
 */
import { asc, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { currencyRates } from "../../drizzle/schema";
import { ratioFromDecimalString, type Ratio } from "../db/decimal";
import { and, inList, not, q } from "../db/sql";
import { ApiError, forbidden, recordNotFound } from "../jsonapi/errors";
import { booleanValue, listValue } from "../jsonapi/filter-values";
import { listDocument, paginationMeta, singleDocument, type ResourceObject } from "../jsonapi/document";
import type { ParamValue } from "../jsonapi/params";
import { parseDocumentParams, parsePaging, parseSort, rawFilters, rawSort, type DocumentParams, type IncludeTree } from "../jsonapi/query";
import { resourceFor, type AttributeDef, type ReadExtras, type RequestContext, type ResourceDef, type Row } from "./define";

type Selection = Record<string, SQL | SQL.Aliased | SQLiteColumn>;

interface Shape {
  attributes: string[];
  relationships: string[];
  /** Relationships whose linkage must be loaded: the shown ones plus those being included. */
  linkage: string[];
}

/** `single`: the resource is the primary data of a single-resource document (show, create, update). */
function shapeFor(def: ResourceDef, params: DocumentParams, include: IncludeTree | "all", single = false): Shape {
  const sparse = params.fields.get(def.type);
  const attributes = Object.entries(def.attributes)
    .filter(([name, attr]) => (sparse ? sparse.has(name) : attr.default !== false || (single && attr.defaultOnShow === true)))
    .map(([name]) => name);
  const included = include === "all" ? Object.keys(def.relationships) : Object.keys(include).filter((n) => n in def.relationships);
  // An included relationship is shown (full linkage) even when it is hidden by default, unless fields[] leaves it out.
  const relationships = Object.entries(def.relationships)
    .filter(([name, rel]) => (sparse ? sparse.has(name) : rel.default !== false || included.includes(name)))
    .map(([name]) => name);
  return { attributes, relationships, linkage: [...new Set([...relationships, ...included])] };
}

function columnKey(column: SQLiteColumn): string {
  return column.name;
}

function selectionFor(def: ResourceDef, shape: Shape, ctx: RequestContext): Selection {
  const selection: Selection = { id: def.idColumn };
  for (const name of shape.attributes) {
    const attr = def.attributes[name];
    if (attr.column) selection[columnKey(attr.column)] = attr.column;
    for (const column of attr.needs ?? []) selection[columnKey(column)] = column;
    // Aliased: D1 drops all but one of several result columns that share a name (two identical expressions).
    if (attr.select) selection[`$${name}`] = attr.select(ctx).as(`$${name}`);
    if (attr.shared) selection[`%${attr.shared.key}`] ??= attr.shared.select(ctx).as(`%${attr.shared.key}`);
  }
  for (const name of shape.linkage) {
    const rel = def.relationships[name];
    selection[`@${name}`] = rel.column ?? rel.select!(ctx).as(`@${name}`);
  }
  return selection;
}

function usesRates(def: ResourceDef, shape: Shape): boolean {
  return shape.attributes.some((name) => def.attributes[name].usesRates);
}

function attributeValue(attr: AttributeDef, name: string, row: Row, ctx: RequestContext, extras: ReadExtras): unknown {
  const selected = attr.column ? row[columnKey(attr.column)] : attr.shared ? row[`%${attr.shared.key}`] : row[`$${name}`];
  const value = attr.read ? attr.read(row, ctx, extras, selected) : selected;
  return value === undefined ? null : value;
}

export function linkageIds(value: unknown, kind: "one" | "many"): string[] {
  if (value === null || value === undefined) return [];
  if (kind === "one") return [String(value)];
  const parsed = typeof value === "string" ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? parsed.filter((id) => id !== null).map(String) : [];
}

export function toResourceObject(def: ResourceDef, row: Row, shape: Shape, ctx: RequestContext, extras: ReadExtras): ResourceObject {
  const object: ResourceObject = { id: String(row.id), type: def.type };
  // An empty sparse fieldset (`fields[type]=`) leaves only id and type.
  if (shape.attributes.length > 0) {
    object.attributes = {};
    for (const name of shape.attributes) object.attributes[name] = attributeValue(def.attributes[name], name, row, ctx, extras);
  }
  if (shape.relationships.length > 0) {
    object.relationships = {};
    for (const name of shape.relationships) {
      const rel = def.relationships[name];
      const ids = linkageIds(row[`@${name}`], rel.kind);
      const data = rel.kind === "one" ? (ids[0] ? { type: rel.type, id: ids[0] } : null) : ids.map((id) => ({ type: rel.type, id }));
      object.relationships[name] = { data };
    }
  }
  return object;
}

/** Rows the viewer may read: their account lists, the resource's own scope, and the nested route's parent. */
export function readScope(def: ResourceDef, ctx: RequestContext): SQL | undefined {
  const parentListId = ctx.pathParams.account_list_id;
  return and([
    def.accountListColumn ? inList(def.accountListColumn, ctx.viewer.readableListIds) : undefined,
    def.accountListColumn && parentListId ? sql`${def.accountListColumn} = ${parentListId}` : undefined,
    def.scope?.(ctx),
  ]);
}

async function loadRates(ctx: RequestContext): Promise<Map<string, Ratio>> {
  const rows = await ctx.db.select().from(currencyRates);
  return ratesMap(rows);
}

/** Currency rates keyed by upper-case code, from rows of currency_rates. */
export function ratesMap(rows: Array<{ code: string; rate: string }>): Map<string, Ratio> {
  return new Map(rows.map((r) => [r.code.toUpperCase(), ratioFromDecimalString(r.rate)]));
}

function orderFor(def: ResourceDef, ctx: RequestContext): SQL[] {
  const raw = rawSort(ctx.params);
  const allowed = Object.keys(def.sorts ?? {});
  const terms = parseSort(raw, ["created_at", "updated_at", ...allowed], def.multipleSorts ?? false);
  if (terms.length === 0) {
    return def.defaultOrder ? def.defaultOrder(ctx) : [asc(def.createdAtColumn ?? def.idColumn), asc(def.idColumn)];
  }
  const order = terms.map((term) => {
    const expression =
      def.sorts?.[term.field] ?? (term.field === "created_at" ? def.createdAtColumn : def.updatedAtColumn) ?? def.idColumn;
    const direction = term.descending ? sql`DESC` : sql`ASC`;
    const nulls = term.nulls === "first" ? sql` NULLS FIRST` : term.nulls === "last" ? sql` NULLS LAST` : sql``;
    return sql`${expression} ${direction}${nulls}`;
  });
  return [...order, asc(def.idColumn)];
}

/** The parts of a declaration that turn a filter object into conditions. */
export type FilterSet = Pick<ResourceDef, "filters" | "reversibleFilters" | "defaultFilters" | "accountListColumn">;

/**
 * Filters the resource declares, `reverse_` negation, and the account-list filter shared by every owned resource.
 * Exported so that a filter object stored elsewhere (an appeal's inclusion filter) selects rows the same way.
 */
export async function filterConditions(
  def: FilterSet,
  ctx: RequestContext,
  filters: Record<string, ParamValue> = rawFilters(ctx.params),
): Promise<{ conditions: Array<SQL | undefined>; echo: Record<string, unknown> }> {
  const echo: Record<string, unknown> = {};
  const conditions: Array<SQL | undefined> = [];
  for (const [name, value] of Object.entries(filters)) {
    if (name === "account_list_id" && def.accountListColumn && !def.filters?.account_list_id) {
      echo[name] = value;
      conditions.push(accountListFilter(def.accountListColumn, value, ctx));
      continue;
    }
    const filter = def.filters?.[name];
    if (filter) {
      echo[name] = value;
      const condition = await filter(value, ctx, filters);
      const reversed = def.reversibleFilters && booleanValue(filters[`reverse_${name}`]) === true;
      conditions.push(condition && reversed ? not(condition) : condition);
    } else if (def.reversibleFilters && name.startsWith("reverse_") && def.filters?.[name.slice(8)]) {
      echo[name] = value;
    }
  }
  conditions.push(def.defaultFilters?.(filters, ctx));
  return { conditions, echo };
}

export function accountListFilter(column: SQLWrapper, value: ParamValue, ctx: RequestContext): SQL | undefined {
  const ids = listValue(value).map((id) => id.toLowerCase());
  if (ids.length === 0) return undefined;
  for (const id of ids) {
    if (!ctx.viewer.readableListIds.includes(id)) {
      throw new ApiError(404, [{ detail: `Resource 'AccountList' with id '${id}' does not exist` }]);
    }
  }
  return inList(column, ids);
}

/** A list document: one statement for the page and its total (+ rates), then one query per include path. */
export async function listResources(def: ResourceDef, ctx: RequestContext, extra: { where?: SQL; meta?: (where: SQL | undefined) => Promise<Record<string, unknown>> } = {}) {
  const { page, perPage } = parsePaging(ctx.params);
  const params = parseDocumentParams(ctx.params);
  const order = orderFor(def, ctx);
  const { conditions, echo } = await filterConditions(def, ctx);
  const where = and([readScope(def, ctx), extra.where, ...conditions]);
  const shape = shapeFor(def, params, params.includeAll ? "all" : params.include);
  const db = ctx.db;
  const wantRates = usesRates(def, shape) || includeNeedsRates(def, params);
  const ratesQuery = db.select().from(currencyRates);
  const countQuery = db.select({ count: sql<number>`count(*)` }).from(def.table).where(where);
  let rows: Row[] = [];
  let totalCount: number | undefined;
  let rateRows: Array<{ code: string; rate: string }> = [];
  if (perPage === 0) {
    const [counted, rates] = (await (wantRates ? db.batch([countQuery, ratesQuery]) : db.batch([countQuery]))) as [Array<{ count: number }>, typeof rateRows?];
    totalCount = Number(counted[0]?.count ?? 0);
    rateRows = rates ?? [];
  } else {
    /*
     * Two steps in one statement. A narrow inner query finds the page's ids in order and, with a window count in
     * the same pass, how many rows match; only then are the wide columns (linkage and computed subqueries) read,
     * for the page's rows alone. Selecting them directly would compute them for every matching row whenever the
     * order needs a sort, and would evaluate the filters twice (once more for the count).
     */
    const pageIds = db
      .select({ id: sql<string>`${q(def.idColumn)}`.as("page_id"), total: sql<number>`count(*) OVER ()`.as("page_total") })
      .from(def.table)
      .where(where)
      .orderBy(...order)
      .limit(perPage)
      .offset((page - 1) * perPage)
      .as("page");
    const pageQuery = db
      .select({ ...selectionFor(def, shape, ctx), $total: pageIds.total })
      .from(def.table)
      .innerJoin(pageIds, sql`${q(def.idColumn)} = ${pageIds.id}`)
      .orderBy(...order);
    const [pageRows, rates] = (await (wantRates ? db.batch([pageQuery, ratesQuery]) : db.batch([pageQuery]))) as [Row[], typeof rateRows?];
    rows = pageRows;
    rateRows = rates ?? [];
    // A page past the end has no row to carry the total: count separately, only then (an empty first page is 0).
    totalCount = rows.length > 0 ? Number(rows[0].$total) : page === 1 ? 0 : Number((await countQuery)[0]?.count ?? 0);
  }
  const extras: ReadExtras = { rates: ratesMap(rateRows) };
  const data = rows.map((row) => toResourceObject(def, row, shape, ctx, extras));
  const included = await loadIncluded(def, rows, params, ctx, extras, data);
  const meta = {
    pagination: paginationMeta(page, perPage, totalCount),
    sort: rawSort(ctx.params),
    filter: echo,
    ...(extra.meta ? await extra.meta(where) : {}),
  };
  return listDocument(data, meta, included);
}

/** One resource by id: 404 when it does not exist, 403 when it exists outside the viewer's scope. */
export async function showResource(def: ResourceDef, id: string, ctx: RequestContext, scope: SQL | undefined = readScope(def, ctx)) {
  const params = parseDocumentParams(ctx.params);
  const shape = shapeFor(def, params, params.includeAll ? "all" : params.include, true);
  const row = await fetchVisibleRow(def, id, ctx, selectionFor(def, shape, ctx), scope);
  const extras: ReadExtras = { rates: usesRates(def, shape) || includeNeedsRates(def, params) ? await loadRates(ctx) : new Map() };
  const data = toResourceObject(def, row, shape, ctx, extras);
  const included = await loadIncluded(def, [row], params, ctx, extras, [data]);
  return singleDocument(data, included);
}

/** Reads a row the viewer may see, telling "not there" (404) from "not yours" (403) in one round trip. */
export async function fetchVisibleRow(def: ResourceDef, id: string, ctx: RequestContext, selection: Selection, scope: SQL | undefined): Promise<Row> {
  const byId = sql`${def.idColumn} = ${id}`;
  const [rows, existing] = (await ctx.db.batch([
    ctx.db.select(selection).from(def.table).where(and([byId, scope])).limit(1),
    ctx.db.select({ id: def.idColumn }).from(def.table).where(byId).limit(1),
  ])) as [Row[], Row[]];
  if (rows[0]) return rows[0];
  if (existing[0] && !isNestedRoute(def, ctx)) throw forbidden(id, def.type);
  throw recordNotFound(def.model, id);
}

/** Under a parent in the path (an account list, or the resource's own parentParam), another parent's record is simply not there. */
export function isNestedRoute(def: ResourceDef, ctx: RequestContext): boolean {
  return Boolean(ctx.pathParams.account_list_id || (def.parentParam && ctx.pathParams[def.parentParam]));
}

/** Included resources may show converted money; rates are loaded with the page whenever anything is included. */
function includeNeedsRates(_def: ResourceDef, params: DocumentParams): boolean {
  return params.includeAll || Object.keys(params.include).length > 0;
}

async function loadIncluded(
  rootDef: ResourceDef,
  rootRows: Row[],
  params: DocumentParams,
  ctx: RequestContext,
  extras: ReadExtras,
  primary: ResourceObject[],
): Promise<ResourceObject[] | undefined> {
  const asked = params.includeAll || Object.keys(params.include).length > 0;
  if (!asked) return undefined;
  const seen = new Set(primary.map((o) => `${o.type}:${o.id}`));
  const included: ResourceObject[] = [];
  let frontier: Array<{ def: ResourceDef; rows: Row[]; tree: IncludeTree | "all" }> = [
    { def: rootDef, rows: rootRows, tree: params.includeAll ? "all" : params.include },
  ];
  while (frontier.length > 0) {
    const pending: Array<{ def: ResourceDef; tree: IncludeTree; shape: Shape; ids: string[] }> = [];
    for (const { def, rows, tree } of frontier) {
      const names = tree === "all" ? Object.keys(def.relationships) : Object.keys(tree).filter((n) => n in def.relationships);
      for (const name of names) {
        const rel = def.relationships[name];
        const target = resourceFor(rel.resource ?? rel.type);
        if (!target) continue;
        const ids = [...new Set(rows.flatMap((row) => linkageIds(row[`@${name}`], rel.kind)))];
        if (ids.length === 0) continue;
        const subtree = tree === "all" ? {} : tree[name];
        pending.push({ def: target, tree: subtree, shape: shapeFor(target, params, subtree), ids });
      }
    }
    if (pending.length === 0) break;
    // Included rows are scoped like any read: a relationship must never carry the viewer outside their lists.
    const queries = pending.map(({ def, shape, ids }) =>
      ctx.db
        .select(selectionFor(def, shape, ctx))
        .from(def.table)
        .where(and([inList(def.idColumn, ids), def.includeScope ? def.includeScope(ctx) : readScope(def, ctx)])),
    );
    const results = (await ctx.db.batch(queries as [typeof queries[0], ...typeof queries])) as Row[][];
    frontier = [];
    pending.forEach(({ def, tree, shape, ids }, index) => {
      // Answer included resources in the order they are linked, not in the order an index returned them.
      const byId = new Map<string, Row>(results[index].map((row) => [String(row.id), row]));
      const rows = ids.flatMap((id): Row[] => { const row = byId.get(id); return row ? [row] : []; });
      for (const row of rows) {
        const key = `${def.type}:${row.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        included.push(toResourceObject(def, row, shape, ctx, extras));
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
export async function readResourcesById(def: ResourceDef, ids: string[], ctx: RequestContext): Promise<Map<string, ResourceObject>> {
  if (ids.length === 0) return new Map();
  const shape = shapeFor(def, parseDocumentParams(ctx.params), {});
  const query = ctx.db.select(selectionFor(def, shape, ctx)).from(def.table).where(and([readScope(def, ctx), inList(def.idColumn, ids)]));
  const [rows, rateRows] = (usesRates(def, shape) ? await ctx.db.batch([query, ctx.db.select().from(currencyRates)]) : [await query, []]) as [
    Row[],
    Array<{ code: string; rate: string }>,
  ];
  const extras: ReadExtras = { rates: ratesMap(rateRows) };
  return new Map(rows.map((row) => [String(row.id), toResourceObject(def, row, shape, ctx, extras)]));
}
