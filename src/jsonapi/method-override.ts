/**
 * `X-HTTP-Method-Override: GET` on a POST: the clients send a read so when its parameters are too many for a URL
 * (the web app's contact and task lists, their analytics, reports), with the parameters in a JSON body. Such a
 * request is made the GET it stands for before the app routes it, so that it reaches the GET route, is checked as
 * that read and answered as it, and nothing after this module knows how it was sent. The header means nothing on
 * any other request (DELETE, PUT, PATCH, a POST with another value): those run as their method says.
 */

const OVERRIDE_HEADER = "X-HTTP-Method-Override";

/** The body a read sent as POST carried: its parameters, merged over the query string (src/engine/context.ts). */
export interface SentBody {
  text: string;
  /** Past the body limit: the request is refused (413) before anything reads it. */
  tooLarge: boolean;
  /** Why the body could not be read (its stream broke): the request fails with it, as the app reports errors. */
  failure?: unknown;
}

const sentBodies = new WeakMap<Request, SentBody>();

export function isReadSentAsPost(request: Request): boolean {
  return request.method === "POST" && request.headers.get(OVERRIDE_HEADER)?.trim().toUpperCase() === "GET";
}

/** The method a request runs as: GET for a read sent as POST, else its own. */
export function servedMethod(request: Request): string {
  return isReadSentAsPost(request) ? "GET" : request.method;
}

/**
 * A GET request for `url` with these headers whose parameters are also in `body`: the form a read sent as POST
 * takes, and a database's part of one (src/routing.ts) is built in.
 */
export function readWithBody(url: string, headers: Headers, body: SentBody | undefined): Request {
  const read = new Request(url, { method: "GET", headers });
  if (body) sentBodies.set(read, body);
  return read;
}

/** The request as the app serves it: a read sent as POST becomes its GET, its body (at most `limit` bytes) kept beside it. */
export async function servedRequest(request: Request, limit: number): Promise<Request> {
  if (!isReadSentAsPost(request)) return request;
  const headers = new Headers(request.headers);
  headers.delete(OVERRIDE_HEADER);
  headers.delete("Content-Length");
  return readWithBody(request.url, headers, await bodyWithin(request, limit));
}

/** The body a read sent as POST carried, by the identity of the GET it became (a client cannot claim one). */
export function sentBodyOf(request: Request): SentBody | undefined {
  return sentBodies.get(request);
}

/**
 * Read as it streams in, and no further than the limit: a larger body is not held in memory to be refused. This runs
 * before the app, outside its error handling: a failure is kept, for the app to report (src/app.ts).
 */
async function bodyWithin(request: Request, limit: number): Promise<SentBody> {
  try {
    return await streamedWithin(request, limit);
  } catch (failure) {
    return { text: "", tooLarge: false, failure };
  }
}

async function streamedWithin(request: Request, limit: number): Promise<SentBody> {
  if (!request.body) return { text: "", tooLarge: false };
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), tooLarge: false };
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel();
      return { text: "", tooLarge: true };
    }
    text += decoder.decode(value, { stream: true });
  }
}
