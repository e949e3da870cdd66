/**
 * Client-chosen ids, one record each in the whole deployment. One database's primary key answers 409 for an id its
 * table holds, but cannot see another database's: without more, a user whose list shares a database with nobody
 * else's could create a record under the id of another user's record elsewhere, and that list could then never
 * move to the first one's database. So each create with a client-chosen id of a list's table claims (table, id) in
 * the directory's `client_ids` before it is written, anchored to what the record hangs off (its list, or the parent
 * it is owned through); the same anchor claiming again is the same record (a create sent again, or a clash its own
 * database answers). A claim made for the first time also looks the id up on every other database: ids the service
 * made, and those written before claims were kept, are not claimed, but cannot be known before they exist.
 *
 * A deployment of one database has nothing to claim: its primary keys see every record.
 */
import { getTableColumns, getTableName, sql } from "drizzle-orm";
import { clientIds } from "../../drizzle/placements";
import { DIRECTORY, listDatabaseNames } from "../db/databases";
import { foundKey, lookupElsewhere } from "../db/elsewhere";
import { listTable } from "../db/list-tables";
import { rowsOf, runAtomically } from "../db/statements";
import type { Database } from "../env";
import { duplicateId, type IdClaim, type RequestContext, type ResourceDef, type Row } from "./define";

export type { IdClaim };


/** The column a list table's row hangs off: its list's id, or the key through which its list is found. */
function anchorColumn(table: string): string | undefined {
  const entry = listTable(table);
  if (!entry) return undefined;
  return entry.rowsOfList === "account_list_id = ?1" ? "account_list_id" : entry.parents.find((parent) => parent.owner)?.column;
}

/**
 * Notes the claim a create about to be written makes, when its id is the client's and its table a list's: the
 * creates a request prepares (sideposted ones too) note theirs in `ctx.idClaims`, claimed together before the write.
 */
export function noteClaim(ctx: RequestContext, def: ResourceDef, id: string, values: Row): void {
  if (!ctx.idClaims) return;
  const column = anchorColumn(getTableName(def.table));
  if (!column) return;
  const key = Object.entries(getTableColumns(def.table)).find(([, candidate]) => candidate.name === column)?.[0];
  const anchor = key === undefined ? undefined : values[key];
  if (typeof anchor === "string") ctx.idClaims.push({ def, id, anchor });
}

/** Starts noting claims for the creates prepared next; what was noted before is dropped. */
export function startClaims(ctx: RequestContext): IdClaim[] {
  ctx.idClaims = [];
  return ctx.idClaims;
}

/**
 * Claims every noted id at once, and answers those taken: claimed under another anchor, or, claimed now for the
 * first time, held by another database (whose new claim is let go again). Nothing is noted after this.
 */
export async function claimIds(ctx: RequestContext, claims: IdClaim[]): Promise<IdClaim[]> {
  ctx.idClaims = undefined;
  const databases = listDatabaseNames(ctx.env);
  if (claims.length === 0 || databases.length === 1 || !ctx.databaseOn) return [];
  const directory = ctx.databaseOn(DIRECTORY);
  const keyed = JSON.stringify(claims.map((claim) => [getTableName(claim.def.table), claim.id, claim.anchor]));
  const [claimed, heldElsewhere] = await Promise.all([claim(directory, keyed, ctx.now), heldOn(ctx, ctx.databaseName ?? DIRECTORY, claims)]);
  const taken = claims.filter((item) => {
    const key = foundKey(item.def.table, item.id);
    const found = claimed.get(key);
    if (found && found.anchor !== item.anchor) return true;
    return found?.isNew === true && heldElsewhere.has(key);
  });
  const released = taken.filter((item) => claimed.get(foundKey(item.def.table, item.id))?.isNew);
  if (released.length > 0) {
    const keys = JSON.stringify(released.map((item) => [getTableName(item.def.table), item.id]));
    await runAtomically(directory, [sql`DELETE FROM ${clientIds} WHERE (table_name, id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(${keys})) AND created_at = ${ctx.now}`]);
  }
  return taken;
}

/** Claims the keys not yet claimed; answers each key's claim, and whether it was made now. */
async function claim(directory: Database, keyed: string, now: string): Promise<Map<string, { anchor: string; isNew: boolean }>> {
  const [inserted, stored] = (await rowsOf(directory, [
    sql`INSERT INTO ${clientIds} (table_name, id, anchor, created_at)
      SELECT value ->> 0, value ->> 1, value ->> 2, ${now} FROM json_each(${keyed}) WHERE true
      ON CONFLICT (table_name, id) DO NOTHING RETURNING table_name, id`,
    sql`SELECT table_name, id, anchor FROM ${clientIds} WHERE (table_name, id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(${keyed}))`,
  ])) as [Array<{ table_name: string; id: string }>, Array<{ table_name: string; id: string; anchor: string }>];
  const fresh = new Set(inserted.map((row) => `${row.table_name}:${row.id}`));
  return new Map(stored.map((row) => [`${row.table_name}:${row.id}`, { anchor: row.anchor, isNew: fresh.has(`${row.table_name}:${row.id}`) }]));
}

/** The keys (`foundKey`) of the claimed ids that databases other than `current` hold a record under. */
async function heldOn(ctx: RequestContext, current: string, claims: IdClaim[]): Promise<Set<string>> {
  const byTable = new Map<ResourceDef, string[]>();
  for (const item of claims) byTable.set(item.def, [...(byTable.get(item.def) ?? []), item.id]);
  const sought = [...byTable].map(([def, ids]) => ({ table: def.table, idColumn: def.idColumn, ids }));
  return new Set((await lookupElsewhere(ctx, [current], sought)).keys());
}

/**
 * The ids of `def` that databases other than the request's hold, whoever's lists they are in: a record another
 * database keeps is someone else's (403), as one database would tell, not unknown (404).
 */
export async function heldOnOtherDatabases(ctx: RequestContext, def: ResourceDef, ids: string[]): Promise<Set<string>> {
  if (!ctx.databaseOn) return new Set();
  const held = await heldOn(ctx, ctx.databaseName ?? DIRECTORY, ids.map((id) => ({ def, id, anchor: "" })));
  return new Set(ids.filter((id) => held.has(foundKey(def.table, id))));
}

/**
 * A record moved to another list: its id's claim, if it has one, is that list's from now on (a create sent again
 * under the id is then matched against the list it is in). Its own rows are anchored to it, and stay so.
 */
export function reanchorStatement(table: string, id: string, fromList: string, toList: string) {
  return sql`UPDATE ${clientIds} SET anchor = ${toList} WHERE table_name = ${table} AND id = ${id} AND anchor = ${fromList}`;
}

/** After a record moved between two lists of one database: its claim follows it (see `reanchorStatement`). */
export async function reanchorClaim(ctx: RequestContext, table: string, id: string, fromList: string, toList: string): Promise<void> {
  if (!ctx.directory || listDatabaseNames(ctx.env).length === 1) return;
  await runAtomically(ctx.directory, [reanchorStatement(table, id, fromList, toList)]);
}

/** The 409 of the first taken claim, as the database answers a taken id. */
export function refuseTaken(taken: IdClaim[]): void {
  if (taken.length > 0) throw duplicateId(taken[0].def, taken[0].id);
}
