/**
 * A create sent again. An offline client that lost the answer to a create sends it again with the same
 * client-chosen id; so does a background request run again after a kill, under the id it took the first time. A
 * 409 would not tell it from a real clash, so a create whose id is stored with exactly what it would write (the
 * same list or parent among those values) is answered as the first was, and nothing is written.
 */
import { getTableColumns, is, SQL, sql } from "drizzle-orm";
import type { ResourceInput } from "../jsonapi/request-document";
import { duplicateId, resourceFor, type RequestContext, type ResourceDef, type Row } from "./define";

/** Values a create writes that are not what was sent: the moments it was written. */
function madeByTheWrite(def: ResourceDef, key: string): boolean {
  const column = getTableColumns(def.table)[key];
  return column === def.createdAtColumn || column === def.updatedAtColumn || column === def.idColumn;
}

const comparable = (value: unknown) => JSON.stringify(value ?? null);

/**
 * Whether a create of `id` with these column values was stored before: false when the id is free, true when it is
 * stored with the same values and every record the create sideposts is stored under its id, else the 409 of a
 * taken id.
 */
export async function sentAgain(def: ResourceDef, id: string, values: Row, input: ResourceInput, ctx: RequestContext): Promise<boolean> {
  const [stored] = (await ctx.db.select().from(def.table).where(sql`${def.idColumn} = ${id}`).limit(1)) as Row[];
  if (!stored) return false;
  const same = Object.entries(values).every(([key, value]) => madeByTheWrite(def, key) || (!is(value, SQL) && comparable(value) === comparable(stored[key])));
  if (!same || !(await sidepostedStored(input, ctx))) throw duplicateId(def, id);
  return true;
}

/** Every record the create sideposts is stored under the id it names (one without an id would be made anew). */
async function sidepostedStored(input: ResourceInput, ctx: RequestContext): Promise<boolean> {
  for (const resource of input.included as Array<{ type?: unknown; id?: unknown }>) {
    const target = typeof resource?.type === "string" ? resourceFor(resource.type) : undefined;
    if (!target || typeof resource.id !== "string") return false;
    const [found] = await ctx.db.select({ id: target.idColumn }).from(target.table).where(sql`${target.idColumn} = ${resource.id.toLowerCase()}`).limit(1);
    if (!found) return false;
  }
  return true;
}

