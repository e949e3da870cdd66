/**
 * How long a queue message waits before its next delivery when the work it asked for failed: 15 s, 30 s, 60 s, ...
 * for the 1st, 2nd, 3rd delivery, capped at 10 minutes. Every queue consumer retries this way.
 */
const RETRY_BASE_SECONDS = 15;
export const RETRY_MAX_SECONDS = 600;

export function retryDelaySeconds(attempts: number): number {
  return Math.min(RETRY_MAX_SECONDS, RETRY_BASE_SECONDS * 2 ** Math.max(0, attempts - 1));
}
