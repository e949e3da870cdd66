/**
 * A short memory, per isolate, of who a user is and which account lists they reach. Every request still verifies
 * its token; only the look-up of the user's lists is remembered, for VIEWER_CACHE_SECONDS (off when 0 or unset).
 * Without it each request costs one more D1 round trip before its own query. A change made through this isolate
 * (accepting an invite, changing the default list or time zone) forgets the user at once; elsewhere the change is
 * seen within the configured seconds.
 */
import type { Viewer } from "../env";

const MAX_ENTRIES = 10_000;
const remembered = new Map<string, { viewer: Viewer; until: number }>();

export function cacheSeconds(setting: string | undefined): number {
  const seconds = Number(setting ?? 0);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

export function cachedViewer(userId: string, now = Date.now()): Viewer | undefined {
  const entry = remembered.get(userId);
  if (!entry) return undefined;
  if (entry.until > now) return entry.viewer;
  remembered.delete(userId);
  return undefined;
}

export function rememberViewer(viewer: Viewer, seconds: number, now = Date.now()): void {
  if (seconds <= 0) return;
  // Maps iterate in insertion order: when full, the oldest entry goes first.
  if (remembered.size >= MAX_ENTRIES) remembered.delete(remembered.keys().next().value!);
  remembered.set(viewer.id, { viewer, until: now + seconds * 1000 });
}

export function forgetViewer(userId: string): void {
  remembered.delete(userId);
}
