/**
 * Coaching as the clients read it: `/user/account_list_coaches` (the viewer's coachings, each a list they coach,
 * type `account_list_coaches`) and `/coaching/account_lists` (the lists they coach, as account lists). A list's
 * coaches themselves are its members (members.ts).
 */
import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { accountListCoaches, accountLists } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import { defineResource, type ResourceDef } from "../../engine/define";
import { belongsTo } from "../../engine/relationships";
import { clientObject } from "../../jsonapi/params";
import { accountListResource } from "./resource";

export const accountListCoachResource = defineResource({
  type: "account_list_coaches",
  model: "AccountListCoach",
  table: accountListCoaches,
  // The viewer's own coachings: what they coach, not who coaches their lists.
  scope: (ctx) => sql`${q(accountListCoaches.userId)} = ${ctx.viewer.id}`,
  // Another user's coaching is not there.
  scopeHidesRows: true,
  attributes: {},
  relationships: {
    coach: belongsTo("users", accountListCoaches.userId),
    account_list: belongsTo("account_lists", accountListCoaches.accountListId),
  },
  sorts: { created_at: accountListCoaches.createdAt, updated_at: accountListCoaches.updatedAt },
});

/** The lists the viewer coaches (a list they are also a user of is theirs, not coached). */
export const coachedListResource: ResourceDef = {
  ...accountListResource,
  scope: (ctx) =>
    sql`${q(accountLists.id)} IN (SELECT ${q(accountListCoaches.accountListId)} FROM ${accountListCoaches} WHERE ${q(accountListCoaches.userId)} = ${ctx.viewer.id})`,
  sorts: Object.assign(clientObject<SQL | SQLiteColumn>(), accountListResource.sorts, {
    name: accountLists.name,
    active_mpd_start_at: accountLists.activeMpdStartAt,
    active_mpd_finish_at: accountLists.activeMpdFinishAt,
  }),
};
