import { sql } from "drizzle-orm";
import { notificationPreferences, notificationTypes } from "../../../drizzle/schema";
import { boolean, stored } from "../../engine/attributes";
import { accountListRelationship } from "../../engine/account-list-scope";
import { defineResource } from "../../engine/define";
import { belongsTo } from "../../engine/relationships";
import { alreadyTaken } from "../../engine/uniqueness";
import { recordNotFound } from "../../jsonapi/errors";

/**
 * The twenty notification types; read-only, included from preferences. Responses name this type
 * `notification_type` (singular) everywhere, linkage and included alike; requests may write either form.
 */
export const notificationTypeResource = defineResource({
  type: "notification_type",
  model: "NotificationType",
  table: notificationTypes,
  attributes: {
    key: stored(notificationTypes.key),
    description: stored(notificationTypes.description),
  },
  relationships: {},
});

export const notificationPreferenceResource = defineResource({
  type: "notification_preferences",
  model: "NotificationPreference",
  table: notificationPreferences,
  accountListColumn: notificationPreferences.accountListId,
  attributes: {
    app: boolean(notificationPreferences.app),
    email: boolean(notificationPreferences.email),
    task: boolean(notificationPreferences.task),
  },
  relationships: {
    account_list: accountListRelationship(notificationPreferences.accountListId),
    notification_type: belongsTo("notification_type", notificationPreferences.notificationTypeId, {
        acceptTypes: ["notification_types", "notification_type"],
        check: async (id, ctx) => {
          const [found] = await ctx.db.select({ id: notificationTypes.id }).from(notificationTypes).where(sql`${notificationTypes.id} = ${id}`).limit(1);
          if (!found) throw recordNotFound("NotificationType", id);
        },
      }),
  },
  hooks: {
    beforeCreate: async (changes, _input, ctx) => {
      if (!changes.notification_type) {
        return [{ attribute: "notification_type", message: "can't be blank", pointer: "/data/relationships/notification_type" }];
      }
      // One preference per notification type and list.
      return alreadyTaken(ctx, "notification_type", notificationPreferences.id, [
        [notificationPreferences.accountListId, changes.account_list],
        [notificationPreferences.notificationTypeId, changes.notification_type],
      ]);
    },
    beforeUpdate: async (changes, existing, _input, ctx) => {
      if (!changes.notification_type || changes.notification_type === existing.notificationTypeId) return;
      return alreadyTaken(ctx, "notification_type", notificationPreferences.id, [
        [notificationPreferences.accountListId, existing.accountListId],
        [notificationPreferences.notificationTypeId, changes.notification_type],
      ]);
    },
  },
});
