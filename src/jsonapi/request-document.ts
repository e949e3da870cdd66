/**
 * Checks on request documents that hold for every resource: a JSON object body with `data`, the right
 * `data.type`, no ids or foreign keys smuggled into `attributes`, and well-formed linkage.
 */
import { ApiError, badRequest, conflict } from "./errors";

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ResourceInput {
  id?: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, unknown>;
  included: unknown[];
}

export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") throw badRequest("The request body is empty; a JSON:API document with a data object is required", { pointer: "" });
  refuseDeepJson(text);
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("The request body is not valid JSON", { pointer: "" });
  }
}

/**
 * Levels of objects and arrays a request body may nest. The deepest document a client needs (a background
 * request's parameters inside a batch, a filter object inside an appeal) is under ten; the code that walks a
 * filter or a parameter object recursively must never meet thousands of levels.
 */
export const MAX_JSON_DEPTH = 32;

/** Refuses a JSON text nested deeper than MAX_JSON_DEPTH, by scanning it once before anything parses or walks it. */
export function refuseDeepJson(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) throw badRequest(`The request body is nested more than ${MAX_JSON_DEPTH} levels deep`, { pointer: "" });
    } else if (char === 0x7d || char === 0x5d) depth--;
  }
}

export function typeMismatch(sent: unknown, expected: string, pointer = "/data/type"): ApiError {
  return conflict(`'${typeof sent === "string" ? sent : ""}' is not a valid resource type for this endpoint. Expected '${expected}' instead`, { pointer });
}

/** 409 for a body whose id is not the one in the path (CONTRACT §4), whatever form the body's id has. */
export function idMismatch(sent: unknown, pathId: string): ApiError {
  return conflict(`The id in the body (${String(sent)}) does not match the id in the path (${pathId})`, { pointer: "/data/id" });
}

/**
 * Ids another system gives, ordinary attributes: `remote_id`, the donation system's own id of a gift (CONTRACT §4);
 * `primary_list_id`, the MailChimp list a list's newsletter goes to.
 */
const OUTSIDE_IDS = new Set(["remote_id", "primary_list_id"]);

/**
 * Reads `{data: {type, id?, attributes?, relationships?}}` for a resource of `expectedTypes[0]`. `pathId`: the
 * id the path names (updates), which a body id must equal.
 */
export function readResourceDocument(body: unknown, expectedTypes: string[], { pointerPrefix = "", pathId }: { pointerPrefix?: string; pathId?: string } = {}): ResourceInput {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("The request body must be a JSON object with a data member", { pointer: pointerPrefix || "" });
  }
  const document = body as Record<string, unknown>;
  const data = document.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw badRequest("The request must include a data object", { pointer: `${pointerPrefix}/data` });
  }
  const resource = data as Record<string, unknown>;
  if (typeof resource.type !== "string" || !expectedTypes.includes(resource.type)) {
    const error = typeMismatch(resource.type, expectedTypes[0]);
    error.errors[0].source = { pointer: `${pointerPrefix}/data/type` };
    throw error;
  }
  let id: string | undefined;
  if (resource.id !== undefined && resource.id !== null && resource.id !== "") {
    // Checked before the id's form: an id that is not even a UUID differs from the path's all the same.
    if (pathId !== undefined && String(resource.id).toLowerCase() !== pathId.toLowerCase()) throw idMismatch(resource.id, pathId);
    if (typeof resource.id !== "string" || !UUID_PATTERN.test(resource.id)) {
      throw badRequest("Id must be a UUID", { pointer: `${pointerPrefix}/data/id` });
    }
    id = resource.id.toLowerCase();
  }
  const attributes = objectMember(resource.attributes, `${pointerPrefix}/data/attributes`);
  for (const key of Object.keys(attributes)) {
    if (key === "id") {
      throw conflict("The id of a resource goes in data.id, not in attributes", { pointer: `${pointerPrefix}/data/attributes/id` });
    }
    if (key.endsWith("_id") && !OUTSIDE_IDS.has(key)) {
      throw conflict(
        `Foreign keys do not belong in attributes: send ${key.slice(0, -3)} as a relationship under data.relationships instead of ${key}`,
        { pointer: `${pointerPrefix}/data/attributes/${key}` },
      );
    }
  }
  const relationships = objectMember(resource.relationships, `${pointerPrefix}/data/relationships`);
  const included = Array.isArray(document.included) ? document.included : [];
  return { id, type: resource.type, attributes, relationships, included };
}

function objectMember(value: unknown, pointer: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw badRequest("must be an object", { pointer });
  return value as Record<string, unknown>;
}

export interface Linkage {
  type: string;
  id: string;
}

/** Reads `{data: {type, id}}` / `{data: null}` for a to-one relationship. */
export function toOneLinkage(value: unknown, name: string): Linkage | null {
  const pointer = `/data/relationships/${name}`;
  if (typeof value !== "object" || value === null || !("data" in value)) {
    throw badRequest(`Relationship ${name} must be an object with a data member`, { pointer });
  }
  const data = (value as { data: unknown }).data;
  if (data === null) return null;
  return linkageObject(data, `${pointer}/data`);
}

/** Reads `{data: [{type, id}, ...]}` for a to-many relationship. */
export function toManyLinkage(value: unknown, name: string): Linkage[] {
  const pointer = `/data/relationships/${name}`;
  if (typeof value !== "object" || value === null || !Array.isArray((value as { data?: unknown }).data)) {
    throw badRequest(`Relationship ${name} must be an object with a data array`, { pointer });
  }
  return ((value as { data: unknown[] }).data).map((item, index) => linkageObject(item, `${pointer}/data/${index}`));
}

function linkageObject(data: unknown, pointer: string): Linkage {
  if (typeof data !== "object" || data === null) throw badRequest("Resource linkage must be an object with type and id", { pointer });
  const { type, id } = data as Record<string, unknown>;
  if (typeof type !== "string" || type === "") throw badRequest("Resource linkage must have a type", { pointer: `${pointer}/type` });
  if (typeof id !== "string" || !UUID_PATTERN.test(id)) throw badRequest("Resource linkage id must be a UUID", { pointer: `${pointer}/id` });
  return { type, id: id.toLowerCase() };
}
