/**
 * An account list's records, for an operator to hand over or keep: one JSON:API document per line (NDJSON), each
 * record once, rendered by the same declarations the API answers with. The first line describes the export; then
 * the list, then each type in turn, read by id a chunk at a time, so the export never holds the list in memory.
 */
import { sql } from "drizzle-orm";
import type { Context } from "hono";
import { and, q } from "../db/sql";
import { rowsOf } from "../db/statements";
import { resourceFor, type RequestContext } from "../engine/define";
import { readResourcesById } from "../read/records";
import { readScope } from "../engine/scope";
import type { AppEnv, Database } from "../env";
import { nowTimestamp } from "../jsonapi/time";
import { streamedBody } from "../jsonapi/respond";

/** What an export holds, in order: the list, then what hangs off it. */
export const EXPORTED_TYPES = [
  "account_lists",
  "contacts",
  "addresses",
  "people",
  "email_addresses",
  "phone_numbers",
  "facebook_accounts",
  "linkedin_accounts",
  "twitter_accounts",
  "websites",
  "family_relationships",
  "contact_referrals",
  "tasks",
  "activity_contacts",
  "comments",
  "designation_accounts",
  "donations",
  "pledges",
  "appeals",
  "appeal_contacts",
  "excluded_appeal_contacts",
  "notification_preferences",
  "notifications",
] as const;

const CHUNK = 200;

/** Reads the list as its own user would, with the list as the only one in reach. */
function exportContext(c: Context<AppEnv>, db: Database, listId: string): RequestContext {
  return {
    db,
    viewer: { id: "export", timeZone: "UTC", defaultAccountListId: listId, readableListIds: [listId], writableListIds: [listId], listDatabases: {}, listsOfMembers: {} },
    env: c.env,
    now: nowTimestamp(),
    params: Object.create(null),
    pathParams: Object.create(null),
  };
}

async function* exportLines(ctx: RequestContext, listId: string): AsyncGenerator<string> {
  yield `${JSON.stringify({ meta: { account_list_id: listId, exported_at: ctx.now, format: "one JSON:API document per line", types: EXPORTED_TYPES } })}\n`;
  for (const type of EXPORTED_TYPES) {
    const def = resourceFor(type)!;
    const id = q(def.idColumn);
    for (let after = ""; ; ) {
      const [rows] = await rowsOf(ctx.db, [sql`SELECT ${id} AS "id" FROM ${def.table} WHERE ${and([readScope(def, ctx), sql`${id} > ${after}`])} ORDER BY ${id} LIMIT ${CHUNK}`]);
      if (rows.length === 0) break;
      const ids = rows.map((row) => String(row.id));
      const resources = await readResourcesById(def, ids, ctx, [], { asShown: true });
      yield ids.flatMap((recordId) => (resources.has(recordId) ? [`${JSON.stringify({ data: resources.get(recordId) })}\n`] : [])).join("");
      if (rows.length < CHUNK) break;
      after = ids[ids.length - 1];
    }
  }
}

/** `db`: the database the list is placed on. */
export function exportList(c: Context<AppEnv>, db: Database, listId: string): ReadableStream<Uint8Array> {
  return streamedBody({ parts: exportLines(exportContext(c, db, listId), listId) }, c.get("requestId"));
}
