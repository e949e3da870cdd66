/**
 * Time formats. Stored and answered timestamps are `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds); dates are
 * `YYYY-MM-DD`. Requests may write timestamps as `YYYY-MM-DD HH:MM:SS UTC`, `YYYY-MM-DD HH:MM:SS`, or ISO 8601
 * with `Z` or an offset (fractions of a second are dropped).
 */
const REQUEST_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/i;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function formatTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19) + "Z";
}

export function nowTimestamp(): string {
  return formatTimestamp(new Date());
}

/** Parses a request timestamp into the stored form; null if it is not a real point in time. */
export function parseTimestamp(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const match = REQUEST_TIMESTAMP.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", zone] = match;
  if (!isRealDate(+y, +mo, +d) || +h > 23 || +mi > 59 || +s > 59) return null;
  let offsetMinutes = 0;
  if (zone && !/^(Z|UTC)$/i.test(zone)) {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  const utc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s) - offsetMinutes * 60_000;
  return formatTimestamp(new Date(utc));
}

/** Parses a date-only value; also accepts a timestamp and keeps its calendar date. */
export function parseDate(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  const match = DATE_ONLY.exec(trimmed);
  if (match) return isRealDate(+match[1], +match[2], +match[3]) ? trimmed : null;
  const timestamp = parseTimestamp(trimmed);
  return timestamp ? timestamp.slice(0, 10) : null;
}

export function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= last;
}

/** Adds whole days to a `YYYY-MM-DD` date. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Adds whole months to a `YYYY-MM-DD` date; a day the target month lacks becomes its last day (03-31 - 1 month = 02-28). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number);
  const lastDay = new Date(Date.UTC(y, m + months, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, lastDay))).toISOString().slice(0, 10);
}

/**
 * The few Temporal members used here. workerd provides Temporal under the `temporal` compatibility flag
 * (wrangler.toml); TypeScript's ES2022 library does not declare it yet.
 */
declare const Temporal: {
  Instant: {
    fromEpochMilliseconds(ms: number): { toZonedDateTimeISO(timeZone: string): ZonedDateTime };
  };
  PlainDate: { from(date: string): { toZonedDateTime(options: { timeZone: string }): { epochMilliseconds: number } } };
};

interface ZonedDateTime {
  epochMilliseconds: number;
  toPlainDate(): { toString(): string };
  with(fields: { hour?: number; minute?: number; second?: number; millisecond?: number; microsecond?: number; nanosecond?: number }): ZonedDateTime;
  add(duration: { days: number }): ZonedDateTime;
}

/** The calendar date (`YYYY-MM-DD`) at `now` in an IANA time zone. */
export function todayIn(timeZone: string, now = new Date()): string {
  return Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(timeZone).toPlainDate().toString();
}

/**
 * UTC timestamp of the first instant of `date` in `timeZone`: local midnight, or, on a day whose midnight a DST
 * change skips (America/Santiago 2026-09-06), the first local time that exists (01:00).
 */
export function startOfDayUtc(date: string, timeZone: string): string {
  return formatTimestamp(new Date(Temporal.PlainDate.from(date).toZonedDateTime({ timeZone }).epochMilliseconds));
}

/**
 * The first time at or after `at` (a stored timestamp) that is `hour`:00 in `timeZone`; on a day a DST change skips
 * that hour, the first local time after the gap. An unknown time zone counts as UTC.
 */
export function nextLocalHour(at: string, timeZone: string, hour: number): string {
  const ms = Date.parse(at);
  const zone = isValidTimeZone(timeZone) ? timeZone : "UTC";
  let due = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).with({ hour, minute: 0, second: 0, millisecond: 0, microsecond: 0, nanosecond: 0 });
  if (due.epochMilliseconds < ms) due = due.add({ days: 1 });
  return formatTimestamp(new Date(due.epochMilliseconds));
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}
