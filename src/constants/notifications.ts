/**
 * The twenty notification types. Each is a row of `notification_types` (the migration writes these rows) whose id
 * never changes: clients link a notification preference to a type by this id, and read the type's description from
 * `constants.notifications`, which is keyed by the same id in the original's underscore form (its serializer turned
 * every hash key's dashes into underscores). `key` is the type's name in this service (events, seeds, logs).
 */
export const NOTIFICATION_TYPES = [
  { key: "call_partner_once_per_year", id: "0e952d6f-6fa3-4c3a-acd4-2ac13782eed6", description: "Partner have not had an attempted call logged in the past year" },
  { key: "larger_gift", id: "7c9c8ce5-5c38-4d2b-a4bf-0f89b600966a", description: "Partner gave a larger gift than commitment" },
  { key: "long_time_frame_gift", id: "284ab57b-d33a-40ab-8915-70a32c3d0332", description: "Partner gave with a commitment of semi-annual or longer" },
  { key: "missing_address_in_newsletter", id: "14dc3f90-0f5c-41fa-b699-1e3e528c60e9", description: "Contact is on the physical newsletter but has no mailing address" },
  { key: "missing_email_in_newsletter", id: "e39c212c-bbbb-4fef-800d-06a651ad1cab", description: "Contact is on the email newsletter but has no people with a valid email address" },
  { key: "new_form_subscriber", id: "ff4dbad9-7136-41be-a087-0027c1e3a1dc", description: "New contact added from a subscription form" },
  { key: "new_form_subscriber_existing_contact", id: "9cc17612-960a-46f0-9a0b-f90d87d75e10", description: "Existing contact signed up through a subscription form" },
  { key: "new_partner_duplicate_merged", id: "0af09878-8bc9-4325-8495-f7397d5c233e", description: "New partner added and merged with a duplicate contact" },
  { key: "new_partner_duplicate_not_merged", id: "d61b7881-0f38-45f9-940d-82e659d593e1", description: "New partner added but a possible duplicate was not merged" },
  { key: "new_partner_no_duplicate", id: "ce74eaaf-6258-42ab-ae98-2807b5251175", description: "New partner added with no duplicate found" },
  { key: "recontinuing_gift", id: "54e07cac-65c1-4ae4-a856-2b61b62c4262", description: "Partner recontinued giving" },
  { key: "remind_partner_in_advance", id: "971ffd97-9b91-443d-9a20-fe96d5527bd7", description: "Partner's expected donation is one month away" },
  { key: "smaller_gift", id: "3f99d982-8ac1-44bc-b729-636d5fc75da4", description: "Partner gave less than commitment" },
  { key: "special_gift", id: "bb280f24-4061-4374-b067-cc56e177e81a", description: "Partner gave a special gift" },
  { key: "started_giving", id: "cfac89fa-20d8-410a-9910-213433528637", description: "Partner started giving" },
  { key: "stopped_giving", id: "284ca201-922a-4c31-91f8-f3662e06482c", description: "Partner missed a gift" },
  { key: "thank_partner_once_per_year", id: "54c951d3-d758-487b-be20-335935a45890", description: "Partner have not had a thank you note logged in the past year" },
  { key: "upcoming_anniversary", id: "f30bba40-0be8-48f3-a917-173b82e21e4b", description: "There is an anniversary coming up" },
  { key: "upcoming_birthday", id: "620827e0-4709-4d55-90a4-67e720be84d3", description: "There is a birthday coming up" },
  { key: "new_donation_system_address", id: "665440d0-4e7e-4bb7-8a37-e0cf9845d12e", description: "New address received from the donation system" },
] as const;

export type NotificationTypeKey = (typeof NOTIFICATION_TYPES)[number]["key"];

export const NOTIFICATION_TYPE_KEYS: readonly NotificationTypeKey[] = NOTIFICATION_TYPES.map((type) => type.key);

/** The stable id of each type, by key. */
export const NOTIFICATION_TYPE_IDS = Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type.key, type.id])) as Record<NotificationTypeKey, string>;

/** `constants.notifications`: description by type id in underscore form. */
export const NOTIFICATIONS: Record<string, string> = Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type.id.replace(/-/g, "_"), type.description]));

/**
 * `constants.notification_translated_hashes` (and `notification_hashes`): the preferences page of the web app lists
 * these and links each preference to the type whose id is `key`.
 */
export const NOTIFICATION_HASHES = NOTIFICATION_TYPES.map((type) => ({ id: type.description, key: type.id, value: type.description }));
