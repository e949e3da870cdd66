import type { Hono } from "hono";
import type { AppEnv } from "../../env";

export function registerBatchRoutes(_app: Hono<AppEnv>): void {}
