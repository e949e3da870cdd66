/**
 * The routes that take a file: a multipart/form-data POST there is streamed to its handler, not read as a
 * JSON:API document, and its size is the handler's to limit (src/resources/imports/upload.ts), not the body limit's.
 */
const UPLOAD_PATHS = [/^\/api\/v2\/account_lists\/[^/]+\/imports\/csv\/?$/];

export function isFileUpload(request: Request): boolean {
  // A read sent as POST is a GET by the time the app sees it (src/jsonapi/method-override.ts): no upload.
  if (request.method !== "POST") return false;
  const type = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (type !== "multipart/form-data") return false;
  const path = new URL(request.url).pathname;
  return UPLOAD_PATHS.some((pattern) => pattern.test(path));
}
