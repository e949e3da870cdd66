import type { Hono } from "hono";
import type { AppEnv } from "../../env";

export function registerTaskRoutes(_app: Hono<AppEnv>): void {}
