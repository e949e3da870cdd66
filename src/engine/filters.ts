/** Filter builders that resources declare with (`filters: { cleared: booleanFilter(column) }`). */
import { sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { dateInRange, inList, q, timestampInRange } from "../db/sql";
import { booleanValue, listValue, parseDateRange } from "../jsonapi/filter-values";
import type { FilterDef } from "./define";

/** `filter[<name>]=true|false` on a boolean column. */
export function booleanFilter(column: SQLiteColumn): FilterDef {
  return (value) => {
    const wanted = booleanValue(value);
    return wanted === undefined ? undefined : sql`${q(column)} = ${wanted ? 1 : 0}`;
  };
}

/** `filter[<name>]=<from>..<until>` on a date or timestamp column. */
export function rangeFilter(name: string, column: SQLiteColumn, kind: "timestamp" | "date"): FilterDef {
  return (value) => {
    const range = parseDateRange(name, value);
    return kind === "timestamp" ? timestampInRange(q(column), range) : dateInRange(q(column), range);
  };
}

/** `filter[<name>_id]=a,b`: rows linked to any of the ids. */
export function idsFilter(column: SQLiteColumn): FilterDef {
  return (value) => {
    const ids = listValue(value).map((id) => id.toLowerCase());
    return ids.length > 0 ? inList(q(column), ids) : undefined;
  };
}
