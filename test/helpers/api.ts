/**
 * Sends real HTTP requests to the worker running in workerd and checks every JSON:API answer for
 * structural validity against the JSON:API 1.0 schema and for the media type.
 */
import { Validator } from "@cfworker/json-schema";
import { createExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import worker from "../../src/index";
import type { Bindings } from "../../src/env";
import { expect } from "vitest";
import schema from "../fixtures/jsonapi-schema-1.0.json";
import { assertDescribed } from "./described";
import { linkageCycle } from "./linkage-cycles";

const validator = new Validator(schema as object, "2020-12", false);

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface RequestOptions {
  token?: string | null;
  /** A JSON document (sent as JSON:API), a text sent as is, or a form sent as multipart/form-data. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Skip the JSON:API document checks (e.g. for the batch endpoint's plain JSON). */
  raw?: boolean;
  /** Run the worker with these bindings in place of the configured ones (settings a test varies). */
  bindings?: object;
}

export async function request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { Accept: "application/vnd.api+json", ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | FormData | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/vnd.api+json";
  }
  const sent = new Request(`https://api.example.org${path}`, { method, headers, body });
  const response = options.bindings ? await worker.fetch(sent, options.bindings as Bindings, createExecutionContext()) : await exports.default.fetch(sent);
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text !== "") {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!options.raw && text !== "" && response.status !== 304) assertJsonApiDocument(response, parsed);
  await assertDescribed(method, `https://api.example.org${path}`, headers, response, text === "" ? undefined : sampled(parsed));
  return { status: response.status, headers: response.headers, text, body: withoutRequestIds(parsed, response.headers.get("X-Request-Id")) };
}

/**
 * Every error names the request it answers in `meta.request_id`, the same id as the X-Request-Id header. Checked
 * here for every error document the tests receive, then taken out, so tests compare the rest of each error.
 */
export function withoutRequestIds<T>(document: T, requestId: string | null | undefined): T {
  const errors = (document as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return document;
  expect(requestId, "an error answer without a request id").toMatch(/^[0-9a-f-]{36}$/);
  const stripped = errors.map((error: { meta?: Record<string, unknown> }) => {
    expect(error.meta?.request_id, "each error's meta.request_id is the answer's X-Request-Id").toBe(requestId);
    const { request_id: _, ...meta } = error.meta!;
    const { meta: __, ...rest } = error;
    return Object.keys(meta).length ? { ...rest, meta } : rest;
  });
  return { ...document, errors: stripped };
}

/** The document of a recorded answer (a batch item, a stored background response), checked as above. */
export function recordedDocument(answer: { body: string; headers: Record<string, string> }) {
  const document = JSON.parse(answer.body);
  expect(linkageCycle(document), "a recorded answer's included records link in a cycle").toBeUndefined();
  return withoutRequestIds(document, answer.headers["X-Request-Id"] ?? answer.headers["x-request-id"]);
}

/** Schema validation costs about a millisecond per resource; very long lists are checked by their first and last items. */
const VALIDATED_ITEMS = 500;

function sampled(document: unknown): unknown {
  const data = (document as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length <= VALIDATED_ITEMS) return document;
  const half = VALIDATED_ITEMS / 2;
  return { ...(document as object), data: [...data.slice(0, half), ...data.slice(-half)] };
}

/**
 * The one place the interface departs from JSON:API 1.0: a user's `master_person` identifier also carries the
 * master person's created_at and updated_at. Exactly those two members are set aside before the schema check.
 */
function withoutStampedIdentifiers(document: unknown): unknown {
  const unstamp = (resource: unknown): unknown => {
    const linkage = (resource as { relationships?: { master_person?: { data?: unknown } } })?.relationships?.master_person;
    if (!linkage || typeof linkage.data !== "object" || linkage.data === null) return resource;
    const { created_at: _created, updated_at: _updated, ...identifier } = linkage.data as Record<string, unknown>;
    const relationships = { ...(resource as { relationships: object }).relationships, master_person: { ...linkage, data: identifier } };
    return { ...(resource as object), relationships };
  };
  if (typeof document !== "object" || document === null) return document;
  const { data, included } = document as { data?: unknown; included?: unknown[] };
  return {
    ...document,
    ...(data !== undefined ? { data: Array.isArray(data) ? data.map(unstamp) : unstamp(data) } : {}),
    ...(included !== undefined ? { included: included.map(unstamp) } : {}),
  };
}

export function assertJsonApiDocument(response: Response, document: unknown): void {
  expect(response.headers.get("content-type")).toBe("application/vnd.api+json; charset=utf-8");
  const result = validator.validate(withoutStampedIdentifiers(sampled(document)));
  if (!result.valid) {
    throw new Error(`Response is not a valid JSON:API document: ${JSON.stringify(result.errors.slice(0, 3))}\n${JSON.stringify(document).slice(0, 500)}`);
  }
  // The web app's reader follows linkage through `included` without end on a cycle.
  const cycle = linkageCycle(document);
  if (cycle) throw new Error(`The answer's included records link in a cycle: ${cycle.join(" -> ")}`);
}

export const get = (path: string, token?: string | null, options: RequestOptions = {}) => request("GET", path, { ...options, token });
export const post = (path: string, body: unknown, token?: string | null, options: RequestOptions = {}) =>
  request("POST", path, { ...options, body, token });
export const put = (path: string, body: unknown, token?: string | null, options: RequestOptions = {}) =>
  request("PUT", path, { ...options, body, token });
export const patch = (path: string, body: unknown, token?: string | null, options: RequestOptions = {}) =>
  request("PATCH", path, { ...options, body, token });
export const del = (path: string, token?: string | null, options: RequestOptions = {}) => request("DELETE", path, { ...options, token });

/** The single error of an error document, asserting the status matches. */
export function errorOf(response: ApiResponse, status: number) {
  expect(response.status, response.text.slice(0, 300)).toBe(status);
  expect(response.body.errors).toHaveLength(1);
  expect(response.body.errors[0].status).toBe(String(status));
  return response.body.errors[0];
}
