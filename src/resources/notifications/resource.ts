import { sql } from "drizzle-orm";
import { notifications, TASK_DELETION, tasks } from "../../../drizzle/schema";
import { accountListRelationship } from "../../engine/account-list-scope";
import { boolean, date } from "../../engine/attributes";
import { defineResource, type BatchStatement } from "../../engine/define";
import { booleanFilter, idsFilter, rangeFilter } from "../../engine/filters";
import { recordDeletionsIn } from "../../engine/deletions";
import { belongsTo } from "../../engine/relationships";

/**
 * Notifications of an account list (src/events raises them): the ones the list's preference showed in the app.
 * Clients read them and mark them cleared; clearing one removes its task if that is still open.
 */
export const notificationResource = defineResource({
  type: "notifications",
  model: "Notification",
  table: notifications,
  accountListColumn: notifications.accountListId,
  // Notifications raised only for a task or an e-mail are not the app's: not found, like any other id.
  scope: () => sql`${notifications.app} = 1`,
  scopeHidesRows: true,
  attributes: {
    cleared: boolean(notifications.cleared),
    event_date: date(notifications.eventDate),
  },
  relationships: {
    account_list: accountListRelationship(notifications.accountListId),
    contact: belongsTo("contacts", notifications.contactId),
    donation: belongsTo("donations", notifications.donationId),
    notification_type: belongsTo("notification_type", notifications.notificationTypeId),
  },
  sorts: { created_at: notifications.createdAt, event_date: notifications.eventDate },
  filters: {
    cleared: booleanFilter(notifications.cleared),
    event_date: rangeFilter("event_date", notifications.eventDate, "date"),
    notification_type_id: idsFilter(notifications.notificationTypeId),
    contact_id: idsFilter(notifications.contactId),
  },
  hooks: {
    sideWrites: (id, values, _input, ctx, existing) => {
      if (values.cleared !== true || existing?.cleared === true) return [];
      const openTask = sql`${tasks.notificationId} = ${id} AND ${tasks.completed} = 0`;
      return [
        recordDeletionsIn(TASK_DELETION, openTask, ctx),
        ctx.db.delete(tasks).where(openTask) as unknown as BatchStatement,
      ];
    },
  },
});
