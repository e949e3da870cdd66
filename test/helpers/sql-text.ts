/**
 * Just enough reading of SQL text for the tests' storage to route a statement: the tables it names, its top-level
 * clauses (outside parentheses and quotes), the rows of an `INSERT ... VALUES`, the shape of a `SELECT`'s answer.
 * Statements it cannot read are routed as a whole.
 */
import { getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../drizzle/schema";

const TABLES = new Set(Object.values(schema).filter((value) => is(value, SQLiteTable)).map((table) => getTableName(table as SQLiteTable)));

/** The tables a statement names (not its common table expressions or table-valued functions). */
export function tablesOf(query: string): Set<string> {
  const tables = new Set<string>();
  for (const match of query.matchAll(/\b(?:from|join|into|update)\s+"?([a-z_0-9]+)"?/gi)) if (TABLES.has(match[1].toLowerCase())) tables.add(match[1].toLowerCase());
  return tables;
}

export const isWrite = (query: string) => /\b(insert\s+(or\s+\w+\s+)?into|replace\s+into|delete\s+from|update\s+"?\w+"?\s+set)\b/i.test(query);
export const isSchemaChange = (query: string) => /^\s*(create|drop|alter|pragma|analyze|reindex|vacuum)\b/i.test(query);

/**
 * The text with string literals blanked (same length), and each character's depth in parentheses: a keyword at
 * depth 0 of the blanked text is one of the statement's own clauses.
 */
function scan(query: string): { text: string; depth: number[] } {
  let text = "";
  const depth: number[] = [];
  let level = 0;
  let quote: string | null = null;
  for (const char of query) {
    if (quote) {
      if (char === quote) quote = null;
      text += quote === "'" ? " " : char;
    } else {
      if (char === "'" || char === '"' || char === "`") quote = char;
      if (char === ")") level--;
      text += char;
    }
    depth.push(level);
    if (!quote && char === "(") level++;
  }
  return { text, depth };
}

/** Where the top-level matches of `pattern` (global) start. */
function topLevel(query: string, pattern: RegExp): RegExpMatchArray[] {
  const { text, depth } = scan(query);
  return [...text.matchAll(pattern)].filter((match) => depth[match.index!] === 0);
}

/** The table a write writes: what follows INSERT INTO, REPLACE INTO, UPDATE or DELETE FROM. */
export function writtenTable(query: string): string | null {
  const match = /^\s*(?:with\b[\s\S]*?\)\s*)?(?:insert\s+(?:or\s+\w+\s+)?into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?(\w+)"?/i.exec(query);
  return match ? match[1].toLowerCase() : null;
}

/**
 * An `INSERT INTO t (columns) SELECT ...` whose rows are kept only where `keep(column)` holds for one column (a SQL
 * condition on that column's value), or null when it is not one (or has ON CONFLICT or RETURNING to keep intact).
 */
export function insertSelectKeeping(query: string, column: string, condition: (value: string) => string): string | null {
  const head = /^\s*insert\s+(?:or\s+\w+\s+)?into\s+"?\w+"?\s*\(([^)]*)\)\s*/i.exec(query);
  if (!head) return null;
  const rest = query.slice(head[0].length);
  if (!/^(select|with)\b/i.test(rest) || topLevel(rest, /\b(on\s+conflict|returning)\b/gi).length > 0) return null;
  const columns = head[1].split(",").map((name) => name.trim().replace(/^"|"$/g, ""));
  const index = columns.indexOf(column);
  if (index < 0) return null;
  const names = columns.map((_, position) => `c${position}`);
  return `${head[0]}WITH picked(${names.join(", ")}) AS (${rest.replace(/;\s*$/, "")}) SELECT * FROM picked WHERE ${condition(`c${index}`)}`;
}

/** The top-level parts of a comma-separated list. */
function splitTopLevel(list: string): string[] {
  const { text, depth } = scan(list);
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "," && depth[i] === 0) {
      parts.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(list.slice(start).trim());
  return parts;
}

/** How many `?` parameters the text holds (none inside literals). */
const placeholders = (text: string) => (scan(text).text.match(/\?/g) ?? []).length;

export interface InsertRow {
  /** The row's tuple as written, with its parameters. */
  tuple: string;
  params: unknown[];
  /** Each column's value where the tuple binds it as a parameter (literals are left out). */
  values: Record<string, unknown>;
}

export interface Insert {
  table: string;
  rows: InsertRow[];
  /** The same statement over some of the rows. */
  of(rows: InsertRow[]): { query: string; params: unknown[] };
}

/** An `INSERT INTO t (columns) VALUES (...), (...)` read into its rows; anything else (INSERT ... SELECT) is null. */
export function readInsert(query: string, params: unknown[]): Insert | null {
  const head = /^\s*insert\s+(?:or\s+\w+\s+)?into\s+"?(\w+)"?\s*\(([^)]*)\)\s*values\s*/i.exec(query);
  if (!head || /\?\d/.test(query)) return null;
  const columns = head[2].split(",").map((column) => column.trim().replace(/^"|"$/g, ""));
  const { text, depth } = scan(query);
  const rows: InsertRow[] = [];
  let position = head[0].length;
  let used = 0;
  for (;;) {
    if (text[position] !== "(") return null;
    let end = position + 1;
    while (end < text.length && !(text[end] === ")" && depth[end] === 0)) end++;
    const tuple = query.slice(position, end + 1);
    const count = placeholders(tuple);
    const rowParams = params.slice(used, used + count);
    used += count;
    const items = splitTopLevel(tuple.slice(1, -1));
    if (items.length !== columns.length) return null;
    const values: Record<string, unknown> = {};
    let index = 0;
    items.forEach((item, column) => {
      if (item === "?") values[columns[column]] = rowParams[index];
      index += placeholders(item);
    });
    rows.push({ tuple, params: rowParams, values });
    position = end + 1;
    while (/\s/.test(text[position] ?? "")) position++;
    if (text[position] !== ",") break;
    position++;
    while (/\s/.test(text[position] ?? "")) position++;
  }
  const prefix = query.slice(0, head[0].length);
  const suffix = query.slice(position);
  const suffixParams = params.slice(used);
  return {
    table: head[1].toLowerCase(),
    rows,
    of: (some) => ({ query: `${prefix}${some.map((row) => row.tuple).join(", ")} ${suffix}`, params: [...some.flatMap((row) => row.params), ...suffixParams] }),
  };
}

export type Aggregate = "sum" | "min" | "max";

export interface SelectShape {
  /** Each answered column's aggregate (null for one that is not), when the answer's columns could be read. */
  aggregates: Array<Aggregate | null> | null;
  /** Whether the rows are grouped (GROUP BY). */
  grouped: boolean;
  /** The top-level ORDER BY terms: the answered column each sorts by (a name or a position from 1), and its direction (null: an expression). */
  order: Array<{ column: string | number | null; descending: boolean }>;
  /** The top-level LIMIT and OFFSET, with parameters resolved. */
  limit: { count: number; offset: number } | null;
}

const AGGREGATE = /^(count|sum|total|min|max)\s*\(/i;

function aggregateOf(item: string): Aggregate | null {
  const call = AGGREGATE.exec(item);
  if (!call) return null;
  const { text, depth } = scan(item);
  const open = call[0].length - 1;
  let close = open + 1;
  while (close < text.length && !(text[close] === ")" && depth[close] === depth[open])) close++;
  if (!/^\s*(as\s+("\w+"|\w+))?\s*$/i.test(text.slice(close + 1))) return null;
  const name = call[1].toLowerCase();
  return name === "min" || name === "max" ? name : "sum";
}

export function readSelect(query: string, params: unknown[]): SelectShape {
  const selects = topLevel(query, /\bselect\b/gi);
  const froms = topLevel(query, /\bfrom\b/gi);
  const compound = topLevel(query, /\b(union|intersect|except)\b/gi).length > 0;
  const grouped = topLevel(query, /\bgroup\s+by\b/gi).length > 0;
  let aggregates: SelectShape["aggregates"] = null;
  if (selects.length === 1 && !compound) {
    const start = selects[0].index! + selects[0][0].length;
    const end = froms.find((match) => match.index! > start)?.index ?? query.length;
    const items = splitTopLevel(query.slice(start, end).replace(/^\s*distinct\b/i, ""));
    if (!items.some((item) => item.endsWith("*") && !AGGREGATE.test(item))) aggregates = items.map(aggregateOf);
  }
  const orderBy = topLevel(query, /\border\s+by\b/gi).at(-1);
  const limitAt = topLevel(query, /\blimit\b/gi).at(-1);
  const order: SelectShape["order"] = [];
  if (orderBy) {
    const terms = query.slice(orderBy.index! + orderBy[0].length, limitAt && limitAt.index! > orderBy.index! ? limitAt.index : undefined);
    for (const term of splitTopLevel(terms)) {
      const parsed = /^(?:"?\w+"?\.)?"?(\w+)"?(?:\s+(asc|desc))?$/i.exec(term.trim());
      const column = parsed ? (/^\d+$/.test(parsed[1]) ? Number(parsed[1]) : parsed[1]) : null;
      order.push({ column, descending: parsed?.[2]?.toLowerCase() === "desc" });
    }
  }
  let limit: SelectShape["limit"] = null;
  if (limitAt) {
    const clause = /^limit\s+(\?|\d+)(?:\s+offset\s+(\?|\d+))?\s*;?\s*$/i.exec(query.slice(limitAt.index!));
    if (!clause) throw new Error(`The tests' storage cannot read this LIMIT: ${query}`);
    let next = placeholders(query.slice(0, limitAt.index));
    const value = (token: string | undefined) => (token === undefined ? 0 : token === "?" ? Number(params[next++]) : Number(token));
    limit = { count: value(clause[1]), offset: value(clause[2]) };
  }
  return { aggregates, grouped, order, limit };
}
