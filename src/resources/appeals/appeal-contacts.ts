/**
 * The contacts asked in an appeal and those excluded from it, at /appeals/<appeal_id>/appeal_contacts and
 * /appeals/<appeal_id>/excluded_appeal_contacts. Both are reached through their appeal: `appealParent` checks
 * it first, and the resources are scoped to it.
 */
import { createMiddleware } from "hono/factory";
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { appealContacts, appealExcludedContacts, appeals, contacts, pledges } from "../../../drizzle/schema";
import { and, inList, not, q } from "../../db/sql";
import { isWriteRequest, sameListRelationship } from "../../engine/account-list-scope";
import { stored } from "../../engine/attributes";
import { defineResource, type RequestContext } from "../../engine/define";
import { belongsTo, relatedSort } from "../../engine/relationships";
import { alreadyTaken } from "../../engine/uniqueness";
import type { AppEnv } from "../../env";
import { onDatabaseOfParent } from "../../routes/parent-database";
import { forbidden, recordNotFound } from "../../jsonapi/errors";
import { booleanValue } from "../../jsonapi/filter-values";
import { contactTarget } from "../donations/list-records";

/** For routes under /appeals/:appeal_id: 404 unknown appeal, 403 someone else's (or a write by a coach). */
export const appealParent = createMiddleware<AppEnv>(async (c, next) => {
  const id = c.req.param("appeal_id")?.toLowerCase();
  const writing = isWriteRequest(c);
  if (id) {
    await onDatabaseOfParent(c, async (ctx) => {
      const [appeal] = await ctx.db.select({ listId: appeals.accountListId }).from(appeals).where(sql`${appeals.id} = ${id}`).limit(1);
      if (!appeal) throw recordNotFound("Appeal", id);
      const allowed = writing ? ctx.viewer.writableListIds : ctx.viewer.readableListIds;
      if (!allowed.includes(appeal.listId)) throw forbidden(id, "appeals");
    });
  }
  await next();
});

/** Rows of appeals in the given lists, limited to the appeal in the path when there is one. */
function appealScope(appealColumn: SQLiteColumn, listIds: string[], ctx: RequestContext): SQL | undefined {
  const appealIds = sql`(SELECT ${q(appeals.id)} FROM ${appeals} WHERE ${inList(q(appeals.accountListId), listIds)})`;
  return and([sql`${q(appealColumn)} IN ${appealIds}`, ctx.pathParams.appeal_id ? sql`${q(appealColumn)} = ${ctx.pathParams.appeal_id}` : undefined]);
}

async function appealList(ctx: RequestContext): Promise<string> {
  const [appeal] = await ctx.db.select({ listId: appeals.accountListId }).from(appeals).where(sql`${appeals.id} = ${ctx.pathParams.appeal_id}`).limit(1);
  return appeal.listId;
}

export const appealContactResource = defineResource({
  type: "appeal_contacts",
  model: "AppealContact",
  table: appealContacts,
  parentParam: "appeal_id",
  scope: (ctx) => appealScope(appealContacts.appealId, ctx.viewer.readableListIds, ctx),
  writeScope: (ctx) => appealScope(appealContacts.appealId, ctx.viewer.writableListIds, ctx),
  attributes: {},
  relationships: {
    appeal: belongsTo("appeals", appealContacts.appealId),
    contact: sameListRelationship("contact", contactTarget, appealContacts.contactId, appealList),
  },
  sorts: { "contact.name": relatedSort(appealContacts.contactId, contacts.name) },
  filters: {
    // Contacts who have (true) or have not yet (false) pledged to the appeal.
    pledged_to_appeal: (value) => {
      const wanted = booleanValue(value);
      if (wanted === undefined) return undefined;
      const pledged = sql`EXISTS (SELECT 1 FROM ${pledges} WHERE ${q(pledges.appealId)} = ${q(appealContacts.appealId)} AND ${q(pledges.contactId)} = ${q(appealContacts.contactId)})`;
      return wanted ? pledged : not(pledged);
    },
  },
  hooks: {
    beforeCreate: async (changes, _input, ctx) => {
      if (!changes.contact) return [{ attribute: "contact", message: "can't be blank", pointer: "/data/relationships/contact" }];
      return alreadyTaken(ctx, "contact", appealContacts.id, [
        [appealContacts.appealId, changes.appeal],
        [appealContacts.contactId, changes.contact],
      ]);
    },
    // Asking a contact that was excluded overrides the exclusion.
    sideWrites: (_id, changes, _input, ctx, existing) =>
      existing
        ? []
        : [
            ctx.db
              .delete(appealExcludedContacts)
              .where(sql`${appealExcludedContacts.appealId} = ${changes.appeal} AND ${appealExcludedContacts.contactId} = ${changes.contact}`) as never,
          ],
  },
});

export const excludedAppealContactResource = defineResource({
  type: "excluded_appeal_contacts",
  model: "ExcludedAppealContact",
  table: appealExcludedContacts,
  storedAs: "appeal_excluded_appeal_contacts",
  parentParam: "appeal_id",
  scope: (ctx) => appealScope(appealExcludedContacts.appealId, ctx.viewer.readableListIds, ctx),
  writeScope: (ctx) => appealScope(appealExcludedContacts.appealId, ctx.viewer.writableListIds, ctx),
  attributes: {
    reasons: stored(appealExcludedContacts.reasons),
  },
  relationships: {
    appeal: belongsTo("appeals", appealExcludedContacts.appealId),
    contact: belongsTo("contacts", appealExcludedContacts.contactId),
  },
  sorts: { "contact.name": relatedSort(appealExcludedContacts.contactId, contacts.name) },
});

/** Nested routes fix the appeal from the path on create. */
export const parentAppeal = (ctx: RequestContext) => ({ appeal: ctx.pathParams.appeal_id });
