/**
 * Runs each request on the database that holds what it reads or writes (src/db/placement.ts). When it names no
 * list and the viewer's lists are on several databases, the request is answered from each of them: the app runs
 * it once per database, as that database's part, with the viewer narrowed to the lists placed there, and the
 * parts' answers are put together:
 * - a list: each part answers its first `offset + per_page` rows in the list's order with their order keys; the
 *   rows are merged by those keys, the page is cut from them, totals are summed (`mergeListParts`);
 * - a record by id (and everything under it): only the database holding it finds it; its answer is the answer;
 * - a create: it runs on the database of the list it names (or would fall back to), never on the others;
 * - a bulk write: each item goes to the database of its list or record, and the answers are put back in order.
 */
import type { Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { isInsideBatch, markBatchItem } from "./auth/batch-items";
import type { AppEnv, Viewer } from "./env";
import { ApiError, badRequest } from "./jsonapi/errors";
import { JSONAPI_CONTENT_TYPE, REQUEST_ID_HEADER } from "./jsonapi/respond";
import { choosePage, mergeWholeLists, renderedPage, type ListAnswer } from "./db/merge";
import type { ListPart, PartKeys } from "./db/list-parts";
import { databaseOfList, listForCreate, requestDatabase, viewerDatabases, viewerOn } from "./db/placement";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The most rows a part of a list may be asked for (the page's end). Deeper pages over several databases are
 * refused: each database would read and send every row before the page. `filter[account_list_id]` naming lists
 * of one database reads them from it alone, at any depth.
 */
export const MAX_MERGED_ROWS = 10_000;

export function routeToDatabase(app: Hono<AppEnv>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const part = c.get("item")?.part?.database;
    const viewer = c.get("viewer");
    const target = part ?? requestDatabase(c.req.path, viewer);
    const database = target === "each" ? (namedListsDatabase(c, viewer) ?? target) : target;
    if (database !== "each") {
      c.set("db", c.get("databaseOn")(database));
      return next();
    }
    c.res = await answerFromEach(app, c, viewer);
  });
}

/** The one database of the lists `filter[account_list_id]` names, when they are all the viewer's and on one. */
function namedListsDatabase(c: Context<AppEnv>, viewer: Viewer): string | undefined {
  const named = new URL(c.req.url).searchParams.get("filter[account_list_id]");
  if (!named || new URL(c.req.url).searchParams.get("filter[reverse_account_list_id]")) return undefined;
  const ids = named.split(",").map((id) => id.trim().toLowerCase()).filter(Boolean);
  if (ids.length === 0 || !ids.every((id) => viewer.readableListIds.includes(id))) return undefined;
  const databases = new Set(ids.map((id) => databaseOfList(viewer, id)));
  return databases.size === 1 ? [...databases][0] : undefined;
}

function isListRead(c: Context<AppEnv>): boolean {
  return c.req.method === "GET" || (c.req.method === "POST" && c.req.header("x-http-method-override")?.toUpperCase() === "GET");
}

async function answerFromEach(app: Hono<AppEnv>, c: Context<AppEnv>, viewer: Viewer): Promise<Response> {
  const databases = [...viewerDatabases(viewer).keys()];
  const segments = new URL(c.req.url).pathname.split("/");
  const body = c.req.method === "GET" || c.req.method === "HEAD" ? undefined : await c.req.text();
  const run = (database: string, text = body, list?: ListPart) => runPart(app, c, viewer, database, text, list);
  if (segments.some((segment) => UUID.test(segment))) return recordAnswer(await Promise.all(databases.map((database) => run(database))));
  if (segments.at(-1) === "bulk") return bulkAnswer(c, viewer, databases, body, run);
  if (isListRead(c)) return listAnswer(c, databases, run);
  if (c.req.method === "POST") return run(createDatabase(viewer, body));
  throw new ApiError(405, [{ detail: `${c.req.method} is not allowed here` }]);
}

async function runPart(app: Hono<AppEnv>, c: Context<AppEnv>, viewer: Viewer, database: string, body: string | undefined, list?: ListPart): Promise<Response> {
  const headers = new Headers(c.req.raw.headers);
  headers.delete("Content-Length");
  // The parts answer as the request: errors name its id.
  headers.set(REQUEST_ID_HEADER, c.get("requestId"));
  const request = new Request(c.req.url, { method: c.req.method, headers, body });
  markBatchItem(request, {
    viewer: viewerOn(viewer, database),
    sessions: c.get("sessions"),
    precharged: true,
    createdId: c.get("createdId"),
    part: { database, list, insideBatch: isInsideBatch(c.get("item")), metrics: c.get("metrics") },
  });
  return app.fetch(request, c.env, c.executionCtx);
}

/** A record by id: the database that found it answers; when none did, the first one's answer (a 404). */
function recordAnswer(answers: Response[]): Response {
  return answers.find((answer) => answer.status !== 404) ?? answers[0];
}

/** The list a create names in `data.relationships.account_list`, or the one it falls back to (write.ts). */
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
  const override = c.req.method === "POST";
  const paging = new URL(c.req.url).searchParams;
  const bodyText = override ? await c.req.text() : undefined;
  const params = { ...Object.fromEntries(paging), ...flatPaging(parsed(bodyText)) };
  const perPage = Number(params.per_page ?? params["page[size]"] ?? 25);
  const page = Number(typeof params.page === "string" ? params.page : params["page[number]"] ?? 1);
  const end = Number.isSafeInteger(perPage) && Number.isSafeInteger(page) && page >= 1 ? (page - 1) * perPage + perPage : NaN;
  if (Number.isFinite(end) && end > MAX_MERGED_ROWS) {
    throw badRequest(
      `A page ending past row ${MAX_MERGED_ROWS} is not answered over account lists on several databases: ask a smaller page, or narrow the list with filter[account_list_id]`,
      { parameter: "page" },
    );
  }
  // First the page's choice: each database's first rows, ids and order keys only, and its total.
  const ask = async (database: string, part: Omit<ListPart, "report">): Promise<{ response: Response; keys?: PartKeys }> => {
    let keys: PartKeys | undefined;
    const response = await run(database, bodyText, { ...part, report: (reported: PartKeys) => (keys = reported) });
    return { response, keys };
  };
  // A page the parameters do not allow is refused by each part alike: the first part's refusal is the answer.
  if (!Number.isFinite(end)) return run(databases[0], bodyText);
  const chosen = await Promise.all(databases.map((database) => ask(database, { rows: end, idsOnly: true })));
  const failed = chosen.find((part) => part.response.status !== 200);
  if (failed) return failed.response;
  const answers = await Promise.all(chosen.map(async (part) => ({ document: (await part.response.json()) as ListAnswer["document"], keys: part.keys })));
  // A list the engine does not read (a list's tags) answers whole, without order keys.
  if (answers.every((answer) => !answer.keys)) return jsonAnswer(mergeWholeLists(answers));
  const { chosen: ids, meta } = choosePage(answers, { page, perPage });
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
  return jsonAnswer(renderedPage(renderedParts, meta));
}

function jsonAnswer(document: unknown): Response {
  return new Response(JSON.stringify(document), { status: 200, headers: { "Content-Type": JSONAPI_CONTENT_TYPE } });
}

/** `page` and `per_page` of a method-override body (`{"page": 2, "per_page": 50}` or `{"page": {"number": 2}}`). */
function flatPaging(document: unknown): Record<string, unknown> {
  if (typeof document !== "object" || document === null) return {};
  const { page, per_page } = document as { page?: unknown; per_page?: unknown };
  const flat: Record<string, unknown> = {};
  if (per_page !== undefined) flat.per_page = per_page;
  if (typeof page === "object" && page !== null) {
    const { number, size } = page as { number?: unknown; size?: unknown };
    if (number !== undefined) flat["page[number]"] = number;
    if (size !== undefined) flat["page[size]"] = size;
  } else if (page !== undefined) flat.page = String(page);
  return flat;
}

/**
 * A bulk write: each item to the database of the list it names (a create) or of the record it names (found by
 * asking each database), then the answers in the items' order.
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
  // Not a list of items (tags, a malformed body): each database answers for its own records; the first refusal wins.
  if (!items || c.req.method !== "POST" || !items.every((item) => createdList(viewer, item) !== undefined)) {
    if (items && c.req.method === "POST") return run(createDatabase(viewer, body));
    const answers = await Promise.all(databases.map((database) => run(database)));
    if (!items) return answers.find((answer) => answer.status >= 400) ?? answers[0];
    return bulkPerItem(answers, items.length);
  }
  const byDatabase = new Map<string, number[]>();
  items.forEach((item, index) => {
    const database = databaseOfList(viewer, createdList(viewer, item)!);
    byDatabase.set(database, [...(byDatabase.get(database) ?? []), index]);
  });
  if (byDatabase.size === 1) return run([...byDatabase.keys()][0]);
  const answers: unknown[] = new Array(items.length);
  for (const [database, indexes] of byDatabase) {
    const response = await run(database, JSON.stringify({ ...document, data: indexes.map((index) => items[index]) }));
    if (response.status !== 200) return response;
    const parts = (await response.json()) as unknown[];
    indexes.forEach((index, at) => (answers[index] = parts[at]));
  }
  return new Response(JSON.stringify(answers), { status: 200, headers: { "Content-Type": JSONAPI_CONTENT_TYPE } });
}

/** Updates and deletes by id, asked of every database: per item, the answer of the database that held it. */
async function bulkPerItem(answers: Response[], count: number): Promise<Response> {
  const failed = answers.find((answer) => answer.status !== 200);
  if (failed) return failed;
  const documents = (await Promise.all(answers.map((answer) => answer.json()))) as Array<Array<{ errors?: Array<{ status?: string }> }>>;
  const merged = Array.from({ length: count }, (_, index) => {
    const candidates = documents.map((document) => document[index]);
    return candidates.find((candidate) => !candidate?.errors) ?? candidates.find((candidate) => candidate?.errors?.some((error) => error.status !== "404")) ?? candidates[0];
  });
  return new Response(JSON.stringify(merged), { status: 200, headers: { "Content-Type": JSONAPI_CONTENT_TYPE } });
}
