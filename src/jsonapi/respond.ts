import type { Context } from "hono";

/** A document sent as it is read: its text (or bytes, for a file) in parts, in order (`streamedBody` makes them the body). */
export interface StreamedDocument {
  parts: AsyncIterable<string | Uint8Array>;
}

export function isStreamedDocument(document: unknown): document is StreamedDocument {
  return typeof document === "object" && document !== null && typeof (document as StreamedDocument).parts?.[Symbol.asyncIterator] === "function";
}

export const JSONAPI_CONTENT_TYPE = "application/vnd.api+json; charset=utf-8";

/**
 * The security headers of every answer (CONTRACT §1). The app sets them on each response; answers recorded without
 * the app (batch items refused before they are dispatched) carry them from here too, so no answer lacks them.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Frame-Options": "SAMEORIGIN",
  "X-Content-Type-Options": "nosniff",
  "X-XSS-Protection": "0",
  "X-Download-Options": "noopen",
  "X-Permitted-Cross-Domain-Policies": "none",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Strict-Transport-Security": "max-age=15552000; includeSubDomains",
};

/** The header naming each answer's request, for logs and support. */
export const REQUEST_ID_HEADER = "X-Request-Id";

export const newRequestId = (): string => crypto.randomUUID();

/** The headers every answer carries whatever its status: the security headers and a request id of its own. */
export function everyAnswerHeaders(): Record<string, string> {
  return { ...SECURITY_HEADERS, [REQUEST_ID_HEADER]: newRequestId() };
}

/**
 * The ETag of a GET answer, computed from the text already in hand; the app's etag middleware then uses it (and
 * answers If-None-Match with 304) instead of cloning and re-reading the response stream.
 */
async function etagOf(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", bytes));
  let hex = "";
  for (const byte of digest) hex += HEX[byte];
  return `"${hex}"`;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
const encoder = new TextEncoder();

/**
 * The body of a streamed document. Each pull enqueues a part or ends the stream: a pull that enqueued nothing would
 * never be called again, and the runtime would cancel the request as hung with a 200 already sent and half a
 * document. A part that fails errors the stream, so the client sees a failed transfer, never a document that looks
 * whole; the failure is logged under the request's id.
 */
export function streamedBody(document: StreamedDocument, requestId: string): ReadableStream<Uint8Array> {
  const parts = document.parts[Symbol.asyncIterator]();
  // A reader that stops early (a batch past its answer budget) cancels: the part being read is then dropped.
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await parts.next();
        if (cancelled) return;
        if (next.done) controller.close();
        else controller.enqueue(typeof next.value === "string" ? encoder.encode(next.value) : next.value);
      } catch (error) {
        if (cancelled) return;
        console.error(JSON.stringify({ level: "error", message: "streamed answer failed after its status was sent", request_id: requestId, error: String(error) }));
        controller.error(error);
      }
    },
    async cancel() {
      cancelled = true;
      await parts.return?.(undefined);
    },
  });
}

/** A document already encoded as JSON text (parts of it encoded by SQLite): sent as it is. */
export class EncodedJson {
  constructor(readonly text: string) {}
}

const encoded = (document: unknown): string => (document instanceof EncodedJson ? document.text : JSON.stringify(document));

export async function jsonApi(c: Context, document: unknown, status: 200 | 201 | 202 = 200, headers: Record<string, string> = {}): Promise<Response> {
  const answer: Record<string, string> = { "Content-Type": JSONAPI_CONTENT_TYPE, ...headers };
  if (isStreamedDocument(document)) {
    // Sent as it is read (src/read/streamed-list.ts): no ETag, which would need the whole body first.
    c.set("streamed", true);
    return c.body(streamedBody(document, c.get("requestId")), status, answer);
  }
  if (status === 200 && (c.req.method === "GET" || c.req.method === "HEAD")) {
    // Encoded once: the same bytes are hashed and sent.
    const bytes = encoder.encode(encoded(document)) as Uint8Array<ArrayBuffer>;
    answer.ETag = await etagOf(bytes);
    return c.body(bytes, status, answer);
  }
  return c.body(encoded(document), status, answer);
}

export function noContent(c: Context): Response {
  return c.body(null, 204);
}
