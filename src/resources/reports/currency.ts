/** The currency a report is shown in: `filter[display_currency]` (a three-letter code), else the list's. */
import { badRequest } from "../../jsonapi/errors";
import { isBlankValue, textValue } from "../../jsonapi/filter-values";
import type { ReportRequest } from "./report";

export function displayCurrency({ filters, list }: ReportRequest): string {
  if (isBlankValue(filters.display_currency)) return list.currency;
  const code = textValue(filters.display_currency).trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw badRequest("Display currency must be a three-letter currency code", { parameter: "filter[display_currency]" });
  return code;
}
