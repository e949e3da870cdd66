/**
 * Reading filter values in the forms clients send: comma-separated choices, booleans, and date ranges
 * (`A..B` inclusive, `A...B` end exclusive, or one day), with dates or ISO datetimes.
 */
import { badRequest } from "./errors";
import type { ParamValue } from "./params";
import { addDays, parseTimestamp } from "./time";

/** Comma-separated text or an array, trimmed, blanks dropped. */
export function listValue(value: ParamValue | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((item) => listValue(item));
  if (typeof value !== "string") return [];
  return value.split(",").map((item) => item.trim()).filter((item) => item !== "");
}

/**
 * A filter value that says nothing: only spaces and commas, at any depth (`filter[x][min]=&filter[x][max]=`
 * too). Filter objects sent as JSON (appeal filters, method-override bodies) may also hold null, which says
 * nothing, or numbers and booleans, which do.
 */
export function isBlankValue(value: ParamValue | null | undefined): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return listValue(value).length === 0;
  if (Array.isArray(value)) return value.every((item) => isBlankValue(item));
  if (typeof value === "object") return Object.values(value).every((item) => isBlankValue(item));
  return false;
}

export function textValue(value: ParamValue | undefined): string {
  if (typeof value === "string") return value.trim();
  if (Array.isArray(value)) return value.map((v) => textValue(v)).join(",");
  return "";
}

/** true/false, yes/no, 1/0; anything else is undefined (the filter does not apply). */
export function booleanValue(value: ParamValue | undefined): boolean | undefined {
  const text = textValue(value).toLowerCase();
  if (["true", "yes", "1", "t", "y"].includes(text)) return true;
  if (["false", "no", "0", "f", "n"].includes(text)) return false;
  return undefined;
}

/** A half-open interval of UTC timestamps: from <= t < until. */
export interface TimeRange {
  from: string;
  until: string;
  /** The same interval as dates, for date-only columns: fromDate <= d < untilDate. */
  fromDate: string;
  untilDate: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function dateRangeError(name: string) {
  return badRequest(
    `Wrong format of date range for filter '${name}', should follow 'YYYY-MM-DD...YYYY-MM-DD' for dates and 'YYYY-MM-DDThh:mm:ssZ...YYYY-MM-DDThh:mm:ssZ' for datetimes`,
    { parameter: `filter[${name}]` },
  );
}

export function parseDateRange(name: string, value: ParamValue | undefined): TimeRange {
  const text = textValue(value);
  const exclusive = text.includes("...");
  const parts = text.split(exclusive ? "..." : "..");
  if (parts.length === 1) {
    if (!DATE.test(text)) throw dateRangeError(name);
    const start = parseTimestamp(text);
    if (!start) throw dateRangeError(name);
    return fromBounds(start, parseTimestamp(addDays(text, 1))!);
  }
  if (parts.length !== 2) throw dateRangeError(name);
  const [left, right] = parts.map((p) => p.trim());
  const start = parseTimestamp(left);
  const end = parseTimestamp(right);
  if (!start || !end) throw dateRangeError(name);
  if (exclusive) return fromBounds(start, end);
  // Inclusive: a date end covers its whole day; a datetime end includes that second.
  const until = DATE.test(right) ? parseTimestamp(addDays(right, 1))! : addSecond(end);
  return fromBounds(start, until);
}

function addSecond(timestamp: string): string {
  return new Date(Date.parse(timestamp) + 1000).toISOString().slice(0, 19) + "Z";
}

function fromBounds(from: string, until: string): TimeRange {
  const untilDay = until.slice(0, 10);
  // A date column value d covers [d, d+1); it meets the range when d+1 > from and d < until.
  const untilDate = until.endsWith("T00:00:00Z") ? untilDay : addDays(untilDay, 1);
  return { from, until, fromDate: from.slice(0, 10), untilDate };
}
