/**
 * An import's mappings: `file_headers_mappings` names, for each supported header, the file's column (by key);
 * `file_constants_mappings` names, for each constant header, which constant each of the file's values stands for
 * (`{status: [{id: "Partner - Financial", values: ["Giving"]}, {id: "", values: [""]}]}`). They are checked when the
 * import is started, with the original service's rules and messages, which clients show as they are.
 */
import { CSV_CONSTANTS, SUPPORTED_HEADERS, type ConstantOption } from "../../constants/csv-import";
import type { FieldError } from "../../jsonapi/errors";

export interface Mappings {
  fileHeaders: Record<string, string>;
  fileConstants: Record<string, string[]>;
  headersMappings: Record<string, unknown>;
  constantsMappings: Record<string, unknown>;
}

interface ConstantMapping {
  id: unknown;
  values: unknown[];
}

/**
 * No constant: "" as the original's clients send it, and also null and -1, which the newer web client sends for a
 * "None" it was chosen explicitly.
 */
const isNone = (id: unknown) => id === "" || id === null || id === -1 || id === "-1";

/** A constant's choices name an id exactly, or in another case or spacing ("partner_financial" for "Partner - Financial"). */
const plain = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");

function optionFor(name: string, id: unknown): ConstantOption | undefined {
  const options = own(CSV_CONSTANTS, name) ?? [];
  return options.find((option) => option.id === id) ?? (typeof id === "string" ? options.find((option) => typeof option.id === "string" && plain(option.id) === plain(id)) : undefined);
}

function entriesOf(value: unknown): ConstantMapping[] {
  if (!Array.isArray(value)) return [];
  return value.filter((entry): entry is ConstantMapping => typeof entry === "object" && entry !== null && Array.isArray((entry as ConstantMapping).values));
}

/** Mappings are the client's JSON: only an object's own keys count (`toString` is not a header). */
const has = (object: object, key: unknown) => typeof key === "string" && Object.hasOwn(object, key);
const own = <T>(object: Record<string, T>, key: string): T | undefined => (Object.hasOwn(object, key) ? object[key] : undefined);

/** A list as the original's messages print one: `["a", "b"]`. */
const listed = (values: unknown[]) => `[${values.map((value) => JSON.stringify(value)).join(", ")}]`;

const unique = <T>(values: T[]) => [...new Set(values)];

const HEADERS_POINTER = "/data/attributes/file_headers_mappings";
const CONSTANTS_POINTER = "/data/attributes/file_constants_mappings";

/** The problems of an import's mappings, in the original's order; none when it may start. */
export function mappingErrors(mappings: Mappings): FieldError[] {
  const errors: FieldError[] = [];
  const headers = (message: string) => errors.push({ attribute: "file_headers_mappings", message, pointer: HEADERS_POINTER });
  const constants = (message: string) => errors.push({ attribute: "file_constants_mappings", message, pointer: CONSTANTS_POINTER });
  const { headersMappings, constantsMappings, fileHeaders, fileConstants } = mappings;
  if (Object.keys(headersMappings).length === 0) headers("can't be blank");

  const unsupported = Object.keys(headersMappings).filter((header) => !has(SUPPORTED_HEADERS, header));
  if (unsupported.length > 0) {
    headers(
      "has unsupported headers. One or more of the headers specified in file_headers_mappings is not supported, please refer to the constants endpoints " +
        `for a list of supported headers. The unsupported headers you specifed are ${listed(unsupported)}`,
    );
  }
  const notInFile = unique(Object.values(headersMappings).filter((key) => !has(fileHeaders, key)));
  if (notInFile.length > 0) {
    headers(
      "has unsupported mappings. One or more of the header mappings was not found in the headers of the given CSV file, refer to attribute " +
        `"file_headers" for a list of headers extracted from the given file. The invalid headers are: ${listed(notInFile)}`,
    );
  }
  if (errors.length > 0) return errors;

  const needed = Object.keys(CSV_CONSTANTS).filter((name) => has(headersMappings, name));
  const missing = needed.filter((name) => !has(constantsMappings, name));
  if (missing.length > 0) {
    constants(
      "is missing mappings. One or more of the header constants specified in file_headers_mappings does not have a mapping specified in " +
        `file_constants_mappings. The missing constant mappings are: ${listed(missing)}`,
    );
  }
  for (const [name, value] of Object.entries(constantsMappings)) {
    if (!has(SUPPORTED_HEADERS, name) || !has(CSV_CONSTANTS, name)) {
      constants(`has an invalid mapping. You cannot map to the constant "${name}" because it's not a supported MPDX constant.`);
      continue;
    }
    const ids = unique(entriesOf(value).map((entry) => entry.id)).filter((id) => !isNone(id) && !optionFor(name, id));
    if (ids.length > 0) constants(`has an invalid mapping. For the header "${name}", you cannot map to the constants: ${listed(ids)}`);
  }
  const notMapped = Object.keys(constantsMappings).filter((name) => !has(headersMappings, name));
  if (notMapped.length > 0) {
    constants(`has an invalid mapping. You cannot map to the constants ${listed(notMapped)} because they are not found in file_headers_mappings`);
  }
  if (errors.length > 0) return errors;

  for (const name of Object.keys(constantsMappings)) {
    const fileValues = own(fileConstants, String(headersMappings[name])) ?? [];
    const mapped = entriesOf(own(constantsMappings, name)).flatMap((entry) => entry.values);
    const unknown = unique(mapped.filter((value) => !fileValues.includes(value as string)));
    if (unknown.length > 0) constants(`has an invalid mapping. For the header "${name}", we couldn't find the following values in the CSV: ${listed(unknown)}`);
  }
  for (const name of needed) {
    const fileValues = own(fileConstants, String(headersMappings[name])) ?? [];
    const mapped = new Set(entriesOf(own(constantsMappings, name)).flatMap((entry) => entry.values));
    const unmapped = fileValues.filter((value) => !mapped.has(value));
    if (unmapped.length > 0) constants(`is missing mappings. For the header "${name}", we couldn't find the following mappings to the CSV values: ${listed(unmapped)}`);
  }
  return errors;
}

/**
 * The stored value a file's value stands for under an import's constant mappings: the constant's id (a pledge
 * frequency's key), or null for a value mapped to none or not mapped.
 */
export function constantValue(name: string, value: string, constantsMappings: Record<string, unknown>): string | boolean | null {
  const sought = value.trim() === "" ? "" : value;
  const entry = entriesOf(own(constantsMappings, name)).find((candidate) => candidate.values.includes(sought));
  if (!entry || isNone(entry.id)) return null;
  const option = optionFor(name, entry.id);
  if (!option) return null;
  return option.key ?? option.id;
}
