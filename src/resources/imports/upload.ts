/**
 * Receiving an import's file: the multipart body is parsed as it arrives (@mjackson/multipart-parser), the file part
 * goes on to R2 in parts, and the same bytes are read as CSV on the way for what the mapping pages need (see
 * `FileSummary`). Memory stays bounded whatever the file's size: the parser is fed only as fast as the file is
 * consumed, and R2 receives the file a part at a time. A file that is not UTF-8 is summarised again from R2 as
 * Windows-1252 once it is stored.
 */
import { getMultipartBoundary, MultipartParseError, MultipartParser, type MultipartPart } from "@mjackson/multipart-parser";
import { MAX_FILE_SIZE_IN_BYTES } from "../../constants/csv-import";
import { csvRecords, CsvFileError, isBlankRow, type FileEncoding, type Utf8Check } from "./csv-file";
import { clientObject } from "../../jsonapi/params";
import { headerKey, listsConstantValues, MAX_COLUMNS, MAX_CONSTANT_VALUE_CHARACTERS, MAX_CONSTANT_VALUES, MAX_SAMPLE_ROWS } from "./format";

/** The multipart field names of an upload, as both web clients send them. */
export const TYPE_FIELD = "data[type]";
export const FILE_FIELD = "data[attributes][file]";
export const TAG_LIST_FIELD = "data[attributes][tag_list]";

/** Bytes of the request the parser may hold beyond what has been consumed. */
const READ_AHEAD_BYTES = 1024 * 1024;
/** R2 multipart parts: every part but the last of one size, at least 5 MiB. */
const PART_BYTES = 5 * 1024 * 1024;
const MAX_FIELD_BYTES = 64 * 1024;

/** Media types under which browsers and spreadsheets send a .csv file. */
const CSV_MEDIA_TYPES = new Set(["text/csv", "application/csv", "text/comma-separated-values", "text/x-csv", "application/vnd.ms-excel", "text/plain"]);

export interface FileSummary {
  /** {key: header as in the file}; columns without a header are left out. */
  headers: Record<string, string>;
  /** The header row's cells, blank ones included: the file's columns in their order. */
  headerRow: string[];
  constants: Record<string, string[]>;
  /** The first rows that are not blank, a cell per column of the header row. */
  sampleRows: string[][];
  /** Data rows, blank ones included. */
  rowsTotal: number;
}

export interface ReceivedUpload {
  type: string | undefined;
  tagList: string | undefined;
  file?: { name: string | undefined; size: number; encoding: FileEncoding; summary: FileSummary };
}

/**
 * Reads the header row and every data row of a file: its columns, the values of its constant columns, its samples.
 * Keys are the file's text: they go into prototype-less objects, where `__proto__` is a key like any other.
 */
export async function summarise(records: AsyncIterable<string[]>): Promise<FileSummary> {
  let header: string[] | undefined;
  let columnKeys: string[] = [];
  const headers = clientObject<string>();
  const constants = clientObject<Set<string>>();
  const sampleRows: string[][] = [];
  let rowsTotal = 0;
  for await (const cells of records) {
    if (!header) {
      header = cells;
      columnKeys = headerKeys(cells, headers);
      for (const key of columnKeys) if (listsConstantValues(key)) constants[key] = new Set();
      continue;
    }
    rowsTotal++;
    if (isBlankRow(cells)) continue;
    if (sampleRows.length < MAX_SAMPLE_ROWS) sampleRows.push(columnKeys.map((_, index) => cells[index] ?? ""));
    columnKeys.forEach((key, index) => {
      const values = constants[key];
      const value = (cells[index] ?? "").trim() === "" ? "" : cells[index];
      // A value as long as a sentence is no constant's: it is not listed for mapping (and maps to none).
      if (values && values.size < MAX_CONSTANT_VALUES && value.length <= MAX_CONSTANT_VALUE_CHARACTERS) values.add(value);
    });
  }
  if (!header) throw new CsvFileError("is empty");
  if (sampleRows.length === 0) throw new CsvFileError("has no rows below its header row");
  const listed = clientObject<string[]>();
  for (const [key, values] of Object.entries(constants)) listed[key] = [...values];
  return { headers, headerRow: header, constants: listed, sampleRows, rowsTotal };
}

/** The header row's keys (one per column, "" for a column without a header), filling `headers`. */
function headerKeys(cells: string[], headers: Record<string, string>): string[] {
  if (cells.length > MAX_COLUMNS) throw new CsvFileError(`has too many columns (maximum is ${MAX_COLUMNS})`);
  const keys = cells.map((cell) => headerKey(cell));
  if (keys.every((key) => key === "")) throw new CsvFileError("must have a header row naming its columns");
  const repeated: string[] = [];
  keys.forEach((key, index) => {
    if (key === "") return;
    if (Object.hasOwn(headers, key)) repeated.push(`"${headers[key]}" and "${cells[index]}"`);
    else headers[key] = cells[index];
  });
  if (repeated.length > 0) throw new CsvFileError(`has headers that name the same column: ${repeated.join(", ")}`);
  return keys;
}

/** Feeds the multipart parser no further ahead of the consumer than READ_AHEAD_BYTES; stops it on a failure. */
class ReadAhead {
  private fed = 0;
  private consumed = 0;
  private wake: (() => void) | undefined;
  private failure: unknown;

  async *feed(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of body) {
      while (this.fed - this.consumed > READ_AHEAD_BYTES && this.failure === undefined) await new Promise<void>((resolve) => (this.wake = resolve));
      if (this.failure !== undefined) throw this.failure;
      this.fed += chunk.length;
      yield chunk;
    }
  }

  consume(bytes: number): void {
    this.consumed += bytes;
    this.release();
  }

  fail(error: unknown): void {
    this.failure ??= error;
    this.release();
  }

  private release(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/** The file into R2 a part at a time; a file smaller than one part is one plain put. */
class R2Writer {
  private buffer = new Uint8Array(PART_BYTES);
  private filled = 0;
  private upload: R2MultipartUpload | undefined;
  private parts: R2UploadedPart[] = [];

  constructor(
    private readonly bucket: R2Bucket,
    private readonly key: string,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      const taken = Math.min(PART_BYTES - this.filled, chunk.length - offset);
      this.buffer.set(chunk.subarray(offset, offset + taken), this.filled);
      this.filled += taken;
      offset += taken;
      if (this.filled === PART_BYTES) await this.sendPart();
    }
  }

  private async sendPart(): Promise<void> {
    this.upload ??= await this.bucket.createMultipartUpload(this.key, { httpMetadata: { contentType: "text/csv" } });
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, this.buffer.slice(0, this.filled)));
    this.filled = 0;
  }

  async close(): Promise<void> {
    if (!this.upload) {
      await this.bucket.put(this.key, this.buffer.subarray(0, this.filled), { httpMetadata: { contentType: "text/csv" } });
      return;
    }
    if (this.filled > 0) await this.sendPart();
    await this.upload.complete(this.parts);
  }

  async abort(): Promise<void> {
    await this.upload?.abort().catch(() => undefined);
  }
}

/** The stream, failing with the signal's reason once it is aborted, even while a read waits. */
function endedBy(stream: ReadableStream<Uint8Array>, signal: AbortSignal): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  const aborted = new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
  aborted.catch(() => undefined);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

function fieldError(detail: string): CsvFileError {
  return new CsvFileError(detail);
}

/** What is wrong with an upload's form rather than with its file. */
export class UploadFormError extends Error {}

/** Parts an upload may have: its type, its file, its tags, and room for a client's extra empty part or two. */
const MAX_PARTS = 8;

function looksLikeCsv(part: MultipartPart): boolean {
  const name = part.filename ?? "";
  if (/\.csv$/i.test(name)) return true;
  return CSV_MEDIA_TYPES.has((part.mediaType ?? "").toLowerCase());
}

/**
 * The file part: each chunk goes to R2 and on to the CSV reader. A file that turns out not to be UTF-8 is still
 * stored whole; its summary is then read from R2 (see receiveUpload).
 */
async function receiveFile(part: MultipartPart, bucket: R2Bucket, key: string, readAhead: ReadAhead, signal: AbortSignal): Promise<NonNullable<ReceivedUpload["file"]>> {
  if (!looksLikeCsv(part)) throw fieldError("must be a CSV file (.csv)");
  const writer = new R2Writer(bucket, key);
  let size = 0;
  const stored = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      size += chunk.length;
      if (size > MAX_FILE_SIZE_IN_BYTES) throw fieldError(`is too large (maximum is ${MAX_FILE_SIZE_IN_BYTES} bytes)`);
      await writer.write(chunk);
      readAhead.consume(chunk.length);
      controller.enqueue(chunk);
    },
  });
  // Ended when the body turns out not to be well-formed multipart: the part would otherwise never end.
  const text = endedBy(part.body, signal).pipeThrough(stored);
  // Bytes that are not UTF-8 end the reading, not the upload: the rest of the file still goes on to R2.
  const check: Utf8Check = { notUtf8: false };
  try {
    let summary: FileSummary | undefined;
    try {
      summary = await summarise(csvRecords(text, "utf-8", check));
    } catch (error) {
      // What the UTF-8 reading saw of a file that is not UTF-8 says nothing of the file.
      if (!check.notUtf8) throw error;
    }
    await writer.close();
    if (size === 0) throw fieldError("is empty");
    if (!check.notUtf8) return { name: part.filename, size, encoding: "utf-8", summary: summary! };
  } catch (error) {
    await writer.abort();
    throw error;
  }
  try {
    const object = await bucket.get(key);
    if (!object) throw new Error("the uploaded file is not in the bucket");
    return { name: part.filename, size, encoding: "windows-1252", summary: await summarise(csvRecords(object.body, "windows-1252")) };
  } catch (error) {
    await bucket.delete(key);
    throw error;
  }
}

async function fieldText(part: MultipartPart, readAhead: ReadAhead): Promise<string> {
  const bytes: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of part.body) {
    size += chunk.length;
    readAhead.consume(chunk.length);
    if (size > MAX_FIELD_BYTES) throw new UploadFormError(`${part.name} is too long`);
    bytes.push(chunk);
  }
  return new TextDecoder().decode(await new Blob(bytes).arrayBuffer());
}

/**
 * Parses an upload's multipart body, storing its file at `key`. Answers the fields sent. A file refused (bad
 * CSV, too large) is a CsvFileError, a form refused (a field it does not take, a field twice) an UploadFormError,
 * and a body that is not well-formed multipart a MultipartParseError; each leaves nothing stored.
 */
export async function receiveUpload(request: Request, bucket: R2Bucket, key: string): Promise<ReceivedUpload> {
  const boundary = getMultipartBoundary(request.headers.get("content-type") ?? "");
  if (!boundary || !request.body) throw new MultipartParseError("The body must be multipart/form-data with a boundary");
  const readAhead = new ReadAhead();
  const malformed = new AbortController();
  const received: ReceivedUpload = { type: undefined, tagList: undefined };
  const handling: Promise<void>[] = [];
  const seen = new Set<string>();
  const handle = async (part: MultipartPart): Promise<void> => {
    // The parser reads a part's headers ahead of what the gate counts: a body of countless empty parts stops here.
    if (seen.size >= MAX_PARTS) throw new UploadFormError(`An upload has at most ${MAX_PARTS} parts`);
    const name = part.name ?? "";
    if (seen.has(name)) throw new UploadFormError(name === FILE_FIELD ? "Only one file can be imported at a time" : `${name} was sent twice`);
    seen.add(name);
    if (name === FILE_FIELD) received.file = await receiveFile(part, bucket, key, readAhead, malformed.signal);
    else if (name === TYPE_FIELD) received.type = await fieldText(part, readAhead);
    else if (name === TAG_LIST_FIELD) received.tagList = await fieldText(part, readAhead);
    else throw new UploadFormError(`${name || "A part without a name"} is not a field of an upload: send ${TYPE_FIELD} and ${FILE_FIELD}`);
  };
  const parser = new MultipartParser(boundary, { maxHeaderSize: 8 * 1024 });
  try {
    await parser.parse(readAhead.feed(request.body), (part) => {
      const handled = handle(part);
      handling.push(handled);
      // A refused part stops the parser, which would otherwise wait for it to be read.
      handled.catch((error) => readAhead.fail(error));
      return handled;
    });
  } catch (error) {
    // The part being read when the body ended (or broke) never ends by itself: end it, and let its work undo itself.
    malformed.abort(error);
    const settled = await Promise.allSettled(handling);
    if (received.file) await bucket.delete(key);
    // A refused part is the answer: the parser's own failure to go on writing into it (once the part stopped being
    // read) is only its consequence.
    const refused = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
    throw refused ? refused.reason : error;
  }
  return received;
}
