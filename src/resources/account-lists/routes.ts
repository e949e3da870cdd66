import type { Hono } from "hono";
import type { AppEnv } from "../../env";
import { API } from "../paths";
import { userRoutes } from "../users/routes";

/** The signed-in user, their account lists, and what belongs to a list as a whole (designation accounts, invites). */
export function registerAccountRoutes(app: Hono<AppEnv>): void {
  app.route(`${API}/user`, userRoutes);
}
