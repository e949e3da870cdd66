/**
 * GET /api/v2/tools/analytics (`tools_analytics`): what the web app's Tools menu counts for each list a request
 * covers: contacts and people whose details need fixing, and duplicate pairs to merge. The contact counts are those
 * of the contacts list under the fix-up pages' own filters, so each page lists exactly what its count says.
 */
import { sql } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { accountLists } from "../../../drizzle/schema";
import { HIDDEN_STATUSES } from "../../constants";
import { databaseOfList, viewerOn } from "../../db/placement";
import { noneOf } from "../../db/sql";
import { rowsOf } from "../../db/statements";
import { derived } from "../../engine/attributes";
import { requestContext } from "../../engine/context";
import { defineResource, type RequestContext } from "../../engine/define";
import { listResources, showResource } from "../../engine/read";
import { described } from "../../engine/route-descriptions";
import { summaryLists, summaryScope } from "../../engine/summaries";
import type { AppEnv } from "../../env";
import type { ListMeta } from "../../jsonapi/document";
import { recordNotFound } from "../../jsonapi/errors";
import { jsonApi } from "../../jsonapi/respond";
import { contactResource } from "../contacts/resource";
import { countDuplicatePairs } from "../duplicates/finder";

const COUNT_TYPES = [
  "fix-commitment-info",
  "fix-phone-numbers",
  "fix-email-addresses",
  "fix-addresses",
  "fix-send-newsletter",
  "duplicate-contacts",
  "duplicate-people",
] as const;

const countsSchema = {
  type: "array",
  items: {
    type: "object",
    required: ["id", "counts"],
    properties: {
      id: { type: "string" },
      counts: {
        type: "array",
        items: { type: "object", required: ["type", "count"], properties: { type: { enum: [...COUNT_TYPES] }, count: { type: "integer" } } },
      },
    },
  },
};

export const toolsAnalyticsResource = defineResource({
  type: "tools_analytics",
  model: "AccountList",
  table: accountLists,
  scope: summaryScope,
  scopeHidesRows: true,
  attributes: {
    // Counted on each list's database once the resource is read (see `answer`).
    counts_by_type: { ...derived([], () => []), schema: countsSchema },
  },
  relationships: {},
});

/** The contacts of the list the contacts list answers under these filters, counted. */
async function contactsMatching(ctx: RequestContext, listId: string, filter: Record<string, string>): Promise<number> {
  const document = await listResources(contactResource, { ...ctx, params: { filter: { account_list_id: listId, ...filter }, per_page: "0" } });
  return (document as { meta: ListMeta }).meta.pagination.total_count;
}

/** People of the list's shown contacts with a detail marked invalid, or more than one primary one. */
const peopleToFix = (listId: string, details: "email_addresses" | "phone_numbers") => sql`SELECT count(*) AS "count" FROM people p
  JOIN contacts c ON c.id = p.contact_id
  WHERE c.account_list_id = ${listId} AND ${noneOf(sql`coalesce(c.status, '')`, HIDDEN_STATUSES)}
    AND (EXISTS (SELECT 1 FROM ${sql.identifier(details)} d WHERE d.person_id = p.id AND d.valid = 0)
      OR (SELECT count(*) FROM ${sql.identifier(details)} d WHERE d.person_id = p.id AND d."primary" = 1) > 1)`;

async function countsOfList(ctx: RequestContext, listId: string) {
  // The list's own database, the viewer as it sees them.
  const name = databaseOfList(ctx.viewer, listId);
  const on: RequestContext = { ...ctx, db: ctx.databaseOn?.(name) ?? ctx.db, databaseName: name, viewer: viewerOn(ctx.viewer, name) };
  const [[phones], [emails]] = await rowsOf(on.db, [peopleToFix(listId, "phone_numbers"), peopleToFix(listId, "email_addresses")]);
  // The merge pages' own finder, run as a listing would run it: the badge counts the pairs those pages show.
  const duplicates = await countDuplicatePairs(on.db, [listId], ctx.now);
  const counts: Record<(typeof COUNT_TYPES)[number], number> = {
    "fix-commitment-info": await contactsMatching(on, listId, { status_valid: "false" }),
    "fix-phone-numbers": Number(phones?.count ?? 0),
    "fix-email-addresses": Number(emails?.count ?? 0),
    "fix-addresses": await contactsMatching(on, listId, { address_valid: "false" }),
    "fix-send-newsletter": await contactsMatching(on, listId, { newsletter: "no_value", status: "Partner - Financial,Partner - Special,Partner - Pray" }),
    "duplicate-contacts": duplicates.contacts,
    "duplicate-people": duplicates.people,
  };
  return { id: listId, counts: COUNT_TYPES.map((type) => ({ type, count: counts[type] })) };
}

/** Runs on the directory (src/db/placement.ts), and counts each list where it is placed. */
async function answer(c: Context<AppEnv>, ctx: RequestContext) {
  const lists = summaryLists(ctx);
  if (lists.length === 0) throw recordNotFound("AccountList", "");
  const document = await showResource(toolsAnalyticsResource, lists[0], ctx);
  const countsByType = await Promise.all(lists.map((listId) => countsOfList(ctx, listId)));
  if (document.data.attributes && "counts_by_type" in document.data.attributes) document.data.attributes.counts_by_type = countsByType;
  return jsonApi(c, document);
}

// A POST sent with `X-HTTP-Method-Override: GET` arrives here as a GET (src/jsonapi/method-override.ts).
export const toolsAnalyticsRoutes = new Hono<AppEnv>().get(
  "/",
  described((c: Context<AppEnv>) => answer(c, requestContext(c)), { action: "show", resource: toolsAnalyticsResource }),
);
