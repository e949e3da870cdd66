/**
 * Creating a background batch: the requests arrive as full resource objects inside the `requests`
 * relationship. The batch and its requests are stored in one atomic D1 batch, then one queue message per
 * request is sent; the queue consumer (src/queue) runs them.
 */
import { sql } from "drizzle-orm";
import { backgroundBatchRequests, backgroundBatches } from "../../../drizzle/schema";
import { inList } from "../../db/sql";
import { isUniqueViolation } from "../../db/guard";
import type { BatchStatement, RequestContext } from "../../engine/define";
import { runBatch } from "../../write/write";
import { badRequest, conflict, validationFailed, type FieldError } from "../../jsonapi/errors";
import { readResourceDocument, typeMismatch, UUID_PATTERN } from "../../jsonapi/request-document";
import { backgroundBatchRequestResource } from "./resource";
import { enqueueRequests } from "./enqueue";
import { duplicateId } from "../../engine/define";

export const MAX_BACKGROUND_REQUESTS = 1000;
const REQUEST_TYPE = "background_batch_requests";
const REQUESTS_POINTER = "/data/relationships/requests";

type NewRequest = typeof backgroundBatchRequests.$inferInsert;

interface NewBatch {
  id?: string;
  requests: Array<Omit<NewRequest, "backgroundBatchId" | "createdAt" | "updatedAt">>;
}

/** Sent headers are kept over these; the consumer adds the owner's credential when it runs the request. */
const DEFAULT_HEADERS = { accept: "application/vnd.api+json", "content-type": "application/vnd.api+json" };

const COLUMN_KEYS: Record<string, keyof NewRequest> = {
  path: "path",
  request_params: "requestParams",
  request_body: "requestBody",
  request_headers: "requestHeaders",
  request_method: "requestMethod",
  default_account_list: "defaultAccountList",
};

function entryObject(value: unknown, pointer: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest("Each request must be a resource object with type and attributes", { pointer });
  }
  return value as Record<string, unknown>;
}

/** One request entry: its identity is checked strictly, its attributes collect field errors. */
function readRequestEntry(value: unknown, index: number, ctx: RequestContext, errors: FieldError[]): NewBatch["requests"][number] {
  const pointer = `${REQUESTS_POINTER}/data/${index}`;
  const entry = entryObject(value, pointer);
  if (entry.type !== REQUEST_TYPE) {
    const error = typeMismatch(entry.type, REQUEST_TYPE);
    error.errors[0].source = { pointer: `${pointer}/type` };
    throw error;
  }
  let id: string | undefined;
  if (entry.id !== undefined && entry.id !== null && entry.id !== "") {
    if (typeof entry.id !== "string" || !UUID_PATTERN.test(entry.id)) throw badRequest("Id must be a UUID", { pointer: `${pointer}/id` });
    id = entry.id.toLowerCase();
  }
  const attributes = entry.attributes === undefined || entry.attributes === null ? {} : entryObject(entry.attributes, `${pointer}/attributes`);
  const request: NewBatch["requests"][number] = { id: id ?? crypto.randomUUID(), position: index, path: "" };
  for (const [name, attribute] of Object.entries(backgroundBatchRequestResource.attributes)) {
    const rule = attribute.write;
    if (!rule) continue;
    const attributePointer = `${pointer}/attributes/${name}`;
    if (!(name in attributes)) {
      if (rule.required) errors.push({ attribute: name, message: "can't be blank", pointer: attributePointer });
      continue;
    }
    const result = rule.parse(attributes[name], ctx);
    if (result.ok) (request as Record<string, unknown>)[COLUMN_KEYS[name]] = result.value;
    else errors.push({ attribute: name, message: result.message, pointer: attributePointer });
  }
  request.requestHeaders = { ...DEFAULT_HEADERS, ...(request.requestHeaders ?? {}) };
  return request;
}

export function readBackgroundBatch(body: unknown, ctx: RequestContext): NewBatch {
  const input = readResourceDocument(body, ["background_batches"]);
  const relationship = input.relationships.requests;
  const entries = typeof relationship === "object" && relationship !== null ? (relationship as { data?: unknown }).data : undefined;
  if (relationship !== undefined && !Array.isArray(entries)) {
    throw badRequest("Relationship requests must be an object with a data array", { pointer: REQUESTS_POINTER });
  }
  if (!Array.isArray(entries) || entries.length === 0) {
    throw validationFailed([{ attribute: "requests", message: "can't be blank", pointer: REQUESTS_POINTER }]);
  }
  if (entries.length > MAX_BACKGROUND_REQUESTS) {
    throw validationFailed([{ attribute: "requests", message: `is too long (maximum is ${MAX_BACKGROUND_REQUESTS} requests)`, pointer: REQUESTS_POINTER }]);
  }
  const errors: FieldError[] = [];
  const requests = entries.map((entry, index) => readRequestEntry(entry, index, ctx, errors));
  if (errors.length > 0) throw validationFailed(errors);
  const seen = new Set<string>();
  requests.forEach((request, index) => {
    if (seen.has(request.id!)) throw conflict(`The id ${request.id} is used by two requests`, { pointer: `${REQUESTS_POINTER}/data/${index}/id` });
    seen.add(request.id!);
  });
  return { id: input.id, requests };
}

/** Client ids that are already taken answer 409 before anything is written. */
async function checkIdsAreFree(batch: NewBatch, ctx: RequestContext): Promise<void> {
  const ids = batch.requests.map((r) => r.id!);
  const [batchRows, requestRows] = await ctx.db.batch([
    ctx.db.select({ id: backgroundBatches.id }).from(backgroundBatches).where(sql`${backgroundBatches.id} = ${batch.id ?? ""}`).limit(1),
    ctx.db.select({ id: backgroundBatchRequests.id }).from(backgroundBatchRequests).where(inList(backgroundBatchRequests.id, ids)).limit(1),
  ]);
  if (batchRows[0]) throw duplicateId({ table: backgroundBatches }, batch.id!);
  if (requestRows[0]) {
    const index = ids.indexOf(requestRows[0].id);
    throw duplicateId({ table: backgroundBatchRequests }, requestRows[0].id, `${REQUESTS_POINTER}/data/${index}/id`);
  }
}

/**
 * Stores the batch for the viewer and enqueues its requests; answers the new batch's id. `origin` is the
 * service's origin as the client reached it, which the requests' answers will name.
 */
export async function createBackgroundBatch(batch: NewBatch, ctx: RequestContext, origin: string): Promise<string> {
  await checkIdsAreFree(batch, ctx);
  const id = batch.id ?? crypto.randomUUID();
  const stamps = { createdAt: ctx.now, updatedAt: ctx.now };
  // One statement per request: a multi-row insert would pass D1's limit of 100 bound parameters.
  const statements = [
    ctx.db.insert(backgroundBatches).values({ id, userId: ctx.viewer.id, origin, ...stamps }),
    ...batch.requests.map((request) => ctx.db.insert(backgroundBatchRequests).values({ ...request, backgroundBatchId: id, enqueuedAt: ctx.now, ...stamps })),
  ] as unknown as BatchStatement[];
  try {
    await runBatch(ctx, statements);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("A resource with one of the sent ids already exists", { pointer: "/data" });
    throw error;
  }
  try {
    await enqueueRequests(ctx.env, batch.requests.map((r) => r.id!));
  } catch (error) {
    // Without its messages the batch would stay pending forever: take it back and let the client retry.
    // Messages already sent find their request gone and are dropped by the consumer.
    await ctx.db.batch([
      ctx.db.delete(backgroundBatchRequests).where(sql`${backgroundBatchRequests.backgroundBatchId} = ${id}`),
      ctx.db.delete(backgroundBatches).where(sql`${backgroundBatches.id} = ${id}`),
    ]);
    throw error;
  }
  return id;
}
