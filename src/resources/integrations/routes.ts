/**
 * `/account_lists/<id>/mail_chimp_account` and `/account_lists/<id>/prayer_letters_account`: one connection of each
 * a list at most, named by the list, not by an id (the original's singular resources). GET answers it (404 while the
 * list has none), POST connects (replacing the connection the list had, as the original built a new one in its
 * place), DELETE disconnects, and GET `.../sync` accepts a sync, which reaches no service here. POST
 * `/account_lists/<id>/chalkline_mail` answers as the original's request to Chalkline did, sending nothing.
 *
 * Only the list's users reach these: to anyone else, coaches too, the list is not there (404).
 */
import { sql } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { listUsersOnly, parentAccountList } from "../../engine/account-list-scope";
import { claimIds, refuseTaken, startClaims } from "../../engine/client-ids";
import { requestContext } from "../../engine/context";
import type { BatchStatement, RequestContext, ResourceDef } from "../../engine/define";
import { showResource } from "../../read/records";
import { described } from "../../engine/route-descriptions";
import { readInput } from "../../routes/resource-routes";
import { deleteResource, prepareCreate, runBatch } from "../../write/write";
import type { AppEnv } from "../../env";
import { ApiError } from "../../jsonapi/errors";
import { jsonApi, noContent } from "../../jsonapi/respond";
import { LIST } from "../paths";
import { mailChimpAccountResource, prayerLettersAccountResource } from "./resource";

interface Integration {
  /** The path segment under the list. */
  segment: string;
  resource: ResourceDef;
  /** The attribute holding the key or token the connection is made with. */
  secret: string;
}

const INTEGRATIONS: Integration[] = [
  { segment: "mail_chimp_account", resource: mailChimpAccountResource, secret: "api_key" },
  { segment: "prayer_letters_account", resource: prayerLettersAccountResource, secret: "oauth2_token" },
];

/** The path's list's connection: its id and stored key or token, if it has one. */
async function connectionOf({ resource, secret }: Integration, ctx: RequestContext): Promise<{ id: string; secret: unknown } | undefined> {
  const [row] = await ctx.db
    .select({ id: resource.idColumn, secret: resource.attributes[secret].column! })
    .from(resource.table)
    .where(sql`${resource.accountListColumn!} = ${ctx.pathParams.account_list_id}`)
    .limit(1);
  return row ? { id: String(row.id), secret: row.secret } : undefined;
}

async function connected(integration: Integration, ctx: RequestContext): Promise<{ id: string; secret: unknown }> {
  const connection = await connectionOf(integration, ctx);
  if (!connection) throw new ApiError(404, [{ detail: `Couldn't find ${integration.resource.model} with 'account_list_id'=${ctx.pathParams.account_list_id}` }]);
  return connection;
}

/**
 * Connects the path's list: the new connection takes the place of the one it had, in one write. The key or token is
 * never answered, so a client saving the settings it read back sends none: the stored one is kept then.
 */
async function connect(integration: Integration, c: Context<AppEnv>): Promise<Response> {
  const { resource, secret } = integration;
  const ctx = requestContext(c);
  const sent = await readInput(c, ctx, [resource.type]);
  const previous = await connectionOf(integration, ctx);
  const attributes = previous && !(secret in sent.attributes) ? { ...sent.attributes, [secret]: previous.secret } : sent.attributes;
  // A request that may run again (a background request) connects under an id of its own, as any create does.
  const input = { ...sent, attributes, id: sent.id ?? ctx.createdId };
  const claims = startClaims(ctx);
  const { id, statements } = await prepareCreate(resource, input, ctx, parentAccountList(ctx), true);
  refuseTaken(await claimIds(ctx, claims));
  const replaced = previous ? [ctx.db.delete(resource.table).where(sql`${resource.idColumn} = ${previous.id}`) as unknown as BatchStatement] : [];
  await runBatch(ctx, [...replaced, ...statements]);
  return jsonApi(c, await showResource(resource, id, ctx), 201);
}

export function registerIntegrationRoutes(app: Hono<AppEnv>): void {
  const owners = listUsersOnly("not found");
  for (const integration of INTEGRATIONS) {
    const { resource } = integration;
    const path = `${LIST}/${integration.segment}`;
    app.use(path, owners);
    app.use(`${path}/*`, owners);
    app.get(path, described(async (c: Context<AppEnv>) => {
      const ctx = requestContext(c);
      return jsonApi(c, await showResource(resource, (await connected(integration, ctx)).id, ctx));
    }, { action: "show", resource }));
    app.post(path, described((c: Context<AppEnv>) => connect(integration, c), { action: "create", resource }));
    app.delete(path, described(async (c: Context<AppEnv>) => {
      const ctx = requestContext(c);
      await deleteResource(resource, (await connected(integration, ctx)).id, ctx);
      return noContent(c);
    }, { action: "delete", resource }));
    // The original queued a sync with the service and answered 200 with no body; there is no service to sync with.
    app.get(`${path}/sync`, async (c: Context<AppEnv>) => {
      await connected(integration, requestContext(c));
      return c.body(null, 200);
    });
  }
  // The original e-mailed the list's newsletter recipients to Chalkline; nothing is sent here.
  app.use(`${LIST}/chalkline_mail`, owners);
  app.post(`${LIST}/chalkline_mail`, (c: Context<AppEnv>) =>
    jsonApi(c, { data: { id: "", type: "chalkline_mails", attributes: { created_at: requestContext(c).now, updated_at: null, updated_in_db_at: null } } }, 201),
  );
}
