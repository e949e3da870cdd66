/**
 * The Queue consumers of background batches. Each message names one stored request: the consumer claims it,
 * runs it through the app with a short-lived token for the batch's owner and stores the answer. Any answer
 * of the request, 4xx and 5xx included, is its result, except 429 (the owner's request budget is spent, the
 * request did not run). That, and a failure of this machinery (database, token), give the claim back and
 * retry the message later: after Retry-After, or with exponential backoff. Messages that keep failing move to
 * the dead-letter queue, whose consumer records the request as failed.
 */
import type { Hono } from "hono";
import { database } from "../db/client";
import { mintToken } from "../auth/token";
import type { AppEnv, Bindings, Database } from "../env";
import { ApiError } from "../jsonapi/errors";
import { recordError, recordWithin, refusalInsideBatch, type RecordedResponse } from "../resources/batch/items";
import { claimRequest, recordDeadLetter, releaseClaim, storeResponse, type Claim } from "./claims";
import { buildStoredRequest } from "./stored-request";
import { servedMethod } from "../jsonapi/method-override";
import { configured } from "../settings";
import { retryDelaySeconds, RETRY_MAX_SECONDS } from "../retries";

/** What became of a message; each message's outcome is logged once (see consumeQueue). */
type Outcome = "stored" | "already settled" | "claimed elsewhere" | "rate limited" | "failed" | "dead-lettered" | "no request id";

export const TOKEN_LIFETIME_SECONDS = 300;

// Well under D1's 2 MB row limit; a larger answer is recorded as an error instead of failing on every retry.
export const MAX_STORED_RESPONSE_BYTES = 1_500_000;

function retryAfterSeconds(response: RecordedResponse): number | undefined {
  const seconds = Number(response.headers["Retry-After"]);
  return Number.isInteger(seconds) && seconds > 0 ? Math.min(seconds, RETRY_MAX_SECONDS) : undefined;
}

function requestIdOf(body: unknown): string | undefined {
  const id = typeof body === "object" && body !== null ? (body as { requestId?: unknown }).requestId : undefined;
  return typeof id === "string" && id !== "" ? id : undefined;
}

function log(message: string, fields: Record<string, unknown> = {}): void {
  console.error(JSON.stringify({ level: "error", message, ...fields }));
}

async function runClaimed(app: Hono<AppEnv>, env: Bindings, ctx: ExecutionContext, claim: Claim): Promise<RecordedResponse> {
  const token = await mintToken(configured(env).signingSecret, claim.ownerId, TOKEN_LIFETIME_SECONDS);
  const request = buildStoredRequest(claim, token);
  // Refused by the method the request runs as (a stored read sent as POST is a GET).
  const refusal = refusalInsideBatch(servedMethod(request), new URL(request.url), "background");
  if (refusal) return recordError(refusal);
  const recording = await recordWithin(await app.fetch(request, env, ctx), MAX_STORED_RESPONSE_BYTES);
  if ("recorded" in recording) return recording.recorded;
  return recordError(
    new ApiError(500, [{ detail: `The response is larger than the ${MAX_STORED_RESPONSE_BYTES} bytes a background batch request can keep; ask for a smaller page` }]),
  );
}

async function processMessage(message: Message<unknown>, db: Database, app: Hono<AppEnv>, env: Bindings, ctx: ExecutionContext): Promise<Outcome> {
  const requestId = requestIdOf(message.body);
  if (!requestId) {
    message.ack();
    return "no request id";
  }
  let claim: Claim;
  try {
    const outcome = await claimRequest(db, requestId);
    if (outcome.kind === "settled") {
      message.ack();
      return "already settled";
    }
    if (outcome.kind === "busy") {
      message.retry({ delaySeconds: outcome.retryInSeconds });
      return "claimed elsewhere";
    }
    claim = outcome.claim;
  } catch (error) {
    log("could not claim a background batch request", { requestId, error: String(error) });
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    return "failed";
  }
  try {
    const response = await runClaimed(app, env, ctx, claim);
    if (response.status === 429) {
      // The owner's request budget is spent and the request did not run: it is not a result, try again later.
      await releaseClaim(db, claim, "rate limited");
      message.retry({ delaySeconds: retryAfterSeconds(response) ?? retryDelaySeconds(message.attempts) });
      return "rate limited";
    }
    await storeResponse(db, claim, response);
    message.ack();
    return "stored";
  } catch (error) {
    log("background batch request failed to run", { requestId, attempts: message.attempts, error: String(error) });
    await releaseClaim(db, claim, String(error)).catch((releaseError) =>
      log("could not release a background batch request", { requestId, error: String(releaseError) }),
    );
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    return "failed";
  }
}

/** Built per request: each recorded answer carries a request id of its own. */
const deadLetterFailure = () =>
  recordError(new ApiError(500, [{ detail: "This request could not be run: the background batch service failed repeatedly and gave up on it" }]));

async function processDeadLetter(message: Message<unknown>, db: Database): Promise<Outcome> {
  const requestId = requestIdOf(message.body);
  if (!requestId) {
    message.ack();
    return "no request id";
  }
  try {
    const outcome = await recordDeadLetter(db, requestId, deadLetterFailure());
    if (outcome.kind === "busy") {
      message.retry({ delaySeconds: outcome.retryInSeconds });
      return "claimed elsewhere";
    }
    message.ack();
    return outcome.kind === "recorded" ? "dead-lettered" : "already settled";
  } catch (error) {
    log("could not record a dead-lettered background batch request", { requestId, error: String(error) });
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    return "failed";
  }
}

/** One line per message: which request, which delivery, what became of it. */
function logOutcome(queue: string, message: Message<unknown>, outcome: Outcome): void {
  const line = { message: "queue message", queue, message_id: message.id, request_id: requestIdOf(message.body) ?? null, attempts: message.attempts, outcome };
  const failed = outcome === "failed" || outcome === "dead-lettered" || outcome === "no request id";
  if (failed) console.error(JSON.stringify({ level: "error", ...line }));
  else console.log(JSON.stringify({ level: "info", ...line }));
}

/**
 * The messages of a delivery are handled concurrently (the requests of a background batch are independent and
 * the queue promises no order), each acknowledged or retried on its own.
 */
export async function consumeQueue(batch: MessageBatch<unknown>, env: Bindings, ctx: ExecutionContext, app: Hono<AppEnv>): Promise<void> {
  const db = database(env.DB);
  // The dead-letter queue is named after the queue it serves (wrangler.toml).
  const deadLetters = batch.queue.endsWith("-dlq");
  const results = await Promise.allSettled(
    batch.messages.map(async (message) => {
      const outcome = await (deadLetters ? processDeadLetter(message, db) : processMessage(message, db, app, env, ctx));
      logOutcome(batch.queue, message, outcome);
    }),
  );
  // A message left neither acknowledged nor retried would count as delivered once the handler returns;
  // failing the delivery makes the queue retry it instead.
  const failure = results.find((result) => result.status === "rejected");
  if (failure) throw (failure as PromiseRejectedResult).reason;
}
