/**
 * Exchange rates used for conversions: `rate` is units of `code` per 1 USD, an exact decimal string.
 * `currency_rates` holds each currency's rate in effect now (what every conversion "at the latest rate" uses, and
 * what list databases keep a copy of); `currency_rate_history` holds the rates by the day they were taken, for
 * conversions on a date (the reports' gifts and months). History lives on the directory only.
 */
import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const currencyRates = sqliteTable("currency_rates", {
  code: text("code").primaryKey(),
  // Text, not REAL: conversions parse it as an exact ratio (src/decimal.ts).
  rate: text("rate").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const currencyRateHistory = sqliteTable(
  "currency_rate_history",
  {
    code: text("code").notNull(),
    /** The day the rate was taken, `YYYY-MM-DD`. */
    exchangedOn: text("exchanged_on").notNull(),
    rate: text("rate").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  // The key is also the index a conversion walks: a currency's rates in date order.
  (t) => [primaryKey({ columns: [t.code, t.exchangedOn] })],
);
