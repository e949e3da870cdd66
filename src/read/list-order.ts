/**
 * The order a list's rows are read in, as SQL terms and as the keys a merge of parts compares, with what the page
 * statements need to walk it through an index instead of sorting (src/read/list-pages.ts).
 */
import { Column, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { ownEntry } from "../jsonapi/params";
import { parseSort, type SortTerm } from "../jsonapi/query";
import type { OrderKey, OrderPart, OrderWalk, RequestContext, ResourceDef } from "../engine/define";

export interface ListOrder {
  /** The order's terms, the id last; `terms` is the same as SQL. */
  keys: OrderKey[];
  terms: SQL[];
  /**
   * The default order's first parts (`defaultOrderParts`), the default order within each part and the rest, and
   * how an index walks the rest (`defaultOrderRest`).
   */
  parts?: { first: OrderPart[]; within: SQL[]; rest?: OrderWalk };
  /**
   * The column the order starts with, when an index that has it after the account list can give the rows in
   * that order (a plain column, ascending or descending, NULLs where SQLite keeps them).
   */
  leadingColumn?: SQLiteColumn;
  /** The order as plain columns, when every term is one (no expression, no NULLS placement). */
  columns?: Array<{ column: SQLiteColumn; descending: boolean }>;
}

export function orderTerm({ expression, descending, nulls }: OrderKey): SQL {
  return sql`${expression} ${descending ? sql`DESC` : sql`ASC`}${nulls === "first" ? sql` NULLS FIRST` : nulls === "last" ? sql` NULLS LAST` : sql``}`;
}

function orderOf(keys: OrderKey[], rest: Omit<ListOrder, "keys" | "terms"> = {}): ListOrder {
  return { keys, terms: keys.map(orderTerm), ...rest };
}

/** The terms of `sort` the resource allows (400 for any other), parsed once for the whole read. */
export function sortTerms(def: ResourceDef, raw: string | null): SortTerm[] {
  return parseSort(raw, ["created_at", "updated_at", ...Object.keys(def.sorts ?? {})], def.multipleSorts ?? false);
}

/** The order of a list: the sort's terms, else the resource's default order, always ending with the id. */
export function listOrder(def: ResourceDef, ctx: RequestContext, terms: SortTerm[]): ListOrder {
  if (terms.length === 0) {
    if (def.defaultOrder) {
      const within = def.defaultOrder(ctx);
      const first = def.defaultOrderParts?.(ctx) ?? [];
      if (first.length === 0) return orderOf(within);
      const rank = sql`CASE ${sql.join(first.map((part, index) => sql`WHEN ${part.condition} THEN ${sql.raw(String(index))}`), sql` `)} ELSE ${sql.raw(String(first.length))} END`;
      return orderOf([{ expression: rank, descending: false }, ...within], { parts: { first, within: within.map(orderTerm), rest: def.defaultOrderRest?.(ctx) } });
    }
    const leadingColumn = def.createdAtColumn ?? def.idColumn;
    const columns = [leadingColumn, def.idColumn].map((column) => ({ column, descending: false }));
    return orderOf(columns.map(({ column }) => ({ expression: column, descending: false })), { leadingColumn, columns });
  }
  const expressions = terms.map(
    (term) => ownEntry(def.sorts, term.field) ?? (term.field === "created_at" ? def.createdAtColumn : def.updatedAtColumn) ?? def.idColumn,
  );
  const keys: OrderKey[] = terms.map((term, index) => ({ expression: expressions[index], descending: term.descending, nulls: term.nulls }));
  const leading = expressions[0];
  const plain = terms.every((term, index) => expressions[index] instanceof Column && term.nulls === undefined);
  return orderOf([...keys, { expression: def.idColumn, descending: false }], {
    leadingColumn: leading instanceof Column && terms[0].nulls === undefined ? (leading as SQLiteColumn) : undefined,
    columns: plain
      ? [...terms.map((term, index) => ({ column: expressions[index] as SQLiteColumn, descending: term.descending })), { column: def.idColumn, descending: false }]
      : undefined,
  });
}
