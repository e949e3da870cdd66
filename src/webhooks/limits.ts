/**
 * What one account list may ask of the webhook service: a number of endpoints (`WEBHOOK_ENDPOINTS_PER_LIST`), and a
 * number of test events a minute (each one a request the service makes at the list's say). Both are counted in D1
 * by the statement that writes, so requests at once cannot pass them together.
 */
import { ApiError } from "../jsonapi/errors";

export const DEFAULT_ENDPOINTS_PER_LIST = 10;
/** Test events (`POST .../webhooks/<id>/test`) one list may send in TEST_WINDOW_SECONDS. */
export const TESTS_PER_WINDOW = 5;
export const TEST_WINDOW_SECONDS = 60;

/** The most endpoints a list may have: WEBHOOK_ENDPOINTS_PER_LIST, or the default. */
export function endpointsPerList(env: { WEBHOOK_ENDPOINTS_PER_LIST?: string }): number {
  const value = Number(env.WEBHOOK_ENDPOINTS_PER_LIST);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_ENDPOINTS_PER_LIST;
}

export function tooManyEndpoints(limit: number): ApiError {
  return new ApiError(409, [{ detail: `An account list may have at most ${limit} webhook endpoints: delete one before adding another` }]);
}

export function tooManyTests(retryAfterSeconds: number): ApiError {
  return new ApiError(
    429,
    [{ detail: `At most ${TESTS_PER_WINDOW} test events a minute per account list: try again in ${retryAfterSeconds} s` }],
    { "Retry-After": String(retryAfterSeconds) },
  );
}
