/** Exchange rates used for conversions: `rate` is units of `code` per 1 USD, an exact decimal string. */
import { sqliteTable, text } from "drizzle-orm/sqlite-core";

export const currencyRates = sqliteTable("currency_rates", {
  code: text("code").primaryKey(),
  // Text, not REAL: conversions parse it as an exact ratio (src/decimal.ts).
  rate: text("rate").notNull(),
  updatedAt: text("updated_at").notNull(),
});
