/**
 * Rack-style nested query parameters: `filter[status]=a`, `filter[range][min]=1`, `filter[ids][]=x`.
 * List reads sent as `POST` + `X-HTTP-Method-Override: GET` carry the same structure as a JSON body; both end
 * up as one nested object so the rest of the code never knows which form the client used.
 */
export type ParamValue = string | ParamValue[] | { [key: string]: ParamValue };
export type Params = Record<string, ParamValue>;

export function parseQueryString(search: URLSearchParams): Params {
  const params: Params = {};
  for (const [rawKey, value] of search) assignNested(params, rawKey, value);
  return params;
}

function assignNested(target: Params, rawKey: string, value: string): void {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
  if (!match) {
    target[rawKey] = value;
    return;
  }
  const path = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
  let node: Record<string, ParamValue> | ParamValue[] = target;
  for (let i = 0; i < path.length; i++) {
    const key = path[i];
    const last = i === path.length - 1;
    if (Array.isArray(node)) {
      if (last) node.push(value);
      else {
        const child: Record<string, ParamValue> = {};
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
    const existing = node[key];
    if (nextIsArray) {
      if (!Array.isArray(existing)) node[key] = [];
      node = node[key] as ParamValue[];
    } else {
      if (typeof existing !== "object" || existing === null || Array.isArray(existing)) node[key] = {};
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
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toParamValue(v)]));
  }
  if (value === null || value === undefined) return "";
  return String(value);
}

/** Merges `over` onto `base`, one level deep into objects (so body filters extend query-string filters). */
export function mergeParams(base: Params, over: Params): Params {
  const merged: Params = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = merged[key];
    if (isObject(current) && isObject(value)) merged[key] = { ...current, ...value };
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
