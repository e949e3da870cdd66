/**
 * The webhook event catalogue: `resource.action` names an endpoint may subscribe to (or `*` for all of them).
 * Answered by GET /api/v2/constants as `webhook_event_types`.
 */
export const WEBHOOK_EVENT_TYPES = [
  "contact.created",
  "contact.updated",
  "contact.deleted",
  "task.created",
  "task.updated",
  "task.completed",
  "task.deleted",
  "donation.created",
  "donation.updated",
  "donation.deleted",
  "notification.created",
  "import.completed",
  "webhook.test",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Subscribes to every type of the catalogue, including types added later. */
export const ALL_WEBHOOK_EVENTS = "*";
