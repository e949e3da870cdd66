/**
 * The executor of a list plan (src/read/list-plan.ts) on one database. What it answers is a kind of run, chosen
 * by whoever runs it, never read from the request:
 * - `page`: the page asked for, rendered; streamed when it is long;
 * - `choose`: one database's part of a list over several (src/read/spread-list.ts), its first rows' ids and order keys;
 * - `render`: the rows of the page chosen from the parts that this database holds, rendered.
 *
 * Every run is one pipeline: the run's statement (`runStatement`), one D1 round trip (with the rates where money is
 * shown), and the answer made of its rows (`answerOf`), which reads further only for what the rows include, for
 * the records of a streamed page as it is sent, and for the total of a page past the end.
 */
import { sql, type SQL } from "drizzle-orm";
import { q } from "../db/sql";
import { rowsOf } from "../db/statements";
import type { PartKeys } from "../db/list-parts";
import type { ReadExtras, RequestContext, Row } from "../engine/define";
import { RATES, ratesMap, type RateRow } from "../engine/rates";
import { RecordSet } from "../engine/record-set";
import { listDocument, paginationMeta } from "../jsonapi/document";
import type { StreamedDocument } from "../jsonapi/respond";
import { loadIncluded } from "./included";
import { carriedKeys, NOTHING_CARRIED, orderedPage, orderKeyName, ownColumnsPage, type Carried } from "./list-pages";
import type { ListPlan, ListWindow } from "./list-plan";
import { STREAMED_PAGE_ROWS, streamedDocument } from "./streamed-list";

export type ListRun = { kind: "page" } | PartRun;

/** A database's part of a list over several (src/read/spread-list.ts). */
export type PartRun =
  /** The first `rows` rows' ids and order keys, and the total unless the rows were counted already (`uncounted`). */
  | { kind: "choose"; rows: number; uncounted?: boolean; report: (keys: PartKeys) => void }
  /**
   * These rows, rendered, with their order keys; what they include is left to the page they are merged into, which
   * takes the rows read (`rendered`) to load it in the merged page's order.
   */
  | { kind: "render"; ids: string[]; report: (keys: PartKeys) => void; rendered: (rows: Row[], extras: ReadExtras) => void };

type ListDocument = ReturnType<typeof listDocument>;

const PAGE: ListRun = { kind: "page" };

export function runList(plan: ListPlan, ctx: RequestContext, run: PartRun): Promise<ListDocument>;
export function runList(plan: ListPlan, ctx: RequestContext, run?: ListRun): Promise<ListDocument | StreamedDocument>;
export async function runList(plan: ListPlan, ctx: RequestContext, run: ListRun = PAGE): Promise<ListDocument | StreamedDocument> {
  // A part answers from its first row, up to the rows it is asked for, whatever page the request names.
  const window: ListWindow = run.kind === "page" ? plan.window : { page: 1, perPage: run.kind === "choose" ? run.rows : run.ids.length, offset: 0 };
  const statement = runStatement(plan, ctx, run, window);
  // Rates only where rows are shown: a count or a part choosing rows shows no money.
  const showsRows = window.perPage > 0 && run.kind !== "choose";
  const [rows, rates = []] = await rowsOf(ctx.db, plan.rates && showsRows ? [statement, RATES] : [statement]);
  return answerOf(plan, ctx, run, window, rows, rates as RateRow[]);
}

/** A page past `STREAMED_PAGE_ROWS` rows is sent as it is read (src/read/streamed-list.ts). */
const isStreamed = (run: ListRun, window: ListWindow) => run.kind === "page" && window.perPage > STREAMED_PAGE_ROWS;

/**
 * The one statement of a run:
 * - no rows (`per_page=0`, or a part only counting): the total;
 * - a streamed page: its ids in order and the total, the records being read as the body is sent (reading each row
 *   again to sort them would double the rows read of a sparse page: the web app's "select all" of 25,000 tasks);
 * - a part choosing rows: their ids with their order keys, taken from the rows that chose them (reading each row
 *   again by id would cost two rows read per row), and the total unless it was counted already;
 * - a part rendering rows chosen: those rows by id, with their order keys, no order walked and nothing counted;
 * - a page: a narrow inner query finds its ids in order, and only then are the wide columns (linkage and computed
 *   subqueries) read, for the page's rows alone (selecting them directly would compute them for every matching row
 *   whenever the order needs a sort).
 */
function runStatement(plan: ListPlan, ctx: RequestContext, run: ListRun, window: ListWindow): SQL {
  const { def, shown } = plan;
  const orderBy = sql.join(plan.order.terms, sql`, `);
  if (window.perPage === 0) return plan.count;
  if (isStreamed(run, window)) return sql`SELECT "page"."page_id" AS "id", ${totalBeside(plan)} AS "$total" FROM (${pageIds(plan, window)}) AS "page"`;
  if (run.kind === "choose") {
    const carry = carriedKeys(plan.order, true);
    return sql`SELECT "page"."page_id" AS "id", ${run.uncounted ? sql`0` : totalBeside(plan)} AS "$total"${carry.names} FROM (${pageIds(plan, window, carry)}) AS "page"`;
  }
  if (run.kind === "render") {
    const orderKeys = sql.join(plan.order.keys.map(({ expression }, index) => sql`, ${expression} AS ${sql.identifier(orderKeyName(index))}`), sql``);
    // The CROSS JOIN keeps SQLite from walking the list's rows instead of looking the few ids up by key.
    return sql`SELECT ${shown.selectList(ctx)}, 0 AS "$total"${orderKeys}
      FROM json_each(${JSON.stringify(run.ids)}) AS "chosen" CROSS JOIN ${def.table} ON ${q(def.idColumn)} = "chosen"."value" WHERE ${plan.where} ORDER BY ${orderBy}`;
  }
  return sql`SELECT ${shown.selectList(ctx)}, ${totalBeside(plan)} AS "$total"
    FROM ${def.table} INNER JOIN (${pageIds(plan, window)}) AS "page" ON ${q(def.idColumn)} = "page"."page_id" ORDER BY ${orderBy}`;
}

/**
 * The ids of a page in order, and beside them what `carry` names. Two ways to count the total with them: when the
 * conditions look at the row's own columns only, the count is a statement of its own, and it and the page each take
 * their best index; when they read other tables (tags, addresses, donations, text search), evaluating them twice
 * costs more than it saves, so the page counts its matches with a window in the same pass (`page_total`).
 */
function pageIds(plan: ListPlan, { perPage, offset }: ListWindow, carry: Carried = NOTHING_CARRIED): SQL {
  if (plan.readsOtherTables) return orderedPage(plan.def, plan.where, sql.join(plan.order.terms, sql`, `), perPage, offset, { withTotal: true, carry });
  return ownColumnsPage(plan.def, plan.lists, plan.where, plan.order, perPage, offset, carry);
}

/** The total beside each row of a page: from the page's own pass, or the plan's count. */
function totalBeside(plan: ListPlan): SQL {
  return plan.readsOtherTables ? sql`"page"."page_total"` : sql`(${plan.count})`;
}

/**
 * The answer of a run from its statement's rows. Everything taken from the plan is taken first; then what needs
 * D1 again: the total of a page past the end (it has no row to carry it; an empty first page is 0, and a part
 * choosing rows is counted whatever its page), the records of a streamed page, what the rows include.
 */
async function answerOf(plan: ListPlan, ctx: RequestContext, run: ListRun, window: ListWindow, rows: Row[], rateRows: RateRow[]) {
  const { def, shown, includes } = plan;
  const extras: ReadExtras = { rates: ratesMap(rateRows) };
  const terms: PartKeys["terms"] = plan.order.keys.map(({ descending, nulls }) => ({ descending, nulls }));
  // Each row's order key, for a part's rows alone: a page's rows carry none (a long page's 25,000 ids would only make
  // a map for nothing, and a closure over the rows would keep them while the page is streamed).
  const keys = run.kind === "page" ? new Map<string, unknown[]>() : new Map(rows.map((row) => [String(row.id), plan.order.keys.map((_, index) => row[orderKeyName(index)])]));
  // Nothing of a row shown but its identity (an empty sparse fieldset, no include): its id is its rendering.
  const rendered = shown.shape.attributes.length === 0 && shown.shape.relationships.length === 0 && !includes;
  const counted =
    window.perPage === 0
      ? Number(rows[0]?.count ?? 0)
      : rows.length > 0
        ? Number(rows[0].$total)
        : run.kind === "render" || (run.kind === "choose" ? run.uncounted === true : window.page === 1)
          ? 0
          : Number((await rowsOf(ctx.db, [plan.count]))[0][0]?.count ?? 0);
  const meta = { pagination: paginationMeta(window.page, window.perPage, counted), ...plan.meta, ...(plan.routeMeta ? await plan.routeMeta(plan.where) : {}) };
  if (window.perPage === 0) {
    if (run.kind !== "page") run.report({ terms, rows: new Map() });
    // Asked for, `included` is answered though no row includes anything.
    return listDocument([], meta, includes ? [] : undefined);
  }
  if (run.kind === "choose") {
    run.report({ terms, rows: keys, rendered });
    // Members in the order a rendered row has them (`ReadPlan.toResourceObject`): the rows may be the answer's.
    return listDocument(rows.map((row) => ({ id: String(row.id), type: def.type })), meta);
  }
  if (isStreamed(run, window)) {
    const include = includes ? (chunk: Row[], seen: RecordSet) => loadIncluded(includes, chunk, ctx, extras, seen) : undefined;
    return streamedDocument({ def, ctx, plan: shown, ids: rows.map((row) => String(row.id)), meta, extras, include });
  }
  const decoded = shown.decode(rows);
  const data = decoded.map((row) => shown.toResourceObject(row, ctx, extras));
  if (run.kind === "render") {
    run.report({ terms, rows: keys });
    run.rendered(decoded, extras);
    return listDocument(data, meta);
  }
  return listDocument(data, meta, await loadIncluded(includes, decoded, ctx, extras, RecordSet.of(data)));
}
