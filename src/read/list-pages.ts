/**
 * The statement that finds one page's ids in a list's order. One sort of every matching row is the plain way;
 * where an index gives the order, the page is walked through it list by list or part by part instead, reading
 * only the rows before the page's end.
 */
import { getTableName, sql, type SQL } from "drizzle-orm";
import { getTableConfig, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { and, compoundOf, MOST_COMPOUND_TERMS, literal, not, or, q } from "../db/sql";
import { boundParameters } from "../db/statements";
import type { ResourceDef } from "../engine/define";
import { orderTerm, type ListOrder } from "./list-order";

const listOrderIndexes = new Map<string, boolean>();

/** Whether the table has an index that starts with the account list column and then the order's column. */
function hasListOrderIndex(listColumn: SQLiteColumn, orderColumn: SQLiteColumn): boolean {
  const key = `${getTableName(listColumn.table)}.${listColumn.name}.${orderColumn.name}`;
  let known = listOrderIndexes.get(key);
  if (known === undefined) {
    known = getTableConfig(listColumn.table).indexes.some(({ config }) => config.columns[0] === listColumn && config.columns[1] === orderColumn);
    listOrderIndexes.set(key, known);
  }
  return known;
}

/** What a page's ids carry beside them: the order keys a part of a list over several databases reports. */
export interface Carried {
  /** Selected where the page's rows are read (`, expression AS "$order_0", …`). */
  select: SQL;
  /** The same values passed on by name (`, "$order_0", …`). */
  names: SQL;
  /**
   * The rows go to a merge that orders them by these keys (src/read/list-merge.ts): a page put together from parts
   * answers every part's rows unsorted, sparing the sort (a row read for each row sorted). They hold the page's
   * rows, as the cut page would; the merge cuts. Only while the parts' rows stay few (`unsorted`).
   */
  merged: boolean;
}

/** The most rows a page put together from parts answers unsorted to a merge: past it, the page is cut here. */
const UNSORTED_ROWS = 2_000;

/** Whether the parts' rows go to the merge as they are, or sorted and cut to the page here. */
const unsorted = (carry: Carried, parts: number, end: number) => carry.merged && parts * end <= UNSORTED_ROWS;

export const NOTHING_CARRIED: Carried = { select: sql``, names: sql``, merged: false };

export const orderKeyName = (index: number) => `$order_${index}`;

export function carriedKeys(listOrder: ListOrder, merged = false): Carried {
  return {
    select: sql.join(listOrder.keys.map(({ expression }, index) => sql`, ${expression} AS ${sql.identifier(orderKeyName(index))}`), sql``),
    names: sql.join(listOrder.keys.map((_, index) => sql`, ${sql.identifier(orderKeyName(index))}`), sql``),
    merged,
  };
}

/** A page's ids (`page_id`) in order, from one pass over the matching rows; `withTotal` counts them all too (a window). */
export function orderedPage(def: ResourceDef, where: SQL | undefined, order: SQL, limit: number | SQL, offset: number, { withTotal = false, carry = NOTHING_CARRIED } = {}): SQL {
  const limited = typeof limit === "number" ? literal(limit) : limit;
  return sql`SELECT ${q(def.idColumn)} AS "page_id"${carry.select}${withTotal ? sql`, count(*) OVER () AS "page_total"` : sql``}
    FROM ${def.table}${where ? sql` WHERE ${where}` : sql``} ORDER BY ${order} LIMIT ${limited} OFFSET ${literal(offset)}`;
}

/** Bounds of reading a page in parts (`ownColumnsPage`): past them one sort of every matching row is cheaper or safer. */
const PAGE_IN_PARTS = {
  /** Lists read one by one (each adds a subquery). */
  maxLists: 8,
  /** Rows read from each part: the page's end (`offset + per_page`). */
  maxRowsPerPart: 1000,
  /** Parameters the parts bind together, leaving room under D1's 100 for the rest of the statement. */
  maxParameters: 50,
};


/**
 * The account lists a list request reads, and its conditions without the account-list scope: a part read within
 * one of those lists needs no other check of its list.
 */
export interface ListsInScope {
  ids: string[];
  where: SQL | undefined;
  /** Whether the account-list filter left out some of the lists the route reaches. */
  narrowed?: boolean;
}

/** One list's rows of those in scope, meeting `condition` too: the piece a page read list by list walks. */
function inOneList(listColumn: SQLiteColumn, listId: string, lists: ListsInScope, condition?: SQL): SQL | undefined {
  return and([sql`${listColumn} = ${literal(listId)}`, lists.where, condition]);
}

/**
 * The ids of one page whose conditions look at the row's own columns only, in order, read in parts when that
 * reads fewer rows than one sort of every matching row:
 * - list by list, when an index gives each account list's rows in the order (`listByListPage`);
 * - the order's first parts apart from the rest, when the order puts the rows meeting conditions first
 *   (`partsPage`).
 * Each part is read up to the page's end: the first `offset + perPage` rows of all parts are among the first
 * `offset + perPage` of each.
 */


export function ownColumnsPage(def: ResourceDef, lists: ListsInScope, where: SQL | undefined, listOrder: ListOrder, perPage: number, offset: number, carry: Carried): SQL {
  const order = sql.join(listOrder.terms, sql`, `);
  const whole = () => orderedPage(def, where, order, perPage, offset, { carry });
  const walked = walkedPage(def, lists, listOrder, perPage, offset, carry);
  if (walked) return walked;
  if (offset + perPage > PAGE_IN_PARTS.maxRowsPerPart) return whole();
  const listColumn = def.accountListColumn;
  if (
    listColumn !== undefined &&
    listOrder.leadingColumn !== undefined &&
    hasListOrderIndex(listColumn, listOrder.leadingColumn) &&
    // One list left by the account-list filter is walked alone too: the scope's other lists, ruled out by a
    // condition the planner does not see through, would otherwise have every row of theirs sorted.
    (lists.ids.length >= 2 || (lists.ids.length === 1 && lists.narrowed === true)) &&
    lists.ids.length <= PAGE_IN_PARTS.maxLists
  ) {
    const page = listByListPage(def, listColumn, lists, listOrder, perPage, offset, carry);
    if (boundParameters(page) <= PAGE_IN_PARTS.maxParameters) return page;
  }
  if (listOrder.parts) {
    const page = partsPage(def, lists, where, listOrder, perPage, offset, carry);
    if (boundParameters(page) <= PAGE_IN_PARTS.maxParameters) return page;
  }
  return whole();
}

/**
 * A page in a default order whose every part an index walks (`defaultOrderParts` and `defaultOrderRest`), at any
 * depth and size, without sorting the rows before it: each part is read by walking each list's index in the
 * part's order, the lists merged as they are walked (SQLite merges the terms of a compound SELECT whose ORDER BY
 * each term's index gives, reading each only as far as the merge takes it), and the parts follow one another up
 * to the page's end. A part the page does not reach is not read. Rows read: those before the page's end, and
 * for a part that passes over another's rows (the tasks after the overdue ones pass over those), those too.
 *
 * Not taken past D1's five terms of a compound SELECT (lists at once): a nested merge is a sort of its terms.
 */
function walkedPage(def: ResourceDef, lists: ListsInScope, listOrder: ListOrder, perPage: number, offset: number, carry: Carried): SQL | undefined {
  const parts = listOrder.parts;
  const listColumn = def.accountListColumn;
  if (!parts?.rest || !listColumn || lists.ids.length === 0 || lists.ids.length > MOST_COMPOUND_TERMS) return undefined;
  const walks = [...parts.first.map((part) => part.walk && { condition: part.condition, walk: part.walk }), { condition: not(or(parts.first.map((part) => part.condition))!), walk: parts.rest }];
  if (walks.some((part) => part === undefined)) return undefined;
  const end = offset + perPage;
  const keyName = (index: number) => sql.identifier(`$walk_${index}`);
  const segments = walks.map((part) => {
    const { condition, walk } = part!;
    const keys = sql.join(walk.keys.map(({ expression }, index) => sql`, ${expression} AS ${keyName(index)}`), sql``);
    const from = walk.index ? sql`${def.table} INDEXED BY ${sql.identifier(walk.index)}` : def.table;
    const terms = lists.ids.map(
      (listId) => sql`SELECT ${q(def.idColumn)} AS "page_id"${keys}${carry.select} FROM ${from} WHERE ${inOneList(listColumn, listId, lists, condition)}`,
    );
    const byKeys = sql.join(walk.keys.map(({ descending }, index) => sql`${keyName(index)} ${sql.raw(descending ? "DESC" : "ASC")}`), sql`, `);
    return sql`SELECT "page_id"${carry.names} FROM (${sql.join(terms, sql` UNION ALL `)} ORDER BY ${byKeys} LIMIT ${literal(end)})`;
  });
  const page = sql`SELECT "page_id"${carry.names} FROM (${compoundOf(segments, "UNION ALL")} LIMIT ${literal(perPage)} OFFSET ${literal(offset)})`;
  return boundParameters(page) <= PAGE_IN_PARTS.maxParameters ? page : undefined;
}

/**
 * A page taken from the rows each part gave (`partOf`), in the whole order: each part's rows carry their order
 * keys, so the page is sorted from them without reading the table again (two rows read for each part's row).
 */
function pageOfParts(listOrder: ListOrder, partOf: (keys: Carried) => { parts: SQL[]; with?: SQL[] }, perPage: number, offset: number, carry: Carried): SQL {
  const { parts, with: defined = [] } = partOf(carriedKeys(listOrder));
  const union = compoundOf(parts.map((part) => sql`SELECT * FROM (${part})`), "UNION ALL");
  const byKeys = sql.join(listOrder.keys.map((key, index) => orderTerm({ ...key, expression: sql`${sql.identifier(orderKeyName(index))}` })), sql`, `);
  const prefix = defined.length > 0 ? sql`WITH ${sql.join(defined, sql`, `)} ` : sql``;
  if (unsorted(carry, parts.length, offset + perPage)) return sql`${prefix}SELECT "page_id"${carry.names} FROM (${union})`;
  return sql`${prefix}SELECT "page_id"${carry.names} FROM (${union}) ORDER BY ${byKeys} LIMIT ${perPage} OFFSET ${offset}`;
}

/**
 * Over several account lists SQLite reads one index range per list as one unordered set, so ORDER BY sorts every
 * matching row to keep a page (all of a viewer's contacts for the default page). When an index gives each list's
 * rows in the order, each list is walked in it up to the page's end instead. (Without such an index each list
 * would be sorted on its own, which costs more than one sort: the default task order.) When the order is plain
 * columns, each list's rows carry them, so the page is sorted from those rows without reading the table again.
 */
function listByListPage(def: ResourceDef, listColumn: SQLiteColumn, lists: ListsInScope, listOrder: ListOrder, perPage: number, offset: number, carry: Carried): SQL {
  const end = offset + perPage;
  const order = sql.join(listOrder.terms, sql`, `);
  const columns = listOrder.columns;
  const within = (listId: string) => inOneList(listColumn, listId, lists);
  if (!columns) return pageOfParts(listOrder, (keys) => ({ parts: lists.ids.map((listId) => orderedPage(def, within(listId), order, end, 0, { carry: keys })) }), perPage, offset, carry);
  const keys = columns.map((_, index) => sql.raw(`"order_key_${index}"`));
  const carried = sql.join(columns.map(({ column }, index) => sql`${q(column)} AS ${keys[index]}`), sql`, `);
  const pieces = lists.ids.map(
    (listId) => sql`SELECT * FROM (SELECT ${q(def.idColumn)} AS "page_id", ${carried}${carry.select} FROM ${def.table} WHERE ${within(listId)} ORDER BY ${order} LIMIT ${literal(end)})`,
  );
  const keyOrder = sql.join(columns.map(({ descending }, index) => sql`${keys[index]} ${sql.raw(descending ? "DESC" : "ASC")}`), sql`, `);
  if (unsorted(carry, pieces.length, end)) return sql`SELECT "page_id"${carry.names} FROM (${compoundOf(pieces, "UNION ALL")})`;
  return sql`SELECT "page_id"${carry.names} FROM (${compoundOf(pieces, "UNION ALL")}) ORDER BY ${keyOrder} LIMIT ${perPage} OFFSET ${offset}`;
}

/**
 * An order that puts the rows meeting conditions first (the default task order: overdue first) has no index to
 * give it whole, so it takes a sort; but each first part is read only for what the parts before it leave of the
 * page's end, and the rest only for what all of them leave: SQLite reads nothing for a LIMIT of 0. Counting a
 * part's rows stops at the page's end too. A part whose order an index gives is walked in it, list by list, up
 * to that end, instead of sorted (the overdue tasks of a viewer at 100,000 contacts: about 70,000).
 */
function partsPage(def: ResourceDef, lists: ListsInScope, where: SQL | undefined, listOrder: ListOrder, perPage: number, offset: number, carry: Carried): SQL {
  const parts = listOrder.parts!;
  const end = offset + perPage;
  const within = sql.join(parts.within, sql`, `);
  return pageOfParts(
    listOrder,
    (keys) => {
      const pieces: SQL[] = [];
      // What each part leaves of the page's end, counted once per part from what the part before left (a part
      // left nothing reads nothing), each kept in a one-row table its successors read.
      const lefts: SQL[] = [];
      const left = () => (lefts.length === 0 ? literal(end) : sql`(SELECT "n" FROM ${sql.identifier(`left_${lefts.length}`)})`);
      for (const part of parts.first) {
        const rows = and([where, part.condition]);
        const limit = left();
        if (part.walk && def.accountListColumn && lists.ids.length <= PAGE_IN_PARTS.maxLists) {
          const listColumn = def.accountListColumn;
          const indexOrder = sql.join(part.walk.keys.map(orderTerm), sql`, `);
          pieces.push(...lists.ids.map((listId) => orderedPage(def, inOneList(listColumn, listId, lists, part.condition), indexOrder, limit, 0, { carry: keys })));
        } else {
          pieces.push(orderedPage(def, rows, within, limit, 0, { carry: keys }));
        }
        lefts.push(
          sql`${sql.identifier(`left_${lefts.length + 1}`)} AS MATERIALIZED (SELECT max(0, ${limit} - (SELECT count(*) FROM (SELECT 1 FROM ${def.table} WHERE ${rows} LIMIT ${limit}))) AS "n")`,
        );
      }
      const rest = and([where, not(or(parts.first.map((part) => part.condition))!)]);
      pieces.push(orderedPage(def, rest, within, left(), 0, { carry: keys }));
      return { parts: pieces, with: lefts };
    },
    perPage,
    offset,
    carry,
  );
}
