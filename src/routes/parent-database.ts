/**
 * Routes under a record named in the path (a contact's people, an appeal's contacts) check that record first. Over
 * the viewer's lists on several databases (`listDatabases`, src/routing.ts), it is looked for on each at once, and
 * the request goes on on the database holding it: what hangs off a record is where the record is.
 */
import type { Context } from "hono";
import { requestContext } from "../engine/context";
import type { RequestContext } from "../engine/define";
import type { AppEnv } from "../env";
import { whereFound } from "../read/each-database";
import { viewerOn } from "../db/placement";

/** Runs `check` (which throws 404 or 403) where the path's record is, and goes on there. */
export async function onDatabaseOfParent(c: Context<AppEnv>, check: (ctx: RequestContext) => Promise<void>): Promise<void> {
  const ctx = requestContext(c);
  if (!ctx.listDatabases) return check(ctx);
  const holding = await whereFound(ctx, ctx.listDatabases, async (here) => {
    await check(here);
    return here.databaseName!;
  });
  // As a request of that database alone: the viewer's lists placed there, no other database.
  c.set("db", c.get("databaseOn")(holding));
  c.set("databaseName", holding);
  c.set("viewer", viewerOn(c.get("viewer"), holding));
  c.set("listDatabases", undefined);
}
