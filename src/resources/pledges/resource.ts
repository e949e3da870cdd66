/**
 * Pledges of an account list, at /account_lists/<id>/pledges: a contact's commitment, usually to an appeal,
 * with the donations that fulfil it. Appeal totals are sums over this table by status.
 */
import { sql } from "drizzle-orm";
import { contacts, pledgeDonations, pledges } from "../../../drizzle/schema";
import { inList, q } from "../../db/sql";
import { checkSameList, sameListRelationship } from "../../engine/account-list-scope";
import { currencyCode, date, money, stored, withWrite } from "../../engine/attributes";
import { defineResource, type BatchStatement, type RequestContext, type Row, type WriteInput } from "../../engine/define";
import { belongsTo, manyBy, relatedSort } from "../../engine/relationships";
import { conflict, type FieldError } from "../../jsonapi/errors";
import { listValue } from "../../jsonapi/filter-values";
import { toManyLinkage } from "../../jsonapi/request-document";
import { listCurrency } from "../donations/money";
import { appealTarget, contactTarget, donationTarget, idsFilter, pathList } from "../donations/list-records";

export const PLEDGE_STATUSES = ["not_received", "received_not_processed", "processed"] as const;

const status = withWrite(stored(pledges.status), (value) => {
  if (value === null || value === undefined || value === "") return { ok: true, value: PLEDGE_STATUSES[0] };
  return typeof value === "string" && (PLEDGE_STATUSES as readonly string[]).includes(value)
    ? { ok: true, value }
    : { ok: false, message: "is not included in the list" };
});

/** The donations sent as a to-many relationship, checked to be donations of the pledge's list. */
async function requestedDonations(input: WriteInput, ctx: RequestContext): Promise<string[] | undefined> {
  if (!("donations" in input.relationships)) return undefined;
  const linkage = toManyLinkage(input.relationships.donations, "donations");
  linkage.forEach(({ type }, index) => {
    if (type !== "donations") {
      throw conflict(`'${type}' is not a valid resource type for relationship donations. Expected 'donations' instead`, {
        pointer: `/data/relationships/donations/data/${index}/type`,
      });
    }
  });
  const ids = [...new Set(linkage.map(({ id }) => id))];
  await checkSameList(donationTarget, ids, pathList(ctx), ctx, "donations");
  return ids;
}

/** One pledge per contact and appeal. */
async function duplicateError(pledgeId: string, contactId: unknown, appealId: unknown, ctx: RequestContext): Promise<FieldError[] | undefined> {
  if (!contactId || !appealId) return undefined;
  const [taken] = await ctx.db
    .select({ id: pledges.id })
    .from(pledges)
    .where(sql`${pledges.appealId} = ${appealId} AND ${pledges.contactId} = ${contactId} AND ${pledges.id} <> ${pledgeId}`)
    .limit(1);
  if (!taken) return undefined;
  return [{ attribute: "contact", message: "already has a pledge for this appeal", pointer: "/data/relationships/contact" }];
}

function replaceDonations(pledgeId: string, donationIds: string[], ctx: RequestContext): BatchStatement[] {
  const statements = [ctx.db.delete(pledgeDonations).where(sql`${pledgeDonations.pledgeId} = ${pledgeId}`)];
  if (donationIds.length > 0) {
    statements.push(
      // An insert-select: one statement and two parameters however many donations.
      ctx.db.insert(pledgeDonations).select(sql`SELECT ${pledgeId}, value FROM json_each(${JSON.stringify(donationIds)})`) as never,
    );
  }
  return statements as unknown as BatchStatement[];
}


export const pledgeResource = defineResource({
  type: "pledges",
  model: "Pledge",
  table: pledges,
  accountListColumn: pledges.accountListId,
  attributes: {
    amount: money(pledges.amount, { required: true }),
    amount_currency: currencyCode(pledges.amountCurrency),
    expected_date: date(pledges.expectedDate),
    status,
  },
  relationships: {
    account_list: belongsTo("account_lists", pledges.accountListId),
    contact: sameListRelationship("contact", contactTarget, pledges.contactId, pathList),
    appeal: sameListRelationship("appeal", appealTarget, pledges.appealId, pathList, { nullable: true }),
    donations: manyBy(
      "donations",
      () => sql`(SELECT json_group_array(id) FROM (SELECT ${q(pledgeDonations.donationId)} AS id FROM ${pledgeDonations} WHERE ${q(pledgeDonations.pledgeId)} = ${q(pledges.id)} ORDER BY 1))`,
    ),
  },
  sorts: { amount: pledges.amount, expected_date: pledges.expectedDate, "contact.name": relatedSort(pledges.contactId, contacts.name) },
  filters: {
    appeal_id: idsFilter(pledges.appealId),
    contact_id: idsFilter(pledges.contactId),
    status: (value) => {
      const statuses = listValue(value);
      return statuses.length > 0 ? inList(pledges.status, statuses) : undefined;
    },
  },
  hooks: {
    beforeCreate: async (changes, input, ctx) => {
      if (!changes.contact) return [{ attribute: "contact", message: "can't be blank", pointer: "/data/relationships/contact" }];
      const duplicate = await duplicateError(input.id, changes.contact, changes.appeal, ctx);
      if (duplicate) return duplicate;
      changes.amount_currency ??= await listCurrency(String(changes.account_list), ctx);
      changes.donations = await requestedDonations(input, ctx);
    },
    beforeUpdate: async (changes, existing: Row, input, ctx) => {
      const contact = "contact" in changes ? changes.contact : existing.contactId;
      const appeal = "appeal" in changes ? changes.appeal : existing.appealId;
      const duplicate = await duplicateError(input.id, contact, appeal, ctx);
      if (duplicate) return duplicate;
      if ("amount_currency" in changes && changes.amount_currency === null) {
        changes.amount_currency = await listCurrency(String(existing.accountListId), ctx);
      }
      changes.donations = await requestedDonations(input, ctx);
    },
    sideWrites: (id, changes, _input, ctx) => (Array.isArray(changes.donations) ? replaceDonations(id, changes.donations as string[], ctx) : []),
  },
});
