/**
 * Rack-style nested query parameters: `filter[status]=a`, `filter[range][min]=1`, `filter[ids][]=x`.
 * List reads sent as `POST` + `X-HTTP-Method-Override: GET` carry the same structure as a JSON body; both end
 * up as one nested object so the rest of the code never knows which form the client used.
 */
import { badRequest } from "./errors";

export type ParamValue = string | ParamValue[] | { [key: string]: ParamValue };
export type Params = Record<string, ParamValue>;

/**
 * Every object holding client keys is created without a prototype: a key such as `__proto__` or `constructor` is
 * then an ordinary own key of that object, never a way into Object.prototype (which every object of the isolate,
 * and so every other request, shares).
 */
export function clientObject<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** `table[key]` only when the table itself holds the key: client text never reaches an inherited member. */
export function ownEntry<T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Brackets a query-string key may nest (`filter[donation_amount_range][min]` is 2). */
export const MAX_PARAM_DEPTH = 8;

export function parseQueryString(search: URLSearchParams): Params {
  const params: Params = clientObject();
  for (const [rawKey, value] of search) assignNested(params, rawKey, value);
  return params;
}

/**
 * A key whose last bracket is left open (`filter[designation_account_id=a,b`, as one web client writes it) reads as
 * if it were closed, as Rack reads it.
 */
const UNCLOSED_LAST_BRACKET = /^[^[\]]+(?:\[[^[\]]*\])*\[[^[\]]*$/;

function assignNested(target: Params, sentKey: string, value: string): void {
  const rawKey = UNCLOSED_LAST_BRACKET.test(sentKey) ? `${sentKey}]` : sentKey;
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
  if (!match) {
    target[rawKey] = value;
    return;
  }
  const path = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
  if (path.length - 1 > MAX_PARAM_DEPTH) {
    throw badRequest(`The parameter ${rawKey.slice(0, 200)} is nested more than ${MAX_PARAM_DEPTH} levels deep`, { parameter: rawKey.slice(0, 200) });
  }
  let node: Record<string, ParamValue> | ParamValue[] = target;
  for (let i = 0; i < path.length; i++) {
    const key = path[i];
    const last = i === path.length - 1;
    if (Array.isArray(node)) {
      if (last) node.push(value);
      else {
        const child: Record<string, ParamValue> = clientObject();
        node.push(child);
        node = child;
      }
      continue;
    }
    if (last) {
      node[key] = value;
      return;
    }
    const nextIsArray = path[i + 1] === "";
    const existing = ownEntry(node, key);
    if (nextIsArray) {
      if (!Array.isArray(existing)) node[key] = [];
      node = node[key] as ParamValue[];
    } else {
      if (typeof existing !== "object" || existing === null || Array.isArray(existing)) node[key] = clientObject();
      node = node[key] as Record<string, ParamValue>;
    }
  }
}

/** JSON bodies may hold numbers and booleans; list parameters are read as text, like the query string. */
export function paramsFromJson(value: unknown): Params {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return toParamValue(value) as Params;
}

function toParamValue(value: unknown): ParamValue {
  if (Array.isArray(value)) return value.map(toParamValue);
  if (typeof value === "object" && value !== null) {
    const object: Record<string, ParamValue> = clientObject();
    for (const [key, item] of Object.entries(value)) object[key] = toParamValue(item);
    return object;
  }
  if (value === null || value === undefined) return "";
  return String(value);
}

/** Merges `over` onto `base`, one level deep into objects (so body filters extend query-string filters). */
export function mergeParams(base: Params, over: Params): Params {
  const merged: Params = Object.assign(clientObject<ParamValue>(), base);
  for (const [key, value] of Object.entries(over)) {
    const current = merged[key];
    if (isObject(current) && isObject(value)) merged[key] = Object.assign(clientObject<ParamValue>(), current, value);
    else merged[key] = value;
  }
  return merged;
}

export function isObject(value: unknown): value is Record<string, ParamValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function camelToSnake(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}
