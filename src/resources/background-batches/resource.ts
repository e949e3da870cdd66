/**
 * Background batches belong to the user who created them (not to an account list): only they see them, anyone
 * else gets 403. Their requests are read through `include=requests` and written only on create.
 */
import { sql, type SQL } from "drizzle-orm";
import { backgroundBatchRequests, backgroundBatches } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import { boolean, computed, derived, json, stored, string, withWrite } from "../../engine/attributes";
import { defineResource, type ParseResult } from "../../engine/define";
import { hasMany } from "../../engine/relationships";

export const REQUEST_METHODS = ["GET", "POST", "PUT", "DELETE"];
// Far below D1's 2 MB row limit, so that storing the request can never fail on its size.
const MAX_REQUEST_BODY_CHARS = 1_000_000;

const ok = (value: unknown): ParseResult => ({ ok: true, value });
const fail = (message: string): ParseResult => ({ ok: false, message });

function parseMethod(value: unknown): ParseResult {
  if (value === undefined || value === null || value === "") return ok("GET");
  const method = typeof value === "string" ? value.trim().toUpperCase() : "";
  return REQUEST_METHODS.includes(method) ? ok(method) : fail("is not included in the list");
}

/** A JSON body may be sent as the document itself; it is kept as the text that will be sent. */
function parseRequestBody(value: unknown): ParseResult {
  if (value === undefined || value === null) return ok(null);
  const text = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : undefined;
  if (text === undefined) return fail("must be a string");
  return text.length > MAX_REQUEST_BODY_CHARS ? fail(`is too long (maximum is ${MAX_REQUEST_BODY_CHARS} characters)`) : ok(text);
}

/**
 * Header names are kept lower-case so the consumer merges them over its defaults without duplicates. A name
 * or value fetch would reject fails here, not on every delivery of the queue message.
 */
function parseRequestHeaders(value: unknown): ParseResult {
  if (value === undefined || value === null) return ok(null);
  if (typeof value !== "object" || Array.isArray(value)) return fail("must be an object of header names and values");
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(value)) {
    if (typeof raw !== "string" && typeof raw !== "number") return fail("must be an object of header names and values");
    try {
      new Headers().set(name, String(raw));
    } catch {
      return fail(`has an invalid header: ${name}`);
    }
    headers[name.toLowerCase()] = String(raw);
  }
  return ok(headers);
}

function parseResponseBody(text: unknown): unknown {
  if (typeof text !== "string") return text ?? null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const backgroundBatchRequestResource = defineResource({
  type: "background_batch_requests",
  model: "BackgroundBatchRequest",
  table: backgroundBatchRequests,
  attributes: {
    path: string(backgroundBatchRequests.path, { required: true, maxLength: 2048 }),
    request_params: json(backgroundBatchRequests.requestParams),
    request_body: withWrite(stored(backgroundBatchRequests.requestBody), parseRequestBody),
    request_headers: withWrite(stored(backgroundBatchRequests.requestHeaders), parseRequestHeaders),
    request_method: withWrite(stored(backgroundBatchRequests.requestMethod), parseMethod),
    default_account_list: boolean(backgroundBatchRequests.defaultAccountList),
    response_status: stored(backgroundBatchRequests.responseStatus),
    response_headers: stored(backgroundBatchRequests.responseHeaders),
    response_body: derived([backgroundBatchRequests.responseBody], (row) => parseResponseBody(row[backgroundBatchRequests.responseBody.name])),
  },
  relationships: {},
});

function requestCount(condition: SQL = sql`1`): SQL {
  return sql`(SELECT count(*) FROM ${backgroundBatchRequests} WHERE ${q(backgroundBatchRequests.backgroundBatchId)} = ${q(backgroundBatches.id)} AND ${condition})`;
}

export const backgroundBatchResource = defineResource({
  type: "background_batches",
  model: "BackgroundBatch",
  table: backgroundBatches,
  scope: (ctx) => sql`${backgroundBatches.userId} = ${ctx.viewer.id}`,
  attributes: {
    // Still to be processed: not yet claimed, or claimed and not finished.
    pending: computed(() => requestCount(sql`${q(backgroundBatchRequests.state)} IN ('pending', 'running')`), Number),
    total: computed(() => requestCount(), Number),
  },
  relationships: {
    requests: hasMany("background_batch_requests", backgroundBatchRequests.id, backgroundBatchRequests.backgroundBatchId, backgroundBatches.id, {
      orderBy: q(backgroundBatchRequests.position),
    }),
  },
  hooks: {
    // A request being run meanwhile finds its row gone and records nothing.
    beforeDelete: (existing, ctx) => [ctx.db.delete(backgroundBatchRequests).where(sql`${backgroundBatchRequests.backgroundBatchId} = ${existing.id}`)],
  },
});
