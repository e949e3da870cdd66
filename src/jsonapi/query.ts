/**
 * Parsing of list and document parameters: paging, sort, include, sparse fieldsets and the raw filter set.
 * Resource-specific meaning (which sorts and filters exist) is applied by the engine from the declarations.
 */
import { ApiError, badRequest } from "./errors";
import { camelToSnake, clientObject, isObject, ownEntry, type ParamValue, type Params } from "./params";

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 25_000;

export interface Paging {
  page: number;
  perPage: number;
  /** Rows before the page: see `pageOffset`. */
  offset: number;
}

/**
 * Any whole page number is a page: one far past the end is answered like every page past the end (no rows and
 * the true total), which is what a client paging on expects, where refusing it would make "past the end" depend
 * on how far. But (page - 1) * per_page can leave SQLite's 64-bit integers (page 999999999999999 of 25,000), so
 * the offset stops at the largest exact whole number: far more rows than any table holds, the same empty page.
 */
function pageOffset(page: number, perPage: number): number {
  return Math.min((page - 1) * perPage, Number.MAX_SAFE_INTEGER);
}

export interface SortTerm {
  field: string;
  descending: boolean;
  /** "first" for a trailing ` nulls`, "last" for ` -nulls`, undefined for the database default. */
  nulls?: "first" | "last";
}

/** include=a,b.c as a tree: { a: {}, b: { c: {} } }. */
export type IncludeTree = { [relationship: string]: IncludeTree };

export interface DocumentParams {
  include: IncludeTree;
  includeAll: boolean;
  fields: Map<string, Set<string>>;
}

/** Whether the request asks for anything included (`include=*` or any path): its answer then has `included`. */
export function asksForIncludes(params: DocumentParams): boolean {
  return params.includeAll || Object.keys(params.include).length > 0;
}

export function parsePaging(params: Params): Paging {
  const pageParam = isObject(params.page) ? params.page : undefined;
  const rawPage = pageParam ? pageParam.number : params.page;
  const rawPerPage = params.per_page ?? (pageParam ? pageParam.size : undefined);
  const perPageName = params.per_page !== undefined ? "per_page" : "page[size]";
  const pageName = pageParam ? "page[number]" : "page";
  const page = parseCount(rawPage, pageName, 1, Number.MAX_SAFE_INTEGER, 1);
  const perPage = parseCount(rawPerPage, perPageName, 0, MAX_PER_PAGE, DEFAULT_PER_PAGE);
  return { page, perPage, offset: pageOffset(page, perPage) };
}

function parseCount(raw: ParamValue | undefined, name: string, min: number, max: number, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  if (typeof raw !== "string" || !/^\d+$/.test(raw.trim())) {
    throw badRequest(`${name} must be a whole number between ${min} and ${max}`, { parameter: name });
  }
  const value = Number(raw.trim());
  if (value < min || value > max) {
    throw badRequest(`${name} must be a whole number between ${min} and ${max}`, { parameter: name });
  }
  return value;
}

export function rawSort(params: Params): string | null {
  const sort = params.sort;
  return typeof sort === "string" && sort !== "" ? sort : null;
}

/** Parses `sort` against the allowed fields. Errors carry the exact details clients match on. */
export function parseSort(raw: string | null, allowed: readonly string[], allowMultiple: boolean): SortTerm[] {
  if (raw === null) return [];
  const parts = raw.split(",");
  if (parts.length > 1 && !allowMultiple) {
    throw badRequest("This endpoint does not support multiple sorting parameters.", { parameter: "sort" });
  }
  return parts.map((part) => {
    // A dotted field (`contact.name`) sorts by a field of a related record, where the resource declares one.
    const match = /^(-?)([a-z_]+(?:\.[a-z_]+)?)(?: (-?)nulls)?$/.exec(part.trim());
    if (!match) throw badRequest("Bad format for sort param.", { parameter: "sort" });
    const [, minus, field, nullsMinus] = match;
    if (!allowed.includes(field)) {
      throw badRequest(`Sorting by ${field} is not supported for this endpoint.`, { parameter: "sort" });
    }
    const term: SortTerm = { field, descending: minus === "-" };
    if (part.includes("nulls")) term.nulls = nullsMinus === "-" ? "last" : "first";
    return term;
  });
}

export function parseDocumentParams(params: Params): DocumentParams {
  const include: IncludeTree = clientObject();
  let includeAll = false;
  const rawInclude = typeof params.include === "string" ? params.include : "";
  for (const path of rawInclude.split(",").map((p) => p.trim()).filter(Boolean)) {
    if (path === "*") {
      includeAll = true;
      continue;
    }
    let node = include;
    for (const segment of path.split(".")) node = ownEntry(node, segment) ?? (node[segment] = clientObject());
  }
  const fields = new Map<string, Set<string>>();
  if (isObject(params.fields)) {
    for (const [type, list] of Object.entries(params.fields)) {
      if (typeof list !== "string") continue;
      fields.set(type, new Set(list.split(",").map((f) => f.trim()).filter(Boolean)));
    }
  }
  return { include, includeAll, fields };
}

/** A type's singular name, as the original's clients write some sparse fieldsets' keys (`fields[contact]`). */
function singularOf(type: string): string {
  if (type === "people") return "person";
  if (type.endsWith("ies")) return `${type.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh)es$/.test(type)) return type.slice(0, -2);
  return type.endsWith("s") && !type.endsWith("ss") ? type.slice(0, -1) : type;
}

/**
 * The sparse fieldset of a type: `fields[<type>]`, or `fields[<type in the singular>]` first, as the original read
 * them (the web app's tasks page sends `fields[contact]=name`). Undefined when the request names none.
 */
export function fieldsetFor(params: Pick<DocumentParams, "fields">, type: string): Set<string> | undefined {
  return params.fields.get(singularOf(type)) ?? params.fields.get(type);
}

/** The filter set with keys read as snake_case, values exactly as sent. */
export function rawFilters(params: Params): Record<string, ParamValue> {
  if (!isObject(params.filter)) return clientObject();
  const filters: Record<string, ParamValue> = clientObject();
  for (const [key, value] of Object.entries(params.filter)) filters[camelToSnake(key)] = value;
  return filters;
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * A list request's query, parsed once at the edge of the read path and handed down: its paging, the document's
 * includes and fields, its sort as sent, and its filters by name. Nothing below reads the raw parameters again.
 */
export interface ListQuery {
  paging: Paging;
  document: DocumentParams;
  /** The sort as sent (null when none), checked against the resource's sorts where the order is built. */
  sort: string | null;
  filters: Record<string, ParamValue>;
}

export function parseListQuery(params: Params): ListQuery {
  return { paging: parsePaging(params), document: parseDocumentParams(params), sort: rawSort(params), filters: rawFilters(params) };
}
