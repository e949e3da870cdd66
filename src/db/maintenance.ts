/**
 * Keeps SQLite's table statistics current so the query planner can tell a selective condition (a rare city or
 * tag) from an unselective one (the account list) and start from the index that reads least. `PRAGMA optimize`
 * with 0x10000 looks at every table and analyzes only those whose statistics are missing or out of date, with
 * SQLite's own bound on the work, so running it daily is cheap.
 */
export async function refreshPlannerStatistics(db: D1Database): Promise<void> {
  await db.prepare("PRAGMA optimize=0x10002").run();
}

/** How long deletions are remembered for offline clients when DELETED_RECORDS_DAYS is unset or not a whole number. */
export const DEFAULT_DELETED_RECORDS_DAYS = 365;

export function deletedRecordsDays(env: { DELETED_RECORDS_DAYS?: string }): number {
  const days = Number(env.DELETED_RECORDS_DAYS);
  return Number.isInteger(days) && days > 0 ? days : DEFAULT_DELETED_RECORDS_DAYS;
}

/**
 * Removes the deletions older than the days kept (`deleted_records`, read by offline clients that sync at least
 * that often); answers how many went. Walks the `deleted_at` index from its oldest entry, so it reads what it removes.
 */
export async function removeExpiredDeletedRecords(db: D1Database, days: number, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 19) + "Z";
  const result = await db.prepare("DELETE FROM deleted_records WHERE deleted_at < ?1").bind(cutoff).run();
  return result.meta.changes ?? 0;
}
