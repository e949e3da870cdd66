/**
 * Exact decimal money. Amounts are stored in D1 as INTEGER counts of 1/10,000 of a unit so that SQL SUM()
 * stays exact; every conversion between that integer, a client's number or string, and the answered decimal
 * string goes through here. Arithmetic that can exceed 2^53 (sums, currency conversion) uses BigInt.
 */
export const MONEY_SCALE = 4;
const SCALE_FACTOR = 10n ** BigInt(MONEY_SCALE);

const DECIMAL_PATTERN = /^([+-])?(\d+)(?:\.(\d+))?$/;

/** Parses a JSON number or numeric string into scaled units; null when it is not an exact decimal we can hold. */
export function parseMoney(value: unknown): bigint | null {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    text = numberToPlainString(value);
  } else if (typeof value === "string") {
    text = value.trim();
  } else {
    return null;
  }
  return parseDecimal(text, MONEY_SCALE);
}

/** Parses a plain decimal string at a given scale; null if malformed or if it has more fractional digits than the scale. */
export function parseDecimal(text: string, scale: number): bigint | null {
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ""] = match;
  const trimmedFraction = fraction.replace(/0+$/, "");
  if (trimmedFraction.length > scale) return null;
  const units = BigInt(whole) * 10n ** BigInt(scale) + BigInt(trimmedFraction.padEnd(scale, "0") || "0");
  return sign === "-" ? -units : units;
}

/** JS numbers print 1e21 and 1e-7 in exponent form; money needs a plain digit string. */
function numberToPlainString(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, "");
}

/** Scaled units to the answered form: at least one digit after the point, no other trailing zeros ("100.0", "99.95"). */
export function formatMoney(units: bigint | number | null | undefined): string | null {
  if (units === null || units === undefined) return null;
  return formatDecimal(BigInt(units), MONEY_SCALE);
}

export function formatDecimal(units: bigint, scale: number): string {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const factor = 10n ** BigInt(scale);
  const whole = magnitude / factor;
  let fraction = (magnitude % factor).toString().padStart(scale, "0").replace(/0+$/, "");
  if (fraction === "") fraction = "0";
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

/** A rational number kept as numerator/denominator so chains of conversions round only once, at the end. */
export interface Ratio {
  numerator: bigint;
  denominator: bigint;
}

export function ratioFromDecimalString(text: string): Ratio {
  const match = DECIMAL_PATTERN.exec(text.trim());
  if (!match) throw new Error(`not a decimal: ${text}`);
  const [, sign, whole, fraction = ""] = match;
  const denominator = 10n ** BigInt(fraction.length);
  const numerator = BigInt(whole + fraction) * (sign === "-" ? -1n : 1n);
  return { numerator, denominator };
}

/** Rounds (half away from zero) a ratio of scaled units to scaled units. */
export function roundRatio(numerator: bigint, denominator: bigint): bigint {
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -rounded : rounded;
}

/** Scaled money units converted from one currency's rate to another's (rates are units per 1 USD), rounded to the scale. */
export function convertUnits(units: bigint, fromRate: Ratio, toRate: Ratio): bigint {
  // units * to / from  =  units * to.n * from.d / (to.d * from.n)
  return roundRatio(units * toRate.numerator * fromRate.denominator, toRate.denominator * fromRate.numerator);
}

/** Scaled units rounded to whole cents (2 places) but kept at MONEY_SCALE; used for converted display totals. */
export function roundToCents(units: bigint): bigint {
  const step = 10n ** BigInt(MONEY_SCALE - 2);
  return roundRatio(units, step) * step;
}

export const ONE: Ratio = { numerator: 1n, denominator: 1n };
export { SCALE_FACTOR };

/**
 * The rate of a currency (units per 1 USD) from a rates map keyed by upper-case code. A missing rate counts as 1,
 * and so does a zero or negative one, which could only come from bad data and would otherwise divide by zero.
 */
export function rateFor(rates: Map<string, Ratio>, code: string | null | undefined): Ratio {
  const rate = code ? rates.get(code.trim().toUpperCase()) : undefined;
  return rate && rate.numerator > 0n && rate.denominator > 0n ? rate : ONE;
}

export function addRatios(a: Ratio, b: Ratio): Ratio {
  if (a.denominator === b.denominator) return { numerator: a.numerator + b.numerator, denominator: a.denominator };
  return { numerator: a.numerator * b.denominator + b.numerator * a.denominator, denominator: a.denominator * b.denominator };
}

export function multiplyRatios(a: Ratio, b: Ratio): Ratio {
  return { numerator: a.numerator * b.numerator, denominator: a.denominator * b.denominator };
}

/** The factor that turns an amount at `fromRate` into one at `toRate` (rates are units per 1 USD). */
export function exchangeRatio(fromRate: Ratio, toRate: Ratio): Ratio {
  return { numerator: toRate.numerator * fromRate.denominator, denominator: toRate.denominator * fromRate.numerator };
}

/**
 * A ratio of scaled units rounded (half away from zero) to whole cents in one step, kept at MONEY_SCALE: exact
 * sums of conversions are rounded once, never per term.
 */
export function ratioToCents(value: Ratio): bigint {
  const step = 10n ** BigInt(MONEY_SCALE - 2);
  return roundRatio(value.numerator, value.denominator * step) * step;
}

/** Decimal places a ratio is answered with when its expansion ends; longer or endless ones are rounded. */
const MAX_EXACT_PLACES = 20;
/** Significant digits a ratio with a longer (or endless) expansion keeps: what a double would show, and no more. */
const RATIO_SIGNIFICANT_DIGITS = 15;

/** Places after the point at which a reduced ratio's decimal expansion ends, or null when it never does. */
function terminatingPlaces(numerator: bigint, denominator: bigint): number | null {
  let a = numerator < 0n ? -numerator : numerator;
  let b = denominator;
  while (a !== 0n) [a, b] = [b % a, a];
  let rest = denominator / b;
  let twos = 0;
  let fives = 0;
  while (rest % 2n === 0n) [rest, twos] = [rest / 2n, twos + 1];
  while (rest % 5n === 0n) [rest, fives] = [rest / 5n, fives + 1];
  return rest === 1n ? Math.max(twos, fives) : null;
}

/**
 * A ratio (a positive denominator) as an answered decimal string: exact when its expansion ends within
 * MAX_EXACT_PLACES, otherwise rounded to RATIO_SIGNIFICANT_DIGITS significant digits. Fixed places would
 * wipe out small factors (1 IRR in USD is 0.0000024).
 */
export function formatRatio(value: Ratio): string {
  const { numerator, denominator } = value;
  if (numerator === 0n) return "0.0";
  const exact = terminatingPlaces(numerator, denominator);
  if (exact !== null && exact <= MAX_EXACT_PLACES) return formatDecimal(roundRatio(numerator * 10n ** BigInt(exact), denominator), exact);
  // exponent: 10^exponent <= |value| < 10^(exponent + 1)
  const magnitude = numerator < 0n ? -numerator : numerator;
  let exponent = magnitude.toString().length - denominator.toString().length;
  const below = exponent >= 0 ? magnitude < denominator * 10n ** BigInt(exponent) : magnitude * 10n ** BigInt(-exponent) < denominator;
  if (below) exponent -= 1;
  const places = Math.max(RATIO_SIGNIFICANT_DIGITS - 1 - exponent, 0);
  return formatDecimal(roundRatio(numerator * 10n ** BigInt(places), denominator), places);
}

/** One currency's sum as SQL answers it (see sumsByCurrency in src/db/sql.ts): the code and 1/10,000 units as text. */
export interface CurrencySum {
  currency: string;
  units: string;
}

/**
 * Sums in several currencies converted into `target` (rates are units per 1 USD; a missing rate counts as 1),
 * exactly, rounded once to cents at the end as every converted amount of the API is.
 */
export function convertedTotal(sums: CurrencySum[], target: string, rates: Map<string, Ratio>): bigint {
  const toRate = rateFor(rates, target);
  let total: Ratio = { numerator: 0n, denominator: 1n };
  for (const { currency, units } of sums) {
    const factor = exchangeRatio(rateFor(rates, currency), toRate);
    total = addRatios(total, { numerator: BigInt(units) * factor.numerator, denominator: factor.denominator });
  }
  return ratioToCents(total);
}

/** Reads `[target currency, [[currency, units], ...]]` (as built by SQL with sumsByCurrency) into a converted total. */
export function convertedSumsJson(value: unknown, rates: Map<string, Ratio>): bigint {
  const [target, pairs] = JSON.parse(String(value)) as [string, Array<[string, string]> | null];
  return convertedTotal((pairs ?? []).map(([currency, units]) => ({ currency, units })), target, rates);
}
