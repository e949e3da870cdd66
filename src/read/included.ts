/**
 * What a read includes (`include`): one query per path and level, each record once, every included row scoped as
 * any read is, and links cut so that following them through `included` always ends.
 */
import { sql } from "drizzle-orm";
import { and, inList, q } from "../db/sql";
import { rowsOf } from "../db/statements";
import { resourceFor, type ReadExtras, type RelationshipDef, type RequestContext, type ResourceDef, type Row } from "../engine/define";
import { linkageIds, readPlan, shapeFor, type ReadPlan, type Shape } from "../engine/read-plan";
import type { RecordSet } from "../engine/record-set";
import { linkableScope } from "../engine/scope";
import type { ResourceObject } from "../jsonapi/document";
import { clientObject } from "../jsonapi/params";
import { asksForIncludes, type DocumentParams, type IncludeTree } from "../jsonapi/query";

/**
 * What a read of `def` includes: `include=*` adds every direct relationship to the paths named, whose nested paths
 * still apply (`*,account_list.users` includes the account list's users as well as every relationship).
 */
export function includeTree(def: ResourceDef, params: DocumentParams): IncludeTree {
  if (!params.includeAll) return params.include;
  return Object.assign(clientObject<IncludeTree>(), Object.fromEntries(Object.keys(def.relationships).map((name) => [name, {}])), params.include);
}

/** Included resources may show converted money; rates are loaded with the page whenever anything is included. */
export function includeNeedsRates(params: DocumentParams): boolean {
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

/** One relationship an include path follows, from the records of the level above, and the steps below it. */
export interface IncludeStep {
  name: string;
  relationship: RelationshipDef;
  def: ResourceDef;
  /** The fields each included record shows, its links to types no later than its own left out. */
  shown: ReadPlan;
  below: IncludeStep[];
}

/** The steps of what a read of `rootDef` includes, planned once per request; none when it asks for no include. */
export function includePlan(rootDef: ResourceDef, params: DocumentParams): IncludeStep[] | undefined {
  if (!asksForIncludes(params)) return undefined;
  const rootTree = includeTree(rootDef, params);
  const typeOrder = includedTypeOrder(rootDef, rootTree);
  const stepsOf = (def: ResourceDef, tree: IncludeTree): IncludeStep[] =>
    Object.keys(tree)
      .filter((name) => name in def.relationships)
      .flatMap((name) => {
        const relationship = def.relationships[name];
        const target = resourceFor(relationship.resource ?? relationship.type);
        if (!target) return [];
        const subtree = tree[name];
        const shown = readPlan(target, linkingOnward(target, shapeFor(target, params, subtree), subtree, typeOrder));
        return [{ name, relationship, def: target, shown, below: stepsOf(target, subtree) }];
      });
  return stepsOf(rootDef, rootTree);
}

/** A row, and the request as the database holding it sees it (what it includes is on that database). */
export interface PlacedRow {
  row: Row;
  ctx: RequestContext;
}

/**
 * What `rootRows` include along the planned steps, a query per step and level, leaving out the records already
 * answered (`seen`, which it adds to).
 */
export function loadIncluded(steps: IncludeStep[] | undefined, rootRows: Row[], ctx: RequestContext, extras: ReadExtras, seen: RecordSet): Promise<ResourceObject[] | undefined> {
  return loadIncludedOf(steps, rootRows.map((row) => ({ row, ctx })), extras, seen);
}

/**
 * `loadIncluded` of rows that may be on several databases (a page merged from several): each step's records are
 * read where the rows linking them are, one batch per database and level, and answered in the order they are
 * linked from the rows in their order, as one database answers them.
 */
export async function loadIncludedOf(steps: IncludeStep[] | undefined, rootRows: PlacedRow[], extras: ReadExtras, seen: RecordSet): Promise<ResourceObject[] | undefined> {
  if (!steps) return undefined;
  const included: ResourceObject[] = [];
  let frontier: Array<{ steps: IncludeStep[]; rows: PlacedRow[] }> = [{ steps, rows: rootRows }];
  while (frontier.length > 0) {
    // Each step's ids in the order the rows link them, each with the request of the database that holds it.
    const pending = frontier.flatMap(({ steps, rows }) =>
      steps.flatMap((step) => {
        const { kind, identifierMembers } = step.relationship;
        const ids = new Map<string, RequestContext>();
        for (const { row, ctx } of rows) for (const id of linkageIds(row[`@${step.name}`], kind, identifierMembers)) if (!ids.has(id)) ids.set(id, ctx);
        return ids.size > 0 ? [{ step, ids }] : [];
      }),
    );
    if (pending.length === 0) break;
    const wanted = new Map<RequestContext, Array<{ index: number; ids: string[] }>>();
    pending.forEach(({ ids }, index) => {
      for (const [id, ctx] of ids) {
        const asked = wanted.get(ctx) ?? [];
        if (asked.at(-1)?.index !== index) asked.push({ index, ids: [] });
        asked.at(-1)!.ids.push(id);
        wanted.set(ctx, asked);
      }
    });
    // Included rows are scoped like any read: a relationship must never carry the viewer outside their lists.
    const answers = await Promise.all(
      [...wanted].map(async ([ctx, asked]) => {
        const statements = asked.map(({ index, ids }) => {
          const { def, shown } = pending[index].step;
          return sql`SELECT ${shown.selectList(ctx)} FROM ${def.table} WHERE ${and([inList(q(def.idColumn), ids), linkableScope(def, ctx)])}`;
        });
        return { ctx, asked, results: await rowsOf(ctx.db, statements) };
      }),
    );
    const found = pending.map(() => new Map<string, PlacedRow>());
    for (const { ctx, asked, results } of answers) {
      asked.forEach(({ index }, n) => {
        for (const row of pending[index].step.shown.decode(results[n])) found[index].set(String(row.id), { row, ctx });
      });
    }
    frontier = [];
    pending.forEach(({ step, ids }, index) => {
      // Answer included resources in the order they are linked, not in the order an index returned them.
      const rows = [...ids.keys()].flatMap((id) => found[index].get(id) ?? []);
      for (const { row, ctx } of rows) {
        if (seen.add(step.def.type, String(row.id))) included.push(step.shown.toResourceObject(row, ctx, extras));
      }
      if (step.below.length > 0) frontier.push({ steps: step.below, rows });
    });
  }
  return included;
}
