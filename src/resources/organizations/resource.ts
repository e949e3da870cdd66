import { sql } from "drizzle-orm";
import { organizationAccounts, organizations, users } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import { usersSharingAList } from "../users/resource";
import { boolean, derived, stored } from "../../engine/attributes";
import { defineResource, type RequestContext } from "../../engine/define";
import { belongsTo } from "../../engine/relationships";

/**
 * Organizations are shared reference data (the fundraising systems donations come from). They have no route of
 * their own; they are answered as included resources of designation accounts and organization accounts.
 */
export const organizationResource = defineResource({
  type: "organizations",
  model: "Organization",
  table: organizations,
  attributes: {
    name: stored(organizations.name),
    api_class: stored(organizations.apiClass),
    help_email: stored(organizations.helpEmail),
    oauth: boolean(organizations.oauth, { readOnly: true }),
  },
  relationships: {},
});

/**
 * A user's login to an organization; read-only. Listed at `/user/organization_accounts` (the signed-in user's own)
 * and included from account lists (those of the users who share a list with the viewer).
 */
export const organizationAccountResource = defineResource({
  type: "organization_accounts",
  model: "Person::OrganizationAccount",
  table: organizationAccounts,
  scope: (ctx) => sql`${q(organizationAccounts.userId)} = ${ctx.viewer.id}`,
  includeScope: (ctx) => sql`${q(organizationAccounts.userId)} IN (SELECT ${q(users.id)} FROM ${users} WHERE ${usersSharingAList(ctx)})`,
  attributes: {
    username: stored(organizationAccounts.username),
    // No gifts are downloaded from organizations here: never downloaded, never locked, nothing turned off.
    disable_downloads: { ...derived([], () => false), schema: { type: "boolean" } },
    last_download: { ...derived([], () => null), schema: { type: "null" } },
    locked_at: { ...derived([], () => null), schema: { type: "null" } },
    remote_id: { ...derived([], () => null), schema: { type: "null" } },
  },
  relationships: {
    organization: belongsTo("organizations", organizationAccounts.organizationId),
  },
});

export async function organizationExists(ctx: RequestContext, id: string): Promise<boolean> {
  const [found] = await ctx.db.select({ id: organizations.id }).from(organizations).where(sql`${organizations.id} = ${id}`).limit(1);
  return found !== undefined;
}
