/**
 * The entry point for notifications that imports raise (a new partner from the donation system, a subscription
 * form, an address from the donation system). This service runs no such import yet; one that does calls
 * `raiseNotification` for each event it finds, and the notification then takes the same channels, with the same
 * exactly-once keys, as a detected one.
 */
import { sql } from "drizzle-orm";
import { NOTIFICATION_TYPE_IDS, type NotificationTypeKey } from "../constants/notifications";
import { database } from "../db/client";
import { randomUuid } from "../db/sql";
import { rowsChanged } from "../db/statements";
import type { Bindings } from "../env";
import { nowTimestamp } from "../jsonapi/time";
import { sendDueEmails } from "./outbox";
import { deliverRaised } from "./run";

export const IMPORT_RAISED_TYPES = [
  "new_partner_duplicate_merged",
  "new_partner_duplicate_not_merged",
  "new_partner_no_duplicate",
  "new_form_subscriber",
  "new_form_subscriber_existing_contact",
  "new_donation_system_address",
] as const satisfies readonly NotificationTypeKey[];

export type ImportRaisedType = (typeof IMPORT_RAISED_TYPES)[number];

export interface RaisedEvent {
  accountListId: string;
  contactId: string;
  type: ImportRaisedType;
  /** What makes this event one of its own for the contact, e.g. the import's record id: raised once per value. */
  occurrence: string;
  eventDate?: string;
  donationId?: string;
  /** The time it is raised at (defaults to now). */
  at?: string;
}

/**
 * Raises the event when the list's preference for its type turns a channel on; answers whether a notification
 * was stored (false: no channel, an unknown contact of the list, or raised before).
 */
export async function raiseNotification(env: Bindings, event: RaisedEvent): Promise<boolean> {
  const db = database(env.DB);
  const at = event.at ?? nowTimestamp();
  const typeId = NOTIFICATION_TYPE_IDS[event.type];
  const eventKey = `${event.type}:${event.contactId}:${event.occurrence}`;
  const [raised] = await rowsChanged(db, [
    sql`INSERT INTO notifications (id, account_list_id, contact_id, notification_type_id, donation_id, event_date, event_key, app, wants_task, wants_email, created_at, updated_at)
      SELECT ${randomUuid()}, c.account_list_id, c.id, ${typeId}, ${event.donationId ?? null}, ${event.eventDate ?? at.slice(0, 10)}, ${eventKey}, p.app, p.task, p.email, ${at}, ${at}
      FROM contacts c JOIN notification_preferences p ON p.account_list_id = c.account_list_id AND p.notification_type_id = ${typeId}
      WHERE c.id = ${event.contactId} AND c.account_list_id = ${event.accountListId} AND (p.app = 1 OR p.email = 1 OR p.task = 1)
      ON CONFLICT (event_key) DO NOTHING`,
  ]);
  if (raised === 0) return false;
  await deliverRaised(env, { accountListId: event.accountListId, runAt: at });
  await sendDueEmails(env, at, event.accountListId);
  return true;
}
