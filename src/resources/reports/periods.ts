/**
 * The calendar the reports count in: the periods of `filter[range]` and `filter[end_date]` (days, weeks from Monday,
 * months, years, in the viewer's time zone, newest first), and months as `YYYY-MM`.
 */
import { badRequest } from "../../jsonapi/errors";
import { isBlankValue, textValue } from "../../jsonapi/filter-values";
import type { ParamValue } from "../../jsonapi/params";
import { addDays, addMonths, formatTimestamp, parseDate, startOfDayUtc } from "../../jsonapi/time";

export interface Period {
  /** The first and last day, `YYYY-MM-DD`. */
  startDay: string;
  endDay: string;
  /** Its first instant and the instant after it, and its last second, as UTC timestamps. */
  from: string;
  until: string;
  lastSecond: string;
}

const RANGE = /^(\d{1,3})([dwmy])$/;
/** More periods than a report of ten years by day would hold are refused, not computed. */
const MAX_PERIODS = 3660;

/** The calendar unit holding `day`, as its first and last day. */
function unitOf(day: string, unit: string): [string, string] {
  if (unit === "d") return [day, day];
  if (unit === "w") {
    const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
    const monday = addDays(day, -weekday);
    return [monday, addDays(monday, 6)];
  }
  if (unit === "m") {
    const first = `${day.slice(0, 7)}-01`;
    return [first, addDays(addMonths(first, 1), -1)];
  }
  return [`${day.slice(0, 4)}-01-01`, `${day.slice(0, 4)}-12-31`];
}

function stepBack(day: string, unit: string, count: number): string {
  if (unit === "d") return addDays(day, -count);
  if (unit === "w") return addDays(day, -7 * count);
  return addMonths(day, -(unit === "m" ? count : 12 * count));
}

/** A period from its first to its last day, in `timeZone`. */
export function periodOf(startDay: string, endDay: string, timeZone: string): Period {
  const from = startOfDayUtc(startDay, timeZone);
  const until = startOfDayUtc(addDays(endDay, 1), timeZone);
  return { startDay, endDay, from, until, lastSecond: formatTimestamp(new Date(Date.parse(until) - 1000)) };
}

/** `filter[range]` (`<n><d|w|m|y>`, default `defaultRange`) back from `filter[end_date]` (default today), newest first. */
export function parsePeriods(filters: Record<string, ParamValue>, defaultRange: string, today: string, timeZone: string): Period[] {
  const rangeText = isBlankValue(filters.range) ? defaultRange : textValue(filters.range).trim();
  const range = RANGE.exec(rangeText);
  if (!range || Number(range[1]) < 1 || Number(range[1]) > MAX_PERIODS) {
    throw badRequest(`Range '${rangeText.slice(0, 50)}' is not a number of days, weeks, months or years, such as 4w or 13m`, { parameter: "filter[range]" });
  }
  const end = isBlankValue(filters.end_date) ? today : parseDate(textValue(filters.end_date));
  if (!end) throw badRequest("End date must be a date, YYYY-MM-DD", { parameter: "filter[end_date]" });
  const [count, unit] = [Number(range[1]), range[2]];
  return Array.from({ length: count }, (_, index) => {
    const [startDay, endDay] = unitOf(stepBack(end, unit, index), unit);
    return periodOf(startDay, endDay, timeZone);
  });
}

/** `YYYY-MM` of a date. */
export const monthOf = (day: string) => day.slice(0, 7);

/** The first days of every month from `firstDay`'s to `lastDay`'s, in order. */
export function monthsBetween(firstDay: string, lastDay: string): string[] {
  const months: string[] = [];
  for (let month = `${monthOf(firstDay)}-01`; month <= lastDay; month = addMonths(month, 1)) months.push(month);
  return months;
}

/** The last day of `day`'s month. */
export const endOfMonth = (day: string) => addDays(addMonths(`${monthOf(day)}-01`, 1), -1);
