/**
 * How a CSV file is read for an import: the limits this service enforces beyond the file size, and how a file's
 * header becomes the key clients map it by. The lists clients map to are src/constants/csv-import.ts.
 */

/** Columns a file may have. */
export const MAX_COLUMNS = 250;
/** The longest row, in characters: an unclosed quote otherwise reads the rest of the file as one cell. */
export const MAX_ROW_CHARACTERS = 100_000;
/** Distinct values kept per constant column, as the mapping page lists them. */
export const MAX_CONSTANT_VALUES = 100;
/** The longest value listed for mapping to a constant. */
export const MAX_CONSTANT_VALUE_CHARACTERS = 500;
/** Rows the sample contacts are built from. */
export const MAX_SAMPLE_ROWS = 4;

/**
 * The key of a file's header: letters made plain ("é" → "e"), lower case, every run of other characters one `_`,
 * none at either end. "Spouse-fname" → `spouse_fname`, "Send Appeals?" → `send_appeals`.
 */
export function headerKey(header: string): string {
  return header
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-|-$/g, "")
    .replace(/-/g, "_");
}

/**
 * Columns whose values are names, places, contact details or free text never map to a constant, so their
 * values are not listed for mapping (a key containing any of these).
 */
const FREE_TEXT_PARTS = ["address", "church", "city", "country", "mail", "metro", "name", "note", "phone", "postal", "province", "referred", "region", "state", "street", "tags", "website", "zip"];

export function listsConstantValues(key: string): boolean {
  return key !== "" && !FREE_TEXT_PARTS.some((part) => key.includes(part));
}
