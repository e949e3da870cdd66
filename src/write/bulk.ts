/**
 * Bulk endpoints (`POST`, `PUT`, `DELETE <resources>/bulk`): a body `{data: [{data: {type, id, ...}}, ...]}`
 * whose items get the same checks as the single endpoints. The answer is a JSON array with one document per
 * item, in request order: the written resource (`{data}`) or what was wrong with it (`{errors, meta: {id}}`).
 * Every valid item is written in one atomic D1 batch, so a failure elsewhere never leaves half of it stored (save
 * for items that only clash with each other on a unique rule: see writeInTurn).
 */
import { Hono, type Context } from "hono";
import { getTableColumns } from "drizzle-orm";
import { and, inList } from "../db/sql";
import { isGuardFailure, isUniqueViolation } from "../db/guard";
import type { AppEnv } from "../env";
import { described } from "../engine/route-descriptions";
import { ApiError, badRequest, conflict, forbidden, recordNotFound, type ErrorObject } from "../jsonapi/errors";
import type { ResourceObject } from "../jsonapi/document";
import { readResourceDocument, UUID_PATTERN, type ResourceInput } from "../jsonapi/request-document";
import { JSONAPI_CONTENT_TYPE } from "../jsonapi/respond";
import { readBody, requestContext } from "../engine/context";
import { duplicateId, type BatchStatement, type RequestContext, type ResourceDef, type Row } from "../engine/define";
import { readResourcesById } from "../read/records";
import { refuseUnreferenced } from "../engine/sidepost";
import { claimIds, heldOnOtherDatabases, startClaims, type IdClaim } from "../engine/client-ids";
import { ListOnAnotherDatabase, moveAcrossDatabases } from "../engine/record-moves";
import { forcesValues, movingUpdate, prepareCreate, prepareDelete, prepareUpdate, raceConflict, runBatch, staleError, writeScope, type Changes } from "./write";

/** How often the items left are written again after others lost a race (each time at least one item drops out). */
const WRITE_ATTEMPTS = 5;

export type BulkAction = "create" | "update" | "delete";

export const MAX_BULK_ITEMS = 500;

export interface BulkOptions {
  actions: BulkAction[];
  fixedOnCreate?: (ctx: RequestContext) => Changes;
  requestTypes?: string[];
  /**
   * A bulk create item whose id names a stored record of the viewer's saves over it (as an overwrite), as the web
   * app saves its whole notification preferences page at once: preferences it has and preferences it adds.
   */
  createSavesExisting?: boolean;
}

type ItemDocument = { data: ResourceObject } | { errors: ErrorObject[]; meta?: { id: string } };

interface Item {
  id?: string;
  input?: ResourceInput;
  statements?: BatchStatement[];
  /** The stored updated_at an update was checked against, to tell which item lost a race. */
  stored?: string;
  /** A create item that names a stored record and saves over it (`createSavesExisting`): written as an update. */
  savesOver?: boolean;
  /** The resource as it was, answered for deletes. */
  before?: ResourceObject;
  /** The client-chosen ids a create takes (itself and what it sideposts), claimed with the other items'. */
  claims?: IdClaim[];
  /** What follows an update once written (a record moved to another list: its id's claim). */
  afterWrite?: () => Promise<void>;
  error?: ApiError;
}

export function bulkRoutes(def: ResourceDef, options: BulkOptions): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const types = options.requestTypes ?? [def.type];
  const handler = (action: BulkAction) => described(async (c: Context<AppEnv>) => {
    if (c.get("insideBatch")) throw new ApiError(403, "You cannot access this endpoint from within a batch request");
    const ctx = requestContext(c);
    const items = readItems(await readBody(c), types, action);
    await prepareItems(def, action, items, ctx, options);
    await refuseTakenIds(items, ctx);
    const written = await writeItems(def, action, items, ctx, options);
    for (const item of items) if (!item.error && item.id && written.has(item.id)) await item.afterWrite?.();
    if (action === "update") await moveItemsAcross(def, items, ctx, written);
    const documents: ItemDocument[] = items.map((item) => {
      if (item.error) return { errors: item.error.errors, ...(item.id ? { meta: { id: item.id } } : {}) };
      const data = action === "delete" ? item.before : written.get(item.id!);
      return { data: data ?? { type: def.type, id: item.id!, attributes: {} } };
    });
    return c.body(JSON.stringify(documents), 200, { "Content-Type": JSONAPI_CONTENT_TYPE });
  }, { action: `bulk-${action}`, resource: def, requestTypes: types });
  if (options.actions.includes("create")) routes.post("/", handler("create"));
  if (options.actions.includes("update")) {
    routes.put("/", handler("update"));
    routes.patch("/", handler("update"));
  }
  if (options.actions.includes("delete")) routes.delete("/", handler("delete"));
  return routes;
}

function readItems(body: unknown, types: string[], action: BulkAction): Item[] {
  const data = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) throw badRequest("The request must include a data array of resource documents", { pointer: "/data" });
  if (data.length > MAX_BULK_ITEMS) {
    throw badRequest(`A bulk request may hold at most ${MAX_BULK_ITEMS} items; this one holds ${data.length}`, { pointer: "/data" });
  }
  const seen = new Set<string>();
  return data.map((entry) => {
    // Items are resource documents ({data: {...}}); a bare resource object is read as one too.
    const document = typeof entry === "object" && entry !== null && "data" in entry ? entry : { data: entry };
    try {
      const input = readResourceDocument(document, types);
      const id = input.id;
      if (!id && action !== "create") throw badRequest("Each item must carry the id of the resource", { pointer: "/data/id" });
      if (id && seen.has(id)) throw conflict(`The resource ${id} appears more than once in this request`, { pointer: "/data/id" });
      if (id) seen.add(id);
      return { id, input };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const raw = (document as { data?: { id?: unknown } }).data?.id;
      const id = typeof raw === "string" && UUID_PATTERN.test(raw) ? raw.toLowerCase() : undefined;
      return { id, error };
    }
  });
}

/**
 * Reads every stored row the items name at once, then checks each item like its single endpoint would;
 * an item that fails keeps its error and is left out of the write.
 */
async function prepareItems(def: ResourceDef, action: BulkAction, items: Item[], ctx: RequestContext, options: BulkOptions): Promise<void> {
  const pending = items.filter((item) => !item.error);
  const named = pending.filter((item) => item.id).map((item) => item.id!);
  const rows = action === "create" && !options.createSavesExisting ? new Map<string, Row | ApiError>() : await writableRows(def, named, ctx);
  const before = action === "delete" ? await readResourcesById(def, pending.map((i) => i.id!), ctx) : new Map();
  for (const item of pending) {
    try {
      if (action !== "delete") refuseUnreferenced(def, item.input!);
      const saved = action === "create" && item.id ? rows.get(item.id) : undefined;
      if (saved !== undefined && !isNotFound(saved)) {
        if (saved instanceof ApiError) throw saved;
        item.input = { ...item.input!, attributes: { ...item.input!.attributes, overwrite: true } };
        item.claims = startClaims(ctx);
        const prepared = await prepareUpdate(def, item.id!, item.input, ctx, saved);
        item.statements = prepared.statements;
        item.stored = prepared.stored;
        item.savesOver = true;
        continue;
      }
      if (action === "create") {
        item.claims = startClaims(ctx);
        const prepared = await prepareCreate(def, item.input!, ctx, options.fixedOnCreate?.(ctx));
        item.id = prepared.id;
        item.statements = prepared.statements;
        continue;
      }
      const row = rows.get(item.id!);
      if (row instanceof ApiError) throw row;
      if (action === "update") {
        item.claims = startClaims(ctx);
        const prepared = await prepareUpdate(def, item.id!, item.input!, ctx, row);
        item.statements = prepared.statements;
        item.stored = prepared.stored;
        item.afterWrite = prepared.afterWrite;
      } else {
        item.statements = await prepareDelete(def, item.id!, ctx, row);
        item.before = before.get(item.id!);
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      item.error = error;
    }
  }
}

/**
 * Items moving their record to another of the viewer's lists kept on another database: each is moved on its own,
 * after the others are written, as its single update would be (record-moves.ts).
 */
async function moveItemsAcross(def: ResourceDef, items: Item[], ctx: RequestContext, written: Map<string, ResourceObject>): Promise<void> {
  for (const item of items) {
    if (!(item.error instanceof ListOnAnotherDatabase)) continue;
    try {
      const document = (await moveAcrossDatabases(def, item.id!, item.input!, ctx, item.error.listId, movingUpdate(def, item.id!))) as { data: ResourceObject };
      written.set(item.id!, document.data);
      item.error = undefined;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      item.error = error;
    }
  }
}

/** Claims the client-chosen ids of every create item at once; an item whose id is taken elsewhere is refused. */
async function refuseTakenIds(items: Item[], ctx: RequestContext): Promise<void> {
  const taken = new Set(await claimIds(ctx, items.flatMap((item) => (item.error || !item.statements ? [] : (item.claims ?? [])))));
  for (const item of items) {
    const first = item.claims?.find((claim) => taken.has(claim));
    if (!first) continue;
    item.error = duplicateId(first.def, first.id);
    item.statements = undefined;
  }
}

const isNotFound = (row: Row | ApiError) => row instanceof ApiError && row.status === 404;

/** The rows the viewer may change by id; 403 for another user's records, 404 for unknown ids. */
async function writableRows(def: ResourceDef, ids: string[], ctx: RequestContext): Promise<Map<string, Row | ApiError>> {
  const result = new Map<string, Row | ApiError>();
  if (ids.length === 0) return result;
  const [rows, existing] = (await ctx.db.batch([
    ctx.db.select().from(def.table).where(and([inList(def.idColumn, ids), writeScope(def, ctx)])),
    ctx.db.select({ id: def.idColumn }).from(def.table).where(inList(def.idColumn, ids)),
  ])) as [Row[], Array<{ id: string }>];
  const idKey = Object.entries(getTableColumns(def.table)).find(([, column]) => column === def.idColumn)?.[0] ?? "id";
  const found = new Map(rows.map((row) => [String(row[idKey]), row]));
  const present = new Set(existing.map((row) => String(row.id)));
  const missing = ids.filter((id) => !present.has(id));
  for (const id of await heldOnOtherDatabases(ctx, def, missing)) present.add(id);
  for (const id of ids) {
    result.set(id, found.get(id) ?? (present.has(id) ? forbidden(id, def.type) : recordNotFound(def.model, id)));
  }
  return result;
}

/**
 * Writes every prepared item and reads back what was written, in one batch. When another request changed one of
 * the rows in between (or took a client id), that item is reported like its single endpoint would report it and
 * the others are written again.
 */
async function writeItems(def: ResourceDef, action: BulkAction, items: Item[], ctx: RequestContext, options: BulkOptions): Promise<Map<string, ResourceObject>> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const ready = items.filter((item) => !item.error && item.statements);
    const writes = ready.flatMap((item) => item.statements!);
    try {
      // Creates sent again write nothing, and are answered as stored.
      if (ready.length === 0) return new Map();
      if (action === "delete") {
        await runBatch(ctx, writes);
        return new Map();
      }
      return await readResourcesById(def, ready.map((item) => item.id!), ctx, writes);
    } catch (error) {
      const updates = ready.filter((item) => action === "update" || item.savesOver);
      const creates = ready.filter((item) => action === "create" && !item.savesOver);
      const losers = isGuardFailure(error) ? await staleItems(def, updates, ctx) : isUniqueViolation(error) ? await takenIds(def, creates, ctx) : [];
      // Two items of one request that each pass a uniqueness rule alone but not together (two preferences of one
      // type): they are written one after another, each checked again, as if sent one by one.
      if (losers.length === 0 && isUniqueViolation(error) && action === "create" && ready.length > 1) return writeInTurn(def, ready, ctx, options);
      // A guard no stale item explains (a link made meanwhile to a record moving lists): the request is retried whole.
      if (losers.length === 0 && isGuardFailure(error)) break;
      if (losers.length === 0) throw isUniqueViolation(error) ? raceConflict(error) : error;
    }
  }
  throw new ApiError(409, "The records changed while this request was written; please retry");
}

/**
 * Writes each item in its own batch, in order, preparing each create again after the ones before it are stored.
 * Unlike the one batch, these writes are not atomic together: each item is written or refused on its own.
 */
async function writeInTurn(def: ResourceDef, items: Item[], ctx: RequestContext, options: BulkOptions): Promise<Map<string, ResourceObject>> {
  const written = new Map<string, ResourceObject>();
  for (const item of items) {
    try {
      // A create is checked again; a save over a stored record stands as prepared.
      if (!item.savesOver) {
        const prepared = await prepareCreate(def, item.input!, ctx, options.fixedOnCreate?.(ctx));
        item.id = prepared.id;
        item.statements = prepared.statements;
      }
      for (const [id, resource] of await readResourcesById(def, [item.id!], ctx, item.statements!)) written.set(id, resource);
    } catch (error) {
      if (error instanceof ApiError) item.error = error;
      else if (isUniqueViolation(error)) item.error = raceConflict(error);
      else if (isGuardFailure(error)) await staleItems(def, [item], ctx);
      else throw error;
    }
  }
  return written;
}

async function staleItems(def: ResourceDef, items: Item[], ctx: RequestContext): Promise<Item[]> {
  const rows = (await ctx.db
    .select({ id: def.idColumn, updatedAt: def.updatedAtColumn! })
    .from(def.table)
    .where(inList(def.idColumn, items.map((i) => i.id!)))) as Array<{ id: string; updatedAt: string }>;
  const current = new Map(rows.map((row) => [row.id, row.updatedAt]));
  // An overwrite has no condition on the stored stamp: only a deleted row stops it.
  const stale = items.filter((item) => current.get(item.id!) === undefined || (!forcesValues(item.input!) && current.get(item.id!) !== item.stored));
  for (const item of stale) {
    const now = current.get(item.id!);
    item.error = now === undefined ? recordNotFound(def.model, item.id!) : staleError(now);
  }
  return stale;
}

async function takenIds(def: ResourceDef, items: Item[], ctx: RequestContext): Promise<Item[]> {
  const rows = (await ctx.db.select({ id: def.idColumn }).from(def.table).where(inList(def.idColumn, items.map((i) => i.id!)))) as Array<{ id: string }>;
  const taken = new Set(rows.map((row) => row.id));
  const losers = items.filter((item) => taken.has(item.id!));
  for (const item of losers) item.error = duplicateId(def, item.id!);
  return losers;
}
