/**
 * Mounts the standard JSON:API routes of a declared resource: list, show,
 * create, update (PUT and PATCH) and delete. Resource folders add only their own extra routes.
 */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../env";
import { validationFailed } from "../jsonapi/errors";
import { readResourceDocument, toOneLinkage, type ResourceInput } from "../jsonapi/request-document";
import { jsonApi, noContent } from "../jsonapi/respond";
import { readBody, requestContext } from "../engine/context";
import type { RequestContext, ResourceDef } from "../engine/define";
import { listResources } from "../read/list-resources";
import { showResource } from "../read/records";
import { described, readsEachDatabase, type UploadField } from "../engine/route-descriptions";
import { createResource, deleteResource, updateResource, type Changes } from "../write/write";

export type Action = "list" | "show" | "create" | "update" | "delete";

export const UUID_PARAM = "{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}}";

export interface RouteOptions {
  actions: Action[];
  /** Values fixed by the route on create, e.g. the parent account list of a nested route. */
  fixedOnCreate?: (ctx: RequestContext) => Changes;
  /** Types accepted as data.type in requests (defaults to the resource's type). */
  requestTypes?: string[];
  /** Answers list reads in place of the plain listResources, e.g. to add meta such as totals. */
  list?: (ctx: RequestContext) => ReturnType<typeof listResources>;
  /** Creates the record in place of the plain createResource (records written with others, as a batch's requests); answers its id. */
  create?: (c: Context<AppEnv>, ctx: RequestContext) => Promise<string>;
  /** The parent record the path names and the relationship to it (default: the account list of /account_lists/<id>/...). */
  pathParent?: PathParent;
  /**
   * Completes each document the routes answer (list pages held in memory, records) with what the declaration
   * cannot read from the database, e.g. records built on the fly.
   */
  complete?: (document: unknown, ctx: RequestContext) => Promise<unknown>;
  /** Work that follows an update once it is stored, e.g. a queue message it calls for. */
  afterUpdate?: (id: string, ctx: RequestContext) => Promise<void>;
  /** The multipart/form-data fields of a create that takes a file (`create` then reads them), for the API description. */
  upload?: Record<string, UploadField>;
}

export interface PathParent {
  /** The path parameter naming the parent, e.g. `contact_id`. */
  param: string;
  /** The resource's relationship to the parent, e.g. `contact`. */
  relationship: string;
}

const ACCOUNT_LIST_PARENT: PathParent = { param: "account_list_id", relationship: "account_list" };

export function locationOf(c: Context, id: string): string {
  const url = new URL(c.req.url);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}/${id}`;
}

/**
 * Under a parent in the path (/account_lists/<id>/..., /contacts/<id>/addresses) the path's parent is the record's.
 * A body naming another parent is refused before anything is written: on update it would move the record out of
 * the parent the client is working in, and on create it would be silently overridden by the path.
 */
function refuseAnotherParent(input: ResourceInput, ctx: RequestContext, parent: PathParent): void {
  const pathParent = ctx.pathParams[parent.param];
  if (!pathParent || !(parent.relationship in input.relationships)) return;
  if (toOneLinkage(input.relationships[parent.relationship], parent.relationship)?.id?.toLowerCase() === pathParent) return;
  const name = parent.relationship.replace(/_/g, " ");
  throw validationFailed([{ attribute: parent.relationship, message: `must be the ${name} in the path`, pointer: `/data/relationships/${parent.relationship}` }]);
}

/** The request's resource document, checked against the nested route's parent. */
export async function readInput(c: Context<AppEnv>, ctx: RequestContext, types: string[], parent: PathParent = ACCOUNT_LIST_PARENT): Promise<ResourceInput> {
  const input = readResourceDocument(await readBody(c), types, { pathId: ctx.pathParams.id });
  refuseAnotherParent(input, ctx, parent);
  return input;
}

/**
 * A list read at `path` (GET; clients also send it as POST with `X-HTTP-Method-Override: GET`, which is then this
 * GET: src/jsonapi/method-override.ts), and the create of `create` where the path creates.
 */
export function listRoutes(
  routes: Hono<AppEnv>,
  path: string,
  def: ResourceDef,
  list: (ctx: RequestContext) => Promise<unknown>,
  create?: (c: Context<AppEnv>) => Promise<Response>,
  requestTypes?: string[],
  upload?: Record<string, UploadField>,
): void {
  // The list reads each database of the viewer's lists itself (src/read/list-resources.ts).
  routes.get(path, readsEachDatabase(described(async (c: Context<AppEnv>) => jsonApi(c, await list(requestContext(c))), { action: "list", resource: def, alsoSentAsPost: true })));
  if (create) routes.post(path, described(create, { action: "create", resource: def, requestTypes, alsoLists: true, upload }));
}

export function resourceRoutes(def: ResourceDef, options: RouteOptions): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const can = (action: Action) => options.actions.includes(action);
  const types = options.requestTypes ?? [def.type];
  const itemPath = `/:id${UUID_PARAM}`;
  const complete = options.complete ?? (async (document: unknown) => document);
  const plainList = options.list ?? ((ctx: RequestContext) => listResources(def, ctx));
  const list = async (ctx: RequestContext) => complete(await plainList(ctx), ctx);
  const createRecord =
    options.create ?? (async (c: Context<AppEnv>, ctx: RequestContext) => createResource(def, await readInput(c, ctx, types, options.pathParent ?? ACCOUNT_LIST_PARENT), ctx, options.fixedOnCreate?.(ctx)));
  const create = async (c: Context<AppEnv>) => {
    const ctx = requestContext(c);
    const id = await createRecord(c, ctx);
    return jsonApi(c, await complete(await showResource(def, id, ctx), ctx), 201, { Location: locationOf(c, id) });
  };

  if (can("list")) listRoutes(routes, "/", def, list, can("create") ? create : undefined, types, options.upload);
  else if (can("create")) routes.post("/", described(create, { action: "create", resource: def, requestTypes: types, upload: options.upload }));
  if (can("show")) {
    // Shown from the database holding it, among those of the viewer's lists (src/read/records.ts).
    routes.get(itemPath, readsEachDatabase(described(async (c: Context<AppEnv>) => {
      const ctx = requestContext(c);
      return jsonApi(c, await complete(await showResource(def, ctx.pathParams.id, ctx), ctx));
    }, { action: "show", resource: def })));
  }
  if (can("update")) {
    const update = described(async (c: Context<AppEnv>) => {
      const ctx = requestContext(c);
      const input = await readInput(c, ctx, types, options.pathParent ?? ACCOUNT_LIST_PARENT);
      const document = await updateResource(def, ctx.pathParams.id, input, ctx);
      await options.afterUpdate?.(ctx.pathParams.id, ctx);
      return jsonApi(c, await complete(document, ctx));
    }, { action: "update", resource: def, requestTypes: types });
    routes.put(itemPath, update);
    routes.patch(itemPath, update);
  }
  if (can("delete")) {
    routes.delete(itemPath, described(async (c: Context<AppEnv>) => {
      const ctx = requestContext(c);
      await deleteResource(def, ctx.pathParams.id, ctx);
      return noContent(c);
    }, { action: "delete", resource: def }));
  }
  return routes;
}
