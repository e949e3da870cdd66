import type { Hono } from "hono";
import type { AppEnv } from "../../env";

export function registerContactRoutes(_app: Hono<AppEnv>): void {}
