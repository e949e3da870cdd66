/**
 * `/user` is read on the directory, whose copy of a placed list's row holds neither the list's totals nor its
 * records. The account lists it includes, with what is included under them, are read where each list is placed,
 * as `/account_lists/<id>` answers them there, and take the place of the directory's copies.
 */
import { DIRECTORY } from "../../db/databases";
import { databaseOfList } from "../../db/placement";
import type { RequestContext } from "../../engine/define";
import type { ResourceObject } from "../../jsonapi/document";
import { ApiError } from "../../jsonapi/errors";
import { ownEntry } from "../../jsonapi/params";
import { parseDocumentParams, type IncludeTree } from "../../jsonapi/query";
import { asSent, onDatabase } from "../../read/each-database";
import { showResource } from "../../read/records";
import { accountListResource } from "../account-lists/resource";

export type UserDocument = { data: ResourceObject; included?: ResourceObject[] };

export async function withListsWhereTheyAre(document: UserDocument, ctx: RequestContext): Promise<UserDocument> {
  const { viewer } = ctx;
  if (Object.keys(viewer.listDatabases).length === 0) return document;
  const { include, includeAll } = parseDocumentParams(ctx.params);
  const under = ownEntry(include, "account_lists") ?? (includeAll ? {} : undefined);
  if (!under) return document;
  const placed = (document.included ?? []).filter((resource) => resource.type === "account_lists" && databaseOfList(viewer, resource.id) !== DIRECTORY);
  if (placed.length === 0) return document;
  const paths = includePaths(under);
  const params = { ...ctx.params };
  if (paths.length > 0) params.include = paths.join(",");
  else delete params.include;
  const fromLists = await Promise.all(
    placed.map(async ({ id }) => {
      const database = databaseOfList(viewer, id);
      const there: RequestContext = { ...onDatabase(ctx, database), params, pathParams: { id } };
      try {
        return asSent(await showResource(accountListResource, id, there));
      } catch (error) {
        // A list the database no longer finds (moved since the viewer was read) keeps the directory's copy. Any
        // other failure fails the answer: the directory's copy of a list has none of its totals, and would pass for them.
        if (error instanceof ApiError && error.status === 404) return undefined;
        throw error;
      }
    }),
  );
  const key = (resource: ResourceObject) => `${resource.type}:${resource.id}`;
  const read = new Map(fromLists.flatMap((answer) => (answer ? [answer.data, ...(answer.included ?? [])] : [])).map((resource) => [key(resource), resource]));
  read.delete(key(document.data));
  // The directory stays the authority for what it holds (users, memberships); the lists' own rows replace its copies.
  const included = (document.included ?? []).map((resource) => (resource.type === "account_lists" ? (read.get(key(resource)) ?? resource) : resource));
  const shown = new Set(included.map(key));
  for (const [name, resource] of read) if (!shown.has(name)) included.push(resource);
  return { ...document, included };
}

/** An include tree as the `include` parameter's paths. */
function includePaths(tree: IncludeTree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([name, below]) => {
    const path = `${prefix}${name}`;
    const deeper = includePaths(below, `${path}.`);
    return deeper.length > 0 ? deeper : [path];
  });
}
