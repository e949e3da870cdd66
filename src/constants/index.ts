// Constant list resource (type constant_list, id constantlist): the lookup tables
// served as its attributes, assembled from the data modules in this folder.

import {
  ACTIVITIES,
  ACTIVITY_HASHES,
  ALERT_FREQUENCIES,
  MOBILE_ALERT_FREQUENCIES,
  NEXT_ACTIONS,
  RESULTS,
} from "./activities";
import {
  LABEL_TYPES,
  LIKELY_TO_GIVE,
  LIKELY_TO_GIVE_HASHES,
  LOCATIONS,
  LOCATION_HASHES,
  PLEDGE_FREQUENCIES,
  PLEDGE_FREQUENCY_HASHES,
  PLEDGE_RECEIVED,
  PLEDGE_RECEIVED_HASHES,
  SEND_NEWSLETTER,
  SEND_NEWSLETTER_HASHES,
  STATUSES,
  STATUS_HASHES,
} from "./contacts";
import { CURRENCY_CODES, PLEDGE_CURRENCIES } from "./currencies";
import { PLEDGE_CURRENCY_HASHES } from "./currency-options";
import { DATE_FORMATS, LANGUAGES, LANGUAGE_HASHES, LOCALES } from "./locales";
import { CSV_IMPORT_CONSTANTS, MAX_FILE_SIZE_IN_BYTES } from "./csv-import";
import { NOTIFICATIONS, NOTIFICATION_HASHES } from "./notifications";
import { ORGANIZATIONS_ATTRIBUTES, ORGANIZATION_NAMES } from "./organizations";
import { WEBHOOK_EVENT_TYPES } from "./webhooks";

export * from "./activities";
export * from "./contacts";
export * from "./currencies";
export * from "./currency-options";
export * from "./csv-import";
export * from "./locales";
export * from "./notifications";
export * from "./organizations";
export * from "./webhooks";

export const CONSTANT_LIST_TYPE = "constant_list";
export const CONSTANT_LIST_ID = "constantlist";

/** Pledge currencies keyed by their upper-case code, as the web app's contact bulk edit looks them up. */
const PLEDGE_CURRENCIES_BY_CODE = Object.fromEntries(Object.values(PLEDGE_CURRENCIES).map((currency) => [currency.code, currency]));

export const constantsAttributes: Record<string, unknown> = {
  activities: ACTIVITIES,
  activity_hashes: ACTIVITY_HASHES,
  alert_frequencies: ALERT_FREQUENCIES,
  mobile_alert_frequencies: MOBILE_ALERT_FREQUENCIES,
  assignable_likely_to_give: LIKELY_TO_GIVE,
  assignable_locations: LOCATIONS,
  assignable_send_newsletter: SEND_NEWSLETTER,
  assignable_statuses: STATUSES,
  statuses: STATUSES,
  codes: CURRENCY_CODES,
  next_actions: NEXT_ACTIONS,
  results: RESULTS,
  notifications: NOTIFICATIONS,
  notification_hashes: NOTIFICATION_HASHES,
  organizations: ORGANIZATION_NAMES,
  organizations_attributes: ORGANIZATIONS_ATTRIBUTES,
  pledge_frequencies: PLEDGE_FREQUENCIES,
  webhook_event_types: WEBHOOK_EVENT_TYPES,
  pledge_frequency_hashes: PLEDGE_FREQUENCY_HASHES,
  pledge_currencies: PLEDGE_CURRENCIES,
  pledge_currency_hashes: PLEDGE_CURRENCY_HASHES,
  csv_import: CSV_IMPORT_CONSTANTS,
  // The web app's Tnt import page reads its size limit before it takes a file: the limit of every upload here.
  tnt_import: { max_file_size_in_bytes: MAX_FILE_SIZE_IN_BYTES },
  dates: DATE_FORMATS,
  label_types: LABEL_TYPES,
  languages: LANGUAGES,
  language_hashes: LANGUAGE_HASHES,
  locales: LOCALES,
  assignable_likely_to_give_hashes: LIKELY_TO_GIVE_HASHES,
  assignable_location_hashes: LOCATION_HASHES,
  assignable_send_newsletter_hashes: SEND_NEWSLETTER_HASHES,
  assignable_status_hashes: STATUS_HASHES,
  // What the web app reads: the contact status select, the contact bulk edit's choices, and the notification
  // preferences page (each type's key beside its description).
  status_hashes: STATUS_HASHES,
  // In the original's order: the web app shows the fields in the order it receives them.
  bulk_update_options: {
    likely_to_give: LIKELY_TO_GIVE,
    send_newsletter: SEND_NEWSLETTER,
    pledge_currency: PLEDGE_CURRENCIES_BY_CODE,
    pledge_received: PLEDGE_RECEIVED,
    status: STATUSES,
  },
  notification_translated_hashes: NOTIFICATION_HASHES,
  bulk_update_option_hashes: {
    likely_to_give: LIKELY_TO_GIVE_HASHES,
    locale: LANGUAGE_HASHES,
    pledge_currency: PLEDGE_CURRENCY_HASHES,
    pledge_frequency: PLEDGE_FREQUENCY_HASHES,
    pledge_received: PLEDGE_RECEIVED_HASHES,
    send_newsletter: SEND_NEWSLETTER_HASHES,
    status: STATUS_HASHES,
  },
};
