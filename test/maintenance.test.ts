import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { createViewer } from "./helpers/factories";
import { storage } from "./helpers/storage";

describe("daily maintenance", () => {
  it("gives the query planner statistics for the tables that have rows", async () => {
    const { list } = await createViewer();
    await storage.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
       INSERT INTO contacts (id, account_list_id, name, created_at, updated_at)
       SELECT printf('00000000-0000-4000-8000-%012d', i), ?, 'C ' || i, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z' FROM n`,
    )
      .bind(list.id)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: "23 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const stats = await storage.prepare("SELECT tbl, idx, stat FROM sqlite_stat1 WHERE tbl = 'contacts'").all<{ tbl: string; idx: string; stat: string }>();
    expect(stats.results.length).toBeGreaterThan(0);
    expect(stats.results.some((row) => row.stat.startsWith("300"))).toBe(true);
  });
});
