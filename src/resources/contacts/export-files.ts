/**
 * The files of a contact export, in the original's columns and order: the contacts sheet (26 columns, CSV or XLSX)
 * and the mailing CSV (9 columns). Rows are built from `ExportContact`s a chunk at a time and encoded as they come:
 * CSV as text, XLSX as a zip written by fflate's streaming deflate, with the sheet's cells as inline strings (a
 * shared-strings table would hold every text of the export in memory until the end).
 */
import { stringify } from "csv-stringify/sync";
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { PLEDGE_FREQUENCIES, type PledgeFrequencyKey } from "../../constants";
import { formatMoney } from "../../decimal";
import { neutralised } from "../imports/mail";
import type { ExportContact, ExportDetail, ExportPerson } from "./export-rows";

type Cell = string | number | null;

export const CONTACT_COLUMNS = [
  "Contact Name", "First Name", "Last Name", "Spouse First Name", "Greeting", "Envelope Greeting",
  "Mailing Street Address", "Mailing City", "Mailing State", "Mailing Postal Code", "Mailing Country", "Status",
  "Commitment Amount", "Commitment Currency", "Commitment Frequency", "Newsletter", "Commitment Received", "Tags",
  "Primary Email", "Spouse Email", "Other Email", "Spouse Other Email",
  "Primary Phone", "Spouse Phone", "Other Phone", "Spouse Other Phone",
] as const;

export const MAILING_COLUMNS = [
  "Contact Name", "Greeting", "Envelope Greeting", "Mailing Street Address", "Mailing City", "Mailing State",
  "Mailing Postal Code", "Mailing Country", "Address Block",
] as const;

/** The primary person (flagged, else the first) and the spouse (the first other person), as the contact shows them. */
function couple(contact: ExportContact): [ExportPerson | undefined, ExportPerson | undefined] {
  const primary = contact.people.find((person) => person.primary) ?? contact.people[0];
  return [primary, contact.people.find((person) => person !== primary)];
}

/** The stored greeting, else the living first names joined with "and". */
function greeting(contact: ExportContact): string {
  if (contact.greeting) return contact.greeting;
  const [primary, spouse] = couple(contact);
  if (spouse?.deceased) return primary?.firstName ?? "";
  if (primary?.deceased && spouse) return spouse.firstName;
  return [primary?.firstName, spouse?.firstName].filter((name) => name).join(" and ");
}

/** The stored envelope greeting, else the name turned around: "Doe, John and Jane" is "John and Jane Doe". */
function envelopeGreeting(contact: ExportContact): string {
  if (contact.envelopeGreeting) return contact.envelopeGreeting;
  const name = contact.name.trim().replace(/,$/, "");
  const comma = name.indexOf(",");
  if (comma < 0) return name;
  const last = name.slice(0, comma).trim();
  const firsts = name.slice(comma + 1).split(",")[0].trim().replace(/\([^)]*\)/g, "").replace(/\s+/g, " ").trim();
  return `${firsts} ${last}`;
}

const street = (contact: ExportContact) => contact.address?.street?.replace(/\r\n/g, "\n").trim() ?? null;
/** The country is left out where it is the list's own. */
const country = (contact: ExportContact) => (contact.address?.country === contact.homeCountry ? "" : (contact.address?.country ?? null));

/** A person's primary value, then the first other current one that is neither person's primary. */
function pickDetails(primary: ExportPerson, spouse: ExportPerson | undefined, of: (person: ExportPerson) => ExportDetail[]): Cell[] {
  const primaryOf = (person: ExportPerson | undefined) => (person ? of(person).find((detail) => detail.primary) : undefined);
  const chosen = [primaryOf(primary), primaryOf(spouse)];
  const other = (person: ExportPerson | undefined) => (person ? of(person).find((detail) => !detail.historic && !chosen.includes(detail)) : undefined);
  return [...chosen, other(primary), other(spouse)].map((detail) => detail?.value ?? "");
}

/** A row of the contacts sheet; none for a contact without a living person, whom the original left out. */
export function contactRow(contact: ExportContact): Cell[] | undefined {
  const [primary, spouse] = couple(contact).filter((person): person is ExportPerson => person !== undefined && !person.deceased);
  if (!primary) return undefined;
  const address = contact.address;
  return [
    contact.name,
    primary.firstName,
    primary.lastName,
    spouse?.firstName ?? null,
    greeting(contact),
    envelopeGreeting(contact),
    street(contact),
    address?.city ?? null,
    address?.state ?? null,
    address?.postalCode ?? null,
    country(contact),
    contact.status,
    contact.pledgeAmount === null ? null : contact.pledgeAmount,
    contact.pledgeCurrency,
    PLEDGE_FREQUENCIES[(contact.pledgeFrequency ?? "1.0") as PledgeFrequencyKey] ?? PLEDGE_FREQUENCIES["1.0"],
    contact.sendNewsletter,
    contact.pledgeReceived ? "Yes" : "No",
    contact.tags.join(", "),
    ...pickDetails(primary, spouse, (person) => person.emails),
    ...pickDetails(primary, spouse, (person) => person.phones),
  ];
}

/** The postal address as a label prints it: street, "City State  Postal", and the country where it is not the list's own. */
function addressBlock(contact: ExportContact): string {
  const address = contact.address;
  const cityLine = [address?.city, [address?.state, address?.postalCode].filter(Boolean).join("  ")].filter(Boolean).join(" ");
  const lines = [street(contact), cityLine, country(contact)?.toUpperCase()].filter((line) => line);
  return `${envelopeGreeting(contact)}\n${lines.join("\n")}`;
}

/** A row of the mailing CSV: every contact, living people or not. */
export function mailingRow(contact: ExportContact): Cell[] {
  const address = contact.address;
  return [contact.name, greeting(contact), envelopeGreeting(contact), street(contact), address?.city ?? null, address?.state ?? null, address?.postalCode ?? null, country(contact), addressBlock(contact)];
}

/** The Commitment Amount column holds money units; files show it as a decimal ("100.0"), XLSX as a number. */
const AMOUNT_COLUMN = CONTACT_COLUMNS.indexOf("Commitment Amount");

/**
 * A CSV row: money units as the decimal text the API answers, and a cell a spreadsheet would run as a formula made
 * text, as the import's failures file does (the original wrote them as they were).
 */
function csvCells(cells: Cell[], amountColumn: number | undefined): string[] {
  return cells.map((cell, index) => {
    if (cell === null) return "";
    return index === amountColumn && typeof cell === "number" ? String(formatMoney(cell)) : neutralised(String(cell));
  });
}

export interface ExportLayout {
  columns: readonly string[];
  row: (contact: ExportContact) => Cell[] | undefined;
  /** The header line: the contacts sheet quotes every title, as the original wrote it by hand. */
  quotedHeader: boolean;
  amountColumn?: number;
}

export const CONTACTS_LAYOUT: ExportLayout = { columns: CONTACT_COLUMNS, row: contactRow, quotedHeader: true, amountColumn: AMOUNT_COLUMN };
export const MAILING_LAYOUT: ExportLayout = { columns: MAILING_COLUMNS, row: mailingRow, quotedHeader: false };

export async function* csvParts(layout: ExportLayout, chunks: AsyncIterable<ExportContact[]>): AsyncGenerator<string> {
  yield layout.quotedHeader ? `"${layout.columns.join('","')}"\n` : stringify([[...layout.columns]]);
  for await (const chunk of chunks) {
    const rows = chunk.flatMap((contact) => {
      const cells = layout.row(contact);
      return cells ? [csvCells(cells, layout.amountColumn)] : [];
    });
    // A chunk that makes no row adds no part: the stream's next pull must find bytes (src/jsonapi/respond.ts).
    if (rows.length > 0) yield stringify(rows);
  }
}

// Characters XML 1.0 cannot carry at all are dropped.
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const xmlText = (text: string) => text.replace(XML_INVALID, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const columnLetter = (index: number) => String.fromCharCode(65 + index);

function sheetRow(number: number, cells: Cell[], amountColumn: number | undefined): string {
  const xml = cells.map((cell, index) => {
    if (cell === null || cell === "") return "";
    const ref = `${columnLetter(index)}${number}`;
    if (index === amountColumn && typeof cell === "number") return `<c r="${ref}"><v>${formatMoney(cell)}</v></c>`;
    return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlText(String(cell))}</t></is></c>`;
  });
  return `<row r="${number}">${xml.join("")}</row>`;
}

const SPREADSHEET_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELATIONSHIP_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_RELS_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** The workbook's fixed parts: one sheet, "Contacts". */
const WORKBOOK_PARTS: Array<[string, string]> = [
  [
    "[Content_Types].xml",
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
  ],
  ["_rels/.rels", `<Relationships xmlns="${PACKAGE_RELS_NS}"><Relationship Id="rId1" Type="${RELATIONSHIP_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
  ["xl/workbook.xml", `<workbook xmlns="${SPREADSHEET_NS}" xmlns:r="${RELATIONSHIP_NS}"><sheets><sheet name="Contacts" sheetId="1" r:id="rId1"/></sheets></workbook>`],
  [
    "xl/_rels/workbook.xml.rels",
    `<Relationships xmlns="${PACKAGE_RELS_NS}"><Relationship Id="rId1" Type="${RELATIONSHIP_NS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${RELATIONSHIP_NS}/styles" Target="styles.xml"/></Relationships>`,
  ],
  [
    "xl/styles.xml",
    `<styleSheet xmlns="${SPREADSHEET_NS}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf/></cellStyleXfs><cellXfs count="1"><xf/></cellXfs></styleSheet>`,
  ],
];

export const SHEET_PATH = "xl/worksheets/sheet1.xml";

/** The XLSX file in parts: the fixed parts stored, then the sheet deflated as its rows come. */
export async function* xlsxParts(layout: ExportLayout, chunks: AsyncIterable<ExportContact[]>): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else if (data.length > 0) ready.push(data);
  });
  const take = () => {
    if (failure) throw failure;
    const parts = ready.splice(0);
    const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
    return bytes;
  };
  for (const [path, xml] of WORKBOOK_PARTS) {
    const part = new ZipPassThrough(path);
    zip.add(part);
    part.push(strToU8(XML_DECLARATION + xml), true);
  }
  const sheet = new ZipDeflate(SHEET_PATH, { level: 6 });
  zip.add(sheet);
  sheet.push(strToU8(`${XML_DECLARATION}<worksheet xmlns="${SPREADSHEET_NS}"><sheetData>${sheetRow(1, [...layout.columns], undefined)}`));
  yield take();
  let rowNumber = 1;
  for await (const chunk of chunks) {
    let xml = "";
    for (const contact of chunk) {
      const cells = layout.row(contact);
      if (cells) xml += sheetRow(++rowNumber, cells, layout.amountColumn);
    }
    sheet.push(strToU8(xml));
    // The deflater keeps what it has until it fills a block: a chunk may give no bytes yet, and then no part.
    const bytes = take();
    if (bytes.length > 0) yield bytes;
  }
  sheet.push(strToU8("</sheetData></worksheet>"), true);
  zip.end();
  yield take();
}
