/**
 * Attribute builders: how each kind of field is read from a row and how a request value is checked and
 * converted before it is stored. Messages follow the wording clients already show to people
 * ("can't be blank", "is not included in the list").
 */
import * as v from "valibot";
import type { SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { fitsMoneyColumn, MAX_MONEY_UNITS } from "../../drizzle/columns";
import { parseMoney, formatMoney } from "../decimal";
import { parseDate, parseTimestamp } from "../jsonapi/time";
import { CURRENCY_CODES } from "../constants/currencies";
import { DATE, TIMESTAMP } from "../jsonapi/formats";
import type { AttributeDef, ParseResult, ReadExtras, RequestContext, Row, SharedSelect, WriteRule } from "./define";

const ok = (value: unknown): ParseResult => ({ ok: true, value });
const fail = (message: string): ParseResult => ({ ok: false, message });

interface WriteOptions {
  /** Read-only: answered but ignored in requests. */
  readOnly?: boolean;
  required?: boolean;
  createOnly?: boolean;
}

function rule(parse: WriteRule["parse"], options: WriteOptions): WriteRule | undefined {
  if (options.readOnly) return undefined;
  return { parse, required: options.required, createOnly: options.createOnly };
}

const isBlank = (value: unknown) => value === null || value === undefined || (typeof value === "string" && value.trim() === "");

const textSchema = v.union([v.string(), v.number()]);

export function string(column: SQLiteColumn, options: WriteOptions & { oneOf?: readonly string[]; maxLength?: number } = {}): AttributeDef {
  const maxLength = options.maxLength ?? 10_000;
  return {
    column,
    write: rule((value) => {
      if (isBlank(value)) return options.required ? fail("can't be blank") : ok(value === null || value === undefined ? null : "");
      const parsed = v.safeParse(textSchema, value);
      if (!parsed.success) return fail("must be a string");
      const text = String(parsed.output);
      if (text.length > maxLength) return fail(`is too long (maximum is ${maxLength} characters)`);
      if (options.oneOf && !options.oneOf.includes(text)) return fail("is not included in the list");
      return ok(text);
    }, options),
  };
}

const booleanSchema = v.union([v.boolean(), v.picklist(["true", "false", "1", "0", "t", "f"]), v.picklist([0, 1])]);

/**
 * null and "" are refused like any other non-boolean: taking them as false would, for instance, un-complete a
 * task or clear a flag the client only meant to leave alone. No boolean column is nullable (each is NOT NULL with
 * a default) and the interface gives null no meaning for any boolean attribute, so there is no case where a
 * blank has to be kept.
 */
export function boolean(column: SQLiteColumn, options: WriteOptions = {}): AttributeDef {
  return {
    column,
    write: rule((value) => {
      const parsed = v.safeParse(booleanSchema, value);
      if (!parsed.success) return fail("must be true or false");
      return ok(parsed.output === true || parsed.output === 1 || ["true", "1", "t"].includes(String(parsed.output)));
    }, options),
  };
}

export function integer(column: SQLiteColumn, options: WriteOptions & { min?: number; max?: number; nullable?: boolean } = {}): AttributeDef {
  return {
    column,
    write: rule((value) => {
      if (isBlank(value)) return options.required ? fail("can't be blank") : ok(null);
      const number = typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      if (typeof number !== "number" || !Number.isInteger(number)) return fail("must be an integer");
      if (options.min !== undefined && number < options.min) return fail(`must be greater than or equal to ${options.min}`);
      if (options.max !== undefined && number > options.max) return fail(`must be less than or equal to ${options.max}`);
      return ok(number);
    }, options),
  };
}

const MAX_MONEY = formatMoney(MAX_MONEY_UNITS);

export function money(column: SQLiteColumn, options: WriteOptions = {}): AttributeDef {
  return {
    column,
    write: rule((value) => {
      if (isBlank(value)) return options.required ? fail("can't be blank") : ok(null);
      if (typeof value !== "number" && typeof value !== "string") return fail("is not a number");
      const units = parseMoney(value);
      if (units === null) {
        return /^\s*-?\d+(\.\d+)?\s*$/.test(String(value)) || typeof value === "number"
          ? fail("has too many decimal places (at most 4)")
          : fail("is not a number");
      }
      // A larger amount (either sign) would come back from the column altered, not as sent.
      if (!fitsMoneyColumn(units)) return fail(`is too large (maximum is ${MAX_MONEY})`);
      return ok(formatMoney(units));
    }, options),
  };
}

const KNOWN_CURRENCIES: ReadonlySet<string> = new Set(CURRENCY_CODES);

/** An ISO 4217 code, accepted in any case and stored upper-case; blank is null, so a resource can apply its default. */
export function currencyCode(column: SQLiteColumn, options: WriteOptions = {}): AttributeDef {
  return {
    column,
    write: rule((value) => {
      if (isBlank(value)) return options.required ? fail("can't be blank") : ok(null);
      if (typeof value !== "string") return fail("must be a string");
      const code = value.trim().toUpperCase();
      return KNOWN_CURRENCIES.has(code) ? ok(code) : fail("is not included in the list");
    }, options),
  };
}

export function date(column: SQLiteColumn, options: WriteOptions = {}): AttributeDef {
  return {
    column,
    schema: DATE,
    write: rule((value) => {
      if (isBlank(value)) return options.required ? fail("can't be blank") : ok(null);
      const parsed = parseDate(value);
      return parsed ? ok(parsed) : fail("is not a valid date");
    }, options),
  };
}

export function timestamp(column: SQLiteColumn, options: WriteOptions = {}): AttributeDef {
  return {
    column,
    schema: TIMESTAMP,
    write: rule((value) => {
      if (isBlank(value)) return options.required ? fail("can't be blank") : ok(null);
      const parsed = parseTimestamp(value);
      return parsed ? ok(parsed) : fail("is not a valid time");
    }, options),
  };
}

/** A JSON object (null clears it). An array is an object to typeof, but not the named fields this holds. */
export function json(column: SQLiteColumn, options: WriteOptions = {}): AttributeDef {
  return {
    column,
    write: rule((value) => {
      if (value === undefined) return ok(null);
      if (value !== null && (typeof value !== "object" || Array.isArray(value))) return fail("must be an object");
      return ok(value);
    }, options),
  };
}

const MAX_EMAIL_LENGTH = 254;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** An e-mail address: one `@`, a dotted domain, no spaces; stored trimmed. */
export function email(column: SQLiteColumn, options: WriteOptions = {}): AttributeDef {
  return {
    column,
    write: rule((value) => {
      if (isBlank(value)) return fail("can't be blank");
      const address = typeof value === "string" ? value.trim() : "";
      if (address.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(address)) return fail("is invalid");
      return ok(address);
    }, options),
  };
}

/**
 * A phone number as people write them: digits with spaces, dots, dashes, parentheses, a leading `+` and an
 * optional extension (`x12`, `ext. 12`). At least three digits; letters otherwise are refused.
 */
const PHONE_PATTERN = /^\+?[\d\s().\-/]*\d[\d\s().\-/]*(\s*(x|ext\.?)\s*\d+)?$/i;

export function phone(column: SQLiteColumn, options: WriteOptions = {}): AttributeDef {
  return {
    column,
    write: rule((value) => {
      if (isBlank(value)) return fail("can't be blank");
      const number = typeof value === "string" || typeof value === "number" ? String(value).trim() : "";
      const digits = number.replace(/\D/g, "").length;
      if (number.length > 100 || !PHONE_PATTERN.test(number) || digits < 3) return fail("is invalid");
      return ok(number);
    }, options),
  };
}

/** A decimal number (coordinates); blank is null. */
export function decimal(column: SQLiteColumn, options: WriteOptions & { min?: number; max?: number } = {}): AttributeDef {
  return {
    column,
    write: rule((value) => {
      if (isBlank(value)) return options.required ? fail("can't be blank") : ok(null);
      const number = typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
      if (typeof number !== "number" || !Number.isFinite(number)) return fail("is not a number");
      if (options.min !== undefined && number < options.min) return fail(`must be greater than or equal to ${options.min}`);
      if (options.max !== undefined && number > options.max) return fail(`must be less than or equal to ${options.max}`);
      return ok(number);
    }, options),
  };
}

/** A stored column answered as is and never written through the API. */
export function stored(column: SQLiteColumn): AttributeDef {
  return { column };
}

/** A value computed in SQL per row, optionally finished in code (e.g. currency conversion). */
export function computed(
  select: (ctx: RequestContext) => SQL,
  read?: (value: unknown, row: Row, ctx: RequestContext, extras: ReadExtras) => unknown,
  options: { usesRates?: boolean; needs?: SQLiteColumn[]; default?: boolean } = {},
): AttributeDef {
  return {
    select,
    needs: options.needs,
    usesRates: options.usesRates,
    default: options.default,
    read: read ? (row, ctx, extras, selected) => read(selected, row, ctx, extras) : undefined,
  };
}

/** One part of a shared per-row selection (see AttributeDef.shared), picked out in code. */
export function fromShared(
  shared: SharedSelect,
  read: (value: unknown, row: Row, ctx: RequestContext, extras: ReadExtras) => unknown,
  options: { usesRates?: boolean; needs?: SQLiteColumn[] } = {},
): AttributeDef {
  return { shared, needs: options.needs, read: (row, ctx, extras, selected) => read(selected, row, ctx, extras), usesRates: options.usesRates };
}

/** A value derived in code from stored columns. */
export function derived(needs: SQLiteColumn[], read: (row: Row, ctx: RequestContext, extras: ReadExtras) => unknown, options: { usesRates?: boolean } = {}): AttributeDef {
  return { needs, read, usesRates: options.usesRates };
}

/** Wraps another attribute with a custom write rule (e.g. a value checked against another table). */
export function withWrite(attribute: AttributeDef, parse: WriteRule["parse"], options: WriteOptions = {}): AttributeDef {
  return { ...attribute, write: rule(parse, options) };
}
