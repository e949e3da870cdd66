/**
 * The operator records exchange rates: a currency's rate on a day goes into the history the reports convert with
 * on dates, and becomes the currency's rate now unless a later day's rate is already recorded. The rate now is
 * copied to every list database at once (their statements join it); the daily copy of the directory's rows
 * (src/db/mirrors.ts) repairs a copy this could not write.
 */
import { sql } from "drizzle-orm";
import { currencyRateHistory, currencyRates } from "../../drizzle/schema";
import { database } from "../db/client";
import { databaseBinding, DIRECTORY, listDatabaseNames } from "../db/databases";
import { upsertRows } from "../db/mirrors";
import { q } from "../db/sql";
import { rowsOf, runAtomically } from "../db/statements";
import type { Database } from "../env";

export interface RecordedRate {
  code: string;
  exchanged_on: string;
  rate: string;
  /** The currency's rate now, after this one was recorded. */
  current_rate: string | null;
}

export async function recordRate(env: object, directory: Database, code: string, day: string, rate: string, now: string): Promise<RecordedRate> {
  const h = currencyRateHistory;
  // One batch: the history, the rate now, and the rate now as it stands after both.
  const [, , [current]] = await rowsOf(directory, [
    sql`INSERT INTO ${h} (code, exchanged_on, rate, updated_at) VALUES (${code}, ${day}, ${rate}, ${now})
      ON CONFLICT (code, exchanged_on) DO UPDATE SET rate = excluded.rate, updated_at = excluded.updated_at`,
    sql`INSERT INTO ${currencyRates} (code, rate, updated_at) SELECT ${code}, ${rate}, ${now}
      WHERE NOT EXISTS (SELECT 1 FROM ${h} WHERE ${q(h.code)} = ${code} AND ${q(h.exchangedOn)} > ${day})
      ON CONFLICT (code) DO UPDATE SET rate = excluded.rate, updated_at = excluded.updated_at`,
    sql`SELECT * FROM ${currencyRates} WHERE ${q(currencyRates.code)} = ${code}`,
  ]);
  // A currency with a later day recorded but no rate now (its row removed by hand) keeps none: nothing to copy.
  if (current) {
    const copy = upsertRows(currencyRates, [current], "code")!;
    await Promise.all(listDatabaseNames(env).filter((name) => name !== DIRECTORY).map((name) => runAtomically(database(databaseBinding(env, name)), [copy])));
  }
  return { code, exchanged_on: day, rate, current_rate: current ? String(current.rate) : null };
}
