/**
 * GET /api/v2/tools/analytics (`tools_analytics`): what the web app's Tools menu counts for each list a request
 * covers: contacts and people whose details need fixing, and duplicate pairs to merge. The contact counts are those
 * of the contacts list under the fix-up pages' own filters, so each page lists exactly what its count says.
 */
import { sql, type SQL } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { accountLists, contacts, keptSums, people } from "../../../drizzle/schema";
import { HIDDEN_STATUSES } from "../../constants";
import { databaseOfList, viewerOn } from "../../db/placement";
import { noneOf, notAmong, oneOf, q } from "../../db/sql";
import { rowsOf } from "../../db/statements";
import { derived } from "../../engine/attributes";
import { requestContext } from "../../engine/context";
import { defineResource, type RequestContext } from "../../engine/define";
import { showResource } from "../../read/records";
import { described } from "../../engine/route-descriptions";
import { summaryLists, summaryScope } from "../../read/summaries";
import type { AppEnv } from "../../env";
import { recordNotFound } from "../../jsonapi/errors";
import { jsonApi } from "../../jsonapi/respond";
import { countDuplicatePairs } from "../duplicates/finder";

/** The statuses the send-newsletter fix-up page lists (the web app's filter). */
const NEWSLETTER_STATUSES = ["Partner - Financial", "Partner - Special", "Partner - Pray"];

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

/**
 * The counts come from kept rows (drizzle/kept-sums.ts): a status's contacts marked, or the contacts and people with
 * an invalid detail or more than one primary one (a repeated group, in the partial index of those). Each reads the
 * records to fix, never the list. They count what the fix-up pages list: the contacts list under the pages' own
 * filters (hidden statuses left out unless a status is named), people of the contacts it shows.
 */
const SHOWN = (status: SQL) => notAmong(status, HIDDEN_STATUSES);

/** The contacts of statuses `statuses` (every shown one when not given) that kind `kind` marks. */
const contactsMarked = (listId: string, kind: string, statuses?: readonly string[]) =>
  sql`SELECT COALESCE(SUM(${q(keptSums.rows)}), 0) AS "count" FROM ${keptSums} WHERE ${q(keptSums.kind)} = ${kind} AND ${q(keptSums.ownerId)} = ${listId}
    AND ${statuses ? oneOf(q(keptSums.key1), statuses) : noneOf(q(keptSums.key1), HIDDEN_STATUSES)}`;

/** The ids kept by `kind` with a row marked invalid, and by `primary` with more than one primary row. */
const toFix = (listId: string, invalid: string, primary: string) =>
  sql`SELECT ${q(keptSums.key1)} FROM ${keptSums} WHERE ${q(keptSums.kind)} = ${invalid} AND ${q(keptSums.ownerId)} = ${listId}
    UNION SELECT ${q(keptSums.key1)} FROM ${keptSums} WHERE ${q(keptSums.kind)} = ${primary} AND ${q(keptSums.ownerId)} = ${listId} AND ${q(keptSums.rows)} > 1`;

const contactsToFix = (listId: string) => sql`SELECT count(*) AS "count" FROM ${contacts}
  WHERE ${q(contacts.id)} IN (${toFix(listId, "addresses_invalid", "addresses_primary")}) AND ${q(contacts.accountListId)} = ${listId} AND ${SHOWN(q(contacts.status))}`;

const peopleToFix = (listId: string, details: "emails" | "phones") => sql`SELECT count(*) AS "count" FROM ${people} p JOIN ${contacts} c ON c.id = p.contact_id
  WHERE p.id IN (${toFix(listId, `${details}_invalid`, `${details}_primary`)}) AND c.account_list_id = ${listId} AND ${SHOWN(sql`c.status`)}`;

async function countsOfList(ctx: RequestContext, listId: string) {
  // The list's own database, the viewer as it sees them.
  const name = databaseOfList(ctx.viewer, listId);
  const on: RequestContext = { ...ctx, db: ctx.databaseOn?.(name) ?? ctx.db, databaseName: name, viewer: viewerOn(ctx.viewer, name) };
  const [[commitments], [newsletters], [addresses], [phones], [emails]] = await rowsOf(on.db, [
    contactsMarked(listId, "contacts_status_invalid"),
    contactsMarked(listId, "contacts_newsletter_blank", NEWSLETTER_STATUSES),
    contactsToFix(listId),
    peopleToFix(listId, "phones"),
    peopleToFix(listId, "emails"),
  ]);
  // The merge pages' own finder, run as a listing would run it: the badge counts the pairs those pages show.
  const duplicates = await countDuplicatePairs(on.db, [listId], ctx.now);
  const counts: Record<(typeof COUNT_TYPES)[number], number> = {
    "fix-commitment-info": Number(commitments?.count ?? 0),
    "fix-phone-numbers": Number(phones?.count ?? 0),
    "fix-email-addresses": Number(emails?.count ?? 0),
    "fix-addresses": Number(addresses?.count ?? 0),
    "fix-send-newsletter": Number(newsletters?.count ?? 0),
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
