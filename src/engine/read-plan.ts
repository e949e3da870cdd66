/**
 * How one resource type is read for one shape (the attributes and relationships a request shows): the select
 * list, how selected values are decoded, and how a row becomes a resource object. A plan depends only on the
 * declaration and the shape, so it is made once per shape and kept for the isolate's life; the parts of the
 * select list that are the same for every request are kept rendered (see `precompiled`), so a list request does
 * not rebuild its fifty correlated subqueries each time.
 */
import { compareValues } from "../db/sqlite-order";
import { Column, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { precompiled } from "../db/statements";
import type { Identifier, ResourceObject } from "../jsonapi/document";
import { fieldsetFor, type DocumentParams, type IncludeTree } from "../jsonapi/query";
import type { AttributeDef, ReadExtras, RequestContext, ResourceDef, Row } from "./define";

export interface Shape {
  attributes: string[];
  relationships: string[];
  /** Relationships whose linkage must be loaded: the shown ones plus those being included. */
  linkage: string[];
}

/** `single`: the resource is the primary data of a single-resource document (show, create, update). */
export function shapeFor(def: ResourceDef, params: DocumentParams, include: IncludeTree, single = false): Shape {
  const sparse = fieldsetFor(params, def.type);
  const attributes = Object.entries(def.attributes)
    .filter(([name, attr]) => (sparse ? sparse.has(name) : attr.default !== false || (single && attr.defaultOnShow === true)))
    .map(([name]) => name);
  const included = Object.keys(include).filter((n) => n in def.relationships);
  // An included relationship is shown (full linkage) even when it is hidden by default, unless fields[] leaves it out.
  const relationships = Object.entries(def.relationships)
    .filter(([name, rel]) => (sparse ? sparse.has(name) : rel.default !== false || included.includes(name)))
    .map(([name]) => name);
  return { attributes, relationships, linkage: [...new Set([...relationships, ...included])] };
}

/** One result column: its name in the row, and the column or per-request expression that fills it. */
interface Selected {
  key: string;
  column?: SQLiteColumn;
  select?: (ctx: RequestContext) => SQL;
}

export interface ReadPlan {
  shape: Shape;
  /** Whether some shown attribute converts money (currency rates must be loaded with the rows). */
  usesRates: boolean;
  /** The select list, every value named by its key (`id`, column names, `$attribute`, `%shared`, `@relationship`). */
  selectList(ctx: RequestContext): SQL;
  /** Turns stored values into the column types' values (booleans, JSON, money), in place. */
  decode(rows: Row[]): Row[];
  toResourceObject(row: Row, ctx: RequestContext, extras: ReadExtras): ResourceObject;
}

/**
 * A select function declared without a parameter gives the same SQL for every request (it cannot see the
 * request), so its rendering can be kept; one that takes the context is built per request.
 */
const isConstant = (select: (ctx: RequestContext) => SQL) => select.length === 0;

function selectedValues(def: ResourceDef, shape: Shape): Selected[] {
  const selected = new Map<string, Selected>([["id", { key: "id", column: def.idColumn }]]);
  const add = (entry: Selected) => {
    if (!selected.has(entry.key)) selected.set(entry.key, entry);
  };
  for (const name of shape.attributes) {
    const attr = def.attributes[name];
    if (attr.column) add({ key: attr.column.name, column: attr.column });
    for (const column of attr.needs ?? []) add({ key: column.name, column });
    if (attr.select) add({ key: `$${name}`, select: attr.select });
    if (attr.shared) add({ key: `%${attr.shared.key}`, select: attr.shared.select });
  }
  for (const name of shape.linkage) {
    const rel = def.relationships[name];
    // A shared linkage is picked out of its shared value when the rows are decoded (see decoderOf).
    if (rel.shared) add({ key: `%${rel.shared.select.key}`, select: rel.shared.select.select });
    // A relationship kept in a column is read from it, unless it declares how its linkage is read (`orLinks`).
    else add(rel.column && !rel.select ? { key: `@${name}`, column: rel.column } : { key: `@${name}`, select: rel.select! });
  }
  return [...selected.values()];
}

function renderSelectList(values: Selected[], ctx: RequestContext | undefined): SQL {
  // Every value is named explicitly: D1 keeps only one of several result columns that share a name.
  return sql.join(
    values.map(({ key, column, select }) => sql`${column ?? select!(ctx!)} AS ${sql.identifier(key)}`),
    sql`, `,
  );
}

const identity = Column.prototype.mapFromDriverValue;

/**
 * Decodes column values, and places each shared linkage under its relationship's `@<name>`, where every reader of
 * linkage (the resource object, includes) finds it.
 */
function decoderOf(values: Selected[], def: ResourceDef, shape: Shape): (rows: Row[]) => Row[] {
  const decoded = values.filter((v) => v.column && v.column.mapFromDriverValue !== identity).map((v) => [v.key, v.column!] as const);
  const picked = shape.linkage.flatMap((name) => {
    const shared = def.relationships[name].shared;
    return shared ? [{ name: `@${name}`, key: `%${shared.select.key}`, pick: shared.pick }] : [];
  });
  if (decoded.length === 0 && picked.length === 0) return (rows) => rows;
  return (rows) => {
    for (const row of rows) {
      for (const [key, column] of decoded) {
        const value = row[key];
        if (value !== null && value !== undefined) row[key] = column.mapFromDriverValue(value);
      }
      // Each shared value is parsed once, whatever number of relationships pick from it.
      const parsed = new Map<string, unknown>();
      for (const { name, key, pick } of picked) {
        if (!parsed.has(key)) parsed.set(key, typeof row[key] === "string" ? JSON.parse(row[key] as string) : row[key]);
        row[name] = pick(parsed.get(key));
      }
    }
    return rows;
  };
}

export function linkageIds(value: unknown, kind: "one" | "many", identifierMembers = false): string[] {
  if (value === null || value === undefined) return [];
  if (kind === "one") return [identifierMembers ? String(identifierOf(value).id) : String(value)];
  const parsed = typeof value === "string" ? JSON.parse(value) : value;
  if (!Array.isArray(parsed)) return [];
  // A to-many selected with order keys (`hasMany`): each entry is [key, ..., id], put in order here.
  if (parsed.length > 0 && Array.isArray(parsed[0])) return (parsed as unknown[][]).sort(compareKeyed).map((entry) => String(entry.at(-1)));
  return parsed.filter((id) => id !== null).map(String);
}

function compareKeyed(a: unknown[], b: unknown[]): number {
  for (let index = 0; index < a.length; index++) {
    const difference = compareValues(a[index], b[index]);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The members of a stamped to-one identifier (see `belongsToStamped`), as selected: a JSON object. */
function identifierOf(value: unknown): Record<string, unknown> {
  return (typeof value === "string" ? JSON.parse(value) : value) as Record<string, unknown>;
}

function linkageOf(value: unknown, kind: "one" | "many", type: string, identifierMembers: boolean): Identifier | Identifier[] | null {
  if (kind === "one" && identifierMembers) {
    if (value === null || value === undefined) return null;
    const { id, ...members } = identifierOf(value);
    return { type, id: String(id), ...members };
  }
  const ids = linkageIds(value, kind);
  return kind === "one" ? (ids[0] ? { type, id: ids[0] } : null) : ids.map((id) => ({ type, id }));
}

/** Where an attribute's answer is read from: its shared value, else its column, else its own selection. */
function attributeKey(attr: AttributeDef, name: string): string {
  return attr.shared ? `%${attr.shared.key}` : attr.column ? attr.column.name : `$${name}`;
}

function objectBuilder(def: ResourceDef, shape: Shape): ReadPlan["toResourceObject"] {
  const attributes = shape.attributes.map((name) => {
    const attr = def.attributes[name];
    return { name, key: attributeKey(attr, name), read: attr.read };
  });
  const relationships = shape.relationships.map((name) => {
    const rel = def.relationships[name];
    return { name, key: `@${name}`, kind: rel.kind, type: rel.type, identifierMembers: rel.identifierMembers === true };
  });
  return (row, ctx, extras) => {
    const object: ResourceObject = { id: String(row.id), type: def.type };
    // An empty sparse fieldset (`fields[type]=`) leaves only id and type.
    if (attributes.length > 0) {
      const answered: Record<string, unknown> = {};
      for (const { name, key, read } of attributes) {
        const value = read ? read(row, ctx, extras, row[key]) : row[key];
        answered[name] = value === undefined ? null : value;
      }
      object.attributes = answered;
    }
    if (relationships.length > 0) {
      const linked: NonNullable<ResourceObject["relationships"]> = {};
      for (const { name, key, kind, type, identifierMembers } of relationships) {
        linked[name] = { data: linkageOf(row[key], kind, type, identifierMembers) };
      }
      object.relationships = linked;
    }
    return object;
  };
}

function makePlan(def: ResourceDef, shape: Shape): ReadPlan {
  const values = selectedValues(def, shape);
  const constant = values.every((v) => !v.select || isConstant(v.select));
  let rendered: SQL | undefined;
  return {
    shape,
    usesRates: shape.attributes.some((name) => def.attributes[name].usesRates),
    selectList: constant ? () => (rendered ??= precompiled(renderSelectList(values, undefined))) : (ctx) => renderSelectList(values, ctx),
    decode: decoderOf(values, def, shape),
    toResourceObject: objectBuilder(def, shape),
  };
}

/**
 * Plans kept per declaration and shape. Sparse fieldsets come from clients, so the number of shapes is only
 * bounded by what clients send: past the limit the oldest plan is dropped (and made again when next asked for).
 */
const PLANS_PER_RESOURCE = 64;
const plans = new WeakMap<ResourceDef, Map<string, ReadPlan>>();

export function readPlan(def: ResourceDef, shape: Shape): ReadPlan {
  let byShape = plans.get(def);
  if (!byShape) plans.set(def, (byShape = new Map()));
  const key = `${shape.attributes.join(",")}|${shape.relationships.join(",")}|${shape.linkage.join(",")}`;
  let plan = byShape.get(key);
  if (!plan) {
    plan = makePlan(def, shape);
    if (byShape.size >= PLANS_PER_RESOURCE) byShape.delete(byShape.keys().next().value!);
    byShape.set(key, plan);
  }
  return plan;
}
