import type { Hono } from "hono";
import type { AppEnv } from "../../env";

export function registerMoneyRoutes(_app: Hono<AppEnv>): void {}
