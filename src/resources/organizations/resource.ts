import { sql } from "drizzle-orm";
import { organizationAccounts, organizations } from "../../../drizzle/schema";
import { boolean, stored } from "../../engine/attributes";
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

/** A user's login to an organization; read-only, included from account lists. */
export const organizationAccountResource = defineResource({
  type: "organization_accounts",
  model: "OrganizationAccount",
  table: organizationAccounts,
  attributes: {
    username: stored(organizationAccounts.username),
  },
  relationships: {
    organization: belongsTo("organizations", organizationAccounts.organizationId),
  },
});

export async function organizationExists(ctx: RequestContext, id: string): Promise<boolean> {
  const [found] = await ctx.db.select({ id: organizations.id }).from(organizations).where(sql`${organizations.id} = ${id}`).limit(1);
  return found !== undefined;
}
