/**
 * Runs each request on the database that holds what it reads or writes (src/db/placement.ts). When it names no
 * list and the viewer's lists are on several databases, the request is answered from each of them: the app runs
 * it once per database, as that database's part, with the viewer narrowed to the lists placed there, and the
 * parts' answers are put together:
 * - a list: each part names its first rows in the list's order with their order keys, up to the page's end for a
 *   short page, else in proportion to its share of the list's total until the rows named settle the page
 *   (`nameInShares`); the rows are merged by those keys, the page is cut from them, totals are summed
 *   (`choosePage`), and each database renders the page's rows it holds;
 * - a record by id (and everything under it): only the database holding it finds it; its answer is the answer;
 * - a create: it runs on the database of the list it names (or would fall back to), never on the others;
 * - a bulk write: each item goes to the database of its list or record, and the answers are put back in order;
 * - a summary of the viewer's lists (the home pages' analytics, the filter panels): each database answers over its
 *   lists, and the answers are put together as one database's over all of them (src/db/merge-summaries.ts).
 */
import type { Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { isInsideBatch, markBatchItem } from "./auth/batch-items";
import type { AppEnv, Viewer } from "./env";
import { ApiError } from "./jsonapi/errors";
import { isObject, ownEntry, parseQueryString, type ParamValue } from "./jsonapi/params";
import { asksForIncludes, parseDocumentParams, parseListQuery, type IncludeTree } from "./jsonapi/query";
import { requestParams } from "./engine/context";
import { readWithBody } from "./jsonapi/method-override";
import { JSONAPI_CONTENT_TYPE, REQUEST_ID_HEADER } from "./jsonapi/respond";
import { choosePage, mergeWholeLists, morePartRows, renderedPage, type ListAnswer } from "./db/merge";
import type { ListPart, PartKeys, SummaryOrders, SummaryPart } from "./db/list-parts";
import { mergePanels, mergeSummaryResources, type SummaryAnswer } from "./db/merge-summaries";
import { databaseOfList, isPlacedRecordPath, listForCreate, reportDatabase, requestDatabase, viewerDatabases, viewerOn } from "./db/placement";
import { DIRECTORY, listDatabaseNames } from "./db/databases";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function routeToDatabase(app: Hono<AppEnv>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const part = c.get("item")?.part?.database;
    const viewer = c.get("viewer");
    const target = part ?? requestDatabase(c.req.path, viewer);
    const database = target === "each" ? (namedListsDatabase(c, viewer) ?? reportDatabase(c.req.path, viewer) ?? target) : target;
    if (database !== "each") {
      c.set("db", c.get("databaseOn")(database));
      c.set("databaseName", database);
      await next();
      if (part) return;
      if (c.req.path === USER_PATH && c.req.method !== "HEAD") c.res = await withListsWhereTheyAre(app, c, viewer, c.res);
      c.res = await refusedElsewhere(app, c, viewer, [database], c.res);
      return;
    }
    c.res = await refusedElsewhere(app, c, viewer, [...viewerDatabases(viewer).keys()], await answerFromEach(app, c, viewer));
  });
}

/**
 * A record of another user's list, asked for by id, is refused (403) by one database, which sees it outside the
 * viewer's lists. Where it is kept on a database that holds none of the viewer's lists, the databases asked answer
 * 404. So a 404 that names a record of the path has each other database read the path as the viewer (who has no
 * list there): a refusal naming that record answers instead, as one database answers. A read changes nothing, and
 * only a request already answered 404 pays for it.
 */
async function refusedElsewhere(app: Hono<AppEnv>, c: Context<AppEnv>, viewer: Viewer, asked: string[], response: Response): Promise<Response> {
  if (response.status !== 404 || !isPlacedRecordPath(c.req.path)) return response;
  const others = listDatabaseNames(c.env).filter((name) => !asked.includes(name));
  const pathIds = c.req.path.split("/").filter((segment) => UUID.test(segment)).map((id) => id.toLowerCase());
  if (others.length === 0 || pathIds.length === 0) return response;
  const detail = (await response.clone().text()).toLowerCase();
  const missed = pathIds.filter((id) => detail.includes(id));
  if (missed.length === 0) return response;
  const read = new URL(c.req.url);
  read.search = "";
  const answers = await Promise.all(others.map((database) => runPart(app, c, viewer, database, undefined, undefined, read)));
  for (const answer of answers) {
    if (answer.status !== 403) continue;
    const text = await answer.clone().text();
    if (missed.some((id) => text.toLowerCase().includes(id))) return refusal(answer, c.req.method);
  }
  return response;
}

/** A probe's refusal as the request's own answer (a HEAD's has no body). */
async function refusal(answer: Response, method: string): Promise<Response> {
  return method === "HEAD" ? new Response(null, { status: answer.status, headers: answer.headers }) : answer;
}

/**
 * A request's `filter[account_list_id]` and `filter[reverse_account_list_id]`, as its handler reads them: from the
 * query string, and from the body of a read sent as POST over it (the web app's home page sends its summaries so).
 */
function listFilters(c: Context<AppEnv>): { named?: string; reverse?: string } {
  try {
    const filter = requestParams(c).filter;
    if (!isObject(filter)) return {};
    const text = (value: ParamValue | undefined) => (typeof value === "string" ? value : undefined);
    return { named: text(ownEntry(filter, "account_list_id")), reverse: text(ownEntry(filter, "reverse_account_list_id")) };
  } catch (error) {
    // The handler reports parameters it cannot read.
    if (error instanceof ApiError) return {};
    throw error;
  }
}

/** The one database of the lists `filter[account_list_id]` names, when they are all the viewer's and on one. */
function namedListsDatabase(c: Context<AppEnv>, viewer: Viewer): string | undefined {
  const { named, reverse } = listFilters(c);
  if (!named || reverse) return undefined;
  const ids = named.split(",").map((id) => id.trim().toLowerCase()).filter(Boolean);
  if (ids.length === 0 || !ids.every((id) => viewer.readableListIds.includes(id))) return undefined;
  const databases = new Set(ids.map((id) => databaseOfList(viewer, id)));
  return databases.size === 1 ? [...databases][0] : undefined;
}

/** A read (a read sent as POST is a GET by now: src/jsonapi/method-override.ts). */
function isListRead(c: Context<AppEnv>): boolean {
  return c.req.method === "GET" || c.req.method === "HEAD";
}

async function answerFromEach(app: Hono<AppEnv>, c: Context<AppEnv>, viewer: Viewer): Promise<Response> {
  const databases = [...viewerDatabases(viewer).keys()];
  const segments = new URL(c.req.url).pathname.split("/");
  // A read's parameters may be in a body it was sent with as POST.
  const body = isListRead(c) ? c.get("sentBody")?.text : await c.req.text();
  const run = (database: string, text = body, list?: ListPart) => runPart(app, c, viewer, database, text, list);
  const pathIds = segments.filter((segment) => UUID.test(segment));
  if (pathIds.length > 0) return recordAnswer(await Promise.all(databases.map((database) => run(database))), pathIds);
  if (segments.at(-1) === "bulk") return bulkAnswer(c, viewer, databases, body, run);
  if (isListRead(c) && SUMMARY_PATH.test(new URL(c.req.url).pathname)) return summaryAnswer(app, c, viewer, databases, body);
  if (isListRead(c)) return listAnswer(c, databases, run);
  if (c.req.method === "POST") return run(createDatabase(viewer, body));
  throw new ApiError(405, [{ detail: `${c.req.method} is not allowed here` }]);
}

async function runPart(
  app: Hono<AppEnv>,
  c: Context<AppEnv>,
  viewer: Viewer,
  database: string,
  body: string | undefined,
  list?: ListPart,
  read?: URL,
  summary?: SummaryPart,
): Promise<Response> {
  const headers = new Headers(c.req.raw.headers);
  headers.delete("Content-Length");
  // The parts answer as the request: errors name its id.
  headers.set(REQUEST_ID_HEADER, c.get("requestId"));
  // A HEAD is answered as its GET, whose body the app leaves out; a read the request needs (`read`) is a GET.
  const method = read || c.req.method === "HEAD" ? "GET" : c.req.method;
  const url = read?.toString() ?? c.req.url;
  const request =
    method === "GET" ? readWithBody(url, headers, read || body === undefined ? undefined : { text: body, tooLarge: false }) : new Request(url, { method, headers, body });
  markBatchItem(request, {
    viewer: viewerOn(viewer, database),
    sessions: c.get("sessions"),
    precharged: true,
    createdId: c.get("createdId"),
    part: { database, list, summary, insideBatch: isInsideBatch(c.get("item")), metrics: c.get("metrics") },
  });
  return app.fetch(request, c.env, c.executionCtx);
}

/** The signed-in user's own document: it runs on the directory, and may include lists placed elsewhere. */
const USER_PATH = "/api/v2/user";

type Resource = { type: string; id: string };

/**
 * `/user` is the directory's, whose copy of a placed list's row holds neither the list's totals nor its records.
 * Its included account lists, with what is included under them, are read where each list is placed, as
 * `/account_lists/<id>` answers them there, and take the place of the directory's copies.
 */
async function withListsWhereTheyAre(app: Hono<AppEnv>, c: Context<AppEnv>, viewer: Viewer, response: Response): Promise<Response> {
  if (response.status !== 200 || Object.keys(viewer.listDatabases).length === 0) return response;
  const asked = new URL(c.req.url);
  const { include, includeAll } = parseDocumentParams(parseQueryString(asked.searchParams));
  const under = ownEntry(include, "account_lists") ?? (includeAll ? {} : undefined);
  if (!under) return response;
  const document = (await response.clone().json()) as { data: Resource; included?: Resource[] };
  const placed = (document.included ?? []).filter((resource) => resource.type === "account_lists" && databaseOfList(viewer, resource.id) !== DIRECTORY);
  if (placed.length === 0) return response;
  const answers = await Promise.all(
    placed.map(async ({ id }) => {
      const read = new URL(`${asked.origin}/api/v2/account_lists/${id}${asked.search}`);
      const paths = includePaths(under);
      if (paths.length > 0) read.searchParams.set("include", paths.join(","));
      else read.searchParams.delete("include");
      return runPart(app, c, viewer, databaseOfList(viewer, id), undefined, undefined, read);
    }),
  );
  // A list database that fails fails the answer: the directory's copy of a list has none of its totals, and would
  // pass for them. A list it no longer finds (moved since the viewer was read) keeps the directory's copy.
  const failed = answers.find((answer) => answer.status !== 200 && answer.status !== 404);
  if (failed) return failed;
  const documents = await Promise.all(answers.map(async (answer) => (answer.status === 200 ? ((await answer.json()) as { data: Resource; included?: Resource[] }) : undefined)));
  const key = (resource: Resource) => `${resource.type}:${resource.id}`;
  const fromLists = new Map(documents.flatMap((answer) => (answer ? [answer.data, ...(answer.included ?? [])] : [])).map((resource) => [key(resource), resource]));
  fromLists.delete(key(document.data));
  // The directory stays the authority for what it holds (users, memberships); the lists' own rows replace its copies.
  const included = (document.included ?? []).map((resource) => (resource.type === "account_lists" ? (fromLists.get(key(resource)) ?? resource) : resource));
  const shown = new Set(included.map(key));
  for (const [name, resource] of fromLists) if (!shown.has(name)) included.push(resource);
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return new Response(JSON.stringify({ ...document, included }), { status: 200, headers });
}

/** An include tree as the `include` parameter's paths. */
function includePaths(tree: IncludeTree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([name, below]) => {
    const path = `${prefix}${name}`;
    const deeper = includePaths(below, `${path}.`);
    return deeper.length > 0 ? deeper : [path];
  });
}

/**
 * A record by id: the database that found it and acted answers. A database may also hold the record outside the
 * viewer's lists there (a list being moved keeps rows on both): a success wins over that refusal, a failure of the
 * database that holds it over a refusal, a refusal over not found. Among answers of not found, the database that
 * went furthest along the path answers: one that found the path's records and missed a record the body names
 * (a comment's person), else the one that missed the deepest record of the path (a task's comment, not the task).
 */
async function recordAnswer(answers: Response[], pathIds: string[]): Promise<Response> {
  const ids = pathIds.map((id) => id.toLowerCase());
  const ranked = await Promise.all(
    answers.map(async (answer) => {
      if (answer.status !== 404) return { answer, rank: answer.status < 400 ? 0 : answer.status === 403 ? 2 : 1 };
      const text = (await answer.clone().text()).toLowerCase();
      const missed = ids.map((id, index) => (text.includes(id) ? index : -1)).reduce((deepest, index) => Math.max(deepest, index), -1);
      return { answer, rank: missed < 0 ? 3 : 3 + ids.length - missed };
    }),
  );
  return ranked.sort((a, b) => a.rank - b.rank)[0].answer;
}

/** The summaries of the viewer's lists that name no list in their path: the home pages' analytics, the filter panels. */
const SUMMARY_PATH = /^\/api\/v2\/(contacts|tasks)\/(analytics|filters)\/?$/;

/**
 * A summary over the viewer's lists on several databases: each database's part, put together. The part of the
 * database holding the viewer's first list comes first (the summary bears that list's id). A part refused (a
 * parameter it cannot take, refused by every part alike) answers for all.
 */
async function summaryAnswer(app: Hono<AppEnv>, c: Context<AppEnv>, viewer: Viewer, databases: string[], body: string | undefined): Promise<Response> {
  // The lists it covers: those filter[account_list_id] names (of the viewer's), else all; a database holding none
  // of them has no part. (Naming a list that is not the viewer's is refused by every part alike.)
  const named = (listFilters(c).named ?? "")
    .split(",")
    .map((id) => id.trim().toLowerCase())
    .filter(Boolean);
  const covered = named.length > 0 && named.every((id) => viewer.readableListIds.includes(id)) ? viewer.readableListIds.filter((id) => named.includes(id)) : viewer.readableListIds;
  const first = databaseOfList(viewer, covered[0]);
  const holding = new Set(covered.map((id) => databaseOfList(viewer, id)));
  const inOrder = [first, ...databases.filter((database) => database !== first && holding.has(database))];
  const answers = await Promise.all(
    inOrder.map(async (database) => {
      let orders: SummaryOrders = {};
      const response = await runPart(app, c, viewer, database, body, undefined, undefined, { report: (reported) => (orders = reported) });
      return { response, orders };
    }),
  );
  const failed = answers.find((answer) => answer.response.status !== 200);
  if (failed) return failed.response;
  const parts = await Promise.all(answers.map(async ({ response, orders }) => ({ document: (await response.json()) as SummaryAnswer["document"], orders })));
  return jsonAnswer(Array.isArray(parts[0].document.data) ? mergePanels(parts) : mergeSummaryResources(parts));
}

/** The list a create names in `data.relationships.account_list`, or the one it falls back to (src/write/write.ts). */
function createDatabase(viewer: Viewer, body: string | undefined): string {
  return databaseOfList(viewer, createdList(viewer, parsed(body)) ?? viewer.readableListIds[0]);
}

function parsed(body: string | undefined): unknown {
  try {
    return body ? JSON.parse(body) : undefined;
  } catch {
    return undefined;
  }
}

function createdList(viewer: Viewer, document: unknown): string | undefined {
  const data = (document as { data?: { relationships?: { account_list?: { data?: { id?: unknown } } } } } | undefined)?.data;
  const named = data?.relationships?.account_list?.data?.id;
  if (typeof named === "string") return named.toLowerCase();
  return listForCreate(viewer);
}

async function listAnswer(c: Context<AppEnv>, databases: string[], run: (database: string, body?: string, list?: ListPart) => Promise<Response>): Promise<Response> {
  const bodyText = c.get("sentBody")?.text;
  // The page as the list itself reads it; parameters it refuses are refused by each part alike: the first answers.
  let paging: { page: number; perPage: number; offset: number };
  // Whether the document answers `included`: one database answers it, empty or not, whenever includes are asked.
  let includes: boolean;
  try {
    const parsed = parseListQuery(requestParams(c));
    paging = parsed.paging;
    includes = asksForIncludes(parsed.document);
  } catch (error) {
    if (error instanceof ApiError) return run(databases[0], bodyText);
    throw error;
  }
  const { page, perPage } = paging;
  const end = paging.offset + perPage;
  // First the page's choice: each database's first rows, ids and order keys only, and its total.
  const ask = async (database: string, part: Omit<ListPart, "report">): Promise<{ response: Response; keys?: PartKeys }> => {
    let keys: PartKeys | undefined;
    const response = await run(database, bodyText, { ...part, report: (reported: PartKeys) => (keys = reported) });
    return { response, keys };
  };
  const name = async (database: string, part: Omit<ListPart, "report" | "idsOnly">): Promise<{ response: Response; answer?: ListAnswer }> => {
    const { response, keys } = await ask(database, { ...part, idsOnly: true });
    return { response, answer: response.status === 200 ? { document: (await response.json()) as ListAnswer["document"], keys } : undefined };
  };
  const named = end <= WHOLE_PAGE_FROM_EACH ? await Promise.all(databases.map((database) => name(database, { rows: end }))) : await nameInShares(databases, { offset: paging.offset, end }, name);
  const failed = named.find((part) => !part.answer);
  if (failed) return failed.response;
  const answers = named.map((part) => part.answer!);
  // A list the engine does not read (a list's tags) answers whole, without order keys.
  if (answers.every((answer) => !answer.keys)) return jsonAnswer(mergeWholeLists(answers));
  const { chosen: ids, meta } = choosePage(answers, { page, perPage });
  // Rows named with nothing to show but their identity (`fields[tasks]=`, no include) are already rendered.
  if (answers.every((answer) => answer.keys?.rendered || answer.document.data.length === 0)) {
    const chosenParts = answers.map((answer, index) => {
      const onPage = new Set(ids[index]);
      return { ...answer, document: { ...answer.document, data: answer.document.data.filter((row) => onPage.has(row.id)) } };
    });
    return jsonAnswer(renderedPage(chosenParts, meta, includes));
  }
  // Then each database renders the page's rows it holds.
  const rendered = await Promise.all(
    databases.map((database, index) => (ids[index].length > 0 ? ask(database, { rows: ids[index].length, ids: ids[index] }) : undefined)),
  );
  const renderedParts: ListAnswer[] = [];
  for (const part of rendered) {
    if (!part) continue;
    if (part.response.status !== 200) return part.response;
    renderedParts.push({ document: (await part.response.json()) as ListAnswer["document"], keys: part.keys });
  }
  return jsonAnswer(renderedPage(renderedParts, meta, includes));
}

/** Pages up to this row are named whole by each database at once: a second round trip costs more than the rows. */
const WHOLE_PAGE_FROM_EACH = 250;
/** How much more than its share of the page a database names first: shares of the total are only near shares of a page. */
const SHARE_MARGIN = 1.2;
/** And a few rows more: a small share of a page varies the most. */
const SHARE_SLACK = 50;

type NamedPart = { response: Response; answer?: ListAnswer };

/**
 * The rows of a page ending at row `end`, named by each database in proportion to its share of the list. First
 * each counts its rows; then each names its share of the page (with a margin), and those whose rows may still
 * reach into the page name more (`morePartRows`), counting nothing again. So what they read stays near the page's
 * rows, however the lists are spread, where naming the whole page on each would read it once per database.
 */
async function nameInShares(databases: string[], { offset, end }: { offset: number; end: number }, name: (database: string, part: Omit<ListPart, "report" | "idsOnly">) => Promise<NamedPart>): Promise<NamedPart[]> {
  const counted = await Promise.all(databases.map((database) => name(database, { rows: 0 })));
  if (counted.some((part) => !part.answer) || counted.every((part) => !part.answer!.keys)) return counted;
  const totals = counted.map((part) => Number(part.answer!.document.meta.pagination.total_count));
  const sum = totals.reduce((a, b) => a + b, 0);
  // A page past the list's end has no row to name.
  if (sum <= offset) return counted;
  const asked = totals.map((total) => Math.min(total, end, Math.ceil(((end * total) / sum) * SHARE_MARGIN) + SHARE_SLACK));
  const named = [...counted];
  for (let wanted = new Map(asked.flatMap((rows, index) => (rows > 0 ? [[index, rows] as const] : []))); wanted.size > 0; ) {
    const round = await Promise.all([...wanted].map(async ([index, rows]) => ({ index, rows, part: await name(databases[index], { rows, uncounted: true }) })));
    for (const { index, rows, part } of round) {
      if (!part.answer) return [part];
      asked[index] = rows;
      // The total is the count's: the part named its rows without counting them again.
      named[index] = { response: part.response, answer: { ...part.answer, document: { ...part.answer.document, meta: counted[index].answer!.document.meta } } };
    }
    wanted = morePartRows(named.map((part, index) => ({ answer: part.answer!, asked: asked[index] })), end);
  }
  return named;
}

function jsonAnswer(document: unknown): Response {
  return new Response(JSON.stringify(document), { status: 200, headers: { "Content-Type": JSONAPI_CONTENT_TYPE } });
}

/**
 * A bulk write. Creates that each name their list go to that list's database, split by item; every other bulk
 * write (updates and deletes by id, creates that name a contact or no list, tags) is asked of every database, and
 * each item takes the answer of the database that acted on it. A database's part refused whole (its batch failed)
 * answers each of its items with that refusal, beside the items other databases wrote: the answer says what was
 * stored.
 */
async function bulkAnswer(
  c: Context<AppEnv>,
  viewer: Viewer,
  databases: string[],
  body: string | undefined,
  run: (database: string, body?: string) => Promise<Response>,
): Promise<Response> {
  const document = parsed(body) as { data?: unknown } | undefined;
  const items = Array.isArray(document?.data) ? (document.data as unknown[]) : undefined;
  const named = (item: unknown) => (item as { data?: { relationships?: { account_list?: { data?: { id?: unknown } } } } })?.data?.relationships?.account_list?.data?.id;
  if (!items || c.req.method !== "POST" || !items.every((item) => typeof named(item) === "string")) {
    const answers = await Promise.all(databases.map((database) => run(database)));
    return items && answers.every((answer) => answer.status === 200) ? bulkPerItem(answers, items.length) : firstRefusal(answers);
  }
  const byDatabase = new Map<string, number[]>();
  items.forEach((item, index) => {
    const database = databaseOfList(viewer, String(named(item)).toLowerCase());
    byDatabase.set(database, [...(byDatabase.get(database) ?? []), index]);
  });
  if (byDatabase.size === 1) return run([...byDatabase.keys()][0]);
  const answers: unknown[] = new Array(items.length);
  for (const [database, indexes] of byDatabase) {
    const response = await run(database, JSON.stringify({ ...document, data: indexes.map((index) => items[index]) }));
    const parts = response.status === 200 ? ((await response.json()) as unknown[]) : undefined;
    const refusal = parts ? undefined : await refusalOf(response);
    indexes.forEach((index, at) => (answers[index] = parts ? parts[at] : refusal));
  }
  return new Response(JSON.stringify(answers), { status: 200, headers: { "Content-Type": JSONAPI_CONTENT_TYPE } });
}

/** An answer that is not per item: a refusal if any database gave one, else the first (204 when all wrote). */
function firstRefusal(answers: Response[]): Response {
  return answers.find((answer) => answer.status >= 400) ?? answers[0];
}

/** A refused part's errors, as the item answer of each of its items. */
async function refusalOf(response: Response): Promise<unknown> {
  try {
    const document = (await response.json()) as { errors?: unknown };
    return { errors: document.errors ?? [{ status: String(response.status) }] };
  } catch {
    return { errors: [{ status: String(response.status) }] };
  }
}

/** A bulk write asked of every database: per item, the answer of the database that acted on it. */
async function bulkPerItem(answers: Response[], count: number): Promise<Response> {
  const documents = (await Promise.all(answers.map((answer) => answer.json()))) as Array<Array<{ errors?: Array<{ status?: string }> }>>;
  const merged = Array.from({ length: count }, (_, index) => {
    const candidates = documents.map((document) => document[index]);
    return candidates.find((candidate) => !candidate?.errors) ?? candidates.find((candidate) => candidate?.errors?.some((error) => error.status !== "404")) ?? candidates[0];
  });
  return new Response(JSON.stringify(merged), { status: 200, headers: { "Content-Type": JSONAPI_CONTENT_TYPE } });
}
