import { Hono } from "hono";
import { CONSTANT_LIST_ID, CONSTANT_LIST_TYPE, constantsAttributes } from "../../constants";
import type { AppEnv } from "../../env";
import { fieldsetFor, parseDocumentParams } from "../../jsonapi/query";
import { requestParams } from "../../engine/context";
import { jsonApi } from "../../jsonapi/respond";

/** GET /api/v2/constants: the bundled lookup tables; `fields[constant_list]` picks tables. */
export const constantsRoutes = new Hono<AppEnv>().get("/", (c) => {
  const wanted = fieldsetFor(parseDocumentParams(requestParams(c)), CONSTANT_LIST_TYPE);
  const attributes = wanted
    ? Object.fromEntries(Object.entries(constantsAttributes).filter(([key]) => wanted.has(key)))
    : constantsAttributes;
  // As for every resource, a fieldset naming no table leaves only id and type.
  const data = Object.keys(attributes).length > 0 ? { id: CONSTANT_LIST_ID, type: CONSTANT_LIST_TYPE, attributes } : { id: CONSTANT_LIST_ID, type: CONSTANT_LIST_TYPE };
  return jsonApi(c, { data });
});
