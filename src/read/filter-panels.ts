/**
 * The filter panels of the web app (`GET /api/v2/contacts/filters`, `/tasks/filters`): one item per filter the
 * original advertises, as its panels draw them, with options from the lists' own data. Every item names a filter
 * the list route applies, and every option's `id` is a value that filter takes (test/filter-panels.test.ts).
 *
 * Items carry an attribute named `type` (multiselect, radio, ...), as the original's and as the web app reads them,
 * although JSON:API reserves the name: the panels cannot be drawn without it.
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { Hono, type Context } from "hono";
import { q } from "../db/sql";
import { compareKeys } from "../db/sqlite-order";
import { rowsOf } from "../db/statements";
import type { AppEnv } from "../env";
import { EncodedJson, jsonApi } from "../jsonapi/respond";
import { requestContext } from "../engine/context";
import { readsEachDatabase } from "../engine/route-descriptions";
import type { RequestContext } from "../engine/define";
import { summaryDatabases, summaryLists } from "./summaries";
import { asSent, onEachDatabase } from "./each-database";
import { mergePanels } from "../db/merge-summaries";
import type { SummaryOrders } from "../db/list-parts";

export type ItemType = "multiselect" | "radio" | "text" | "daterange" | "single_checkbox";

export interface PanelOption {
  name: string;
  id: string;
  [member: string]: unknown;
}

/** Options read from the lists' data: a statement per list answering `id` and `name` (`name` defaults to `id`). */
export type OptionsRead = (list: string, ctx: RequestContext) => SQL;

export interface PanelFilter {
  /** The list route's filter, `filter[<name>]`. */
  name: string;
  title: string;
  type: ItemType;
  parent?: string;
  defaultSelection?: string | boolean;
  /** Options that come first whatever the data (`-- None --`, ...). */
  options?: PanelOption[] | ((ctx: RequestContext) => PanelOption[]);
  /** Options from the data, after those. */
  read?: OptionsRead;
  /**
   * Options from a read several filters share (a list's addresses, walked once for city, state, ...): its rows
   * whose `column` is `pick`.
   */
  shared?: { read: SharedRead; pick: string };
  /** Without the `-- Any --` option the original puts first (filters with their own default). */
  noAnyOption?: boolean;
  /** How a value read is answered (money units as a decimal). */
  format?: (value: unknown) => string;
  /**
   * The order of the options read, over all the lists the panel covers, as an order key of a row read: by default
   * its name, then its id (compared as SQLite compares them).
   */
  order?: (row: Record<string, unknown>) => unknown[];
  /**
   * The options may number tens of thousands (every contact of a list): the read's columns, in order, each a
   * member of every option. The read answers them with text `id` and `name`, neither NULL. Over one list the
   * options are then encoded as JSON by SQLite and put into the answer as text: no row of them becomes an object
   * (`encodedOptions`).
   */
  manyOptions?: readonly string[];
  /**
   * For `manyOptions`: a statement per list answering one `stamp` that changes whenever any of its options does
   * (kept by triggers). The encoded options are then kept in the edge cache under it, and read again only when the
   * list's stamp is no longer the one they were read with (`KeptOptions`).
   */
  optionsStamp?: (list: string) => SQL;
}

/** A statement per list answering `column`, `id` (and `name`) for several filters at once. */
export interface SharedRead {
  key: string;
  read: OptionsRead;
}

/** The option the original puts first on every choice. */
const ANY: PanelOption = { name: "-- Any --", id: "", placeholder: "None" };

/**
 * Distinct non-blank values of `column` of one list, walked through an index that starts with the list's column
 * and then holds `column`: each value costs a step into the index, not a read of every row that holds it.
 */
export function distinctValues(column: SQLiteColumn, listColumn: SQLiteColumn, list: string, numeric = false): SQL {
  const table = column.table;
  const first = numeric ? sql`${q(column)} IS NOT NULL` : sql`${q(column)} > ''`;
  return sql`WITH RECURSIVE v(x) AS (
      SELECT (SELECT min(${q(column)}) FROM ${table} WHERE ${q(listColumn)} = ${list} AND ${first})
      UNION ALL SELECT (SELECT min(${q(column)}) FROM ${table} WHERE ${q(listColumn)} = ${list} AND ${q(column)} > v.x) FROM v WHERE v.x IS NOT NULL
    ) SELECT x AS id FROM v WHERE x IS NOT NULL`;
}

/**
 * Options a statement row. An option of a contact is at most about 1,700 bytes (a name of 255 characters, each
 * escaped as six, and two ids): a row stays under 1 MB, well within D1's 2 MB a value.
 */
const ENCODED_OPTIONS_PER_ROW = 500;

/**
 * One list's options of a `manyOptions` filter as JSON arrays, encoded by SQLite, in the panel's order (name, then
 * id, by code point as BINARY compares them): rows of `count` options and their `options`, in order.
 *
 * The read is walked in its index order a slice at a time: each slice starts after the last (name, id) of the one
 * before, so every option is read once. Steps alternate between a slice and its last key, the key taken from the
 * slice's text once rather than once an option compared. Cutting one array into rows by row number instead needs a
 * window and a sort, which D1 counts as reading every option three times over.
 */
function encodedOptions(read: SQL, members: readonly string[], unlessStamp?: { stamp: SQL; is: string }): SQL {
  const object = sql.join(members.map((member) => sql`${member}, ${sql.identifier(member)}`), sql`, `);
  const slice = sql.raw(String(ENCODED_OPTIONS_PER_ROW));
  // Options kept under the stamp the list still has are not read again: the walk does not start.
  const unchanged = unlessStamp ? sql` WHERE NOT EXISTS (SELECT 1 FROM (${unlessStamp.stamp}) WHERE stamp = ${unlessStamp.is})` : sql``;
  return sql`WITH RECURSIVE slice(position, options, after_name, after_id) AS (
      SELECT 0, NULL, '', ''${unchanged}
      UNION ALL
      SELECT position + 1,
        CASE WHEN options IS NULL THEN (SELECT json_group_array(json_object(${object})) FROM (SELECT * FROM (${read}) WHERE (name, id) > (slice.after_name, slice.after_id) ORDER BY name, id LIMIT ${slice})) END,
        CASE WHEN options IS NOT NULL THEN json_extract(options, '$[#-1].name') END,
        CASE WHEN options IS NOT NULL THEN json_extract(options, '$[#-1].id') END
      FROM slice WHERE options IS NULL OR json_array_length(options) = ${slice}
    )
    SELECT json_array_length(options) AS count, options FROM slice WHERE json_array_length(options) > 0 ORDER BY position`;
}

/** Options already encoded as JSON: the array's members as text, and how many. */
interface EncodedOptions {
  text: string;
  count: number;
}

/**
 * One list's encoded options kept in the edge cache of the data center (the Cache API), under the stamp the list
 * had when they were read: megabytes a list of tens of thousands of contacts, read once per change instead of once
 * a request. Only a request that may read the list's panel reaches them (its lists are the viewer's), and a text
 * is used only when its stamp is the one the list has in the same batch as the rest of the panel.
 */
class KeptOptions {
  private static readonly STAMP = "X-Options-Stamp";
  private static readonly COUNT = "X-Options-Count";
  /** A week: a list whose contacts stay the same that long is read again, which costs one read of them. */
  private static readonly SECONDS = 604_800;

  private constructor(
    private readonly key: string,
    private readonly found: Response | undefined,
  ) {}

  static async find(type: string, filter: string, list: string): Promise<KeptOptions> {
    const key = `https://filter-panel-options.cache/${type}/${filter}/${list}`;
    // A cache that cannot be read is a miss: the options are read from the list.
    return new KeptOptions(key, await caches.default.match(key).catch(() => undefined));
  }

  /** The stamp of the text kept, if any. */
  get stamp(): string | undefined {
    return this.found?.headers.get(KeptOptions.STAMP) ?? undefined;
  }

  /** The text kept, once its stamp is known to be the list's. */
  async options(): Promise<EncodedOptions> {
    return { text: await this.found!.text(), count: Number(this.found!.headers.get(KeptOptions.COUNT)) };
  }

  /** The text kept is not the list's: it is not read. */
  discard(): void {
    void this.found?.body?.cancel();
  }

  /** Keeps the options read under the list's stamp, after the answer is sent (`later`). */
  keep(options: EncodedOptions, stamp: string, later: (work: Promise<unknown>) => void): void {
    const headers = { "Cache-Control": `max-age=${KeptOptions.SECONDS}`, [KeptOptions.STAMP]: stamp, [KeptOptions.COUNT]: String(options.count) };
    later(caches.default.put(this.key, new Response(options.text, { headers })));
  }
}

/** The panel's items, each option list read for every list the request covers (one round trip). */
async function panelItems(
  panel: PanelFilter[],
  type: string,
  ctx: RequestContext,
  encoded: Map<string, EncodedOptions>,
  later: (work: Promise<unknown>) => void,
  reportOrders?: (orders: SummaryOrders) => void,
) {
  const lists = summaryLists(ctx);
  // Over one list and one database, options as many as a list's contacts come encoded from SQLite; the options of
  // a summary over several databases are put together by their order keys (src/db/merge-summaries.ts).
  const encodes = (filter: PanelFilter) => filter.manyOptions !== undefined && lists.length === 1 && !reportOrders;
  const encodedReads = await Promise.all(
    panel.flatMap((filter, index) => {
      if (!filter.read || !encodes(filter)) return [];
      const stamp = filter.optionsStamp?.(lists[0]);
      return [
        (async () => {
          const kept = stamp ? await KeptOptions.find(type, filter.name, lists[0]) : undefined;
          const unless = stamp && kept?.stamp ? { stamp, is: kept.stamp } : undefined;
          return { index, kept, stamp, query: encodedOptions(filter.read!(lists[0], ctx), filter.manyOptions!, unless) };
        })(),
      ];
    }),
  );
  const reads = panel.flatMap((filter, index) => (filter.read && !encodes(filter) ? lists.map((list) => ({ indexes: [index], query: filter.read!(list, ctx), pick: undefined as string | undefined })) : []));
  // Each shared read once per list, its rows picked by each filter that shares it.
  const shared = [...new Map(panel.flatMap((filter) => (filter.shared ? [[filter.shared.read.key, filter.shared.read] as const] : []))).values()];
  for (const source of shared) {
    const indexes = panel.flatMap((filter, index) => (filter.shared?.read.key === source.key ? [index] : []));
    for (const list of lists) reads.push({ indexes, query: source.read(list, ctx), pick: "" });
  }
  // Each encoded read comes with the list's stamp, read in the same batch.
  const stampReads = encodedReads.flatMap((read) => (read.stamp ? [read.stamp] : []));
  const statements = [...reads.map((read) => read.query), ...encodedReads.map((read) => read.query), ...stampReads];
  const answered = statements.length > 0 ? await rowsOf(ctx.db, statements) : [];
  const results = answered.slice(0, reads.length);
  // Each encoded filter's options stand in the document as a placeholder of its own, replaced by their text.
  const placeholders = new Map<number, { placeholder: string; count: number }>();
  let stampsRead = 0;
  for (const [n, { index, kept, stamp }] of encodedReads.entries()) {
    const rows = answered[reads.length + n] as Array<{ count: number; options: string }>;
    const listStamp = stamp ? (answered[reads.length + encodedReads.length + stampsRead++][0]?.stamp as string | undefined) : undefined;
    let options: EncodedOptions;
    if (kept?.stamp !== undefined && kept.stamp === listStamp) options = await kept.options();
    else {
      // Each row's array without its brackets: the members, joined.
      options = { text: rows.map((row) => row.options.slice(1, -1)).join(","), count: rows.reduce((sum, row) => sum + Number(row.count), 0) };
      kept?.discard();
      if (kept && listStamp) kept.keep(options, listStamp, later);
    }
    const placeholder = `\u0000options:${crypto.randomUUID()}`;
    encoded.set(JSON.stringify(placeholder), options);
    placeholders.set(index, { placeholder, count: options.count });
  }
  // Each filter's options from the data, once each, with their order key.
  const fromData = new Map<number, Map<string, { option: PanelOption; key: unknown[] }>>();
  reads.forEach((read, n) => read.indexes.forEach((index) => {
    const filter = panel[index];
    const pick = read.pick === undefined ? undefined : filter.shared!.pick;
    const options = fromData.get(index) ?? new Map<string, { option: PanelOption; key: unknown[] }>();
    // Each row read becomes its option in place (a panel may list every contact of a list: no copies).
    for (const row of results[n]) {
      if (pick !== undefined && row.column !== pick) continue;
      const id = (filter.format ?? String)(row.id);
      if (options.has(id)) continue;
      const key = filter.order ? filter.order(row) : undefined;
      const option = row as PanelOption;
      if (pick !== undefined) delete option.column;
      option.name = row.name === undefined || row.name === null ? id : String(row.name);
      option.id = id;
      options.set(id, { option, key: key ?? [option.name, id] });
    }
    fromData.set(index, options);
  }));
  // A list's options are in the list's order; several lists' are one list in that order.
  const ordered = new Map([...fromData].map(([index, options]) => [index, [...options.values()].sort((a, b) => compareKeys(a.key, b.key))]));
  reportOrders?.(Object.fromEntries([...ordered].map(([index, options]) => [panel[index].name, new Map(options.map(({ option, key }) => [option.id, key]))])));
  // Ordered as the original lists them (by class name); the web app orders them by id, the priority.
  const items = panel.map((filter, priority) => {
    const fixed = typeof filter.options === "function" ? filter.options(ctx) : (filter.options ?? []);
    const inPlace = placeholders.get(priority);
    const own: Array<PanelOption | string> = [...fixed, ...(ordered.get(priority) ?? []).map(({ option }) => option), ...(inPlace && inPlace.count > 0 ? [inPlace.placeholder] : [])];
    const choice = filter.type === "multiselect" || filter.type === "radio";
    const options = filter.type === "single_checkbox" ? undefined : [...(choice && !filter.noAnyOption ? [ANY] : []), ...own];
    return {
      type,
      id: String(priority),
      attributes: {
        name: filter.name,
        title: filter.title,
        type: filter.type,
        priority,
        parent: filter.parent ?? null,
        default_selection: filter.defaultSelection ?? (filter.type === "single_checkbox" ? true : ""),
        ...(options ? { multiple: filter.type === "multiselect", options } : {}),
      },
      empty: options !== undefined && own.length === 0,
    };
  });
  // A choice with nothing to choose is left out, as the original leaves it.
  return items.filter((item) => !item.empty).map(({ empty: _empty, ...item }) => item).sort((a, b) => a.attributes.name.localeCompare(b.attributes.name));
}

/** Work that may finish after the answer is sent; where the request has no execution context, it runs unawaited. */
function afterAnswer(c: Context<AppEnv>, work: Promise<unknown>): void {
  const settled = work.catch((error: unknown) => console.warn(JSON.stringify({ level: "warn", message: "filter panel options not kept", error: String(error) })));
  try {
    c.executionCtx.waitUntil(settled);
  } catch {
    void settled;
  }
}

/** The panel as a list of `type` items, by `filter[account_list_id]` (the web app sends it as POST with `X-HTTP-Method-Override: GET`). */
export function panelRoutes(panel: PanelFilter[], type: string): Hono<AppEnv> {
  const answer = async (c: Context<AppEnv>, ctx: RequestContext) => {
    const later = (work: Promise<unknown>) => afterAnswer(c, work);
    if (ctx.listDatabases) {
      // Over several databases, each answers over its lists with its options' order keys, and the panels are put together.
      const parts = await onEachDatabase(ctx, summaryDatabases(ctx, ctx.listDatabases), async (here) => {
        let orders: SummaryOrders = {};
        const data = await panelItems(panel, type, here, new Map(), later, (reported) => (orders = reported));
        return { document: asSent({ data }), orders };
      });
      return jsonApi(c, mergePanels(parts));
    }
    const encoded = new Map<string, EncodedOptions>();
    const document = { data: await panelItems(panel, type, ctx, encoded, later) };
    if (encoded.size === 0) return jsonApi(c, document);
    // Each placeholder, encoded as a JSON string, becomes the options' text (a function: no `$` patterns).
    let text = JSON.stringify(document);
    for (const [placeholder, options] of encoded) text = text.replace(placeholder, () => options.text);
    return jsonApi(c, new EncodedJson(text));
  };
  return new Hono<AppEnv>().get("/", readsEachDatabase((c: Context<AppEnv>) => answer(c, requestContext(c))));
}
