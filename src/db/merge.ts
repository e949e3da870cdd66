/**
 * One list page from the parts several databases answered (src/routing.ts), in two steps. First each part names
 * its first `offset + per_page` rows in the list's order with their order keys: the page's rows are among them, so
 * merging them by those keys (compared as SQLite compares them) and cutting the page chooses it, and the parts'
 * totals summed are the list's (`choosePage`). Then each database renders the page's rows it holds, and they are
 * put in order again (`renderedPage`); `included` keeps what the page's rows reach.
 */
import { listDocument, paginationMeta, type Identifier, type ListMeta, type ResourceObject } from "../jsonapi/document";
import type { PartKeys } from "./list-parts";
import { compareValues } from "./sqlite-order";

export interface ListAnswer {
  document: { data: ResourceObject[]; meta: ListMeta; included?: ResourceObject[] };
  /** The order key of each row; absent for a list not read by the engine (tags: their name is their order). */
  keys?: PartKeys;
}

const key = (object: Identifier) => `${object.type}\u0000${object.id}`;

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

/** The parts' rows in the list's order, each with the part (database) that answered it. */
function inOrder(parts: ListAnswer[]): Array<{ object: ResourceObject; part: number }> {
  const rows = parts.flatMap((part, index) => part.document.data.map((object) => ({ object, part: index, order: part.keys?.rows.get(object.id) })));
  const terms = parts.find((part) => part.keys)?.keys?.terms;
  rows.sort((a, b) => (terms && a.order && b.order ? compareKeys(terms, a.order, b.order) : compareValues(a.object.id, b.object.id)));
  return rows;
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

/** The page from the parts that rendered its rows: in the list's order, with what they include, under `meta`. */
export function renderedPage(parts: ListAnswer[], meta: ListMeta) {
  const data = inOrder(parts).map((row) => row.object);
  const anyIncluded = parts.some((part) => part.document.included);
  return listDocument(data, meta, anyIncluded ? reached(data, parts.flatMap((part) => part.document.included ?? [])) : undefined);
}

/**
 * Lists answered whole, not read by the engine (a list's tags, each named by its id): every part's rows, each once,
 * in the order of their ids, on one page.
 */
export function mergeWholeLists(parts: ListAnswer[]) {
  const rows = new Map<string, ResourceObject>();
  for (const part of parts) for (const object of part.document.data) rows.set(key(object), object);
  const data = [...rows.values()].sort((a, b) => compareValues(a.id, b.id));
  return listDocument(data, { ...parts[0].document.meta, pagination: paginationMeta(1, data.length, data.length) });
}

/** The included resources the page's rows reach through relationships, directly or through other included ones. */
function reached(data: ResourceObject[], candidates: ResourceObject[]): ResourceObject[] {
  const byKey = new Map(candidates.map((object) => [key(object), object]));
  const kept = new Map<string, ResourceObject>();
  const seen = new Set(data.map(key));
  const queue = [...data];
  while (queue.length > 0) {
    const object = queue.shift()!;
    for (const relationship of Object.values(object.relationships ?? {})) {
      const linked = Array.isArray(relationship.data) ? relationship.data : relationship.data ? [relationship.data] : [];
      for (const identifier of linked) {
        const found = byKey.get(key(identifier));
        if (!found || seen.has(key(found))) continue;
        seen.add(key(found));
        kept.set(key(found), found);
        queue.push(found);
      }
    }
  }
  // In the order the parts gave them, as a single database's answer lists them.
  const listed = new Set<string>();
  return candidates.filter((object) => {
    const k = key(object);
    if (!kept.has(k) || listed.has(k)) return false;
    listed.add(k);
    return true;
  });
}
