import { Hono, type Context } from "hono";
import { forgetViewer } from "../../accounts/viewer-cache";
import { listsOfUsers, mirrorLists } from "../../db/mirrors";
import { readBody, requestContext } from "../../engine/context";
import { showResource } from "../../read/records";
import { updateResource } from "../../write/write";
import type { AppEnv } from "../../env";
import { readResourceDocument } from "../../jsonapi/request-document";
import { jsonApi } from "../../jsonapi/respond";
import { userResource } from "./resource";
import { withListsWhereTheyAre, type UserDocument } from "./lists-where-placed";

/** `/api/v2/user` is the signed-in user: no id in the path. */
export const userRoutes = new Hono<AppEnv>();

userRoutes.get("/", async (c) => {
  const ctx = requestContext(c);
  return jsonApi(c, await withListsWhereTheyAre(await showResource(userResource, ctx.viewer.id, ctx), ctx));
});

const update = async (c: Context<AppEnv>) => {
  const ctx = requestContext(c);
  const input = readResourceDocument(await readBody(c), [userResource.type]);
  const document = await updateResource(userResource, ctx.viewer.id, input, ctx);
  // The databases of the user's lists keep a copy of the user; the default list and time zone are part of the
  // remembered viewer.
  await mirrorLists(ctx.env, ctx.db, await listsOfUsers(ctx.db, [ctx.viewer.id]));
  forgetViewer(ctx.viewer.id);
  // The update's answer includes the user's lists as a read of /user does: from where each is placed.
  return jsonApi(c, await withListsWhereTheyAre(document as UserDocument, ctx));
};
userRoutes.put("/", update);
userRoutes.patch("/", update);
