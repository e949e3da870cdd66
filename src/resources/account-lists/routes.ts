import type { Hono } from "hono";
import type { AppEnv } from "../../env";

export function registerAccountRoutes(_app: Hono<AppEnv>): void {}
