import { Hono, type Context } from "hono";
import { readBody, requestContext } from "../../engine/context";
import type { RequestContext } from "../../engine/define";
import { listResources } from "../../read/list-resources";
import { showResource } from "../../read/records";
import { described } from "../../engine/route-descriptions";
import { listRoutes, locationOf } from "../../routes/resource-routes";
import { createResource, deleteResource, updateResource } from "../../write/write";
import type { AppEnv } from "../../env";
import { recordNotFound } from "../../jsonapi/errors";
import { readResourceDocument } from "../../jsonapi/request-document";
import { jsonApi, noContent } from "../../jsonapi/respond";
import { optionIdByKey, userOptionResource } from "./resource";

/**
 * `/api/v2/user/options`: listed and created as any resource, the signed-in user its owner; one option is named
 * in the path by its key (`/user/options/setup_position`), not its id, as the web app names them.
 */
export function userOptionRoutes(): Hono<AppEnv> {
  const resource = userOptionResource;
  const routes = new Hono<AppEnv>();
  const KEY_PATH = "/:key{[A-Za-z0-9_]+}";
  const create = async (c: Context<AppEnv>) => {
    const ctx = requestContext(c);
    const input = readResourceDocument(await readBody(c), [resource.type]);
    const document = await showResource(resource, await createResource(resource, input, ctx, { user: ctx.viewer.id }), ctx);
    // Where the option is read again: under its key.
    return jsonApi(c, document, 201, { Location: locationOf(c, String(document.data.attributes?.key)) });
  };
  listRoutes(routes, "/", userOptionResource, (ctx) => listResources(userOptionResource, ctx), create);
  const byKey = async (c: Context<AppEnv>, ctx: RequestContext): Promise<string> => {
    // The key as sent: keys are case-sensitive (the context's path parameters are lower-cased ids).
    const key = c.req.param("key") ?? "";
    const id = await optionIdByKey(ctx, key);
    if (!id) throw recordNotFound(userOptionResource.model, key);
    return id;
  };
  routes.get(KEY_PATH, described(async (c: Context<AppEnv>) => {
    const ctx = requestContext(c);
    return jsonApi(c, await showResource(resource, await byKey(c, ctx), ctx));
  }, { action: "show", resource }));
  const update = described(async (c: Context<AppEnv>) => {
    const ctx = requestContext(c);
    const id = await byKey(c, ctx);
    // The body may name the option's id (the web app sends the option it read back); the path names its key.
    const input = readResourceDocument(await readBody(c), [resource.type]);
    return jsonApi(c, await updateResource(resource, id, input, ctx));
  }, { action: "update", resource });
  routes.put(KEY_PATH, update);
  routes.patch(KEY_PATH, update);
  routes.delete(KEY_PATH, described(async (c: Context<AppEnv>) => {
    const ctx = requestContext(c);
    await deleteResource(resource, await byKey(c, ctx), ctx);
    return noContent(c);
  }, { action: "delete", resource }));
  return routes;
}
