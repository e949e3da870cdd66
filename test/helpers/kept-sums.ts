/**
 * The kept totals (drizzle/kept-sums.ts) checked against their recount from the rows themselves, after whatever
 * writes a test made.
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { KEPT_SUMS, keptSumRecount } from "../../drizzle/kept-sums";

type KeptRow = [string, string, string, string, string, number, number];

const ORDER = " ORDER BY 1, 2, 3, 4, 5";

export async function expectKeptSumsExact(): Promise<void> {
  const kept = await env.DB.prepare(`SELECT kind, owner_id, key1, key2, key3, units, rows FROM kept_sums${ORDER}`).raw<KeptRow>();
  const recounted = await env.DB.prepare(`SELECT * FROM (${KEPT_SUMS.map(keptSumRecount).join(" UNION ALL ")})${ORDER}`).raw<KeptRow>();
  expect(kept).toEqual(recounted);
}
