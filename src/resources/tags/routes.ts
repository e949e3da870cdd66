/**
 * Tags across records, for contacts and tasks alike:
 * - `GET /<records>/tags`: the tags of the viewer's records (the filter UI's choices), as `tags` resources whose
 *   id is the name; `filter[account_list_id]` narrows the lists.
 * - `POST` and `DELETE /<records>/tags/bulk` with `{data: {type: "tags", attributes: {name}}}` (or an array of them):
 *   add the tag to, or remove it from, the records of the lists the viewer writes, narrowed by
 *   `filter[account_list_id]` and `filter[<record>_ids]` (query string or body). 204; every touched record's
 *   `updated_at` moves on, so sync clients see the new tag list. In one atomic batch.
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Context, Hono } from "hono";
import { and, inList, jsonList, q } from "../../db/sql";
import { rowsOf, runAtomically } from "../../db/statements";
import { readBody, requestContext } from "../../engine/context";
import { readsEachDatabase } from "../../engine/route-descriptions";
import { onEachDatabase } from "../../read/each-database";
import { compareValues } from "../../db/sqlite-order";
import { paginationMeta } from "../../jsonapi/document";
import type { RequestContext } from "../../engine/define";
import { accountListFilter } from "../../engine/filter-conditions";
import { parseTagList, type TagTable } from "../../engine/tags";
import type { AppEnv } from "../../env";
import { listValue } from "../../jsonapi/filter-values";
import { ApiError, badRequest } from "../../jsonapi/errors";
import { typeMismatch } from "../../jsonapi/request-document";
import { INSIDE_BATCH_REFUSAL } from "../batch/items";
import { jsonApi, noContent } from "../../jsonapi/respond";
import { rawFilters } from "../../jsonapi/query";
import { mergeParams, paramsFromJson } from "../../jsonapi/params";

export interface TaggedRecords {
  /** The records' id, account list and updated_at columns. */
  id: SQLiteColumn;
  accountList: SQLiteColumn;
  updatedAt: SQLiteColumn;
  tags: TagTable;
  /** The filter naming records by id, e.g. `contact_ids`. */
  idsFilter: string;
}

/** The records of the viewer's lists (writable ones when `writing`) that the request's filters name. */
function chosenRecords(records: TaggedRecords, ctx: RequestContext, writing: boolean): SQL {
  const filters = rawFilters(ctx.params);
  const lists = writing ? ctx.viewer.writableListIds : ctx.viewer.readableListIds;
  const ids = listValue(filters[records.idsFilter]).map((id) => id.toLowerCase());
  return and([
    inList(q(records.accountList), lists),
    filters.account_list_id === undefined ? undefined : accountListFilter(q(records.accountList), filters.account_list_id, ctx),
    ids.length > 0 ? sql`${q(records.id)} IN ${jsonList(ids)}` : undefined,
  ])!;
}

/** The tag names the body sends: one `tags` resource object, or an array of them. */
function sentNames(body: unknown): string[] {
  const data = typeof body === "object" && body !== null ? (body as { data?: unknown }).data : undefined;
  const entries = Array.isArray(data) ? data : [data];
  const names = entries.map((entry, index) => {
    const object = (typeof entry === "object" && entry !== null && "data" in entry ? (entry as { data: unknown }).data : entry) as
      | { type?: unknown; attributes?: { name?: unknown } }
      | undefined;
    const pointer = Array.isArray(data) ? `/data/${index}` : "/data";
    if (!object || typeof object !== "object") throw badRequest("The request must include data: a tags resource with a name", { pointer });
    if (object.type !== "tags") throw typeMismatch(object.type, "tags", `${pointer}/type`);
    const parsed = parseTagList(object.attributes?.name);
    if (!parsed.ok || (parsed.value as string[]).length !== 1) throw badRequest("Name must be one tag", { pointer: `${pointer}/attributes/name` });
    return (parsed.value as string[])[0];
  });
  return [...new Set(names)];
}

async function bulkContext(c: Context<AppEnv>): Promise<{ ctx: RequestContext; names: string[] }> {
  if (c.get("insideBatch")) throw new ApiError(403, [{ detail: INSIDE_BATCH_REFUSAL }]);
  const body = await readBody(c);
  const bodyFilter = typeof body === "object" && body !== null && "filter" in body ? { filter: (body as { filter: unknown }).filter } : {};
  const ctx = requestContext(c);
  // Filters may come in the body too, read like a method-override body's.
  ctx.params = mergeParams(ctx.params, paramsFromJson(bodyFilter));
  return { ctx, names: sentNames(body) };
}

export function registerTagRoutes(app: Hono<AppEnv>, path: string, records: TaggedRecords): void {
  const { table, owner, name } = records.tags;
  // Over several databases, each database's tags, every name once, in SQLite's order (src/routing.ts).
  app.get(`${path}/tags`, readsEachDatabase(async (c: Context<AppEnv>) => {
    const ctx = requestContext(c);
    const namesOn = async (here: RequestContext) =>
      (await rowsOf(here.db, [sql`SELECT DISTINCT ${q(name)} AS "name" FROM ${table} JOIN ${records.id.table} ON ${q(records.id)} = ${q(owner)}
        WHERE ${chosenRecords(records, here, false)} ORDER BY 1`]))[0].map((row) => String(row.name));
    const names = ctx.listDatabases ? [...new Set((await onEachDatabase(ctx, ctx.listDatabases, namesOn)).flat())].sort(compareValues) : await namesOn(ctx);
    const data = names.map((tag) => ({ id: tag, type: "tags", attributes: { name: tag } }));
    return jsonApi(c, { data, meta: { pagination: paginationMeta(1, data.length, data.length) } });
  }));
  const write = (adding: boolean) => async (c: Context<AppEnv>) => {
    const { ctx, names } = await bulkContext(c);
    const chosen = sql`SELECT ${q(records.id)} FROM ${records.id.table} WHERE ${chosenRecords(records, ctx, true)}`;
    const named = sql`${q(name)} IN ${jsonList(names)}`;
    const touched = adding
      ? sql`${q(records.id)} IN (${chosen}) AND EXISTS (SELECT 1 FROM json_each(${JSON.stringify(names)}) AS "sent" WHERE NOT EXISTS (SELECT 1 FROM ${table} WHERE ${q(owner)} = ${q(records.id)} AND ${q(name)} = "sent"."value"))`
      : sql`${q(records.id)} IN (${chosen}) AND EXISTS (SELECT 1 FROM ${table} WHERE ${q(owner)} = ${q(records.id)} AND ${named})`;
    // Stamp first (while the tags still tell which records change), then change the tags.
    const stamp = sql`UPDATE ${records.id.table} SET ${sql.identifier(records.updatedAt.name)} = ${ctx.now} WHERE ${touched}`;
    const change = adding
      ? sql`INSERT OR IGNORE INTO ${table} (${sql.identifier(owner.name)}, ${sql.identifier(name.name)}) SELECT "chosen"."id", "sent"."value" FROM (${chosen}) AS "chosen", json_each(${JSON.stringify(names)}) AS "sent"`
      : sql`DELETE FROM ${table} WHERE ${q(owner)} IN (${chosen}) AND ${named}`;
    await runAtomically(ctx.db, [stamp, change]);
    return noContent(c);
  };
  app.post(`${path}/tags/bulk`, write(true));
  app.delete(`${path}/tags/bulk`, write(false));
}
