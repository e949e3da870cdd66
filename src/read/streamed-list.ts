/**
 * Large list pages (more than STREAMED_PAGE_ROWS rows; per_page may be 25,000) are not built whole in memory:
 * the page's ids are read first (one narrow statement, with the total), then the rows are read from D1 and encoded
 * a chunk at a time as the client takes the body. The document is the one a small page would be — `data` in order,
 * then `meta`, then `included` — read in two passes over the chunks: the records, then what they include, each
 * included record once. Memory then grows with the chunk, not with the page.
 *
 * D1 round trips: one for the ids and total, one per chunk of records, and with includes one more per chunk and
 * include level. Streamed answers carry no ETag (it would need the whole body before the first byte).
 */
import { sql, type SQL } from "drizzle-orm";
import { inList, q } from "../db/sql";
import { rowsOf } from "../db/statements";
import type { ResourceObject } from "../jsonapi/document";
import type { StreamedDocument } from "../jsonapi/respond";
import type { ReadExtras, RequestContext, ResourceDef, Row } from "../engine/define";
import type { ReadPlan } from "../engine/read-plan";
import { RecordSet } from "../engine/record-set";

export const STREAMED_PAGE_ROWS = 100;
/** Rows read and encoded per step of a streamed page. */
export const CHUNK_ROWS = 100;


export interface StreamedPage {
  def: ResourceDef;
  ctx: RequestContext;
  plan: ReadPlan;
  /** The page's ids, in order. */
  ids: string[];
  meta: Record<string, unknown>;
  extras: ReadExtras;
  /** Loads what rows of the page include, leaving out records already answered (`seen`). */
  include?: (rows: Row[], seen: RecordSet) => Promise<ResourceObject[] | undefined>;
}

async function chunkRows(page: StreamedPage, ids: string[]): Promise<Row[]> {
  const { def, ctx, plan } = page;
  const [rows] = await rowsOf(ctx.db, [sql`SELECT ${plan.selectList(ctx)} FROM ${def.table} WHERE ${inList(q(def.idColumn), ids) as SQL}`]);
  const byId = new Map(plan.decode(rows).map((row) => [String(row.id), row]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/** The document's text in parts: "{"data":[", a chunk of records at a time, "],"meta":{...}", what each chunk includes, and "}". */
async function* documentParts(page: StreamedPage): AsyncGenerator<string> {
  const chunks: string[][] = [];
  for (let start = 0; start < page.ids.length; start += CHUNK_ROWS) chunks.push(page.ids.slice(start, start + CHUNK_ROWS));
  yield '{"data":[';
  let written = 0;
  for (const ids of chunks) {
    const rows = await chunkRows(page, ids);
    const text = rows.map((row) => JSON.stringify(page.plan.toResourceObject(row, page.ctx, page.extras))).join(",");
    if (text) yield written > 0 ? `,${text}` : text;
    written += rows.length;
  }
  yield `],"meta":${JSON.stringify(page.meta)}`;
  if (page.include) {
    yield ',"included":[';
    const seen = RecordSet.of(page.ids.map((id) => ({ type: page.def.type, id })));
    let included = 0;
    for (const ids of chunks) {
      // Most chunks of a page whose rows share their related records (a donation's designation account) include
      // nothing new: such a chunk adds no part.
      const resources = (await page.include(await chunkRows(page, ids), seen)) ?? [];
      const text = resources.map((resource) => JSON.stringify(resource)).join(",");
      if (text) yield included > 0 ? `,${text}` : text;
      included += resources.length;
    }
    yield "]";
  }
  yield "}";
}

export function streamedDocument(page: StreamedPage): StreamedDocument {
  return { parts: documentParts(page) };
}
