/**
 * The value forms of contact filters beyond the shared ones: decimal lists and ranges, the
 * `MM/DD/YYYY - MM/DD/YYYY` range text of the gift and due-date pickers, map boxes, month-day windows.
 */
import { parseMoney } from "../../decimal";
import { badRequest } from "../../jsonapi/errors";
import { listValue, parseDateRange, textValue, type TimeRange } from "../../jsonapi/filter-values";
import { isObject, paramsFromJson, type ParamValue } from "../../jsonapi/params";
import { refuseDeepJson } from "../../jsonapi/request-document";
import { addDays } from "../../jsonapi/time";

function filterError(name: string, detail: string) {
  return badRequest(`Filter '${name}' ${detail}`, { parameter: `filter[${name}]` });
}

/** Comma-separated decimals as money units (1/10,000). */
export function moneyList(name: string, value: ParamValue): bigint[] {
  return listValue(value).map((item) => {
    const units = parseMoney(item);
    if (units === null) throw filterError(name, "must be a comma-separated list of decimal numbers");
    return units;
  });
}

export interface MoneyRange {
  min?: bigint;
  max?: bigint;
}

/** `{min, max}` (either may be left out or blank), also accepted as the same object in JSON text. */
export function moneyRange(name: string, value: ParamValue): MoneyRange {
  const object = isObject(value) ? value : parseJsonObject(value);
  if (!object) throw filterError(name, "must be an object with min and/or max");
  const bound = (key: string) => {
    const raw = object[key] as ParamValue | number | undefined;
    const text = typeof raw === "number" ? String(raw) : textValue(raw);
    if (text === "") return undefined;
    const units = parseMoney(text);
    if (units === null) throw filterError(name, `${key} must be a decimal number`);
    return units;
  };
  return { min: bound("min"), max: bound("max") };
}

function parseJsonObject(value: ParamValue): Record<string, ParamValue> | undefined {
  if (typeof value !== "string" || !value.trim().startsWith("{")) return undefined;
  refuseDeepJson(value);
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? paramsFromJson(parsed) : undefined;
  } catch {
    return undefined;
  }
}

const PICKER_RANGE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s*-\s*(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * A date range written either as the pickers send it (`MM/DD/YYYY - MM/DD/YYYY`, both days included) or in the
 * forms every date filter takes (`A..B`, `A...B`, one day).
 */
export function pickerDateRange(name: string, value: ParamValue): TimeRange {
  const match = PICKER_RANGE.exec(textValue(value));
  if (!match) return parseDateRange(name, value);
  const [, m1, d1, y1, m2, d2, y2] = match;
  const iso = (y: string, m: string, d: string) => `${y}-${m.padStart(2, "0")}-${d.padStart(2, "0")}`;
  return parseDateRange(name, `${iso(y1, m1, d1)}..${iso(y2, m2, d2)}`);
}

/** Month-day numbers (month * 100 + day) a date range covers; `all` when it spans a whole year. */
export interface MonthDayWindow {
  all: boolean;
  from: number;
  to: number;
}

export function monthDayWindow(range: TimeRange): MonthDayWindow {
  const first = range.fromDate;
  const last = addDays(range.untilDate, -1);
  const monthDay = (date: string) => Number(date.slice(5, 7)) * 100 + Number(date.slice(8, 10));
  const all = last >= addDays(`${String(Number(first.slice(0, 4)) + 1)}${first.slice(4)}`, -1);
  return { all, from: monthDay(first), to: monthDay(last) };
}

export interface LatLngBox {
  north: number;
  east: number;
  south: number;
  west: number;
}

/**
 * A map box: `{ne: {lat, lng}, sw: {lat, lng}}`, the same as JSON text, or the four numbers
 * `ne_lat,ne_lng,sw_lat,sw_lng` as map widgets print their bounds.
 */
export function latLngBox(name: string, value: ParamValue): LatLngBox {
  const object = isObject(value) ? value : parseJsonObject(value);
  let numbers: number[];
  if (object) {
    const corner = (key: string) => (isObject(object[key]) ? (object[key] as Record<string, ParamValue>) : {});
    const ne = corner("ne");
    const sw = corner("sw");
    numbers = [ne.lat, ne.lng, sw.lat, sw.lng].map((part) => coordinate(part));
  } else {
    numbers = textValue(value).replace(/[()]/g, "").split(/[\s,;]+/).filter(Boolean).map((part) => coordinate(part));
  }
  const [north, east, south, west] = numbers;
  const valid =
    numbers.length === 4 &&
    numbers.every((n) => Number.isFinite(n)) &&
    Math.abs(north) <= 90 &&
    Math.abs(south) <= 90 &&
    Math.abs(east) <= 180 &&
    Math.abs(west) <= 180;
  if (!valid) throw filterError(name, "must give ne and sw corners, each with lat and lng");
  return { north, east, south, west };
}

function coordinate(value: ParamValue | number | undefined): number {
  // JSON text gives numbers; query strings give text.
  const text = typeof value === "number" ? String(value) : textValue(value);
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
}

/** Yes/No choices of the contact-information filters; undefined when neither. */
export function yesNo(value: ParamValue): boolean | undefined {
  const text = textValue(value).toLowerCase();
  if (["yes", "true"].includes(text)) return true;
  if (["no", "false"].includes(text)) return false;
  return undefined;
}
