/**
 * Relationships that must be unique within a scope: one notification preference per type and account list,
 * one appeal contact per contact and appeal. A unique index enforces each; checking first answers the client
 * with the relationship's validation error ("has already been taken") instead of a bare conflict.
 */
import { sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { and } from "../db/sql";
import type { FieldError } from "../jsonapi/errors";
import type { RequestContext } from "./define";

/** The error when a row of `idColumn`'s table already holds these values, else none. */
export async function alreadyTaken(
  ctx: RequestContext,
  relationship: string,
  idColumn: SQLiteColumn,
  values: Array<[SQLiteColumn, unknown]>,
): Promise<FieldError[] | undefined> {
  const [taken] = await ctx.db
    .select({ id: idColumn })
    .from(idColumn.table as SQLiteTable)
    .where(and(values.map(([column, value]) => sql`${column} = ${value}`)))
    .limit(1);
  return taken ? [{ attribute: relationship, message: "has already been taken", pointer: `/data/relationships/${relationship}` }] : undefined;
}
