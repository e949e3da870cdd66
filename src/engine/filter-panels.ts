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
import { requestContext } from "./context";
import type { RequestContext } from "./define";
import { summaryLists } from "./summaries";

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
function encodedOptions(read: SQL, members: readonly string[]): SQL {
  const object = sql.join(members.map((member) => sql`${member}, ${sql.identifier(member)}`), sql`, `);
  const slice = sql.raw(String(ENCODED_OPTIONS_PER_ROW));
  return sql`WITH RECURSIVE slice(position, options, after_name, after_id) AS (
      SELECT 0, NULL, '', ''
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

/** The panel's items, each option list read for every list the request covers (one round trip). */
async function panelItems(panel: PanelFilter[], type: string, ctx: RequestContext, encoded: Map<string, EncodedOptions>) {
  const lists = summaryLists(ctx);
  // Over one list and one database, options as many as a list's contacts come encoded from SQLite; the options of
  // a summary over several databases are put together by their order keys (src/db/merge-summaries.ts).
  const encodes = (filter: PanelFilter) => filter.manyOptions !== undefined && lists.length === 1 && !ctx.summaryPart;
  const encodedReads = panel.flatMap((filter, index) => (filter.read && encodes(filter) ? [{ index, query: encodedOptions(filter.read(lists[0], ctx), filter.manyOptions!) }] : []));
  const reads = panel.flatMap((filter, index) => (filter.read && !encodes(filter) ? lists.map((list) => ({ indexes: [index], query: filter.read!(list, ctx), pick: undefined as string | undefined })) : []));
  // Each shared read once per list, its rows picked by each filter that shares it.
  const shared = [...new Map(panel.flatMap((filter) => (filter.shared ? [[filter.shared.read.key, filter.shared.read] as const] : []))).values()];
  for (const source of shared) {
    const indexes = panel.flatMap((filter, index) => (filter.shared?.read.key === source.key ? [index] : []));
    for (const list of lists) reads.push({ indexes, query: source.read(list, ctx), pick: "" });
  }
  const statements = [...reads.map((read) => read.query), ...encodedReads.map((read) => read.query)];
  const answered = statements.length > 0 ? await rowsOf(ctx.db, statements) : [];
  const results = answered.slice(0, reads.length);
  // Each encoded filter's options stand in the document as a placeholder of its own, replaced by their text.
  const placeholders = new Map<number, { placeholder: string; count: number }>();
  encodedReads.forEach(({ index }, n) => {
    const rows = answered[reads.length + n] as Array<{ count: number; options: string }>;
    const placeholder = `\u0000options:${crypto.randomUUID()}`;
    const count = rows.reduce((sum, row) => sum + Number(row.count), 0);
    // Each row's array without its brackets: the members, joined.
    encoded.set(JSON.stringify(placeholder), { text: rows.map((row) => row.options.slice(1, -1)).join(","), count });
    placeholders.set(index, { placeholder, count });
  });
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
  ctx.summaryPart?.report(Object.fromEntries([...ordered].map(([index, options]) => [panel[index].name, new Map(options.map(({ option, key }) => [option.id, key]))])));
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

/** The panel as a list of `type` items, by `filter[account_list_id]` (the web app sends it as POST with `X-HTTP-Method-Override: GET`). */
export function panelRoutes(panel: PanelFilter[], type: string): Hono<AppEnv> {
  const answer = async (c: Context<AppEnv>, ctx: RequestContext) => {
    const encoded = new Map<string, EncodedOptions>();
    const document = { data: await panelItems(panel, type, ctx, encoded) };
    if (encoded.size === 0) return jsonApi(c, document);
    // Each placeholder, encoded as a JSON string, becomes the options' text (a function: no `$` patterns).
    let text = JSON.stringify(document);
    for (const [placeholder, options] of encoded) text = text.replace(placeholder, () => options.text);
    return jsonApi(c, new EncodedJson(text));
  };
  return new Hono<AppEnv>().get("/", (c) => answer(c, requestContext(c)));
}
