/**
 * The OpenAPI 3.1 description of the API, built from what is mounted: every route Hono holds is listed, and the
 * routes the engine built from a resource declaration (src/engine/route-descriptions.ts) are described from that
 * declaration — parameters, filters with their reverse forms, sorts, includes, request and response schemas and
 * the errors they answer. Nothing is written by hand, so the description cannot drift from the routes.
 */
import type { Hono } from "hono";
import type { ResourceDef } from "../engine/define";
import { declaredResources } from "../engine/define";
import { descriptionOf, type RouteDescription } from "../engine/route-descriptions";
import type { AppEnv } from "../env";
import {
  bulkDocumentSchema,
  ERROR_DOCUMENT,
  listDocumentSchema,
  requestSchema,
  resourceSchemas,
  singleDocumentSchema,
  type JsonSchema,
} from "./schemas";

const MEDIA_TYPE = "application/vnd.api+json";
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** Statuses any /api/v2 route may answer, whatever it does. */
const COMMON_ERRORS: Record<string, string> = {
  "400": "A parameter, header or body the route cannot take",
  "401": "No token, or one that is not valid",
  "403": "Not the caller's record or account list, or a read-only one",
  "404": "No such record, or one the caller may not see",
  "406": "An Accept header this service cannot answer",
  "429": "The caller's request budget is spent (see Retry-After)",
  "500": "Internal error (the error's meta.request_id names it in the logs)",
  "503": "The service is not configured",
};
const WRITE_ERRORS: Record<string, string> = {
  "409": "A conflict: a stale updated_in_db_at, an id already taken, or a type that does not fit",
  "413": "The body is larger than 10 MB",
  "415": "A Content-Type other than application/vnd.api+json or application/json",
};

interface PathParameter {
  name: string;
  pattern?: string;
}

/** `/a/:id{[0-9a-f]{8}}/b` → `/a/{id}/b` and its parameters (Hono's patterns may hold braces of their own). */
export function openApiPath(honoPath: string): { path: string; parameters: PathParameter[] } {
  const parameters: PathParameter[] = [];
  let path = "";
  for (let i = 0; i < honoPath.length; i++) {
    if (honoPath[i] !== ":") {
      path += honoPath[i];
      continue;
    }
    let name = "";
    while (i + 1 < honoPath.length && /\w/.test(honoPath[i + 1])) name += honoPath[++i];
    let pattern: string | undefined;
    if (honoPath[i + 1] === "{") {
      let depth = 0;
      pattern = "";
      for (i = i + 1; i < honoPath.length; i++) {
        if (honoPath[i] === "{") depth++;
        if (honoPath[i] === "}") depth--;
        if (depth === 0) break;
        if (!(depth === 1 && honoPath[i] === "{" && pattern === "")) pattern += honoPath[i];
      }
    }
    parameters.push({ name, pattern: pattern ? `^${pattern}$` : undefined });
    path += `{${name}}`;
  }
  return { path: path.replace(/\/$/, "") || "/", parameters };
}

const json = (schema: JsonSchema) => ({ [MEDIA_TYPE]: { schema } });
const errorResponses = (statuses: Record<string, string>) =>
  Object.fromEntries(Object.entries(statuses).map(([status, description]) => [status, { description, content: json({ $ref: "#/components/schemas/ErrorDocument" }) }]));

function query(name: string, description: string, schema: JsonSchema = { type: "string" }) {
  return { name, in: "query", required: false, description, schema };
}

function listParameters(def: ResourceDef) {
  const filters = Object.keys(def.filters ?? {});
  const parameters = filters.map((name) => query(`filter[${name}]`, `Filter by ${name.replace(/_/g, " ")}`));
  if (def.reversibleFilters) {
    parameters.push(...filters.map((name) => query(`filter[reverse_${name}]`, `true negates filter[${name}]`, { type: "string", enum: ["true", "false"] })));
  }
  const sorts = Object.keys(def.sorts ?? {});
  if (sorts.length) {
    const values = sorts.flatMap((name) => [name, `-${name}`]);
    parameters.push(query("sort", `One of: ${values.join(", ")}${def.multipleSorts ? " (several, comma-separated)" : ""}`, def.multipleSorts ? { type: "string" } : { type: "string", enum: values }));
  }
  parameters.push(query("page", "Page number, from 1", { type: "integer", minimum: 1 }), query("per_page", "Rows per page", { type: "integer", minimum: 1 }));
  return parameters;
}

function readParameters(def: ResourceDef) {
  return [
    query("include", `Related records to include, comma-separated, dotted for paths: ${Object.keys(def.relationships).join(", ")}`),
    query(`fields[${def.type}]`, "Sparse fieldset: the attributes and relationships to answer, comma-separated"),
  ];
}

const HEADERS = {
  bookmark: { name: "X-D1-Bookmark", in: "header", required: false, description: "Read your own writes: the X-D1-Bookmark of an earlier answer", schema: { type: "string" } },
  override: { name: "X-HTTP-Method-Override", in: "header", required: false, description: "GET: a list read whose parameters are in the body", schema: { type: "string", enum: ["GET"] } },
  ifNoneMatch: { name: "If-None-Match", in: "header", required: false, description: "An ETag of an earlier answer: 304 when nothing changed", schema: { type: "string" } },
};

const ANSWER_HEADERS = {
  "X-Request-Id": { description: "The request's id, also in each error's meta.request_id", schema: { type: "string" } },
  "X-D1-Bookmark": { description: "Send it back to read this answer's writes from any replica", schema: { type: "string" } },
};

function describedOperation(description: RouteDescription, method: string) {
  const def = description.resource;
  const types = description.requestTypes ?? [def.type];
  const name = def.type.replace(/_/g, " ");
  const success = (status: string, text: string, schema?: JsonSchema) => ({ [status]: { description: text, headers: ANSWER_HEADERS, ...(schema ? { content: json(schema) } : {}) } });
  switch (description.action) {
    case "list": {
      const override = method === "post";
      return {
        summary: override ? `List ${name} (parameters in the body, X-HTTP-Method-Override: GET)` : `List ${name}`,
        tags: [def.type],
        parameters: [...listParameters(def), ...readParameters(def), HEADERS.bookmark, ...(override ? [HEADERS.override] : [HEADERS.ifNoneMatch])],
        responses: {
          ...success("200", `A page of ${name}`, listDocumentSchema(def.type)),
          ...(override
            ? errorResponses({ ...COMMON_ERRORS, "405": "A POST without X-HTTP-Method-Override: GET (this path creates nothing)", "413": WRITE_ERRORS["413"], "415": WRITE_ERRORS["415"] })
            : { "304": { description: "Not modified" }, ...errorResponses(COMMON_ERRORS) }),
        },
      };
    }
    case "show":
      return {
        summary: `Show one of ${name}`,
        tags: [def.type],
        parameters: [...readParameters(def), HEADERS.bookmark, HEADERS.ifNoneMatch],
        responses: { ...success("200", `The ${name} record`, singleDocumentSchema(def.type)), "304": { description: "Not modified" }, ...errorResponses(COMMON_ERRORS) },
      };
    case "create":
    case "update":
      return {
        summary: `${description.action === "create" ? "Create" : "Update"} ${description.action === "create" ? "one of " : ""}${name}`,
        tags: [def.type],
        parameters: [...readParameters(def), HEADERS.bookmark, ...(description.alsoLists ? [HEADERS.override] : [])],
        requestBody: { required: true, content: json(requestSchema(def, types, description.action)) },
        responses: {
          ...(description.alsoLists ? success("200", `With X-HTTP-Method-Override: GET, a page of ${name}`, listDocumentSchema(def.type)) : {}),
          ...success(description.action === "create" ? "201" : "200", `The ${name} record as stored`, singleDocumentSchema(def.type)),
          ...errorResponses({ ...COMMON_ERRORS, ...WRITE_ERRORS }),
        },
      };
    case "delete":
      return { summary: `Delete one of ${name}`, tags: [def.type], parameters: [HEADERS.bookmark], responses: { ...success("204", "Deleted"), ...errorResponses(COMMON_ERRORS) } };
    default:
      return {
        summary: `Bulk ${description.action.slice(5)} of ${name}`,
        tags: [def.type],
        parameters: [HEADERS.bookmark],
        requestBody: { required: true, content: json({ type: "object", required: ["data"], properties: { data: { type: "array", items: { type: "object" } } } }) },
        responses: { ...success("200", "One document per item, in order", bulkDocumentSchema(def.type)), ...errorResponses({ ...COMMON_ERRORS, ...WRITE_ERRORS }) },
      };
  }
}

/** A route mounted by hand: listed with what every route may answer. */
function plainOperation(method: string, path: string) {
  const open = path === "/api/v2/health" || path === "/api/v2/openapi.json";
  return {
    summary: `${method.toUpperCase()} ${path}`,
    tags: [path.split("/")[3] ?? "api"],
    ...(open ? { security: [] } : {}),
    responses: {
      "200": { description: "The answer", content: { [MEDIA_TYPE]: { schema: {} }, "application/json": { schema: {} } } },
      ...(method === "post" ? { "201": { description: "Created", content: json({}) } } : {}),
      "204": { description: "Done, nothing to answer" },
      ...(method === "get" ? { "304": { description: "Not modified" } } : {}),
      ...errorResponses(method === "get" ? COMMON_ERRORS : { ...COMMON_ERRORS, ...WRITE_ERRORS, "410": "No longer there to act on (e.g. an invite already used)" }),
    },
  };
}

export function buildOpenApiDocument(app: Hono<AppEnv>, serverUrl?: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of app.routes) {
    const method = route.method.toLowerCase() as (typeof METHODS)[number];
    if (!METHODS.includes(method) || !route.path.startsWith("/api/")) continue;
    const { path, parameters } = openApiPath(route.path);
    const item = (paths[path] ??= {});
    if (item[method]) continue;
    const description = descriptionOf(route.handler);
    const operation = description ? describedOperation(description, method) : plainOperation(method, path);
    item[method] = {
      operationId: `${method}${path.replace(/\{(\w+)\}/g, "By_$1").replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
      ...operation,
      parameters: [
        ...parameters.map((parameter) => ({ name: parameter.name, in: "path", required: true, schema: { type: "string", ...(parameter.pattern ? { pattern: parameter.pattern } : {}) } })),
        ...((operation as { parameters?: unknown[] }).parameters ?? []),
      ],
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Fundraising records API",
      version: "2",
      description:
        "JSON:API for the records of people who raise their own support. Every answer is a JSON:API document " +
        "(application/vnd.api+json); errors carry meta.request_id, the X-Request-Id of the answer. Send the X-D1-Bookmark " +
        "of an answer back to read your own writes.",
      license: { name: "MIT", identifier: "MIT" },
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT (HS256; claims user_id and exp)" } },
      schemas: { ErrorDocument: ERROR_DOCUMENT, ...resourceSchemas(declaredResources()) },
    },
  };
}
