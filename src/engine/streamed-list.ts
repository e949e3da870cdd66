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
import type { ReadExtras, RequestContext, ResourceDef, Row } from "./define";
import type { ReadPlan } from "./read-plan";
import { RecordSet } from "./record-set";

export const STREAMED_PAGE_ROWS = 100;
/** Rows read and encoded per step of a streamed page. */
const CHUNK_ROWS = 100;

export interface StreamedDocument {
  streamed: ReadableStream<Uint8Array>;
}

export function isStreamedDocument(document: unknown): document is StreamedDocument {
  return typeof document === "object" && document !== null && (document as StreamedDocument).streamed instanceof ReadableStream;
}

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

const encoder = new TextEncoder();

export function streamedDocument(page: StreamedPage): StreamedDocument {
  const chunks: string[][] = [];
  for (let start = 0; start < page.ids.length; start += CHUNK_ROWS) chunks.push(page.ids.slice(start, start + CHUNK_ROWS));
  const seen = RecordSet.of(page.ids.map((id) => ({ type: page.def.type, id })));
  let step = 0;
  let includedSoFar = 0;
  // Steps: "{"data":[", the data chunks, "],"meta":{...}", the included chunks, and the closing brace.
  const steps: Array<() => Promise<string>> = [
    async () => '{"data":[',
    ...chunks.map((ids, index) => async () => {
      const rows = await chunkRows(page, ids);
      const text = rows.map((row) => JSON.stringify(page.plan.toResourceObject(row, page.ctx, page.extras))).join(",");
      return index > 0 && text ? `,${text}` : text;
    }),
    async () => `],"meta":${JSON.stringify(page.meta)}${page.include ? ',"included":[' : ""}`,
    ...(page.include
      ? chunks.map((ids) => async () => {
          const included = (await page.include!(await chunkRows(page, ids), seen)) ?? [];
          const text = included.map((resource) => JSON.stringify(resource)).join(",");
          const separated = includedSoFar > 0 && text ? `,${text}` : text;
          includedSoFar += included.length;
          return separated;
        })
      : []),
    async () => (page.include ? "]}" : "}"),
  ];
  return {
    streamed: new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (step >= steps.length) {
          controller.close();
          return;
        }
        const text = await steps[step++]();
        if (text) controller.enqueue(encoder.encode(text));
      },
    }),
  };
}
