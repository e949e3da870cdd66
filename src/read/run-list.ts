/**
 * The executor of a list plan (src/read/list-plan.ts) on one database. What it answers is a kind of run, chosen
 * by whoever runs it, never read from the request:
 * - `page`: the page asked for, rendered; streamed when it is long;
 * - `choose`: one database's part of a list over several (src/read/spread-list.ts), its first rows' ids and order keys;
 * - `render`: the rows of the page chosen from the parts that this database holds, rendered.
 *
 * A page is one D1 batch (its ids, its rows, its total, the rates), then one query per include path.
 */
import { sql, type SQL } from "drizzle-orm";
import { q } from "../db/sql";
import { rowsOf } from "../db/statements";
import type { PartKeys } from "../db/list-parts";
import type { ReadExtras, RequestContext, Row } from "../engine/define";
import { ratesMap, withRates } from "../engine/rates";
import { listDocument, paginationMeta, type ListMeta } from "../jsonapi/document";
import { asksForIncludes } from "../jsonapi/query";
import type { StreamedDocument } from "../jsonapi/respond";
import { loadIncluded } from "./included";
import { carriedKeys, NOTHING_CARRIED, orderedPage, orderKeyName, ownColumnsPage, type Carried } from "./list-pages";
import type { ListPlan, ListWindow } from "./list-plan";
import { RecordSet } from "../engine/record-set";
import { STREAMED_PAGE_ROWS, streamedDocument } from "./streamed-list";

export type ListRun = { kind: "page" } | PartRun;

/** A database's part of a list over several (src/read/spread-list.ts). */
export type PartRun =
  /** The first `rows` rows' ids and order keys, and the total unless the rows were counted already (`uncounted`). */
  | { kind: "choose"; rows: number; uncounted?: boolean; report: (keys: PartKeys) => void }
  /** These rows, rendered, with their order keys. */
  | { kind: "render"; ids: string[]; report: (keys: PartKeys) => void };

type ListDocument = ReturnType<typeof listDocument>;

const PAGE: ListRun = { kind: "page" };

export function runList(plan: ListPlan, ctx: RequestContext, run: PartRun): Promise<ListDocument>;
export function runList(plan: ListPlan, ctx: RequestContext, run?: ListRun): Promise<ListDocument | StreamedDocument>;
export async function runList(plan: ListPlan, ctx: RequestContext, run: ListRun = PAGE): Promise<ListDocument | StreamedDocument> {
  // A part answers from its first row, up to the rows it is asked for, whatever page the request names.
  const window: ListWindow = run.kind === "page" ? plan.window : { page: 1, perPage: run.kind === "choose" ? run.rows : run.ids.length, offset: 0 };
  if (window.perPage === 0) return countOnly(plan, ctx, run, window);
  if (run.kind === "page" && window.perPage > STREAMED_PAGE_ROWS) return streamedPage(plan, ctx, window);
  if (run.kind === "choose") return chosenRows(plan, ctx, run, window);
  return renderedRows(plan, ctx, run, window);
}

/** A page of no rows: its total alone. */
async function countOnly(plan: ListPlan, ctx: RequestContext, run: ListRun, window: ListWindow) {
  if (run.kind !== "page") run.report({ terms: termsOf(plan), rows: new Map() });
  const [counted, rates] = await withRates(ctx.db, plan.count, plan.rates);
  const included = await loadIncluded(plan.def, [], plan.document, ctx, { rates: ratesMap(rates) }, RecordSet.of([]));
  return listDocument([], await metaOf(plan, window, Number(counted[0]?.count ?? 0)), included);
}

/**
 * The ids of a page in order, and beside them what `carry` names. Two ways to count the total with them: when the
 * conditions look at the row's own columns only, the count is a statement of its own, and it and the page each take
 * their best index; when they read other tables (tags, addresses, donations, text search), evaluating them twice
 * costs more than it saves, so the page counts its matches with a window in the same pass (`page_total`).
 */
function pageIds(plan: ListPlan, { perPage, offset }: ListWindow, carry: Carried = NOTHING_CARRIED): SQL {
  if (plan.readsOtherTables) return orderedPage(plan.def, plan.where, orderBy(plan), perPage, offset, { withTotal: true, carry });
  return ownColumnsPage(plan.def, plan.lists, plan.where, plan.order, perPage, offset, carry);
}

/** The total beside each row of a page: from the page's own pass, or the plan's count. */
function totalOf(plan: ListPlan): SQL {
  return plan.readsOtherTables ? sql`"page"."page_total"` : sql`(${plan.count})`;
}

/**
 * A long page: the ids and the total first; the records are read and encoded chunk by chunk as the body is sent. The
 * ids come in the page's order as its query gives them: reading each row again to sort them would double the rows
 * read of a sparse page (the web app's "select all" of 25,000 tasks).
 */
async function streamedPage(plan: ListPlan, ctx: RequestContext, window: ListWindow): Promise<StreamedDocument> {
  const idsQuery = sql`SELECT "page"."page_id" AS "id", ${totalOf(plan)} AS "$total" FROM (${pageIds(plan, window)}) AS "page"`;
  const [idRows, rates] = await withRates(ctx.db, idsQuery, plan.rates);
  const total = idRows.length > 0 ? Number(idRows[0].$total) : await totalPastTheEnd(plan, ctx, window);
  const extras: ReadExtras = { rates: ratesMap(rates) };
  const include = asksForIncludes(plan.document) ? (rows: Row[], seen: RecordSet) => loadIncluded(plan.def, rows, plan.document, ctx, extras, seen) : undefined;
  const meta = await metaOf(plan, window, total);
  return streamedDocument({ def: plan.def, ctx, plan: plan.shown, ids: idRows.map((row) => String(row.id)), meta, extras, include });
}

/**
 * One database's part choosing a page over several: its first rows' ids with their order keys, taken from the rows
 * that chose them (reading each row again by id would cost two rows read per row of the page).
 */
async function chosenRows(plan: ListPlan, ctx: RequestContext, run: Extract<ListRun, { kind: "choose" }>, window: ListWindow) {
  const carry = carriedKeys(plan.order, true);
  // Rows already counted are not counted again.
  const total = run.uncounted ? sql`0` : totalOf(plan);
  const [rows] = await rowsOf(ctx.db, [sql`SELECT "page"."page_id" AS "id", ${total} AS "$total"${carry.names} FROM (${pageIds(plan, window, carry)}) AS "page"`]);
  run.report({ terms: termsOf(plan), rows: keysOf(plan, rows), rendered: rendersAsIdentity(plan) });
  const counted = rows.length > 0 ? Number(rows[0].$total) : run.uncounted ? 0 : await totalPastTheEnd(plan, ctx, window, true);
  // Members in the order a rendered row has them (`ReadPlan.toResourceObject`): the rows may be the answer's.
  const chosen = rows.map((row) => ({ id: String(row.id), type: plan.def.type }));
  return listDocument(chosen, await metaOf(plan, window, counted));
}

/** The page asked for, or the rows of a page chosen over several databases (`render`), rendered with what they include. */
async function renderedRows(plan: ListPlan, ctx: RequestContext, run: ListRun, window: ListWindow) {
  const { def, shown } = plan;
  const rendering = run.kind === "render";
  // A part's rows carry their order keys, for the merge to put them in order.
  const orderKeys = rendering ? sql`, ${sql.join(plan.order.keys.map(({ expression }, index) => sql`${expression} AS ${sql.identifier(orderKeyName(index))}`), sql`, `)}` : sql``;
  const query = rendering
    ? // Rows a list over several databases already chose: read by id, no order walked, no total counted. The CROSS
      // JOIN keeps SQLite from walking the list's rows instead of looking the few ids up by key.
      sql`SELECT ${shown.selectList(ctx)}, 0 AS "$total"${orderKeys}
        FROM json_each(${JSON.stringify(run.ids)}) AS "chosen" CROSS JOIN ${def.table} ON ${q(def.idColumn)} = "chosen"."value" WHERE ${plan.where} ORDER BY ${orderBy(plan)}`
    : // A narrow inner query finds the page's ids in order; only then are the wide columns (linkage and computed
      // subqueries) read, for the page's rows alone (selecting them directly would compute them for every matching
      // row whenever the order needs a sort).
      sql`SELECT ${shown.selectList(ctx)}, ${totalOf(plan)} AS "$total"
        FROM ${def.table} INNER JOIN (${pageIds(plan, window)}) AS "page" ON ${q(def.idColumn)} = "page"."page_id" ORDER BY ${orderBy(plan)}`;
  const [pageRows, rates] = await withRates(ctx.db, query, plan.rates);
  if (rendering) run.report({ terms: termsOf(plan), rows: keysOf(plan, pageRows) });
  const rows = shown.decode(pageRows);
  const total = rows.length > 0 || rendering ? Number(rows[0]?.$total ?? 0) : await totalPastTheEnd(plan, ctx, window);
  const extras: ReadExtras = { rates: ratesMap(rates) };
  const data = rows.map((row) => shown.toResourceObject(row, ctx, extras));
  const included = await loadIncluded(def, rows, plan.document, ctx, extras, RecordSet.of(data));
  return listDocument(data, await metaOf(plan, window, total), included);
}

/**
 * The total of a page that has no row to carry it: a page past the end is counted on its own, only then. An empty
 * first page has none (`always`: a part choosing rows is counted, whatever its page).
 */
async function totalPastTheEnd(plan: ListPlan, ctx: RequestContext, window: ListWindow, always = false): Promise<number> {
  if (window.page === 1 && !always) return 0;
  return Number((await rowsOf(ctx.db, [plan.count]))[0][0]?.count ?? 0);
}

async function metaOf(plan: ListPlan, { page, perPage }: ListWindow, total: number): Promise<ListMeta> {
  return { pagination: paginationMeta(page, perPage, total), ...plan.meta, ...(plan.routeMeta ? await plan.routeMeta(plan.where) : {}) };
}

const orderBy = (plan: ListPlan) => sql.join(plan.order.terms, sql`, `);

/** How each order key sorts, for a merge of parts to compare them. */
const termsOf = (plan: ListPlan): PartKeys["terms"] => plan.order.keys.map(({ descending, nulls }) => ({ descending, nulls }));

/** Each row's order key, by id. */
const keysOf = (plan: ListPlan, rows: Row[]) => new Map(rows.map((row) => [String(row.id), plan.order.keys.map((_, index) => row[orderKeyName(index)])]));

/** Whether nothing of a row is shown but its identity (an empty sparse fieldset, no include): its id is its rendering. */
const rendersAsIdentity = (plan: ListPlan) => plan.shown.shape.attributes.length === 0 && plan.shown.shape.relationships.length === 0 && !asksForIncludes(plan.document);
