/**
 * Turns a stored background-batch request into the Request the app runs for the batch's owner.
 */
import { markBatchItem } from "../auth/batch-items";
import type { Claim } from "./claims";

const JSONAPI = "application/vnd.api+json";
const DEFAULT_LIST_TEMPLATE = "%{default_account_list_id}";
/**
 * Stored requests hold only a path; they run at the origin their batch was created at. This one stands in for
 * batches stored before the origin was recorded (it names no real host).
 */
export const BACKGROUND_ORIGIN = "https://background-batch.invalid";

/** Rack-style nesting, the form the app's query parser reads: {filter: {status: "a"}} → filter[status]=a. */
function appendParams(search: URLSearchParams, value: unknown, key: string): void {
  if (Array.isArray(value)) {
    for (const item of value) appendParams(search, item, `${key}[]`);
  } else if (typeof value === "object" && value !== null) {
    for (const [name, inner] of Object.entries(value)) appendParams(search, inner, key ? `${key}[${name}]` : name);
  } else {
    search.append(key, value === null || value === undefined ? "" : String(value));
  }
}

export function buildStoredRequest({ request, defaultAccountListId, origin }: Claim, token: string): Request {
  const method = request.requestMethod.toUpperCase();
  const path = request.path.trim().split(DEFAULT_LIST_TEMPLATE).join(defaultAccountListId ?? "");
  // Appended to the origin (not resolved against it), so "//host/x" stays a path of this service.
  const url = new URL((origin ?? BACKGROUND_ORIGIN) + (path.startsWith("/") ? path : `/${path}`));
  const params = request.requestParams;
  if (method === "GET" && params) appendParams(url.searchParams, params, "");
  if (request.defaultAccountList && defaultAccountListId) url.searchParams.set("filter[account_list_id]", defaultAccountListId);

  const headers = new Headers({ accept: JSONAPI, "content-type": JSONAPI });
  for (const [name, value] of Object.entries(request.requestHeaders ?? {})) headers.set(name, value);
  // Set last: a stored request always runs as the batch's owner, with a credential minted when it runs, never
  // with one a client stored beside it (by then expired, or someone else's).
  headers.set("authorization", `Bearer ${token}`);
  // Without a body of their own, the params of a write are its body.
  const body = method === "GET" ? undefined : (request.requestBody ?? (params ? JSON.stringify(params) : undefined));
  // A run whose answer was not recorded runs again; a create then finds its record there (409) instead of making
  // a second one.
  return markBatchItem(new Request(url, { method, headers, body }), { createdId: request.id });
}
