/**
 * One list page from the parts several databases answered (src/read/spread-list.ts), in two steps. First each part
 * names its first rows in the list's order with their order keys, until the rows named hold the page's
 * (`morePartRows`): merging them by those keys (compared as SQLite compares them) and cutting the page chooses it,
 * and the parts' totals summed are the list's (`choosePage`). Then each database renders the page's rows it holds,
 * and they are put in order again (`renderedPage`).
 */
import { listDocument, paginationMeta, type ListMeta, type ResourceObject } from "../jsonapi/document";
import type { PartKeys } from "../db/list-parts";
import { compareValues } from "../db/sqlite-order";

export interface ListAnswer {
  document: { data: ResourceObject[]; meta: ListMeta; included?: ResourceObject[] };
  /** The order key of each row. */
  keys?: PartKeys;
}


function compareKeys(terms: PartKeys["terms"], a: unknown[], b: unknown[]): number {
  for (let index = 0; index < terms.length; index++) {
    const { descending, nulls } = terms[index];
    const aNull = a[index] === null || a[index] === undefined;
    const bNull = b[index] === null || b[index] === undefined;
    if (aNull !== bNull && nulls) return (aNull ? -1 : 1) * (nulls === "first" ? 1 : -1);
    const compared = compareValues(a[index], b[index]);
    if (compared !== 0) return descending ? -compared : compared;
  }
  return 0;
}

/** The parts' rows in the list's order, each with the part (database) that answered it and its order key. */
function inOrder(parts: ListAnswer[]): Array<{ object: ResourceObject; part: number; order?: unknown[] }> {
  const rows = parts.flatMap((part, index) => part.document.data.map((object) => ({ object, part: index, order: part.keys?.rows.get(object.id) })));
  const terms = parts.find((part) => part.keys)?.keys?.terms;
  rows.sort((a, b) => (terms && a.order && b.order ? compareKeys(terms, a.order, b.order) : compareValues(a.object.id, b.object.id)));
  return rows;
}

/**
 * Whether the rows the parts named so far settle the list's first `end` rows, and if not, how many rows to ask of
 * each part that may still hold one of them. A part that named fewer rows than asked (or all it counts) has no
 * more. Any other part's unseen rows come after the last it named, so once each such last row is at or after the
 * merged `end`-th row, the first `end` rows are known; a part whose last row comes before it is asked again, for
 * twice as many rows (at most `end`, at most its total). Asked again from the start: a part's order has no key to
 * resume from that every list shares, and doubling keeps what is read twice below what is read once.
 */
export function morePartRows(parts: Array<{ answer: ListAnswer; asked: number }>, end: number): Map<number, number> {
  const wanted = new Map<number, number>();
  const terms = parts.find((part) => part.answer.keys)?.answer.keys?.terms;
  if (!terms) return wanted;
  const rows = inOrder(parts.map((part) => part.answer));
  const endKey = rows.length >= end ? rows[end - 1].order : undefined;
  parts.forEach(({ answer, asked }, index) => {
    const named = answer.document.data;
    const total = Number(answer.document.meta.pagination.total_count);
    if (named.length < asked || named.length >= total || asked >= end) return;
    const last = answer.keys?.rows.get(named[named.length - 1].id);
    if (endKey && last && compareKeys(terms, last, endKey) >= 0) return;
    wanted.set(index, Math.min(end, total, asked * 2));
  });
  return wanted;
}

/**
 * The page chosen from each part's first rows (ids and order keys): the page's ids of each part, and the meta of
 * the whole list (totals summed).
 */
export function choosePage(parts: ListAnswer[], { page, perPage }: { page: number; perPage: number }): { chosen: string[][]; meta: ListMeta } {
  const offset = (page - 1) * perPage;
  const chosen: string[][] = parts.map(() => []);
  for (const row of inOrder(parts).slice(offset, offset + perPage)) chosen[row.part].push(row.object.id);
  const total = parts.reduce((sum, part) => sum + Number(part.document.meta.pagination.total_count), 0);
  return { chosen, meta: { ...parts[0].document.meta, pagination: paginationMeta(page, perPage, total) } };
}

/** The page's rows from the parts that rendered them, in the list's order, under `meta`. */
export function renderedPage(parts: ListAnswer[], meta: ListMeta) {
  return listDocument(inOrder(parts).map((row) => row.object), meta);
}
