/**
 * The signed-in user's accounts elsewhere, as the web app's preferences and setup pages list them:
 * `/user/organization_accounts` (their logins to organizations), `/user/key_accounts` and `/user/google_accounts`.
 * The service keeps no sign-in keys nor Google accounts: those two lists are declared over the users table with a
 * scope no row meets, so that they answer an empty page with the original's attributes in their description, and
 * take paging, sparse fieldsets and filters as every list does.
 */
import { sql } from "drizzle-orm";
import type { Hono } from "hono";
import { users } from "../../../drizzle/schema";
import { derived } from "../../engine/attributes";
import { defineResource, type AttributeDef } from "../../engine/define";
import { resourceRoutes } from "../../routes/resource-routes";
import type { AppEnv } from "../../env";
import { organizationAccountResource } from "../organizations/resource";
import { API } from "../paths";

const nothing = (schema: Record<string, unknown>): AttributeDef => ({ ...derived([], () => null), schema: { anyOf: [schema, { type: "null" }] } });
const TEXT = { type: "string" };
const FLAG = { type: "boolean" };
const TIME = { type: "string", format: "date-time" };

function noneKept(type: string, model: string, attributes: Record<string, Record<string, unknown>>) {
  return defineResource({
    type,
    model,
    table: users,
    scope: () => sql`0`,
    attributes: Object.fromEntries(Object.entries(attributes).map(([name, schema]) => [name, nothing(schema)])),
    relationships: {},
  });
}

export const keyAccountResource = noneKept("key_accounts", "Person::KeyAccount", {
  email: TEXT,
  first_name: TEXT,
  last_download: TIME,
  last_name: TEXT,
  primary: FLAG,
  remote_id: TEXT,
});

export const googleAccountResource = noneKept("google_accounts", "Person::GoogleAccount", {
  email: TEXT,
  expires_at: TIME,
  last_download: TIME,
  last_email_sync: TIME,
  primary: FLAG,
  remote_id: TEXT,
  token_expired: FLAG,
});

export function registerUserAccountRoutes(app: Hono<AppEnv>): void {
  for (const resource of [organizationAccountResource, keyAccountResource, googleAccountResource]) {
    app.route(`${API}/user/${resource.type}`, resourceRoutes(resource, { actions: ["list", "show"] }));
  }
}
