import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../jsonapi/errors";

/**
 * A request budget per signed-in user (the API_RATE_LIMIT binding; its limit and period are in wrangler.toml).
 * Counted after authentication so that one user cannot spend another's budget. Without the binding (e.g. a
 * deployment that configures none) requests are not limited.
 */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const limiter = c.env.API_RATE_LIMIT;
  if (limiter) {
    const { success } = await limiter.limit({ key: `user:${c.get("viewer").id}` });
    if (!success) {
      throw new ApiError(429, [{ detail: "Too many requests: slow down and retry in a minute" }], { "Retry-After": "60" });
    }
  }
  await next();
});
