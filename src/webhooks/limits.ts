/**
 * What one account list may ask of the webhook service: a number of endpoints (`WEBHOOK_ENDPOINTS_PER_LIST`), and a
 * number of manual sends a minute: test events and redeliveries, each one a request the service makes at the list's
 * say (and a redelivery to an endpoint whose URL was just changed reaches any public address). Both are counted in
 * D1 by the statement that writes, so requests at once cannot pass them together.
 */
import { sql, type SQL } from "drizzle-orm";
import { literal } from "../db/sql";
import type { Database } from "../env";
import { ApiError } from "../jsonapi/errors";
import { addSeconds } from "./clock";

export const DEFAULT_ENDPOINTS_PER_LIST = 10;
/** Test events and redeliveries one list may ask for in MANUAL_SEND_WINDOW_SECONDS. */
export const MANUAL_SENDS_PER_WINDOW = 5;
export const MANUAL_SEND_WINDOW_SECONDS = 60;

/** The most endpoints a list may have: WEBHOOK_ENDPOINTS_PER_LIST, or the default. */
export function endpointsPerList(env: { WEBHOOK_ENDPOINTS_PER_LIST?: string }): number {
  const value = Number(env.WEBHOOK_ENDPOINTS_PER_LIST);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_ENDPOINTS_PER_LIST;
}

export function tooManyEndpoints(limit: number): ApiError {
  return new ApiError(409, [{ detail: `An account list may have at most ${limit} webhook endpoints: delete one before adding another` }]);
}

export interface ManualSend {
  id: string;
  listId: string;
  kind: "test" | "redeliver";
  now: string;
}

/**
 * The statement recording a manual send, which writes it only while the list has had fewer than
 * MANUAL_SENDS_PER_WINDOW in the window, and `allowed` holds. The send itself is written in the same batch, on
 * condition that this row was (`manualSendRecorded`). Values are written into the text: a raw statement of a batch
 * takes no parameters.
 */
export function recordManualSend(send: ManualSend, allowed: SQL = sql`1`): SQL {
  const list = literal(send.listId);
  const windowStart = literal(addSeconds(send.now, -MANUAL_SEND_WINDOW_SECONDS));
  return sql`INSERT INTO webhook_manual_sends (id, account_list_id, kind, created_at) SELECT ${literal(send.id)}, ${list}, ${literal(send.kind)}, ${literal(send.now)}
    WHERE (SELECT count(*) FROM webhook_manual_sends WHERE account_list_id = ${list} AND created_at > ${windowStart}) < ${literal(MANUAL_SENDS_PER_WINDOW)} AND ${allowed}`;
}

/** SQL: the manual send was recorded (by `recordManualSend` earlier in the batch). */
export function manualSendRecorded(send: ManualSend): SQL {
  return sql`EXISTS (SELECT 1 FROM webhook_manual_sends WHERE id = ${literal(send.id)})`;
}

/** 429, with the seconds until the list's oldest manual send in the window leaves it. */
export async function tooManyManualSends(db: Database, send: ManualSend): Promise<ApiError> {
  const [recent] = await db.all<{ oldest: string | null }>(
    sql`SELECT min(created_at) AS oldest FROM webhook_manual_sends WHERE account_list_id = ${send.listId} AND created_at > ${addSeconds(send.now, -MANUAL_SEND_WINDOW_SECONDS)}`,
  );
  const freeAt = recent?.oldest ? Date.parse(addSeconds(recent.oldest, MANUAL_SEND_WINDOW_SECONDS)) : Date.parse(send.now);
  const retryAfter = Math.max(1, Math.ceil((freeAt - Date.parse(send.now)) / 1000));
  return new ApiError(
    429,
    [{ detail: `At most ${MANUAL_SENDS_PER_WINDOW} test events and redeliveries a minute per account list: try again in ${retryAfter} s` }],
    { "Retry-After": String(retryAfter) },
  );
}
