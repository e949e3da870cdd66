/**
 * Records read by id: a show (404 when not there, 403 when not the viewer's), many at once for bulk answers, and a
 * row as it was when written (a webhook event's snapshot).
 */
import { getTableName, sql, type SQL } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { and, inList, q } from "../db/sql";
import { rowsAfter, rowsOf, type BuiltQuery, type Rows } from "../db/statements";
import type { BatchStatement, ReadExtras, RequestContext, ResourceDef, Row } from "../engine/define";
import { RATES, ratesMap, type RateRow } from "../engine/rates";
import { readPlan, shapeFor, type ReadPlan } from "../engine/read-plan";
import { RecordSet } from "../engine/record-set";
import { isNestedRoute, readScope } from "../engine/scope";
import type { Ratio } from "../decimal";
import { forbidden, recordNotFound } from "../jsonapi/errors";
import { singleDocument, type ResourceObject } from "../jsonapi/document";
import { parseDocumentParams } from "../jsonapi/query";
import { includeNeedsRates, includePlan, includeTree, loadIncluded } from "./included";
import { whereFound } from "./each-database";

/**
 * One resource by id: 404 when it does not exist, 403 when it exists outside the viewer's scope. `writes` run first
 * in the same atomic batch, so an update is answered with the row it wrote. Over the viewer's lists on several
 * databases (`listDatabases`), the database holding it answers, and what it includes is read there.
 */
export async function showResource(def: ResourceDef, id: string, ctx: RequestContext, scope?: SQL, writes: BatchStatement[] = []) {
  const params = parseDocumentParams(ctx.params);
  const plan = readPlan(def, shapeFor(def, params, includeTree(def, params), true));
  const wantRates = plan.usesRates || includeNeedsRates(params);
  const { row, rates, here } = await visibleRowWhereHeld(def, id, ctx, plan, wantRates, scope, writes);
  const extras: ReadExtras = { rates };
  const data = plan.toResourceObject(row, here, extras);
  const included = await loadIncluded(includePlan(def, params), [row], here, extras, RecordSet.of([data]));
  return singleDocument(data, included);
}

/** Throws the 404 or 403 of `showResource` unless the viewer may read the record (on any database of their lists). */
export async function assertVisible(def: ResourceDef, id: string, ctx: RequestContext): Promise<void> {
  await visibleRowWhereHeld(def, id, ctx, undefined, false);
}

/**
 * `visibleRow` on the request's database, or, over the viewer's lists on several databases (`listDatabases`), on
 * the one holding the record, with the request as that database sees it (`here`).
 */
function visibleRowWhereHeld(
  def: ResourceDef,
  id: string,
  ctx: RequestContext,
  plan: ReadPlan | undefined,
  wantRates: boolean,
  scope?: SQL,
  writes: BatchStatement[] = [],
): Promise<{ row: Row; rates: Map<string, Ratio>; here: RequestContext }> {
  const read = (here: RequestContext) => visibleRow(def, id, here, plan, scope ?? readScope(def, here), wantRates, writes).then((found) => ({ ...found, here }));
  return ctx.listDatabases && writes.length === 0 ? whereFound(ctx, ctx.listDatabases, read) : read(ctx);
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
