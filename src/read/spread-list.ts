/**
 * A list over the viewer's lists placed on several databases, read by running its plan on each of them (no request
 * per database). Each database has its own plan: its conditions name the viewer's lists placed there, so a list
 * being moved, whose rows are on two databases while it moves, is read where it is placed. In two steps:
 * - choosing the page: each database names its first rows in the list's order with their order keys, up to the
 *   page's end for a short page, else in proportion to its share of the list's total until the rows named settle
 *   the page (`nameInShares`); the rows are merged by those keys and the page is cut from them, totals summed
 *   (src/read/list-merge.ts);
 * - rendering it: each database renders the page's rows it holds, and the document is put together once.
 */
import type { PartKeys } from "../db/list-parts";
import type { ReadExtras, RequestContext, ResourceDef, Row } from "../engine/define";
import { RecordSet } from "../engine/record-set";
import { listDocument, type ResourceObject } from "../jsonapi/document";
import { loadIncludedOf, type PlacedRow } from "./included";
import { CHUNK_ROWS, STREAMED_PAGE_ROWS } from "./streamed-list";
import { asksForIncludes } from "../jsonapi/query";
import { choosePage, morePartRows, renderedPage, type ListAnswer } from "./list-merge";
import { planList, summarizePlan, type ListPlan, type RouteListing } from "./list-plan";
import { runList } from "./run-list";
import { firstFailureInOrder, onEachDatabase } from "./each-database";

/** Pages up to this row are named whole by each database at once: a second round trip costs more than the rows. */
const WHOLE_PAGE_FROM_EACH = 250;
/** How much more than its share of the page a database names first: shares of the total are only near shares of a page. */
const SHARE_MARGIN = 1.2;
/** And a few rows more: a small share of a page varies the most. */
const SHARE_SLACK = 50;

/** One database's part: the request as that database sees it, and its plan. */
interface Part {
  ctx: RequestContext;
  plan: ListPlan;
}

export async function spreadList(def: ResourceDef, ctx: RequestContext, route: RouteListing, databases: string[]) {
  const parts = await onEachDatabase(ctx, databases, async (here): Promise<Part> => {
    await route.beforeReading?.(here);
    return { ctx: here, plan: await planList(def, here, route) };
  });
  // Each database's plan is the request's with that database's lists: the first stands for them in the log.
  ctx.log?.({ plan: summarizePlan(parts[0].plan), databases: databases.length });
  const { page, perPage, offset } = parts[0].plan.window;
  const end = offset + perPage;
  const named = end <= WHOLE_PAGE_FROM_EACH ? await firstFailureInOrder(parts.map((part) => choose(part, end))) : await nameInShares(parts, { offset, end });
  const { chosen, meta } = choosePage(named, { page, perPage });
  // Whether the document answers `included`: it does, empty or not, whenever includes are asked.
  const includes = asksForIncludes(parts[0].plan.document);
  // Rows named with nothing to show but their identity (`fields[tasks]=`, no include) are already rendered.
  if (named.every((answer) => answer.keys?.rendered || answer.document.data.length === 0)) {
    const onPage = named.map((answer, index) => {
      const ids = new Set(chosen[index]);
      return { ...answer, document: { ...answer.document, data: answer.document.data.filter((row) => ids.has(row.id)) } };
    });
    // Asked for, `included` is answered though no row includes anything.
    const page = renderedPage(onPage, meta);
    return includes ? listDocument(page.data, meta, []) : page;
  }
  const rendered = await firstFailureInOrder(parts.flatMap((part, index) => (chosen[index].length > 0 ? [render(part, chosen[index])] : [])));
  const merged = renderedPage(rendered, meta);
  if (!includes) return merged;
  // What the page includes, loaded over the merged rows in their order, as one database loads it: a long page a
  // chunk of rows at a time, as one database streams it (src/read/streamed-list.ts).
  const held = new Map(rendered.flatMap(({ rows, ctx }) => rows.map((row): [string, PlacedRow] => [String(row.id), { row, ctx }])));
  const ordered = merged.data.map((resource) => held.get(resource.id)!);
  const chunk = perPage > STREAMED_PAGE_ROWS ? CHUNK_ROWS : Math.max(ordered.length, 1);
  const seen = RecordSet.of(merged.data);
  const included: ResourceObject[] = [];
  for (let start = 0; start < ordered.length; start += chunk) {
    included.push(...((await loadIncludedOf(parts[0].plan.includes, ordered.slice(start, start + chunk), rendered[0].extras, seen)) ?? []));
  }
  return listDocument(merged.data, meta, included);
}

/** A database's first `rows` rows in the list's order, with their keys; counted again unless `uncounted`. */
async function choose({ ctx, plan }: Part, rows: number, uncounted = false): Promise<ListAnswer> {
  let keys: PartKeys | undefined;
  const document = await runList(plan, ctx, { kind: "choose", rows, uncounted, report: (reported) => (keys = reported) });
  return { document, keys };
}

/** The page's rows a database holds, rendered, with their keys to put them in order among the others', and the rows read. */
async function render({ ctx, plan }: Part, ids: string[]): Promise<ListAnswer & { ctx: RequestContext; rows: Row[]; extras: ReadExtras }> {
  let keys: PartKeys | undefined;
  let read: { rows: Row[]; extras: ReadExtras } = { rows: [], extras: { rates: new Map() } };
  const document = await runList(plan, ctx, { kind: "render", ids, report: (reported) => (keys = reported), rendered: (rows, extras) => (read = { rows, extras }) });
  return { document, keys, ctx, ...read };
}

/**
 * The rows of a page ending at row `end`, named by each database in proportion to its share of the list. First
 * each counts its rows; then each names its share of the page (with a margin), and those whose rows may still
 * reach into the page name more (`morePartRows`), counting nothing again. So what they read stays near the page's
 * rows, however the lists are spread, where naming the whole page on each would read it once per database.
 */
async function nameInShares(parts: Part[], { offset, end }: { offset: number; end: number }): Promise<ListAnswer[]> {
  const counted = await firstFailureInOrder(parts.map((part) => choose(part, 0)));
  const totals = counted.map((answer) => Number(answer.document.meta.pagination.total_count));
  const sum = totals.reduce((a, b) => a + b, 0);
  // A page past the list's end has no row to name.
  if (sum <= offset) return counted;
  const asked = totals.map((total) => Math.min(total, end, Math.ceil(((end * total) / sum) * SHARE_MARGIN) + SHARE_SLACK));
  const named = [...counted];
  for (let wanted = new Map(asked.flatMap((rows, index) => (rows > 0 ? [[index, rows] as const] : []))); wanted.size > 0; ) {
    const round = await firstFailureInOrder([...wanted].map(async ([index, rows]) => ({ index, rows, answer: await choose(parts[index], rows, true) })));
    for (const { index, rows, answer } of round) {
      asked[index] = rows;
      // The total is the count's: the part named its rows without counting them again.
      named[index] = { ...answer, document: { ...answer.document, meta: counted[index].document.meta } };
    }
    wanted = morePartRows(named.map((answer, index) => ({ answer, asked: asked[index] })), end);
  }
  return named;
}
