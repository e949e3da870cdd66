/**
 * The CSV import's lists (served as `csv_import` in /api/v2/constants): the headers a file's columns can be mapped
 * to, the constants some of them map to, and the largest file taken. The clients' mapping pages and the import
 * (src/imports) read the same lists.
 */
import { LIKELY_TO_GIVE_HASHES, PLEDGE_FREQUENCIES, PLEDGE_RECEIVED_HASHES, SEND_NEWSLETTER_HASHES, STATUS_HASHES } from "./contacts";
import { CSV_IMPORT_PLEDGE_CURRENCY_OPTIONS } from "./currency-options";

/** The largest file taken, in bytes: well under the 100 MB a Worker's request body may be on every plan. */
export const MAX_FILE_SIZE_IN_BYTES = 50 * 1024 * 1024;
/** The headers a column can be mapped to, with the label the clients show (in the order they show them). */
export const SUPPORTED_HEADERS: Record<string, string> = {
  church: "Church",
  city: "City",
  pledge_amount: "Commitment Amount",
  pledge_currency: "Commitment Currency",
  pledge_frequency: "Commitment Frequency",
  pledge_received: "Commitment Received",
  country: "Country",
  email_1: "Email 1",
  email_2: "Email 2",
  envelope_greeting: "Envelope Greeting",
  first_name: "First Name",
  full_name: "Full Name",
  greeting: "Greeting",
  last_name: "Last Name",
  likely_to_give: "Likely To Give",
  metro_area: "Metro Area",
  newsletter: "Newsletter",
  notes: "Notes",
  phone_1: "Phone 1",
  phone_2: "Phone 2",
  phone_3: "Phone 3",
  referred_by: "Referred By",
  region: "Region",
  send_appeals: "Send Appeals?",
  spouse_email: "Spouse Email",
  spouse_first_name: "Spouse First Name",
  spouse_last_name: "Spouse Last Name",
  spouse_phone: "Spouse Phone",
  state: "State",
  status: "Status",
  street: "Street",
  tags: "Tags",
  website: "Website",
  zip: "Zip",
};

/** None: a row without a name still becomes a contact failure of its own ("First name can't be blank"). */
export const REQUIRED_HEADERS: Record<string, string> = {};

export interface ConstantOption {
  id: string | boolean;
  value: string;
  key?: string;
}

/**
 * The headers whose values map to constants, and the choices each offers: `id` is what a mapping names, `key`
 * (pledge frequencies only) what is stored.
 */
export const CSV_CONSTANTS: Record<string, readonly ConstantOption[]> = {
  likely_to_give: LIKELY_TO_GIVE_HASHES,
  newsletter: SEND_NEWSLETTER_HASHES,
  pledge_currency: CSV_IMPORT_PLEDGE_CURRENCY_OPTIONS,
  pledge_frequency: Object.entries(PLEDGE_FREQUENCIES).map(([key, label]) => ({ id: label, key, value: label })),
  pledge_received: PLEDGE_RECEIVED_HASHES,
  send_appeals: [
    { id: true, value: "Yes" },
    { id: false, value: "No" },
  ],
  status: STATUS_HASHES,
};

/** `csv_import` of the constants, its keys in the original's order. */
export const CSV_IMPORT_CONSTANTS = {
  constants: CSV_CONSTANTS,
  max_file_size_in_bytes: MAX_FILE_SIZE_IN_BYTES,
  required_headers: REQUIRED_HEADERS,
  supported_headers: SUPPORTED_HEADERS,
};
