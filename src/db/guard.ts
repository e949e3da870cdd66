/**
 * D1 has no interactive transactions; a `db.batch` is one atomic transaction that rolls back when any statement
 * fails. A conditional UPDATE that matches nothing does not fail, so statements written with it (tags, join
 * rows) would still run. This guard, placed right after the conditional statement, makes the batch fail when
 * that statement changed no row: json() raises on malformed input, and only the no-change branch feeds it one.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "./client";

export const GUARD_FAILURE_TEXT = "malformed JSON";

/** A statement that fails its batch unless `condition` holds when it runs. */
export function failUnless(condition: SQL): SQL {
  return sql`SELECT CASE WHEN ${condition} THEN 1 ELSE json('write conflict') END`;
}

/** The guard as a statement of its own, for batches of hand-written statements (see runAtomically). */
export const CHANGED_OR_FAIL = failUnless(sql`changes() > 0`);

/**
 * A guard whose failure names `tag` (a word or two, no quotes): json_extract raises with the bad path in its text,
 * so a caller can tell this guard's failure from any other statement's in the batch (`isTaggedGuardFailure`).
 */
export function failUnlessTagged(condition: SQL, tag: string): SQL {
  return sql`SELECT CASE WHEN ${condition} THEN 1 ELSE json_extract('{}', ${sql.raw(`'${tag}'`)}) END`;
}

export function isTaggedGuardFailure(error: unknown, tag: string): boolean {
  return errorText(error).includes(tag);
}

export function failUnlessChanged(db: Database) {
  return db.run(CHANGED_OR_FAIL);
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : String(error);
}

export function isGuardFailure(error: unknown): boolean {
  return errorText(error).includes(GUARD_FAILURE_TEXT);
}

export function isUniqueViolation(error: unknown): boolean {
  return errorText(error).includes("UNIQUE constraint failed");
}
