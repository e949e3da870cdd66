/**
 * Reading a CSV file as a stream of records, in bounded memory: bytes are decoded (UTF-8, with or without a byte
 * order mark, or Windows-1252 as spreadsheets export it) and parsed by csv-parse, a record at a time. Line ends
 * may be \n, \r\n or \r, mixed. What is wrong with a file is a CsvFileError, whose message is said to the client.
 */
import { CsvError, parse } from "csv-parse/stream";
import { MAX_ROW_CHARACTERS } from "./format";

export type FileEncoding = "utf-8" | "windows-1252";

export class CsvFileError extends Error {}

/** Thrown when the bytes are not UTF-8: the file is then read again as Windows-1252. */
export class NotUtf8Error extends Error {}

/**
 * Bytes to text to csv-parse's input (which takes bytes: the text is encoded again as UTF-8). A file holding a
 * NUL byte is not text at all.
 */
function decoder(encoding: FileEncoding): TransformStream<Uint8Array, Uint8Array> {
  const text = new TextDecoder(encoding, { fatal: encoding === "utf-8", ignoreBOM: false });
  const encoder = new TextEncoder();
  const decode = (bytes?: Uint8Array) => {
    try {
      return bytes ? text.decode(bytes, { stream: true }) : text.decode();
    } catch {
      throw new NotUtf8Error("not UTF-8");
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

/** The file's records (the header row first), each an array of cells. */
export async function* csvRecords(bytes: ReadableStream<Uint8Array>, encoding: FileEncoding): AsyncGenerator<string[]> {
  const records = bytes.pipeThrough(decoder(encoding)).pipeThrough(parser());
  try {
    for await (const record of records) yield record;
  } catch (error) {
    throw fileError(error);
  }
}

/** A row whose every cell is blank: skipped, though counted, so that row numbers stay those of the file. */
export const isBlankRow = (cells: string[]) => cells.every((cell) => cell.trim() === "");
