/**
 * Keeps SQLite's table statistics current so the query planner can tell a selective condition (a rare city or
 * tag) from an unselective one (the account list) and start from the index that reads least. `PRAGMA optimize`
 * with 0x10000 looks at every table and analyzes only those whose statistics are missing or out of date, with
 * SQLite's own bound on the work, so running it daily is cheap.
 */
export async function refreshPlannerStatistics(db: D1Database): Promise<void> {
  await db.prepare("PRAGMA optimize=0x10002").run();
}
