/**
 * The routes that take a file: a multipart/form-data POST there is streamed to its handler, not read as a
 * JSON:API document, and its size is the handler's to limit (src/resources/imports/upload.ts), not the body limit's.
 */
const UPLOAD_PATHS = [/^\/api\/v2\/account_lists\/[^/]+\/imports\/csv\/?$/];

export function isFileUpload(request: Request): boolean {
  // A list read sent as POST (X-HTTP-Method-Override) is no upload, whatever its content type says.
  if (request.method !== "POST" || request.headers.has("x-http-method-override")) return false;
  const type = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (type !== "multipart/form-data") return false;
  const path = new URL(request.url).pathname;
  return UPLOAD_PATHS.some((pattern) => pattern.test(path));
}
