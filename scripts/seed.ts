/**
 * npm run db:seed: loads the demo data into the local D1 database (apply the migrations first: npm run db:migrate).
 * Safe to repeat: every row is INSERT OR IGNORE with a fixed id. SEED_REFERENCE_DATE=YYYY-MM-DD builds the
 * same data around another date (only for an empty database: existing rows are kept as they are).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as fixtures from "../test/fixtures/seed-ids";
import * as seed from "./seed-data";

for (const name of ["ALICE_ID", "BOB_ID", "CAROL_ID", "ALICE_MAIN_LIST_ID", "ALICE_SECOND_LIST_ID", "BOB_LIST_ID"] as const) {
  if (fixtures[name] !== seed[name]) {
    throw new Error(`test/fixtures/seed-ids.ts ${name} is ${fixtures[name]} but the generator makes ${seed[name]}`);
  }
}
if (fixtures.SEED_REFERENCE_DATE !== seed.REFERENCE_DATE) throw new Error("test/fixtures/seed-ids.ts has another reference date");

// Statistics last, so the query planner knows the demo data's shape (as the daily cron keeps it in production).
const sql = `${seed.buildSeedSql({ referenceDate: process.env.SEED_REFERENCE_DATE || undefined })}\nPRAGMA optimize=0x10002;\n`;
const dir = mkdtempSync(join(tmpdir(), "seed-"));
const file = join(dir, "seed.sql");
try {
  writeFileSync(file, sql);
  const runner = fileURLToPath(new URL("./run-wrangler.mjs", import.meta.url));
  // wrangler echoes one JSON result per statement; show it only when something went wrong.
  const result = spawnSync(process.execPath, [runner, "d1", "execute", "DB", "--local", "--file", file], { encoding: "utf8" });
  if (result.status === 0) {
    console.log("Demo data loaded (rows that already existed were kept).");
  } else {
    process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
  }
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
