/**
 * Nested writes ("sideposting", as Graphiti names it): a relationship declared with `sidepost` accepts related
 * records with their attributes in the document's top-level `included`, referenced from `data.relationships`.
 * A new id creates the record under the parent, an existing one of the parent updates it, `_destroy` removes it
 * (or only unlinks it). Each nested record goes through the same prepare steps as a write of its own resource —
 * rules, scopes, hooks, its own sideposted relationships — and its statements join the parent's batch, so the
 * whole request is stored atomically or not at all.
 */
import { getTableColumns } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { inList } from "../db/sql";
import { ApiError, badRequest, conflict, recordNotFound } from "../jsonapi/errors";
import { readResourceDocument, toManyLinkage, type ResourceInput } from "../jsonapi/request-document";
import { duplicateId, resourceFor, type BatchStatement, type RelationshipDef, type RequestContext, type ResourceDef, type Row } from "./define";

export interface SidepostWrites {
  statements: BatchStatement[];
  /** Relationship paths (`people.email_addresses`) to include in the answer: what was written. */
  includePaths: string[];
}

/** `_destroy: true` (or "1", as form-encoded clients send it) marks an included record for removal. */
function isDestroyed(attributes: Record<string, unknown>): boolean {
  const destroy = attributes._destroy;
  return destroy === true || destroy === "true" || destroy === 1 || destroy === "1";
}

/** Points an error of a nested record's own write at its entry of `included`. */
function pointedAt(error: unknown, index: number): unknown {
  if (!(error instanceof ApiError)) return error;
  for (const object of error.errors) {
    const pointer = object.source?.pointer;
    if (pointer?.startsWith("/data")) object.source = { ...object.source, pointer: `/included/${index}${pointer.slice("/data".length)}` };
  }
  return error;
}

/** The index of the `included` entry of this type and id (ids compared case-insensitively), or -1. */
function indexInIncluded(included: unknown[], type: unknown, id: unknown): number {
  if (typeof type !== "string" || typeof id !== "string") return -1;
  return included.findIndex((entry) => {
    const e = entry as Record<string, unknown> | null;
    return typeof e === "object" && e !== null && e.type === type && typeof e.id === "string" && e.id.toLowerCase() === id.toLowerCase();
  });
}

/** The entry of `included` for a linkage, read as a resource document of the linked type. */
function includedEntry(included: unknown[], type: string, id: string): { index: number; input: ResourceInput } | undefined {
  const index = indexInIncluded(included, type, id);
  if (index === -1) return undefined;
  try {
    return { index, input: { ...readResourceDocument({ data: included[index] }, [type]), included } };
  } catch (error) {
    throw pointedAt(error, index);
  }
}

/**
 * The prepare steps of the write engine, passed in so that this module and write.ts do not import each other.
 * Creates skip their own id lookup: the nested ids are looked up together, once per relationship.
 */
export interface NestedWriter {
  prepareCreate: (def: ResourceDef, input: ResourceInput, ctx: RequestContext, fixed: Row) => Promise<{ statements: BatchStatement[] }>;
  prepareUpdate: (def: ResourceDef, id: string, input: ResourceInput, ctx: RequestContext, preloaded: Row) => Promise<{ statements: BatchStatement[] }>;
  prepareDelete: (def: ResourceDef, id: string, ctx: RequestContext, preloaded: Row) => Promise<BatchStatement[]>;
  fetchWritableRow: (def: ResourceDef, id: string, ctx: RequestContext) => Promise<Row>;
}

/** A read that runs in the same round trip as another, its rows handed to `receive`. */
export interface Alongside {
  query: unknown;
  receive: (rows: Row[]) => void;
}

/** The stored rows of the ids a sideposting relationship names, read ahead (see `lookupsAlongside`). */
const readAhead = new WeakMap<RequestContext, Map<string, Row[]>>();

const lookupKey = (target: ResourceDef, ids: string[]) => `${target.type} ${ids.join(",")}`;

function storedRowsQuery(target: ResourceDef, ids: string[], ctx: RequestContext) {
  return ctx.db.select().from(target.table as SQLiteTable).where(inList(target.idColumn, ids));
}

/**
 * The lookups of the ids an update sideposts, to run in the same round trip as the parent's own read: sideposting
 * then adds no round trip before the write. Linkage the write will refuse is left out here and refused there.
 */
export function lookupsAlongside(def: ResourceDef, input: ResourceInput, ctx: RequestContext): Alongside[] {
  const lookups: Alongside[] = [];
  for (const [name, value] of Object.entries(input.relationships)) {
    const rel = def.relationships[name];
    if (!rel?.sidepost || !("parent" in rel.sidepost)) continue;
    const target = resourceFor(rel.resource ?? rel.type);
    let ids: string[];
    try {
      ids = toManyLinkage(value, name).map((linkage) => linkage.id);
    } catch {
      continue;
    }
    if (!target || ids.length === 0) continue;
    const key = lookupKey(target, ids);
    lookups.push({
      query: storedRowsQuery(target, ids, ctx),
      receive: (rows) => {
        const known = readAhead.get(ctx) ?? new Map<string, Row[]>();
        readAhead.set(ctx, known);
        known.set(key, rows);
      },
    });
  }
  return lookups;
}

/** The statements of every record sideposted with `parentId`, in request order, after the parent's own. */
export async function sidepostWrites(
  def: ResourceDef,
  parentId: string,
  input: ResourceInput,
  ctx: RequestContext,
  writer: NestedWriter,
  forced: boolean,
): Promise<SidepostWrites> {
  const result: SidepostWrites = { statements: [], includePaths: [] };
  for (const [name, value] of Object.entries(input.relationships)) {
    const rel = def.relationships[name];
    if (!rel?.sidepost) continue;
    const linkages = toManyLinkage(value, name);
    linkages.forEach((linkage, index) => {
      if (linkage.type !== rel.type) {
        throw conflict(`'${linkage.type}' is not a valid resource type for relationship ${name}. Expected '${rel.type}' instead`, {
          pointer: `/data/relationships/${name}/data/${index}/type`,
        });
      }
      if (linkages.findIndex((other) => other.id === linkage.id) !== index) {
        throw badRequest(`${rel.type} ${linkage.id} is listed more than once`, { pointer: `/data/relationships/${name}/data/${index}` });
      }
    });
    const target = resourceFor(rel.resource ?? rel.type);
    if (!target) throw new Error(`${def.type}.${name}: no declaration for ${rel.type}`);
    const written = "parent" in rel.sidepost
      ? await ownedWrites(rel, rel.sidepost.parent, target, parentId, name, linkages.map((l) => l.id), input.included, ctx, writer, forced)
      : unlinkWrites(rel.sidepost.unlink, rel.type, parentId, name, linkages.map((l) => l.id), input.included, ctx);
    result.statements.push(...written.statements);
    result.includePaths.push(name, ...written.includePaths.map((path) => `${name}.${path}`));
  }
  return result;
}

/**
 * The new client ids each request has given out so far, per type: two records of one bulk request cannot both
 * take the same new id (neither is stored yet when the other is prepared), so the second is refused by itself.
 */
const claimedInRequest = new WeakMap<RequestContext, Set<string>>();

function claimNewId(ctx: RequestContext, def: ResourceDef, id: string): void {
  const claimed = claimedInRequest.get(ctx) ?? new Set<string>();
  claimedInRequest.set(ctx, claimed);
  const key = `${def.type} ${id}`;
  if (claimed.has(key)) throw duplicateId(def, id);
  claimed.add(key);
}

async function ownedWrites(
  rel: RelationshipDef,
  parent: string,
  target: ResourceDef,
  parentId: string,
  name: string,
  ids: string[],
  included: unknown[],
  ctx: RequestContext,
  writer: NestedWriter,
  forced: boolean,
): Promise<SidepostWrites> {
  const parentColumn = target.relationships[parent]?.column;
  if (!parentColumn) throw new Error(`${target.type}: no ${parent} column to sidepost ${name} with`);
  const key = lookupKey(target, ids);
  const ahead = readAhead.get(ctx)?.get(key);
  readAhead.get(ctx)?.delete(key);
  const stored = ids.length === 0 ? [] : (ahead ?? ((await storedRowsQuery(target, ids, ctx)) as Row[]));
  const byId = new Map(stored.map((row) => [String(row[idKey(target)]), row]));
  const result: SidepostWrites = { statements: [], includePaths: [] };
  for (const [position, id] of ids.entries()) {
    const row = byId.get(id);
    const entry = includedEntry(included, rel.type, id);
    if (row && row[parentKey(target, parent)] !== parentId) {
      // Someone else's record is 403 (or 404) as everywhere; another record of the viewer's is not this parent's.
      await writer.fetchWritableRow(target, id, ctx);
      throw recordNotFound(target.model, id);
    }
    if (!entry) {
      if (!row) throw badRequest(`${rel.type} ${id} is neither in included nor one of the record's ${name}`, { pointer: `/data/relationships/${name}/data/${position}` });
      continue;
    }
    const { index, input } = entry;
    try {
      // A nested record is checked against the copy the client holds only when it says which copy that is: the
      // clients send nested records without `updated_in_db_at`, and the parent's own check covers the request.
      const unchecked = forced || !("updated_in_db_at" in input.attributes);
      if (unchecked && !("overwrite" in input.attributes)) input.attributes = { ...input.attributes, overwrite: true };
      if (isDestroyed(input.attributes)) {
        if (!row) throw recordNotFound(target.model, id);
        result.statements.push(...(await writer.prepareDelete(target, id, ctx, row)));
      } else if (row) {
        result.statements.push(...(await writer.prepareUpdate(target, id, input, ctx, row)).statements);
      } else {
        claimNewId(ctx, target, id);
        result.statements.push(...(await writer.prepareCreate(target, input, ctx, { [parent]: parentId })).statements);
      }
    } catch (error) {
      throw pointedAt(error, index);
    }
    for (const [nested, nestedRel] of Object.entries(target.relationships)) {
      if (nestedRel.sidepost && nested in input.relationships && !result.includePaths.includes(nested)) result.includePaths.push(nested);
    }
  }
  return result;
}

function unlinkWrites(
  unlink: (ctx: RequestContext, parentId: string, targetIds: string[]) => BatchStatement,
  type: string,
  parentId: string,
  name: string,
  ids: string[],
  included: unknown[],
  ctx: RequestContext,
): SidepostWrites {
  const unlinked: string[] = [];
  for (const id of ids) {
    const entry = includedEntry(included, type, id);
    if (!entry) continue;
    if (!isDestroyed(entry.input.attributes)) {
      throw badRequest(`${name} are only unlinked here (with _destroy); they are not created or changed through their contact`, {
        pointer: `/included/${entry.index}`,
      });
    }
    unlinked.push(id);
  }
  return { statements: unlinked.length > 0 ? [unlink(ctx, parentId, unlinked)] : [], includePaths: [] };
}

function idKey(def: ResourceDef): string {
  return propertyOf(def, def.idColumn.name);
}

function parentKey(def: ResourceDef, parent: string): string {
  return propertyOf(def, def.relationships[parent].column!.name);
}

function propertyOf(def: ResourceDef, columnName: string): string {
  return Object.entries(getTableColumns(def.table)).find(([, column]) => column.name === columnName)![0];
}

type NestedInput = Pick<ResourceInput, "relationships" | "included">;

/** The included entries a to-many relationship of the request references, with their ids. */
function referencedEntries(input: NestedInput, relationship: string) {
  const value = input.relationships[relationship] as { data?: unknown } | undefined;
  if (!value || !Array.isArray(value.data)) return [];
  const entries: Array<{ id: string; attributes: Record<string, unknown>; relationships: Record<string, { data?: { id?: unknown } }> }> = [];
  for (const linkage of value.data as Array<{ type?: unknown; id?: unknown }>) {
    const index = indexInIncluded(input.included, linkage?.type, linkage?.id);
    if (index === -1) continue;
    const entry = input.included[index] as { attributes?: Record<string, unknown>; relationships?: Record<string, { data?: { id?: unknown } }> };
    entries.push({ id: String(linkage.id).toLowerCase(), attributes: entry.attributes ?? {}, relationships: entry.relationships ?? {} });
  }
  return entries;
}

/**
 * The records `toOne` names in the included entries of `relationship` that are written (not destroyed), for
 * the parent's own rules (a task checks the contacts its new activity contacts link). Malformed entries are
 * left to their own write, which refuses them with a pointer.
 */
export function nestedLinks(input: NestedInput, relationship: string, toOne: string): string[] {
  return referencedEntries(input, relationship)
    .filter((entry) => !isDestroyed(entry.attributes))
    .map((entry) => entry.relationships[toOne]?.data?.id)
    .filter((id): id is string => typeof id === "string")
    .map((id) => id.toLowerCase());
}

/** The ids of the records of `relationship` the request removes (`_destroy`). */
export function nestedDestroyed(input: NestedInput, relationship: string): string[] {
  return referencedEntries(input, relationship)
    .filter((entry) => isDestroyed(entry.attributes))
    .map((entry) => entry.id);
}

/**
 * Every `included` entry of a write must be a record one of the sideposting relationships references (directly
 * or through another entry): anything else would be silently dropped, so it is refused.
 */
export function refuseUnreferenced(def: ResourceDef, input: ResourceInput): void {
  const referenced = new Set<number>();
  const walk = (resource: ResourceDef, relationships: Record<string, unknown>) => {
    for (const [name, rel] of Object.entries(resource.relationships)) {
      const value = relationships[name] as { data?: unknown } | undefined;
      if (!rel.sidepost || !value || !Array.isArray(value.data)) continue;
      const target = resourceFor(rel.resource ?? rel.type);
      for (const linkage of value.data as Array<{ type?: unknown; id?: unknown }>) {
        const index = indexInIncluded(input.included, linkage?.type, linkage?.id);
        if (index === -1 || referenced.has(index)) continue;
        referenced.add(index);
        const nested = (input.included[index] as { relationships?: unknown }).relationships;
        if (target && typeof nested === "object" && nested !== null) walk(target, nested as Record<string, unknown>);
      }
    }
  };
  walk(def, input.relationships);
  const stray = input.included.findIndex((_, index) => !referenced.has(index));
  if (stray !== -1) {
    throw badRequest("This included record is not referenced from a relationship that takes nested writes, so it would not be stored", {
      pointer: `/included/${stray}`,
    });
  }
}

/** Adds what a write sideposted to the answer's `include`, beside what the client asked for. */
export function includeWritten(ctx: RequestContext, paths: string[]): void {
  if (paths.length === 0) return;
  const asked = typeof ctx.params.include === "string" && ctx.params.include !== "" ? ctx.params.include.split(",") : [];
  ctx.params.include = [...new Set([...asked, ...paths])].join(",");
}

