import { createMiddleware } from "hono/factory";
import ipaddr from "ipaddr.js";
import type { AppEnv, Bindings } from "../env";
import { ApiError } from "../jsonapi/errors";

/**
 * Items of POST /api/v2/batch are charged to their own budget (API_BATCH_RATE_LIMIT) in blocks of this many:
 * one limiter call per block instead of one per item. With wrangler.toml's 60 blocks a minute that is 600 items
 * a minute, the same as single requests, so a batch never buys more work than the requests it holds.
 */
export const BATCH_ITEMS_PER_CHARGE = 10;

export function tooManyRequests(): ApiError {
  return new ApiError(429, [{ detail: "Too many requests: slow down and retry in a minute" }], { "Retry-After": "60" });
}

/**
 * Whom a sign-in attempt from this client address (CF-Connecting-IP) is charged to: an IPv4 address on its own, an
 * IPv6 address by its /64. A /64 is the least a network hands one subscriber, whose devices may take any address in
 * it, so counting whole IPv6 addresses would give one client billions of budgets. An IPv4 address written as IPv6
 * (`::ffff:192.0.2.1`) is that IPv4 address.
 */
export function signInBudgetKey(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) return `address:${address ?? "unknown"}`;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return `address:${parsed.toString()}`;
  const network = new ipaddr.IPv6([...(parsed as ipaddr.IPv6).parts.slice(0, 4), 0, 0, 0, 0]);
  return `network:${network.toString()}/64`;
}

function budgetKey(userId: string): string {
  return `user:${userId}`;
}

/**
 * A request budget per signed-in user (the API_RATE_LIMIT binding; its limit and period are in wrangler.toml).
 * Counted after authentication so that one user cannot spend another's budget. Without the binding (e.g. a
 * deployment that configures none) requests are not limited. Batch items were charged by their batch.
 */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const limiter = c.env.API_RATE_LIMIT;
  if (limiter && c.get("item")?.precharged !== true) {
    const { success } = await limiter.limit({ key: budgetKey(c.get("viewer").id) });
    if (!success) throw tooManyRequests();
  }
  await next();
});

/**
 * Charges a batch's items to the caller's batch budget, one block of BATCH_ITEMS_PER_CHARGE at a time, and
 * answers how many of them (counted from the first) may run; the rest are answered 429. Without the binding
 * every item may run.
 */
export async function chargeBatchItems(env: Bindings, userId: string, items: number): Promise<number> {
  const limiter = env.API_BATCH_RATE_LIMIT;
  if (!limiter || items === 0) return items;
  const blocks = Math.ceil(items / BATCH_ITEMS_PER_CHARGE);
  const charges = await Promise.all(Array.from({ length: blocks }, () => limiter.limit({ key: budgetKey(userId) })));
  const granted = charges.filter(({ success }) => success).length;
  return Math.min(items, granted * BATCH_ITEMS_PER_CHARGE);
}
