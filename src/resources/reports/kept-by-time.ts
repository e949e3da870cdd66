/**
 * Sums over spans of time (a report's periods, which begin at midnight in the viewer's zone) from the rows kept by
 * UTC month, day and hour (`keptByTime` in drizzle/kept-sums.ts), so that a period's counts read a few kept rows,
 * not every row in it.
 *
 * A span's sum is the difference of two running totals, at its end and at its start. The running total at an
 * instant is taken at the nearest UTC midnight, corrected by the hours between that midnight and the nearest whole
 * hour (where hours are kept), and by the rows themselves between that hour and the instant: at most twelve hours
 * and thirty minutes read finer at each end, whatever the zone. Between the two midnights the span is whole days,
 * and whole months where they fit; where days are not kept, the days about a month's start are read as rows.
 */
import { sql, type SQL } from "drizzle-orm";
import { keptSums } from "../../../drizzle/schema";
import { TIME_KEPT, TIME_UNITS, keptByTimeKind, type TimeUnit } from "../../../drizzle/kept-sums";
import { q } from "../../db/sql";
import { formatTimestamp } from "../../jsonapi/time";
import type { Rows } from "../../db/statements";

/** A part of a span's sum: the rows kept by `unit` (or the rows themselves) from `from` to `until`, added or taken. */
interface Piece {
  unit: TimeUnit | "row";
  from: number;
  until: number;
  sign: 1 | -1;
}

/** A group's sum over a span: its two keys, its rows and the sum of their amounts (money units, or 0). */
export interface TimeGroup {
  key2: string;
  key3: string;
  rows: number;
  units: bigint;
}

/** The end of a span that runs on to whatever is kept after its start. */
export const UNTIL_THE_END = "9999-12-31T00:00:00Z";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Ranges read by one statement (D1 allows a compound SELECT only a few terms). */
const RANGES_A_STATEMENT = 4;
/** More separate ranges of one unit than this are read as the one range covering them all. */
const MAX_RANGES = 8 * RANGES_A_STATEMENT;

const nearest = (at: number, unit: number) => Math.round(at / unit) * unit;
const monthStart = (at: number, monthsLater = 0) => {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + monthsLater, 1);
};
const stamp = (at: number) => formatTimestamp(new Date(at));

/** From `from` to `until` in `unit` (the other way round, taken), or nothing where they meet. */
function signed(unit: Piece["unit"], from: number, until: number, sign: 1 | -1): Piece[] {
  if (from === until) return [];
  return from < until ? [{ unit, from, until, sign }] : [{ unit, from: until, until: from, sign: -sign as 1 | -1 }];
}

/** Whole days from midnight `from` to midnight `until`, as whole months where those are kept and fit (days not kept are rows). */
function wholeDays(from: number, until: number, units: TimeUnit[]): Piece[] {
  if (from >= until) return [];
  const day = units.includes("day") ? "day" : "row";
  const firstMonth = monthStart(from) === from ? from : monthStart(from, 1);
  const lastMonth = monthStart(until);
  if (!units.includes("month") || firstMonth >= lastMonth) return [{ unit: day, from, until, sign: 1 }];
  return [...signed(day, from, firstMonth, 1), { unit: "month", from: firstMonth, until: lastMonth, sign: 1 }, ...signed(day, lastMonth, until, 1)];
}

/** The pieces of the span from `from` to `until` (UTC timestamps), over the units kept. */
function piecesOf(from: string, until: string, units: TimeUnit[]): Piece[] {
  const anchors = (text: string) => {
    const at = Date.parse(text);
    const midnight = nearest(at, DAY);
    return { at, midnight, hour: units.includes("hour") ? nearest(at, HOUR) : midnight };
  };
  const [start, end] = [anchors(from), anchors(until)];
  return [
    ...wholeDays(start.midnight, end.midnight, units),
    ...signed("hour", end.midnight, end.hour, 1),
    ...signed("row", end.hour, end.at, 1),
    ...signed("hour", start.midnight, start.hour, -1),
    ...signed("row", start.hour, start.at, -1),
  ].filter((piece) => piece.from < piece.until);
}

/** The ranges of `pieces`, joined where they touch; the one range covering them where they are too many. */
function rangesOf(pieces: Piece[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const { from, until } of [...pieces].sort((a, b) => a.from - b.from)) {
    const last = ranges.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], until);
    else ranges.push([from, until]);
  }
  return ranges.length > MAX_RANGES ? [[ranges[0][0], ranges.at(-1)![1]]] : ranges;
}

/** How a timestamp's time falls in the unit: its prefix, which the kept rows' key1 holds (the rows' own time whole). */
const keyOf = (unit: Piece["unit"], at: number) => (unit === "row" ? stamp(at) : stamp(at).slice(0, TIME_UNITS[unit]));

/** A read of sums by time: its statements, to run in one batch with a report's others, and what their answers sum to. */
export interface TimeSums {
  queries: SQL[];
  /** Each span's groups, from the answers of `queries` in order. */
  sums(answers: Rows[]): TimeGroup[][];
}

/**
 * The sums of the kept sum `name` (drizzle/kept-sums.ts) of owner `owner` over each span, by its two keys. Read in
 * the batch of the report's other figures, they are of one moment with them.
 */
export function timeSums(name: string, owner: string, spans: Array<{ from: string; until: string }>): TimeSums {
  const kept = TIME_KEPT[name];
  if (!kept) throw new Error(`${name}: not kept by time`);
  const pieces = spans.map((span) => piecesOf(span.from, span.until, kept.units));
  const units = [...new Set(pieces.flat().map((piece) => piece.unit))];
  const raw = (expression: string) => sql.raw(expression);
  const rangeQuery = (unit: Piece["unit"], [from, until]: [number, number]) =>
    unit === "row"
      ? sql`SELECT ${raw(kept.at)} AS key1, ${raw(kept.keys[0])} AS key2, ${raw(kept.keys[1])} AS key3, CAST(${raw(kept.amount)} AS TEXT) AS units, 1 AS rows
          FROM ${raw(kept.table)} AS R WHERE ${raw(kept.owner)} = ${owner} AND (${raw(kept.when)})${kept.indexed ? sql` AND ${raw(kept.indexed)}` : sql``} AND ${raw(kept.at)} >= ${stamp(from)} AND ${raw(kept.at)} < ${stamp(until)}`
      : sql`SELECT ${q(keptSums.key1)} AS key1, ${q(keptSums.key2)} AS key2, ${q(keptSums.key3)} AS key3, CAST(${q(keptSums.units)} AS TEXT) AS units, ${q(keptSums.rows)} AS rows
          FROM ${keptSums} WHERE ${q(keptSums.kind)} = ${keptByTimeKind(name, unit)} AND ${q(keptSums.ownerId)} = ${owner}
          AND ${q(keptSums.key1)} >= ${keyOf(unit, from)} AND ${q(keptSums.key1)} < ${keyOf(unit, until)}`;
  // Each unit's ranges, a few to a statement; the rows of every statement are the unit's (ranges never overlap).
  const statements = units.flatMap((unit) => {
    const ranges = rangesOf(pieces.flat().filter((piece) => piece.unit === unit));
    return Array.from({ length: Math.ceil(ranges.length / RANGES_A_STATEMENT) }, (_, index) => ({
      unit,
      query: sql.join(ranges.slice(index * RANGES_A_STATEMENT, (index + 1) * RANGES_A_STATEMENT).map((range) => rangeQuery(unit, range)), sql` UNION ALL `),
    }));
  });
  return {
    queries: statements.map((statement) => statement.query),
    sums: (answers) => {
      // Each unit's rows in the order of their key: a piece's rows are a run of them, found by halving.
      const rowsOf = new Map<Piece["unit"], Rows>();
      statements.forEach((statement, index) => rowsOf.set(statement.unit, [...(rowsOf.get(statement.unit) ?? []), ...answers[index]]));
      for (const rows of rowsOf.values()) rows.sort((a, b) => (String(a.key1) < String(b.key1) ? -1 : String(a.key1) > String(b.key1) ? 1 : 0));
      return pieces.map((spanPieces) => {
        const groups = new Map<string, TimeGroup>();
        for (const piece of spanPieces) {
          const rows = rowsOf.get(piece.unit) ?? [];
          const end = keyOf(piece.unit, piece.until);
          for (let index = firstAtOrAfter(rows, keyOf(piece.unit, piece.from)); index < rows.length && String(rows[index].key1) < end; index += 1) {
            const row = rows[index];
            const [key2, key3] = [String(row.key2), String(row.key3)];
            const key = JSON.stringify([key2, key3]);
            const group = groups.get(key) ?? { key2, key3, rows: 0, units: 0n };
            group.rows += piece.sign * Number(row.rows);
            group.units += BigInt(piece.sign) * BigInt(String(row.units));
            groups.set(key, group);
          }
        }
        return [...groups.values()].filter((group) => group.rows !== 0 || group.units !== 0n);
      });
    },
  };
}

/** The first of `rows` (in the order of key1) whose key1 is `key` or after it. */
function firstAtOrAfter(rows: Rows, key: string): number {
  let [low, high] = [0, rows.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (String(rows[middle].key1) < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The sums of `timeSums` read on their own. */
export async function sumsByTime(read: (queries: SQL[]) => Promise<Rows[]>, name: string, owner: string, spans: Array<{ from: string; until: string }>): Promise<TimeGroup[][]> {
  const { queries, sums } = timeSums(name, owner, spans);
  return sums(queries.length > 0 ? await read(queries) : []);
}
