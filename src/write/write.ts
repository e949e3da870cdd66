/**
 * The write side of the engine: attribute and relationship parsing from the declarations, the resource's own
 * rules (hooks), offline-sync conflict detection atomic with the write, and one atomic D1 batch per write.
 */
import { listForCreate } from "../db/placement";
import { getTableColumns, getTableName, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { and, inList, q } from "../db/sql";
import { rowsOf } from "../db/statements";
import { failUnlessChanged, isGuardFailure, isUniqueViolation } from "../db/guard";
import { ApiError, badRequest, conflict, forbidden, recordNotFound, validationFailed, type FieldError } from "../jsonapi/errors";
import { idMismatch, toManyLinkage, toOneLinkage, type ResourceInput } from "../jsonapi/request-document";
import { parseTimestamp } from "../jsonapi/time";
import { duplicateId, raceConflict, resourceFor, type BatchStatement, type RelationshipDef, type RequestContext, type ResourceDef, type Row, type WriteInput } from "../engine/define";
import { isNestedRoute, linkableScope, readScope } from "../engine/scope";
import { showResource } from "../read/records";
import { ownEntry } from "../jsonapi/params";
import { includeWritten, lookupsAlongside, refuseUnreferenced, sidepostWrites, type Alongside, type NestedWriter } from "../engine/sidepost";
import { sentAgain } from "../engine/sent-again";
import { claimIds, noteClaim, reanchorClaim, refuseTaken, startClaims } from "../engine/client-ids";
import { deletionRecordOf, recordDeletion } from "../engine/deletions";
import { ListOnAnotherDatabase, moveAcrossDatabases, noLinksLeftBehindGuard, refuseLinksLeftBehind, type MoveWrite } from "../engine/record-moves";

/** Rows the viewer may change: readable rows limited to the account lists they are a user (not a coach) of. */
export function writeScope(def: ResourceDef, ctx: RequestContext): SQL | undefined {
  return and([
    readScope(def, ctx),
    def.accountListColumn ? inList(def.accountListColumn, ctx.viewer.writableListIds) : undefined,
    def.writeScope?.(ctx),
  ]);
}

function propertyKeys(table: SQLiteTable): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [key, column] of Object.entries(getTableColumns(table))) keys.set(column.name, key);
  return keys;
}

/** Attribute and relationship changes, keyed by attribute name and relationship name. */
export type Changes = Row;

function parseAttributes(def: ResourceDef, input: ResourceInput, ctx: RequestContext, mode: "create" | "update"): { changes: Changes; errors: FieldError[] } {
  const changes: Changes = {};
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(input.attributes)) {
    const rule = ownEntry(def.attributes, name)?.write;
    if (!rule || (rule.createOnly && mode === "update")) continue;
    const result = rule.parse(value, ctx);
    if (result.ok) changes[name] = result.value;
    else errors.push({ attribute: name, message: result.message });
  }
  if (mode === "create") {
    for (const [name, attr] of Object.entries(def.attributes)) {
      if (attr.write?.required && !(name in input.attributes)) errors.push({ attribute: name, message: "can't be blank" });
    }
  }
  return { changes, errors };
}

/** `fixed`: relationships the route or the parent record decides (a record sideposted with a parent not yet stored). */
async function parseRelationships(def: ResourceDef, input: ResourceInput, ctx: RequestContext, changes: Changes, fixed: Changes = {}): Promise<void> {
  for (const [name, value] of Object.entries(withListedLinks(def, input.relationships))) {
    const rel = ownEntry(def.relationships, name);
    if (!rel?.column || !rel.write || name in fixed) continue;
    const linkage = toOneLinkage(value, name);
    if (linkage === null) {
      if (!rel.write.nullable) throw badRequest(`${name} can't be blank`, { pointer: `/data/relationships/${name}/data` });
      changes[name] = null;
      continue;
    }
    const accepted = rel.write.acceptTypes ?? [rel.type];
    if (!accepted.includes(linkage.type)) {
      throw conflict(`'${linkage.type}' is not a valid resource type for relationship ${name}. Expected '${accepted[0]}' instead`, {
        pointer: `/data/relationships/${name}/data/type`,
      });
    }
    changes[name] = await linkedId(rel, linkage.id, ctx);
  }
}

/**
 * The relationships with each to-one link sent under the to-many name it is also `listedAs` read as the link itself:
 * one identifier, and the same one when both names are sent.
 */
function withListedLinks(def: ResourceDef, relationships: Record<string, unknown>): Record<string, unknown> {
  let read = relationships;
  for (const [name, rel] of Object.entries(def.relationships)) {
    const listed = rel.write?.listedAs;
    if (!listed || !Object.hasOwn(relationships, listed)) continue;
    const linkage = toManyLinkage(relationships[listed], listed);
    if (linkage.length !== 1) throw badRequest(`Relationship ${listed} must name exactly one ${name}`, { pointer: `/data/relationships/${listed}/data` });
    const one = { data: linkage[0] };
    if (Object.hasOwn(relationships, name)) {
      const named = toOneLinkage(relationships[name], name);
      if (named?.type !== linkage[0].type || named.id !== linkage[0].id) {
        throw badRequest(`Relationships ${name} and ${listed} must name the same ${name}`, { pointer: `/data/relationships/${listed}/data` });
      }
    }
    const { [listed]: _, ...rest } = read;
    read = { ...rest, [name]: one };
  }
  return read;
}

/** An id of the resource a relationship `orLinks`: written to that resource's column instead of the relationship's. */
class OtherLink {
  constructor(readonly id: string) {}
}

/** The id of a change that names a relationship's other resource (`orLinks`), for a resource's own checks. */
export function otherLinked(value: unknown): string | undefined {
  return value instanceof OtherLink ? value.id : undefined;
}

/** The id to store for a to-one link: itself, or an OtherLink when it names the relationship's other resource. */
async function linkedId(rel: RelationshipDef, id: string, ctx: RequestContext): Promise<string | OtherLink> {
  try {
    await rel.write?.check?.(id, ctx);
    await checkLinkable(rel, id, ctx);
    return id;
  } catch (error) {
    const other = rel.write?.orLinks;
    if (!other || !(error instanceof ApiError) || error.status !== 404) throw error;
    // Not found as either: the answer names the relationship's own type, as without the other.
    await checkLinkable({ ...rel, resource: other.resource }, id, ctx).catch((otherError: unknown) => {
      throw otherError instanceof ApiError && otherError.status === 404 ? error : otherError;
    });
    return new OtherLink(id);
  }
}

/**
 * Every id a write links must name a record the viewer may reach, whatever the relationship's own check says
 * (that the record exists, that it is in the same list): the target's declaration says which records those are
 * (`linkableScope`), so a relationship declared later is scoped without writing anything. Otherwise 404, as for
 * an id that does not exist: the answer does not tell another user's record from a missing one.
 */
export async function checkLinkable(rel: RelationshipDef, id: string, ctx: RequestContext): Promise<void> {
  const target = resourceFor(rel.resource ?? rel.type);
  if (!target) throw new Error(`The relationship to ${rel.type} is writable, but no resource declares that type to scope it`);
  if (target.type === "account_lists" && id === ctx.movingTo) return;
  const [rows] = await rowsOf(ctx.db, [sql`SELECT 1 AS "found" FROM ${target.table} WHERE ${and([sql`${q(target.idColumn)} = ${id}`, linkableScope(target, ctx)])} LIMIT 1`]);
  if (rows.length === 0) throw recordNotFound(target.model, id);
}

/** Maps attribute and relationship changes onto table properties for drizzle. */
function columnValues(def: ResourceDef, changes: Changes): Row {
  const keys = propertyKeys(def.table);
  const values: Row = {};
  const assign = (column: SQLiteColumn | undefined, value: unknown) => {
    if (column) values[keys.get(column.name)!] = value;
  };
  for (const [name, value] of Object.entries(changes)) {
    const attribute = ownEntry(def.attributes, name);
    const relationship = attribute ? undefined : ownEntry(def.relationships, name);
    if (attribute) assign(attribute.column, value);
    else if (relationship?.write?.orLinks) {
      // One of the two columns holds the link, the other is cleared.
      assign(relationship.column, value instanceof OtherLink ? null : value);
      assign(relationship.write.orLinks.column, value instanceof OtherLink ? value.id : null);
    } else if (relationship) assign(relationship.column, value);
  }
  return values;
}

function toWriteInput(id: string, input: ResourceInput): WriteInput {
  return { id, attributes: input.attributes, relationships: input.relationships, included: input.included };
}

function throwIfErrors(errors: FieldError[] | void): void {
  if (errors && errors.length > 0) throw validationFailed(errors);
}

/**
 * Resources owned by an account list and created without one go to the viewer's default list (or their only
 * list), as clients that predate multiple lists expect.
 */
function assignDefaultAccountList(def: ResourceDef, changes: Changes, ctx: RequestContext): void {
  if (!def.accountListColumn || !def.relationships.account_list || changes.account_list) return;
  const fallback = ctx.viewer.createsIn !== undefined ? ctx.viewer.createsIn : listForCreate(ctx.viewer);
  if (!fallback) {
    throw validationFailed([{ attribute: "account_list", message: "can't be blank", pointer: "/data/relationships/account_list" }]);
  }
  changes.account_list = fallback;
}

/**
 * Validates and prepares an insert; returns the statements so bulk endpoints can batch many items.
 * `idIsNew`: the caller has already looked the client id up (sideposted records, looked up together).
 */
export async function prepareCreate(def: ResourceDef, input: ResourceInput, ctx: RequestContext, fixed: Changes = {}, idIsNew = false) {
  const { changes, errors } = parseAttributes(def, input, ctx, "create");
  throwIfErrors(errors);
  await parseRelationships(def, input, ctx, changes, fixed);
  Object.assign(changes, fixed);
  assignDefaultAccountList(def, changes, ctx);
  const id = input.id ?? crypto.randomUUID();
  const keys = propertyKeys(def.table);
  // Before the resource's own rules: a rule that one record per list may exist would refuse the create sent again.
  if (input.id && !idIsNew && (await sentAgain(def, id, columnValues(def, changes), input, ctx))) return { id, statements: [], includePaths: [], sentAgain: true };
  throwIfErrors(await def.hooks?.beforeCreate?.(changes, toWriteInput(id, input), ctx));
  const values = { ...columnValues(def, changes), [keys.get(def.idColumn.name)!]: id } as Row;
  if (input.id) noteClaim(ctx, def, id, values);
  if (def.createdAtColumn) values[keys.get(def.createdAtColumn.name)!] = ctx.now;
  if (def.updatedAtColumn) values[keys.get(def.updatedAtColumn.name)!] = ctx.now;
  const side = (await def.hooks?.sideWrites?.(id, changes, toWriteInput(id, input), ctx)) ?? [];
  const nested = await sidepostWrites(def, id, input, ctx, nestedWriter, forcesValues(input));
  const statements: BatchStatement[] = [ctx.db.insert(def.table).values(values as never) as unknown as BatchStatement, ...side, ...nested.statements];
  return { id, statements, includePaths: nested.includePaths, sentAgain: false };
}

export async function createResource(def: ResourceDef, sent: ResourceInput, ctx: RequestContext, fixed: Changes = {}): Promise<string> {
  // A request that may run again (a background request) creates under an id of its own: a second run finds it taken.
  const input = sent.id || !ctx.createdId ? sent : { ...sent, id: ctx.createdId };
  refuseUnreferenced(def, input);
  const claims = startClaims(ctx);
  const { id, statements, includePaths, sentAgain } = await prepareCreate(def, input, ctx, fixed);
  if (sentAgain) return id;
  refuseTaken(await claimIds(ctx, claims));
  try {
    await runBatch(ctx, statements);
    includeWritten(ctx, includePaths);
  } catch (error) {
    const raced = error instanceof ApiError && error.status === 409;
    if (raced && input.id) throw duplicateId(def, id);
    throw error;
  }
  return id;
}

/** Loads the full stored row the viewer may change: 404 unknown, 403 someone else's (or read-only to them). */
export async function fetchWritableRow(def: ResourceDef, id: string, ctx: RequestContext, alongside: Alongside[] = []): Promise<Row> {
  const byId = sql`${def.idColumn} = ${id}`;
  const scope = writeScope(def, ctx);
  const [rows, existing, ...others] = (await ctx.db.batch([
    ctx.db.select().from(def.table).where(and([byId, scope])).limit(1),
    ctx.db.select({ id: def.idColumn }).from(def.table).where(byId).limit(1),
    ...(alongside.map((read) => read.query) as never[]),
  ])) as [Row[], Row[], ...Row[][]];
  alongside.forEach((read, index) => read.receive(others[index]));
  if (rows[0]) return rows[0];
  if (existing[0]) {
    // Inside a nested route, a record of another of the viewer's lists is simply not in this list; a record outside
    // a scope that hides rows is not there (as show answers it).
    if (isNestedRoute(def, ctx) || def.scopeHidesRows) {
      const [readable] = await ctx.db.select({ id: def.idColumn }).from(def.table).where(and([byId, readScope(def, ctx)])).limit(1);
      if (!readable) throw recordNotFound(def.model, id);
    }
    throw forbidden(id, def.type);
  }
  throw recordNotFound(def.model, id);
}

export function staleError(stored: string): ApiError {
  return new ApiError(409, [
    {
      title: `is not equal to the current value in the database (${stored})`,
      detail: `Updated in db at is not equal to the current value in the database (${stored})`,
      source: { pointer: "/data/attributes/updated_in_db_at" },
      meta: { updated_in_db_at: stored },
    },
  ]);
}

/** The next updated_at: now, but always later than the stored one so that a stale copy can never match it again. */
function nextUpdatedAt(stored: string, now: string): string {
  if (now > stored) return now;
  return new Date(Date.parse(stored) + 1000).toISOString().slice(0, 19) + "Z";
}

/** `overwrite: true` forces the sent values whatever the stored `updated_in_db_at`; the JSON true alone: "it must be `true` to have effect". */
export function forcesValues(input: ResourceInput): boolean {
  return input.attributes.overwrite === true;
}

/**
 * The updated_at a forced write stamps, computed by the statement itself from the row as it is when it runs: now,
 * or a second past the stored value when that is not earlier, so every write still moves the stamp forward.
 */
function forcedUpdatedAt(column: SQLiteColumn, now: string): SQL {
  return sql`CASE WHEN ${now} > ${column} THEN ${now} ELSE strftime('%Y-%m-%dT%H:%M:%SZ', ${column}, '+1 second') END`;
}

/** `preloaded`: the stored row when the caller already read it (bulk endpoints read all their rows at once). */
export async function prepareUpdate(def: ResourceDef, id: string, input: ResourceInput, ctx: RequestContext, preloaded?: Row) {
  if (input.id && input.id !== id) throw idMismatch(input.id, id);
  // The ids it sideposts are looked up in the same round trip as the record itself.
  const existing = preloaded ?? (await fetchWritableRow(def, id, ctx, lookupsAlongside(def, input, ctx)));
  const { changes, errors } = parseAttributes(def, input, ctx, "update");
  throwIfErrors(errors);
  await parseRelationships(def, input, ctx, changes);
  const keys = propertyKeys(def.table);
  const updatedAtKey = def.updatedAtColumn ? keys.get(def.updatedAtColumn.name)! : undefined;
  const stored = updatedAtKey ? String(existing[updatedAtKey]) : undefined;
  if (stored && !forcesValues(input)) {
    const sent = parseTimestamp(input.attributes.updated_in_db_at);
    if (sent !== stored) throw staleError(stored);
  }
  throwIfErrors(await def.hooks?.beforeUpdate?.(changes, existing, toWriteInput(id, input), ctx));
  const listKey = def.accountListColumn ? keys.get(def.accountListColumn.name) : undefined;
  const movesList = listKey && changes.account_list && changes.account_list !== existing[listKey] ? { from: String(existing[listKey]), to: String(changes.account_list) } : undefined;
  if (movesList) await refuseLinksLeftBehind(def, id, movesList.to, input, ctx);
  const values = columnValues(def, changes);
  // An overwrite is one statement that cannot lose a race: no condition on the stored stamp, which it moves on
  // from whatever another write left. Any other update applies only to the row its client read.
  const forced = forcesValues(input);
  if (updatedAtKey && stored) values[updatedAtKey] = forced ? forcedUpdatedAt(def.updatedAtColumn!, ctx.now) : nextUpdatedAt(stored, ctx.now);
  const condition = and([sql`${def.idColumn} = ${id}`, stored && !forced ? sql`${def.updatedAtColumn!} = ${stored}` : undefined]);
  const side = (await def.hooks?.sideWrites?.(id, changes, toWriteInput(id, input), ctx, existing)) ?? [];
  const nested = await sidepostWrites(def, id, input, ctx, nestedWriter, forcesValues(input));
  const linkGuard = movesList ? noLinksLeftBehindGuard(def, id, movesList.to, input) : undefined;
  const statements: BatchStatement[] = [
    ...(linkGuard ? [ctx.db.run(linkGuard) as unknown as BatchStatement] : []),
    ctx.db.update(def.table).set(values as never).where(condition!) as unknown as BatchStatement,
    failUnlessChanged(ctx.db) as unknown as BatchStatement,
    ...side,
    ...nested.statements,
  ];
  // A move to another list of this database: the id's claim follows, once written (client-ids.ts).
  const afterWrite = movesList ? () => reanchorClaim(ctx, getTableName(def.table), id, movesList.from, movesList.to) : undefined;
  return { statements, stored, includePaths: nested.includePaths, afterWrite };
}

/**
 * Updates a record and answers it as written: the write and the read of the answer are one atomic D1 batch, so a
 * write that lands right after this one never shows in this answer. `scope`: which rows the answer may show. A
 * record moved to another of the viewer's lists kept on another database is moved there (record-moves.ts).
 */
export async function updateResource(def: ResourceDef, id: string, input: ResourceInput, ctx: RequestContext, scope?: SQL) {
  try {
    return await updateHere(def, id, input, ctx, scope);
  } catch (error) {
    if (!(error instanceof ListOnAnotherDatabase)) throw error;
    return moveAcrossDatabases(def, id, input, ctx, error.listId, movingUpdate(def, id));
  }
}

/** The update of a record moving to another database: checked where it is, written where it goes. */
export function movingUpdate(def: ResourceDef, id: string): MoveWrite {
  return {
    check: async (input, on) => {
      await prepareUpdate(def, id, input, on);
    },
    update: (input, on) => updateHere(def, id, input, on),
  };
}

async function updateHere(def: ResourceDef, id: string, input: ResourceInput, ctx: RequestContext, scope?: SQL) {
  refuseUnreferenced(def, input);
  // Records sideposted with an update take client-chosen ids too.
  const claims = startClaims(ctx);
  const { statements, includePaths, afterWrite } = await prepareUpdate(def, id, input, ctx);
  refuseTaken(await claimIds(ctx, claims));
  // What was written beside the record (sideposted records) is included in the answer.
  includeWritten(ctx, includePaths);
  try {
    const document = await showResource(def, id, ctx, scope, statements);
    await afterWrite?.();
    return document;
  } catch (error) {
    if (isUniqueViolation(error)) throw raceConflict(error);
    if (!isGuardFailure(error)) throw error;
    // The row changed since the client's copy (or, for an overwrite, was deleted): report what is there now.
    const current = await fetchWritableRow(def, id, ctx);
    const keys = propertyKeys(def.table);
    throw staleError(String(current[keys.get(def.updatedAtColumn!.name)!]));
  }
}

export async function prepareDelete(def: ResourceDef, id: string, ctx: RequestContext, preloaded?: Row) {
  const existing = preloaded ?? (await fetchWritableRow(def, id, ctx));
  const before = (await def.hooks?.beforeDelete?.(existing, ctx)) ?? [];
  const recorded = def.recordsDeletion ? [recordDeletion(deletionRecordOf(def), id, ctx)] : [];
  return [...before, ...recorded, ctx.db.delete(def.table).where(sql`${def.idColumn} = ${id}`) as unknown as BatchStatement];
}

/** The prepare steps above, for records written nested in another's request. */
const nestedWriter: NestedWriter = { prepareCreate: (def, input, ctx, fixed) => prepareCreate(def, input, ctx, fixed, true), prepareUpdate, prepareDelete, fetchWritableRow };

export async function deleteResource(def: ResourceDef, id: string, ctx: RequestContext): Promise<void> {
  await runBatch(ctx, await prepareDelete(def, id, ctx));
}

/**
 * Runs a write atomically. Uniqueness is checked before writing, so a unique-constraint failure here means a
 * concurrent request won the race: a conflict for the client to resolve, not a server error.
 */
export async function runBatch(ctx: RequestContext, statements: BatchStatement[]): Promise<void> {
  if (statements.length === 0) return;
  try {
    await ctx.db.batch(statements as [BatchStatement, ...BatchStatement[]]);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw raceConflict(error);
  }
}

export { raceConflict };
