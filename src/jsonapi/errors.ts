/**
 * The one error type of the API. Anything thrown as an ApiError is rendered as a JSON:API error document by
 * the app's onError; anything else becomes a bare 500 without details.
 */
export interface ErrorObject {
  status: string;
  title: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
  meta?: Record<string, unknown>;
  code?: string;
}

const REASON_PHRASES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  409: "Conflict",
  410: "Gone",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? "Error";
}

export class ApiError extends Error {
  readonly status: number;
  readonly errors: ErrorObject[];
  readonly headers: Record<string, string>;

  constructor(status: number, errors: Array<Partial<ErrorObject>> | string = [], headers: Record<string, string> = {}) {
    const list = typeof errors === "string" ? [{ detail: errors }] : errors;
    const objects = (list.length ? list : [{}]).map((error) => ({
      status: String(status),
      title: reasonPhrase(status),
      ...error,
    }));
    super(objects.map((e) => e.detail ?? e.title).join("; "));
    this.status = status;
    this.errors = objects;
    this.headers = headers;
  }

  /** The error document; each error's meta names the request, so a report of it leads to its log line. */
  toDocument(requestId?: string): { errors: ErrorObject[] } {
    if (!requestId) return { errors: this.errors };
    return { errors: this.errors.map((error) => ({ ...error, meta: { ...error.meta, request_id: requestId } })) };
  }
}

export const badRequest = (detail: string, source?: ErrorObject["source"]) =>
  new ApiError(400, [{ detail, ...(source ? { source } : {}) }]);

export const unauthorized = (detail: string) => new ApiError(401, [{ detail }]);

export const forbidden = (id: string, type: string) =>
  new ApiError(403, [{ detail: `Not allowed to perform that action on the resource with ID ${id} of type ${type}` }]);

export const recordNotFound = (model: string, id: string) =>
  new ApiError(404, [{ detail: `Couldn't find ${model} with 'id'=${id}` }]);

export const routeNotFound = () => new ApiError(404, [{ detail: "Route not found" }]);

/** Anything unexpected: status and title only (and the request id in meta), no details leave the service. */
export const internalError = () => new ApiError(500);

export const conflict = (detail: string, source?: ErrorObject["source"]) =>
  new ApiError(409, [{ detail, ...(source ? { source } : {}) }]);

/** A field error: the title is the short message, the detail the full sentence, the pointer the attribute. */
export interface FieldError {
  attribute: string;
  message: string;
  /** Defaults to /data/attributes/<attribute>; relationships point at /data/relationships/<name>. */
  pointer?: string;
}

export function humanize(attribute: string): string {
  const words = attribute.replace(/_id$/, "").replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function validationFailed(fieldErrors: FieldError[]): ApiError {
  return new ApiError(
    400,
    fieldErrors.map(({ attribute, message, pointer }) => ({
      title: message,
      detail: `${humanize(attribute)} ${message}`,
      source: { pointer: pointer ?? `/data/attributes/${attribute}` },
    })),
  );
}
