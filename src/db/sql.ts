/**
 * SQL building blocks for D1. Lists of values go in as one JSON parameter read with json_each, because D1
 * allows at most 100 bound parameters in a statement.
 */
import { getTableName, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { TimeRange } from "../jsonapi/filter-values";

/**
 * A column written with its table name. Drizzle leaves column names unqualified in single-table queries, so
 * every correlated subquery (a child table compared with the outer row) must name its columns through this.
 */
export function q(column: SQLiteColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

/** JSON array of the ids a `SELECT <id> AS id ... ORDER BY ...` answers: a to-many linkage read in the row's statement. */
export function idArray(select: SQL): SQL {
  return sql`(SELECT json_group_array(id) FROM (${select}))`;
}

export function jsonList(values: readonly unknown[]): SQL {
  return sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;
}

export function inList(expression: SQLWrapper, values: readonly unknown[]): SQL {
  if (values.length === 0) return sql`0`;
  if (values.length === 1) return sql`${expression} = ${values[0]}`;
  return sql`${expression} IN ${jsonList(values)}`;
}

export function timestampInRange(column: SQLWrapper, range: TimeRange): SQL {
  return sql`(${column} >= ${range.from} AND ${column} < ${range.until})`;
}

export function dateInRange(column: SQLWrapper, range: TimeRange): SQL {
  return sql`(${column} >= ${range.fromDate} AND ${column} < ${range.untilDate})`;
}

/** The expression holds none of the values; NULL counts as blank, so it is kept unless blank is among them. */
export function notAmong(expression: SQLWrapper, values: readonly string[]): SQL {
  return noneOf(sql`COALESCE(${expression}, '')`, values);
}

/** Beyond this many values a list is sent as one bound JSON value, whatever its probes cost. */
const COMPARED_ONE_BY_ONE = 20;

/**
 * The (non-NULL) expression is none of these values, which are constants of the code (a resource's hidden
 * statuses): written into the statement and compared one by one. An IN list is probed through a temporary index,
 * and D1 counts each probe as a row read: a page's exclusion cost two reads per row checked.
 */
export function noneOf(expression: SQLWrapper, constants: readonly string[]): SQL {
  if (constants.length === 0) return sql`1`;
  if (constants.length > COMPARED_ONE_BY_ONE) return sql`${expression} NOT IN ${jsonList(constants)}`;
  return sql`(${sql.join(constants.map((value) => sql`${expression} <> ${literal(value)}`), sql` AND `)})`;
}

/** The expression is one of these constants of the code, compared one by one (see `noneOf`). */
export function oneOf(expression: SQLWrapper, constants: readonly string[]): SQL {
  if (constants.length === 0) return sql`0`;
  if (constants.length > COMPARED_ONE_BY_ONE) return sql`${expression} IN ${jsonList(constants)}`;
  return sql`(${sql.join(constants.map((value) => sql`${expression} = ${literal(value)}`), sql` OR `)})`;
}

/** Negation that treats an unknown (NULL) condition as not matching, so the reverse of a filter includes those rows. */
export function not(condition: SQL): SQL {
  return sql`NOT COALESCE((${condition}), 0)`;
}

export function and(conditions: Array<SQL | undefined>): SQL | undefined {
  const present = conditions.filter((c): c is SQL => c !== undefined);
  if (present.length === 0) return undefined;
  return sql.join(present.map((c) => sql`(${c})`), sql` AND `);
}

/**
 * Conditions checked one after another, each only for rows that passed those before it (NULL fails, as in
 * WHERE). SQLite orders the terms of an AND by its own rules (it may test a text search on every candidate
 * before a cheap tag lookup has ruled most of them out); a CASE chain keeps the order given.
 */
export function inOrder(conditions: SQL[]): SQL | undefined {
  if (conditions.length === 0) return undefined;
  return conditions.slice(0, -1).reduceRight((rest, condition) => sql`CASE WHEN ${condition} THEN ${rest} ELSE 0 END`, sql`(${conditions.at(-1)})`);
}

const candidateSources = new WeakSet<SQL>();

/**
 * Marks a condition written as `id IN (uncorrelated subquery)` over an index: the planner may start from it
 * (the rows it names) when it is the most selective term, so it must stay a plain term of the WHERE clause.
 */
export function candidateSource(condition: SQL): SQL {
  candidateSources.add(condition);
  return condition;
}

export function isCandidateSource(condition: SQL): boolean {
  return candidateSources.has(condition);
}

export function or(conditions: Array<SQL | undefined>): SQL | undefined {
  const present = conditions.filter((c): c is SQL => c !== undefined);
  if (present.length === 0) return undefined;
  return sql`(${sql.join(present.map((c) => sql`(${c})`), sql` OR `)})`;
}

const LARGEST_INTEGER = 2n ** 63n - 1n;

/**
 * A value written into the statement instead of bound: D1 binds at most 100 parameters a statement, and a statement
 * repeating a value once per account list or part (a list's id, a page's end) would run out of them. Strings are
 * quoted as SQLite quotes them (a quote doubled), so any value is safe; numbers must be integers (kept within SQLite's).
 */
export function literal(value: string | number): SQL {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new Error(`not an integer: ${value}`);
    // A page far past the end names a row beyond 2^53; SQLite's integers end at 2^63 - 1.
    const integer = BigInt(value);
    return sql.raw(String(integer > LARGEST_INTEGER ? LARGEST_INTEGER : integer < -LARGEST_INTEGER ? -LARGEST_INTEGER : integer));
  }
  return sql.raw(`'${value.replaceAll("'", "''")}'`);
}

/** D1 answers "too many terms in compound SELECT" past five terms in one compound SELECT (SQLite's default is 500). */
export const MOST_COMPOUND_TERMS = 5;

/**
 * The terms joined by UNION or UNION ALL, nested so that no compound SELECT has more terms than D1 allows: the
 * last term of each level reads the next level (`SELECT * FROM (...)`). Statements that join a term per account
 * list, or per part of a page, go through this, so that no count of lists makes them fail.
 */
export function compoundOf(terms: SQL[], operator: "UNION" | "UNION ALL"): SQL {
  const joiner = sql.raw(` ${operator} `);
  if (terms.length <= MOST_COMPOUND_TERMS) return sql.join(terms, joiner);
  const head = terms.slice(0, MOST_COMPOUND_TERMS - 1);
  return sql`${sql.join(head, joiner)}${joiner}SELECT * FROM (${compoundOf(terms.slice(MOST_COMPOUND_TERMS - 1), operator)})`;
}

/** Case-insensitive substring match that is not subject to LIKE's 50-byte pattern limit. */
export function containsText(column: SQLWrapper, text: string): SQL {
  return sql`instr(lower(${column}), lower(${text})) > 0`;
}

export function startsWithText(column: SQLWrapper, text: string): SQL {
  return sql`substr(lower(${column}), 1, length(${text})) = lower(${text})`;
}

/** A fresh random version-4 UUID per row, for rows written by INSERT ... SELECT (no per-row round trip). */
export function randomUuid(): SQL {
  return sql`lower(printf('%s-%s-4%s-%s%s-%s', hex(randomblob(4)), hex(randomblob(2)), substr(hex(randomblob(2)), 2), substr('89ab', 1 + (abs(random()) % 4), 1), substr(hex(randomblob(2)), 2), hex(randomblob(6))))`;
}

/**
 * `json_array(<target currency>, [[currency, units], ...])`: the rows' amounts summed per currency (exact
 * integer units as text), to be converted in code with convertedSumsJson. `from` is `FROM ... WHERE ...`.
 */
export function sumsByCurrency(target: SQL, currency: SQL, amount: SQLWrapper, from: SQL): SQL {
  return sql`json_array(${target}, json((SELECT json_group_array(json_array(currency, units)) FROM (SELECT ${currency} AS currency, CAST(SUM(${amount}) AS TEXT) AS units ${from} GROUP BY 1))))`;
}

/**
 * A column the planner must not pick an index for: SQLite skips indexes on `+column`. Conditions that only narrow
 * rows an index already found use it, so that the planner keeps that index (a contact's donations by donor
 * account, not every gift of the list; overdue tasks by start, not every open task).
 */
export function notIndexed(column: SQLiteColumn): SQL {
  return sql`+${q(column)}`;
}
