/**
 * Merges, as the original's clients send them: `POST /contacts/merges/bulk` and `/contacts/people/merges/bulk`
 * (a list of winner and loser pairs; a bare JSON array answers, one document per pair), and the single
 * `POST /contacts/merges` and `POST /contacts/<id>/people/merges`.
 *
 * The two records of a pair are always of one list, so a merge never spans databases: the pairs are looked up on
 * each database holding the viewer's lists (one read each: the named records and, for contacts, their people),
 * then each database merges its pairs, in request order, and reads the winners back in one atomic batch.
 */
import { sql } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { readBody, requestContext } from "../../engine/context";
import type { RequestContext, ResourceDef } from "../../engine/define";
import { readResourcesById } from "../../engine/read";
import { described } from "../../engine/route-descriptions";
import { UUID_PARAM } from "../../engine/routes";
import { viewerDatabases, viewerOn } from "../../db/placement";
import { rowsOf } from "../../db/statements";
import type { AppEnv } from "../../env";
import type { ResourceObject } from "../../jsonapi/document";
import { ApiError, badRequest, recordNotFound, type ErrorObject } from "../../jsonapi/errors";
import { UUID_PATTERN } from "../../jsonapi/request-document";
import { jsonApi } from "../../jsonapi/respond";
import { MAX_BULK_ITEMS } from "../../engine/bulk";
import { INSIDE_BATCH_REFUSAL } from "../batch/items";
import { contactResource } from "../contacts/resource";
import { personResource } from "../people/resource";
import { API } from "../paths";
import { contactMergeStatements, type MergeStamp } from "./contact-merge";
import { personMergeStatements } from "./person-merge";

interface Pair {
  winner: string;
  loser: string;
}

/** A record found for a merge: its id, its list and (a person) its contact. */
type Found = { id: string; list: string; contact?: string; first_name?: string; last_name?: string; created?: string };

/** What merges one kind of record. */
interface MergeKind {
  resource: ResourceDef;
  model: string;
  /** The named records among the viewer's writable lists on `db`, and (contacts) the people of the named contacts. */
  lookup: (ids: string, lists: string) => ReturnType<typeof sql>[];
  /** Why two found records cannot be merged, or undefined when they can. */
  refusal: (winner: Found, loser: Found) => string | undefined;
  statements: (pair: Pair, stamp: MergeStamp, found: FoundRecords) => ReturnType<typeof sql>[];
}

interface FoundRecords {
  records: Map<string, Found>;
  /** People of the named contacts, by contact; kept up to date as the merges move them. */
  peopleOf: Map<string, Found[]>;
}

const sameName = (a: Found, b: Found) =>
  [a.first_name, a.last_name].map((part) => (part ?? "").replace(/\s+/g, "").toLowerCase()).join("|") ===
  [b.first_name, b.last_name].map((part) => (part ?? "").replace(/\s+/g, "").toLowerCase()).join("|");

const CONTACTS: MergeKind = {
  resource: contactResource,
  model: "Contact",
  lookup: (ids, lists) => [
    sql`SELECT id, account_list_id AS list FROM contacts WHERE id IN (SELECT value FROM json_each(${ids})) AND account_list_id IN (SELECT value FROM json_each(${lists}))`,
    sql`SELECT id, contact_id AS contact, first_name, last_name, created_at AS created FROM people
      WHERE contact_id IN (SELECT id FROM contacts WHERE id IN (SELECT value FROM json_each(${ids})) AND account_list_id IN (SELECT value FROM json_each(${lists})))
      ORDER BY created_at, id`,
  ],
  refusal: (winner, loser) => (winner.list === loser.list ? undefined : "The two contacts are in different account lists"),
  statements: ({ winner, loser }, stamp, found) => {
    // The loser's people join the winner's; then a person of the loser's named as one of the winner's is merged
    // into the winner's (the original's fix-up of the winner's people).
    const winners = found.peopleOf.get(winner) ?? [];
    const losers = found.peopleOf.get(loser) ?? [];
    const people = losers.flatMap((person) => {
      const same = winners.find((kept) => sameName(kept, person));
      return same ? personMergeStatements(same.id, person.id, stamp) : [];
    });
    found.peopleOf.set(winner, [...winners, ...losers.filter((person) => !winners.some((kept) => sameName(kept, person)))]);
    found.peopleOf.delete(loser);
    return [...contactMergeStatements(winner, loser, stamp), ...people];
  },
};

const PEOPLE: MergeKind = {
  resource: personResource,
  model: "Person",
  lookup: (ids, lists) => [
    sql`SELECT p.id, c.account_list_id AS list, p.contact_id AS contact FROM people p JOIN contacts c ON c.id = p.contact_id
      WHERE p.id IN (SELECT value FROM json_each(${ids})) AND c.account_list_id IN (SELECT value FROM json_each(${lists}))`,
  ],
  refusal: (winner, loser) => (winner.contact === loser.contact ? undefined : "The two people are not of the same contact"),
  statements: ({ winner, loser }, stamp) => personMergeStatements(winner, loser, stamp),
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

/**
 * Merges the pairs: each found pair on its database, in request order. A pair whose record is not found (or was
 * the loser of an earlier pair) answers 404, one whose records cannot be merged 409; when none is merged, the
 * request answers 404 (a single pair: its own answer).
 */
async function mergePairs(kind: MergeKind, pairs: Pair[], ctx: RequestContext, bulk: boolean): Promise<Answer[]> {
  // Under a contact (`/contacts/<id>/people/merges`), only that contact's people are there.
  const under = ctx.pathParams.contact_id;
  const ids = JSON.stringify([...new Set(pairs.flatMap((pair) => [pair.winner, pair.loser]))]);
  const databases = [...viewerDatabases(ctx.viewer).keys()];
  const on = (name: string): RequestContext => ({ ...ctx, db: ctx.databaseOn?.(name) ?? ctx.db, databaseName: name, viewer: viewerOn(ctx.viewer, name) });
  const found = await Promise.all(
    databases.map(async (name) => {
      const lists = on(name).viewer.writableListIds;
      const [records, people = []] = lists.length > 0 ? await rowsOf(on(name).db, kind.lookup(ids, JSON.stringify(lists))) : [[], []];
      return { name, records: records as Found[], people: people as Found[] };
    }),
  );
  const where = new Map<string, string>();
  const records = new Map<string, Found>();
  const peopleOf = new Map<string, Found[]>();
  for (const part of found) {
    for (const record of part.records) {
      if (under && record.contact !== under) continue;
      records.set(record.id, record);
      where.set(record.id, part.name);
    }
    for (const person of part.people) peopleOf.set(person.contact!, [...(peopleOf.get(person.contact!) ?? []), person]);
  }
  const answers: Array<Answer | undefined> = [];
  const byDatabase = new Map<string, Array<{ pair: Pair; index: number }>>();
  const gone = new Set<string>();
  pairs.forEach((pair, index) => {
    const [winner, loser] = [records.get(pair.winner), records.get(pair.loser)];
    const missing = [pair.winner, pair.loser].find((id) => !records.has(id) || gone.has(id));
    if (missing) return (answers[index] = itemError(pair.winner, 404, `Couldn't find ${kind.model} with 'id'=${missing}`));
    const refusal = kind.refusal(winner!, loser!);
    if (refusal) return (answers[index] = itemError(pair.winner, 409, refusal));
    gone.add(pair.loser);
    const database = where.get(pair.winner)!;
    byDatabase.set(database, [...(byDatabase.get(database) ?? []), { pair, index }]);
  });
  if (byDatabase.size === 0) {
    // Nothing to merge: the one pair of a single merge answers why; a bulk merge whose pairs all failed, 404.
    const [only] = answers;
    if (!bulk && only && "errors" in only) throw new ApiError(Number(only.errors[0].status), only.errors);
    throw recordNotFound(kind.model, pairs[0].loser);
  }
  const stamp: MergeStamp = { now: ctx.now, userId: ctx.viewer.id };
  const state: FoundRecords = { records, peopleOf };
  await Promise.all(
    [...byDatabase].map(async ([name, merged]) => {
      const here = on(name);
      const writes = merged.flatMap(({ pair }) => kind.statements(pair, stamp, state)).map((statement) => here.db.run(statement));
      const winners = await readResourcesById(kind.resource, merged.map(({ pair }) => pair.winner), here, writes as never);
      ctx.alsoWrote?.(name);
      for (const { pair, index } of merged) {
        const winner = winners.get(pair.winner);
        answers[index] = winner ? { data: winner } : itemError(pair.winner, 404, `Couldn't find ${kind.model} with 'id'=${pair.winner}`);
      }
    }),
  );
  return answers as Answer[];
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
