/**
 * Merges, as the original's clients send them: `POST /contacts/merges/bulk` and `/contacts/people/merges/bulk`
 * (a list of winner and loser pairs; a bare JSON array answers, one document per pair), and the single
 * `POST /contacts/merges` and `POST /contacts/<id>/people/merges`.
 *
 * The two records of a pair are always of one list, so a merge never spans databases, and each database holding the
 * viewer's lists runs the request's pairs in one atomic batch, in request order: each pair is first judged there
 * (its records found among the viewer's lists, and of one list or contact) and its statements change nothing unless
 * it is mergeable, so a pair of another database, or a bad one, leaves the others to merge. The batch ends with the
 * winners read back and the judgements read; a pair's answer is put together from every database's.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { readBody, requestContext } from "../../engine/context";
import type { RequestContext, ResourceDef } from "../../engine/define";
import { resourcesByIdRead } from "../../read/records";
import { described } from "../../engine/route-descriptions";
import { UUID_PARAM } from "../../routes/resource-routes";
import { viewerDatabases, viewerOn } from "../../db/placement";
import { rowsOf } from "../../db/statements";
import type { AppEnv } from "../../env";
import type { ResourceObject } from "../../jsonapi/document";
import { ApiError, badRequest, recordNotFound, type ErrorObject } from "../../jsonapi/errors";
import { UUID_PATTERN } from "../../jsonapi/request-document";
import { jsonApi } from "../../jsonapi/respond";
import { MAX_BULK_ITEMS } from "../../write/bulk";
import { INSIDE_BATCH_REFUSAL } from "../batch/items";
import { contactResource } from "../contacts/resource";
import { personResource } from "../people/resource";
import { API } from "../paths";
import { contactMergeStatements, type MergeStamp } from "./contact-merge";
import { personNamesSelect } from "./name-key";
import { personMergeStatements } from "./person-merge";

interface Pair {
  winner: string;
  loser: string;
}

/** A pair's judgement on one database: the winner found (1), the loser found (2), both and mergeable (4). */
const [WINNER_FOUND, LOSER_FOUND, MERGED] = [1, 2, 7];

/** What merges one kind of record. */
interface MergeKind {
  resource: ResourceDef;
  model: string;
  /** SQL for the group of record `id` among the viewer's lists (`lists`, JSON): two records merge when theirs are the same. */
  groupOf: (id: string, lists: string, under?: string) => SQL;
  /** Why two found records cannot be merged. */
  refusal: string;
  /** What the batch sets down before its pairs, for the records `ids` (JSON). */
  before: (ids: string, lists: string) => SQL[];
  /** The statements of the pair at `position`, which change nothing unless `guard` holds. */
  statements: (pair: Pair, position: number, stamp: MergeStamp, guard: SQL) => SQL[];
}

const inJson = (json: string) => sql`(SELECT value FROM json_each(${json}))`;

const CONTACTS: MergeKind = {
  resource: contactResource,
  model: "Contact",
  groupOf: (id, lists) => sql`(SELECT account_list_id FROM contacts WHERE id = ${id} AND account_list_id IN ${inJson(lists)})`,
  refusal: "The two contacts are in different account lists",
  // The names of the named contacts' people, as they are before any pair merges (the people a merge merges by name
  // are compared by them).
  before: (ids, lists) => [
    sql`INSERT INTO merge_steps (kind, position, id, target) SELECT 'name', 0, id, name
      FROM (${personNamesSelect(sql`contact_id IN (SELECT id FROM contacts WHERE id IN ${inJson(ids)} AND account_list_id IN ${inJson(lists)})`)})`,
  ],
  statements: ({ winner, loser }, position, stamp, guard) => [
    // The loser's people join the winner's; then a person of the loser's named as one of the winner's is merged
    // into the winner's (the original's fix-up of the winner's people): into the oldest of that name, several of
    // the loser's into one in the order they were made.
    sql`INSERT INTO merge_steps (kind, position, id, target, rank)
      SELECT 'person', ${position}, id, target, row_number() OVER (PARTITION BY target ORDER BY created_at, id) FROM (
        SELECT l.id, l.created_at, (SELECT w.id FROM people w JOIN merge_steps wn ON wn.kind = 'name' AND wn.position = 0 AND wn.id = w.id
          WHERE w.contact_id = ${winner} AND wn.target = ln.target ORDER BY w.created_at, w.id LIMIT 1) AS target
        FROM people l JOIN merge_steps ln ON ln.kind = 'name' AND ln.position = 0 AND ln.id = l.id WHERE l.contact_id = ${loser} AND ${guard})
      WHERE target IS NOT NULL`,
    ...contactMergeStatements(winner, loser, stamp, guard),
    ...personMergeStatements(position, stamp),
  ],
};

const PEOPLE: MergeKind = {
  resource: personResource,
  model: "Person",
  // Under a contact (`/contacts/<id>/people/merges`), only that contact's people are there.
  groupOf: (id, lists, under) =>
    sql`(SELECT p.contact_id FROM people p JOIN contacts c ON c.id = p.contact_id WHERE p.id = ${id} AND c.account_list_id IN ${inJson(lists)}${under ? sql` AND p.contact_id = ${under}` : sql``})`,
  refusal: "The two people are not of the same contact",
  before: () => [],
  statements: ({ winner, loser }, position, stamp, guard) => [
    sql`INSERT INTO merge_steps (kind, position, id, target, rank) SELECT 'person', ${position}, ${loser}, ${winner}, 1 WHERE ${guard}`,
    ...personMergeStatements(position, stamp),
  ],
};

/** The pairs a request names, checked before anything is looked up: 400 pointing at what is wrong. */
function readPairs(body: unknown, bulk: boolean): Pair[] {
  const data = (body as { data?: unknown } | null)?.data;
  const items = bulk ? data : [{ data }];
  if (!Array.isArray(items) || (bulk && items.length === 0)) throw badRequest(bulk ? "data must be a list of merges" : "data must be a merge", { pointer: "/data" });
  if (items.length > MAX_BULK_ITEMS) throw badRequest(`At most ${MAX_BULK_ITEMS} merges per request`, { pointer: "/data" });
  return items.map((item, index) => {
    const prefix = bulk ? `/data/${index}/data` : "/data";
    const attributes = (item as { data?: { attributes?: Record<string, unknown> } } | null)?.data?.attributes;
    const id = (name: "winner_id" | "loser_id") => {
      const value = attributes?.[name];
      if (typeof value !== "string" || !UUID_PATTERN.test(value)) throw badRequest(`${name} must be the id of a record`, { pointer: `${prefix}/attributes/${name}` });
      return value.toLowerCase();
    };
    const pair = { winner: id("winner_id"), loser: id("loser_id") };
    if (pair.winner === pair.loser) throw badRequest("A record cannot be merged into itself", { pointer: `${prefix}/attributes/loser_id` });
    return pair;
  });
}

type Answer = { data: ResourceObject } | { id: string; errors: ErrorObject[] };

const itemError = (id: string, status: number, detail: string): Answer => ({ id, errors: new ApiError(status, [{ detail }]).errors });

/** The statement that judges the pair at `position` where it runs (see WINNER_FOUND). */
function judgement(kind: MergeKind, { winner, loser }: Pair, position: number, lists: string, under?: string): SQL {
  return sql`INSERT INTO merge_steps (kind, position, id, target, state)
    SELECT 'pair', ${position}, ${loser}, ${winner}, CASE WHEN w IS NULL OR l IS NULL THEN (w IS NOT NULL) + 2 * (l IS NOT NULL) WHEN w = l THEN ${MERGED} ELSE 3 END
    FROM (SELECT ${kind.groupOf(winner, lists, under)} AS w, ${kind.groupOf(loser, lists, under)} AS l)`;
}

/**
 * Merges the pairs: on each database of the viewer's lists, every pair in request order, in one atomic batch. A pair
 * whose record is not found (or was the loser of an earlier pair) answers 404, one whose records cannot be merged
 * 409; when none is merged, the request answers 404 (a single pair: its own answer).
 */
async function mergePairs(kind: MergeKind, pairs: Pair[], ctx: RequestContext, bulk: boolean): Promise<Answer[]> {
  const under = ctx.pathParams.contact_id;
  const ids = JSON.stringify([...new Set(pairs.flatMap((pair) => [pair.winner, pair.loser]))]);
  const winners = [...new Set(pairs.map((pair) => pair.winner))];
  const stamp: MergeStamp = { now: ctx.now, userId: ctx.viewer.id };
  const on = (name: string): RequestContext => ({ ...ctx, db: ctx.databaseOn?.(name) ?? ctx.db, databaseName: name, viewer: viewerOn(ctx.viewer, name) });
  const databases = [...viewerDatabases(ctx.viewer).keys()].map(on).filter((here) => here.viewer.writableListIds.length > 0);
  const done = await Promise.all(
    databases.map(async (here) => {
      const lists = JSON.stringify(here.viewer.writableListIds);
      const writes = pairs.flatMap((pair, position) => {
        const guard = sql`EXISTS (SELECT 1 FROM merge_steps WHERE kind = 'pair' AND position = ${position} AND state = ${MERGED})`;
        return [judgement(kind, pair, position, lists, under), ...kind.statements(pair, position, stamp, guard)];
      });
      const read = resourcesByIdRead(kind.resource, winners, here);
      const judged = sql`SELECT position, state FROM merge_steps WHERE kind = 'pair'`;
      const rows = await rowsOf(here.db, [...kind.before(ids, lists), ...writes, ...read.queries, judged, sql`DELETE FROM merge_steps`]);
      const states = new Map((rows.at(-2) as Array<{ position: number; state: number }>).map((row) => [row.position, row.state]));
      const merged = [...states.values()].includes(MERGED);
      if (merged) ctx.alsoWrote?.(here.databaseName!);
      return { states, winners: merged ? read.resources(rows.slice(-2 - read.queries.length, -2)) : new Map<string, ResourceObject>() };
    }),
  );
  const answers = pairs.map(({ winner, loser }, position): Answer => {
    const states = done.map((part) => part.states.get(position) ?? 0);
    const here = done.find((part) => part.states.get(position) === MERGED);
    if (here) {
      const document = here.winners.get(winner);
      return document ? { data: document } : itemError(winner, 404, `Couldn't find ${kind.model} with 'id'=${winner}`);
    }
    const missing = states.some((state) => state & WINNER_FOUND) ? (states.some((state) => state & LOSER_FOUND) ? undefined : loser) : winner;
    return missing ? itemError(winner, 404, `Couldn't find ${kind.model} with 'id'=${missing}`) : itemError(winner, 409, kind.refusal);
  });
  if (!done.some((part) => [...part.states.values()].includes(MERGED))) {
    // Nothing merged: the one pair of a single merge answers why; a bulk merge whose pairs all failed, 404.
    const [only] = answers;
    if (!bulk && "errors" in only) throw new ApiError(Number(only.errors[0].status), only.errors);
    throw recordNotFound(kind.model, pairs[0].loser);
  }
  return answers;
}

function mergeHandler(kind: MergeKind, bulk: boolean) {
  return async (c: Context<AppEnv>) => {
    if (bulk && c.get("insideBatch")) throw new ApiError(403, [{ detail: INSIDE_BATCH_REFUSAL }]);
    const ctx = requestContext(c);
    const pairs = readPairs(await readBody(c), bulk);
    const answers = await mergePairs(kind, pairs, ctx, bulk);
    if (bulk) return c.json(answers, 200, { "Content-Type": "application/vnd.api+json; charset=utf-8" });
    const [answer] = answers;
    if ("errors" in answer) throw new ApiError(Number(answer.errors[0].status), answer.errors);
    return jsonApi(c, answer);
  };
}

export function registerMergeRoutes(app: Hono<AppEnv>): void {
  const describe = (kind: MergeKind, bulk: boolean) =>
    described(mergeHandler(kind, bulk), bulk ? { action: "bulk-merge", resource: kind.resource } : { action: "merge", resource: kind.resource });
  app.post(`${API}/contacts/merges/bulk`, describe(CONTACTS, true));
  app.post(`${API}/contacts/merges`, describe(CONTACTS, false));
  app.post(`${API}/contacts/people/merges/bulk`, describe(PEOPLE, true));
  app.post(`${API}/contacts/:contact_id${UUID_PARAM}/people/merges`, describe(PEOPLE, false));
}
