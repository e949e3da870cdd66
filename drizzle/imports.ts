/**
 * Imports of a list's contacts from a spreadsheet (CSV). The uploaded file is kept in R2 under `file_key`; what the
 * web clients' mapping pages need from it (its headers, the values of the columns that map to constants, its first
 * rows for the sample contacts) is read once, while it is uploaded, and kept here. The run (src/imports/run.ts)
 * reads the file again in chunks of rows; `next_row` is where it stands, moved only by the atomic batch that writes
 * a chunk's contacts, so a chunk is written once however often it is delivered.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accountLists } from "./account-lists";
import { bool, id, timestamps } from "./columns";
import { users } from "./users";

export const imports = sqliteTable(
  "imports",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    source: text("source").notNull().default("csv"),
    inPreview: bool("in_preview").notNull().default(true),
    // The file as uploaded: its R2 key (null once the import is done and the file deleted), name, size and the
    // character set it was read in ("utf-8" or "windows-1252").
    fileKey: text("file_key"),
    fileName: text("file_name"),
    fileSizeInBytes: integer("file_size_in_bytes").notNull().default(0),
    fileEncoding: text("file_encoding").notNull().default("utf-8"),
    // {key: header as in the file}: what clients map by. A JSON object puts keys that look like numbers first, so the
    // columns' order is kept apart: the header row's cells as in the file, blank ones included.
    fileHeaders: text("file_headers", { mode: "json" }).$type<Record<string, string>>().notNull(),
    fileHeaderRow: text("file_header_row", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    // {key: [distinct values, at most 100]} of the columns that may map to a constant.
    fileConstants: text("file_constants", { mode: "json" }).$type<Record<string, string[]>>().notNull(),
    // The first rows that are not blank (at most 4), a cell per column of the header row: the sample contacts are
    // built from them.
    sampleRows: text("sample_rows", { mode: "json" }).$type<string[][]>().notNull(),
    fileHeadersMappings: text("file_headers_mappings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    fileConstantsMappings: text("file_constants_mappings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    // Comma-separated tags given to every imported contact.
    tagList: text("tag_list").notNull().default(""),
    // Progress and outcome: data rows in the file (blank ones included), the next one to read, and what became of
    // those read.
    rowsTotal: integer("rows_total").notNull().default(0),
    nextRow: integer("next_row").notNull().default(0),
    rowsImported: integer("rows_imported").notNull().default(0),
    rowsFailed: integer("rows_failed").notNull().default(0),
    queuedForImportAt: text("queued_for_import_at"),
    importStartedAt: text("import_started_at"),
    importCompletedAt: text("import_completed_at"),
    // A run holds the import while it writes chunks; a claim older than the lease was abandoned and is taken over.
    claimedAt: text("claimed_at"),
    // Why the whole import stopped, when it did (a row's failure is recorded with the row).
    error: text("error"),
    // The closing e-mail: taken (before sending, once) and sent.
    mailAttemptedAt: text("mail_attempted_at"),
    mailSentAt: text("mail_sent_at"),
    ...timestamps(),
  },
  (t) => [
    index("imports_account_list_id_created_at_idx").on(t.accountListId, t.createdAt, t.id),
    index("imports_user_id_idx").on(t.userId),
    // The sweep finds the queued imports whose run has not finished (their message may have been lost).
    index("imports_running_idx").on(t.queuedForImportAt).where(sql`queued_for_import_at IS NOT NULL AND import_completed_at IS NULL`),
  ],
);

/** The rows of an import that could not be imported: why, and their cells as in the file (for the failure e-mail). */
export const importRowFailures = sqliteTable(
  "import_row_failures",
  {
    importId: text("import_id")
      .notNull()
      .references(() => imports.id, { onDelete: "cascade" }),
    // The row's number in the file, its header row being row 1.
    rowNumber: integer("row_number").notNull(),
    message: text("message").notNull(),
    cells: text("cells", { mode: "json" }).$type<string[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowNumber] })],
);
