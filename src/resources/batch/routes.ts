/**
 * POST /api/v2/batch: several requests in one round trip, run in order through this same app (a later request
 * sees what an earlier one wrote) with the caller's credentials, answered as one plain JSON array.
 * Consecutive reads cannot affect each other, so each run of GET items goes concurrently, and their statements
 * share D1 round trips (src/db/shared-round-trips.ts).
 */
import type { Context, Hono } from "hono";
import type { AppEnv, BatchItemContext } from "../../env";
import { ApiError, badRequest } from "../../jsonapi/errors";
import { refuseDeepJson } from "../../jsonapi/request-document";
import { registerBackgroundBatchRoutes } from "../background-batches/routes";
import { API } from "../paths";
import { isBatchItem, markBatchItem } from "../../auth/batch-items";
import { sharingRoundTrips } from "../../db/shared-round-trips";
import { loadViewer } from "../../auth/middleware";
import { chargeBatchItems, tooManyRequests } from "../../auth/rate-limit";
import { INSIDE_BATCH_REFUSAL, recordError, recordInternalError, recordWithin, refusalInsideBatch, type RecordedResponse } from "./items";

export const MAX_BATCH_ITEMS = 100;
/**
 * GET items in flight at once. Items are not subrequests (they run in this invocation), and their reads share D1
 * round trips, so a larger run means fewer calls to D1; half the item limit keeps a run's shared D1 batch modest.
 */
const CONCURRENT_READS = 50;
const ITEM_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const JSONAPI = "application/vnd.api+json";

interface BatchDocument {
  items: unknown[];
  abortOnError: boolean;
}

function readBatchDocument(text: string): BatchDocument {
  let document: unknown;
  refuseDeepJson(text);
  try {
    document = JSON.parse(text);
  } catch {
    throw badRequest("The request body must be a JSON object with a requests array", { pointer: "" });
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw badRequest("The request body must be a JSON object with a requests array", { pointer: "" });
  }
  const { requests, on_error: onError } = document as Record<string, unknown>;
  if (!Array.isArray(requests)) throw badRequest("requests must be an array of {method, path, body}", { pointer: "/requests" });
  if (requests.length > MAX_BATCH_ITEMS) {
    throw new ApiError(429, [{ detail: `A batch may hold at most ${MAX_BATCH_ITEMS} requests; this one has ${requests.length}` }]);
  }
  const mode = onError === undefined || onError === null ? "CONTINUE" : typeof onError === "string" ? onError.toUpperCase() : "";
  if (mode !== "CONTINUE" && mode !== "ABORT") throw badRequest("on_error must be CONTINUE or ABORT", { pointer: "/on_error" });
  return { items: requests, abortOnError: mode === "ABORT" };
}

/** A viewer refused since the batch began (disabled): the batch goes on as it began; any other failure is thrown. */
function keptIfDisabled(error: unknown): undefined {
  if (error instanceof ApiError && error.status === 401) return undefined;
  throw error;
}

/** Items act as the caller: the Authorization header, or the access_token a download link carried. */
function callerAuthorization(c: Context<AppEnv>): string | undefined {
  const header = c.req.header("authorization");
  if (header) return header;
  const token = new URL(c.req.url).searchParams.get("access_token");
  return token ? `Bearer ${token}` : undefined;
}

function executionContext(c: Context<AppEnv>): Context<AppEnv>["executionCtx"] | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}

function itemBody(method: string, body: unknown): string | undefined {
  if (method === "GET" || body === undefined || body === null) return undefined;
  return typeof body === "string" ? body : JSON.stringify(body);
}

function itemMethod(item: unknown): string {
  const method = typeof item === "object" && item !== null ? (item as Record<string, unknown>).method : undefined;
  return typeof method === "string" ? method.toUpperCase() : "";
}

/** Runs an item through the app; its answer is read later, in order, within the batch's budget (see `Budget`). */
async function runItem(app: Hono<AppEnv>, c: Context<AppEnv>, item: unknown, context: BatchItemContext): Promise<RecordedResponse | Response> {
  if (typeof item !== "object" || item === null || Array.isArray(item)) {
    return recordError(badRequest("Each batch request must be an object with method and path"));
  }
  const { method: rawMethod, path, body } = item as Record<string, unknown>;
  const method = typeof rawMethod === "string" ? rawMethod.toUpperCase() : "";
  if (!ITEM_METHODS.includes(method)) {
    const shown = typeof rawMethod === "string" && rawMethod !== "" ? rawMethod : "A missing method";
    return recordError(new ApiError(405, [{ detail: `${shown} is not allowed in a batch request; use GET, POST, PUT, PATCH or DELETE` }], { Allow: ITEM_METHODS.join(", ") }));
  }
  if (typeof path !== "string" || path.trim() === "") return recordError(badRequest("Each batch request needs a path"));
  const relative = path.trim().startsWith("/") ? path.trim() : `/${path.trim()}`;
  // Appended to our own origin (not resolved against it), so "//host/x" stays a path of this service.
  const url = new URL(new URL(c.req.url).origin + relative);
  const refusal = refusalInsideBatch(method, url, "batch");
  if (refusal) return recordError(refusal);

  const headers = new Headers();
  const authorization = callerAuthorization(c);
  if (authorization) headers.set("Authorization", authorization);
  headers.set("Accept", c.req.header("accept") ?? JSONAPI);
  const text = itemBody(method, body);
  if (text !== undefined) headers.set("Content-Type", JSONAPI);
  const request = markBatchItem(new Request(url, { method, headers, body: text }), context);
  try {
    return await app.fetch(request, c.env, executionContext(c));
  } catch (error) {
    console.error(JSON.stringify({ level: "error", requestId: c.get("requestId"), message: `batch item failed: ${String(error)}` }));
    return recordInternalError();
  }
}

/**
 * What the answers of one batch may add up to. Answers are read in order as they come (a large list page is
 * streamed): once they pass this, the item that passed it and every later one answer 413, later items are not
 * run at all, and a streamed page that would pass it is never read further. Memory then stays near this bound
 * whatever the items ask for, beside the contract's 429 for the number of items.
 */
export const MAX_BATCH_RESPONSE_BYTES = 8 * 1024 * 1024;

class Budget {
  private left = MAX_BATCH_RESPONSE_BYTES;
  get spent(): boolean {
    return this.left <= 0;
  }
  /** Records an answer if it fits what is left; a write's answer is kept whole (it happened), and counted. */
  async record(answer: RecordedResponse | Response, method: string): Promise<RecordedResponse> {
    if (!(answer instanceof Response)) return answer;
    if (this.spent) {
      await answer.body?.cancel();
      return budgetSpent();
    }
    const recording = await recordWithin(answer, method === "GET" ? this.left : Number.MAX_SAFE_INTEGER);
    if (!("recorded" in recording)) {
      this.left = 0;
      return budgetSpent();
    }
    this.left -= recording.bytes;
    return recording.recorded;
  }
}

const budgetSpent = () =>
  recordError(
    new ApiError(413, [{ detail: `The answers of this batch would pass ${MAX_BATCH_RESPONSE_BYTES} bytes; this request was not answered: send it again in another batch, or ask for less (a smaller page, fewer includes)` }]),
  );

export function registerBatchRoutes(app: Hono<AppEnv>): void {
  app.post(`${API}/batch`, async (c) => {
    // Paths are refused before dispatch; this catches any spelling of the path that still reached the route.
    if (isBatchItem(c.get("item"))) throw new ApiError(403, [{ detail: INSIDE_BATCH_REFUSAL }]);
    const { items, abortOnError } = readBatchDocument(await c.req.text());
    const entries: RecordedResponse[] = [];
    const budget = new Budget();
    let viewer = c.get("viewer");
    // Items past the caller's batch budget are answered 429 (each, like single requests), in order.
    const allowed = await chargeBatchItems(c.env, viewer.id, items.length);
    let index = 0;
    while (index < items.length) {
      // A run of consecutive GET items (at most CONCURRENT_READS), or one other item on its own.
      let end = index + 1;
      if (itemMethod(items[index]) === "GET") {
        while (end < items.length && end - index < CONCURRENT_READS && itemMethod(items[end]) === "GET") end++;
      }
      // Every item runs in the batch's D1 session (each sees the items before it); reads that run together share
      // round trips.
      const sessions = end - index > 1 ? sharingRoundTrips(c.get("sessions")) : c.get("sessions");
      const answers = await Promise.all(
        items
          .slice(index, end)
          .map((item, offset) =>
            budget.spent ? budgetSpent() : index + offset < allowed ? runItem(app, c, item, { viewer, sessions, precharged: true }) : recordError(tooManyRequests()),
          ),
      );
      // Read in order: the budget goes to the earlier items.
      const ran: RecordedResponse[] = [];
      for (const [offset, answer] of answers.entries()) ran.push(await budget.record(answer, itemMethod(items[index + offset])));
      const failed = abortOnError ? ran.findIndex((entry) => entry.status >= 400) : -1;
      if (failed >= 0) {
        entries.push(...ran.slice(0, failed + 1));
        return c.json(entries, ran[failed].status as 200);
      }
      entries.push(...ran);
      // A write may change what the caller can reach (an accepted invite): read their lists again.
      // The batch was authenticated when it began: a user disabled meanwhile keeps the lists they had for its rest.
      if (itemMethod(items[index]) !== "GET") viewer = (await loadViewer(c.get("directory"), viewer.id).catch(keptIfDisabled)) ?? viewer;
      index = end;
    }
    return c.json(entries, 200);
  });
  registerBackgroundBatchRoutes(app);
}
