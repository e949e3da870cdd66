/**
 * Runs each request on the database that holds what it reads or writes (src/db/placement.ts). When it names no
 * list and the viewer's lists are on several databases:
 * - a read runs once, knowing the databases (`listDatabases`): its handler reads each itself (`readsEachDatabase`),
 *   a list planned once and merged by rows (src/read/spread-list.ts), a record by id answered by the database
 *   holding it (src/read/records.ts), a summary of the lists or their tags put together (src/read/summaries.ts);
 * - a write is run by the app once per database, as that database's part, with the viewer narrowed to the lists
 *   placed there, and the parts' answers are put together:
 *   - a write by id (and everything under it): only the database holding the record acts; its answer is the answer;
 *   - a create: it runs on the database of the list it names (or would fall back to), never on the others;
 *   - a bulk write: each item goes to the database of its list or record, and the answers are put back in order.
 * A 404 naming another user's record kept on a database none of the viewer's lists are on is refused there (403)
 * through the one look-up of records elsewhere (src/db/elsewhere.ts).
 */
import type { Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { isInsideBatch, markBatchItem } from "./auth/batch-items";
import type { AppEnv, Viewer } from "./env";
import { ApiError, forbidden } from "./jsonapi/errors";
import { isObject, ownEntry, type ParamValue } from "./jsonapi/params";
import { requestContext, requestParams } from "./engine/context";
import { JSONAPI_CONTENT_TYPE, REQUEST_ID_HEADER } from "./jsonapi/respond";
import { descriptionOf } from "./engine/route-descriptions";
import type { ResourceDef } from "./engine/define";
import { foundKey, lookupElsewhere } from "./db/elsewhere";
import { readScope } from "./engine/scope";
import { UUID_PARAM } from "./routes/resource-routes";
import { databaseOfList, isPlacedRecordPath, listForCreate, reportDatabase, requestDatabase, viewerDatabases, viewerOn } from "./db/placement";

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
      c.res = await refusedElsewhere(app, c, viewer, [database], c.res);
      return;
    }
    const databases = [...viewerDatabases(viewer).keys()];
    if (isRead(c)) {
      // A read runs once. Its handler reads each database of the viewer's lists itself (`readsEachDatabase`:
      // src/read/list-resources.ts, src/read/records.ts, src/read/summaries.ts; test/each-database-reads.test.ts
      // holds every read route that may span databases to it).
      c.set("listDatabases", databases);
      await next();
      c.res = await refusedElsewhere(app, c, viewer, databases, c.res);
      return;
    }
    c.res = await refusedElsewhere(app, c, viewer, databases, await writeOnEach(app, c, viewer));
  });
}

/**
 * A record of another user's list, asked for by id, is refused (403) by one database, which sees it outside the
 * viewer's lists. Where it is kept on a database that holds none of the viewer's lists, the databases asked answer
 * 404. So a 404 naming the record the path's first id names (a contact, and what hangs off it) looks that record up
 * on the other databases (src/db/elsewhere.ts): held there, it is refused as one database refuses it. Only a
 * request already answered 404 pays for the look-up.
 */
async function refusedElsewhere(app: Hono<AppEnv>, c: Context<AppEnv>, viewer: Viewer, asked: string[], response: Response): Promise<Response> {
  if (response.status !== 404 || !isPlacedRecordPath(c.req.path)) return response;
  const segments = c.req.path.split("/");
  const at = segments.findIndex((segment) => UUID.test(segment));
  const def = at < 0 ? undefined : recordsShown(app).get(segments.slice(0, at).join("/"));
  // A resource whose scope hides rows answers 404 for another user's record on any database.
  if (!def || def.scopeHidesRows) return response;
  const id = segments[at].toLowerCase();
  if (!(await response.clone().text()).toLowerCase().includes(id)) return response;
  // Held elsewhere in one of the viewer's own lists (a request routed by the lists its filter names), it is not
  // someone else's: the 404 stands, as that database, reading the path, would not refuse it.
  const visible = readScope(def, { ...requestContext(c), viewer, pathParams: {} });
  const found = await lookupElsewhere({ env: c.env, databaseOn: c.get("databaseOn") }, asked, [{ table: def.table, idColumn: def.idColumn, visible, ids: [id] }]);
  const held = found.get(foundKey(def.table, id));
  if (held && !held.visible) throw forbidden(id, def.type);
  return response;
}

/** The resource of each collection whose records may be on any database, by its path (`/api/v2/contacts`): from the routes that show them. */
const shownRecords = new WeakMap<Hono<AppEnv>, Map<string, ResourceDef>>();

function recordsShown(app: Hono<AppEnv>): Map<string, ResourceDef> {
  let known = shownRecords.get(app);
  if (!known) {
    known = new Map();
    const idSegment = `/:id${UUID_PARAM}`;
    for (const route of app.routes) {
      const description = route.method === "GET" && route.path.endsWith(idSegment) ? descriptionOf(route.handler) : undefined;
      const collection = route.path.slice(0, -idSegment.length);
      if (description?.action === "show" && !collection.includes(":")) known.set(collection, description.resource);
    }
    shownRecords.set(app, known);
  }
  return known;
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
function isRead(c: Context<AppEnv>): boolean {
  return c.req.method === "GET" || c.req.method === "HEAD";
}

/** A write over several databases: run on the database it goes to, or on each, as that database's part. */
async function writeOnEach(app: Hono<AppEnv>, c: Context<AppEnv>, viewer: Viewer): Promise<Response> {
  const databases = [...viewerDatabases(viewer).keys()];
  const segments = new URL(c.req.url).pathname.split("/");
  const body = await c.req.text();
  const run = (database: string, text = body) => runPart(app, c, viewer, database, text);
  const pathIds = segments.filter((segment) => UUID.test(segment));
  if (pathIds.length > 0) return recordAnswer(await Promise.all(databases.map((database) => run(database))), pathIds);
  if (segments.at(-1) === "bulk") return bulkAnswer(c, viewer, databases, body, run);
  if (c.req.method === "POST") return run(createDatabase(viewer, body));
  throw new ApiError(405, [{ detail: `${c.req.method} is not allowed here` }]);
}

/** A write as one database's part: run by the app there, with the viewer narrowed to their lists placed there. */
async function runPart(app: Hono<AppEnv>, c: Context<AppEnv>, viewer: Viewer, database: string, body: string): Promise<Response> {
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
    part: { database, insideBatch: isInsideBatch(c.get("item")), metrics: c.get("metrics") },
  });
  return app.fetch(request, c.env, c.executionCtx);
}

/**
 * A write by id: the database that found the record and acted answers. A database may also hold the record outside the
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
