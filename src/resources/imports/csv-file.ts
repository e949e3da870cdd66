/**
 * Reading a CSV file as a stream of records, in bounded memory: bytes are decoded (UTF-8, with or without a byte
 * order mark, or Windows-1252 as spreadsheets export it) and parsed by csv-parse, a record at a time. Line ends
 * may be \n, \r\n or \r, mixed. What is wrong with a file is a CsvFileError, whose message is said to the client.
 */
import { CsvError, parse } from "csv-parse/stream";
import { MAX_ROW_CHARACTERS } from "./format";

export type FileEncoding = "utf-8" | "windows-1252";

export class CsvFileError extends Error {}

/** What reading a file as UTF-8 found: bytes that are not UTF-8 (the file is then read again as Windows-1252). */
export interface Utf8Check {
  notUtf8: boolean;
}

/**
 * Bytes to text to csv-parse's input (which takes bytes: the text is encoded again as UTF-8). A file holding a
 * NUL byte is not text at all. Bytes that are not UTF-8 mark `check` and end the text there, while the rest of
 * the bytes still pass through the stream's earlier stages (an upload goes on to R2 whole).
 */
function decoder(encoding: FileEncoding, check: Utf8Check): TransformStream<Uint8Array, Uint8Array> {
  const text = new TextDecoder(encoding, { fatal: encoding === "utf-8", ignoreBOM: false });
  const encoder = new TextEncoder();
  const decode = (bytes?: Uint8Array): string => {
    if (check.notUtf8) return "";
    try {
      return bytes ? text.decode(bytes, { stream: true }) : text.decode();
    } catch {
      check.notUtf8 = true;
      return "";
    }
  };
  return new TransformStream({
    transform(bytes, controller) {
      if (bytes.includes(0)) throw new CsvFileError("is not a CSV file: it holds binary data");
      const chunk = decode(bytes);
      if (chunk) controller.enqueue(encoder.encode(chunk));
    },
    flush(controller) {
      const rest = decode();
      if (rest) controller.enqueue(encoder.encode(rest));
    },
  });
}

function parser(): TransformStream<Uint8Array, string[]> {
  return parse({
    relax_column_count: true,
    record_delimiter: ["\r\n", "\n", "\r"],
    max_record_size: MAX_ROW_CHARACTERS,
  }) as unknown as TransformStream<Uint8Array, string[]>;
}

/** What csv-parse says of a malformed file, as a client can act on it. */
function fileError(error: unknown): unknown {
  if (!(error instanceof CsvError)) return error;
  const line = (error as unknown as { lines?: number }).lines;
  const where = line ? ` (line ${line})` : "";
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return new CsvFileError(`is not a valid CSV file: a quoted cell is never closed${where}`);
    case "INVALID_OPENING_QUOTE":
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return new CsvFileError(`is not a valid CSV file: a quote in a cell must be doubled or the cell quoted${where}`);
    case "CSV_MAX_RECORD_SIZE":
      return new CsvFileError(`is not a valid CSV file: a row is longer than ${MAX_ROW_CHARACTERS} characters${where}`);
    default:
      return new CsvFileError(`is not a valid CSV file: ${error.message}`);
  }
}

/**
 * The file's records (the header row first), each an array of cells. Read as UTF-8, a file that turns out not to
 * be ends its records where its text stopped being UTF-8, and `check.notUtf8` says so.
 */
export async function* csvRecords(bytes: ReadableStream<Uint8Array>, encoding: FileEncoding, check: Utf8Check = { notUtf8: false }): AsyncGenerator<string[]> {
  const records = bytes.pipeThrough(decoder(encoding, check)).pipeThrough(parser());
  try {
    for await (const record of records) {
      if (check.notUtf8) continue;
      yield record;
    }
  } catch (error) {
    // Text cut where it stopped being UTF-8 may end inside a quoted cell: that is not the file's fault.
    if (check.notUtf8 && error instanceof CsvError) return;
    throw fileError(error);
  }
}

/** A row whose every cell is blank: skipped, though counted, so that row numbers stay those of the file. */
export const isBlankRow = (cells: string[]) => cells.every((cell) => cell.trim() === "");
