/**
 * Per-request D1 accounting. Each request gets a counting wrapper around the D1 binding; its totals go into the
 * request's log line (src/request-log.ts). Load tests (`npm run bench`) set the BENCH_METRICS binding to also get
 * them on the response:
 *   X-D1-Round-Trips  calls to D1 (a batch of statements is one call),
 *   X-D1-Critical-Path calls one after another on the longest chain (calls made at once, to several databases,
 *                     count once),
 *   X-D1-Queries      SQL statements run,
 *   X-D1-Rows-Read    rows read as D1 bills them (meta.rows_read; a trailing "+" means some were not reported),
 *   X-D1-Rows-Written rows written as D1 bills them (meta.rows_written, where reported).
 */

import { firstOf } from "./rows";

interface Tally {
  roundTrips: number;
  /** The longest chain of calls among those finished: a call started now would be one more. */
  criticalPath: number;
  statements: number;
  rowsRead: number;
  rowsIncomplete: boolean;
  rowsWritten: number;
}

/** The D1 binding's own fields this file reads; present in workerd, but not part of the public types. */
interface BindingInternals {
  fetcher?: { fetch(url: string, init: RequestInit): Promise<Response> };
}
interface StatementInternals {
  statement?: string;
  params?: unknown[];
}

interface RowsAndColumns {
  success?: boolean;
  error?: string;
  meta?: { rows_read?: number; rows_written?: number };
  results?: { columns: string[]; rows: unknown[][] } | Array<Record<string, unknown>>;
}

/** A call starting: its place on the chain of calls that finished before it. */
const begin = (tally: Tally) => tally.criticalPath + 1;

function record(tally: Tally, depth: number, statements: number, metas: Array<{ rows_read?: number; rows_written?: number } | undefined>): void {
  tally.roundTrips += 1;
  tally.criticalPath = Math.max(tally.criticalPath, depth);
  tally.statements += statements;
  for (const meta of metas) {
    if (typeof meta?.rows_read === "number") tally.rowsRead += meta.rows_read;
    else tally.rowsIncomplete = true;
    if (typeof meta?.rows_written === "number") tally.rowsWritten += meta.rows_written;
  }
}

class CountedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly tally: Tally,
    private readonly binding: BindingInternals,
  ) {}

  bind(...values: unknown[]): CountedStatement {
    return new CountedStatement(this.inner.bind(...values), this.tally, this.binding);
  }

  async all<T>(): Promise<D1Result<T>> {
    const depth = begin(this.tally);
    const result = await this.inner.all<T>();
    record(this.tally, depth, 1, [result.meta]);
    return result;
  }

  async run<T>(): Promise<D1Result<T>> {
    const depth = begin(this.tally);
    const result = await this.inner.run<T>();
    record(this.tally, depth, 1, [result.meta]);
    return result;
  }

  async first<T>(column?: string): Promise<T | null> {
    return firstOf<T>((await this.all<Record<string, unknown>>()).results, column);
  }

  /**
   * The public raw() drops `meta`, and all() would merge duplicate column names, so raw rows are read with the
   * same request the binding itself sends; when the binding's fields are not there, rows read go unreported.
   */
  async raw(options?: { columnNames?: boolean }): Promise<unknown[]> {
    const { statement, params } = this.inner as unknown as StatementInternals;
    const fetcher = this.binding.fetcher;
    const depth = begin(this.tally);
    if (!fetcher || typeof statement !== "string" || !Array.isArray(params)) {
      const rows = await this.inner.raw(options as { columnNames?: false });
      record(this.tally, depth, 1, [undefined]);
      return rows;
    }
    const response = await fetcher.fetch("http://d1/query?resultsFormat=ROWS_AND_COLUMNS", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sql: statement, params }),
    });
    const answer = (await response.json()) as RowsAndColumns | RowsAndColumns[];
    const result = Array.isArray(answer) ? answer[0] : answer;
    if (!result || result.error || result.success === false) throw new Error(`D1_ERROR: ${result?.error ?? "Something went wrong"}`);
    record(this.tally, depth, 1, [result.meta]);
    const results = result.results;
    if (!results) return [];
    if (Array.isArray(results)) {
      const rows = results.map((row) => Object.values(row));
      return options?.columnNames ? [Object.keys(results[0] ?? {}), ...rows] : rows;
    }
    return options?.columnNames ? [results.columns, ...results.rows] : results.rows;
  }
}

/** Counts the calls made on `db` (the request's session); `binding` is the D1 binding it runs on, for raw(). */
function countingD1(db: D1Database, binding: BindingInternals, tally: Tally): D1Database {
  const counted = {
    prepare: (query: string) => new CountedStatement(db.prepare(query), tally, binding),
    batch: async <T>(statements: Array<D1PreparedStatement | CountedStatement>) => {
      const inner = statements.map((s) => (s instanceof CountedStatement ? s.inner : s));
      const depth = begin(tally);
      const results = await db.batch<T>(inner);
      record(tally, depth, inner.length, results.map((r) => r.meta));
      return results;
    },
  };
  return counted as unknown as D1Database;
}

export interface D1Totals {
  roundTrips: number;
  /** Round trips one after another on the longest chain (those made at once count once). */
  criticalPath: number;
  statements: number;
  rowsRead: number;
  /** Some calls did not report the rows they read: rowsRead is a lower bound. */
  rowsIncomplete: boolean;
}

export interface D1Metrics {
  /** The binding to hand to drizzle for this request. */
  db: D1Database;
  /** Another session of the same request (on another database, `binding`), counted into the same totals. */
  counting(session: D1Database, binding: D1Database): D1Database;
  /** What the request has cost so far. */
  totals(): D1Totals;
  /** Writes the X-D1-* headers onto the finished response when BENCH_METRICS is set. */
  report(headers: Headers): void;
}

/**
 * A counting wrapper around the request's D1 session. Load tests (BENCH_METRICS) also read the rows a raw()
 * statement reads, through the binding's own query endpoint; that bypasses the session, which only a load test on
 * one local database may do, so elsewhere raw() statements are counted without their rows.
 */
export function d1Metrics(env: { DB: D1Database }, session: D1Database): D1Metrics {
  const tally: Tally = { roundTrips: 0, criticalPath: 0, statements: 0, rowsRead: 0, rowsIncomplete: false, rowsWritten: 0 };
  const onResponse = Boolean((env as { BENCH_METRICS?: unknown }).BENCH_METRICS);
  return {
    db: countingD1(session, onResponse ? (env.DB as unknown as BindingInternals) : {}, tally),
    counting: (other, binding) => countingD1(other, onResponse ? (binding as unknown as BindingInternals) : {}, tally),
    totals: () => ({ ...tally }),
    report(headers) {
      if (!onResponse) return;
      try {
        headers.set("X-D1-Round-Trips", String(tally.roundTrips));
        headers.set("X-D1-Critical-Path", String(tally.criticalPath));
        headers.set("X-D1-Queries", String(tally.statements));
        headers.set("X-D1-Rows-Read", `${tally.rowsRead}${tally.rowsIncomplete ? "+" : ""}`);
        headers.set("X-D1-Rows-Written", String(tally.rowsWritten));
      } catch {
        // A response with immutable headers (passed through from a fetch) goes out without the counts.
      }
    },
  };
}
