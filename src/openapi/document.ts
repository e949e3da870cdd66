/**
 * The OpenAPI 3.1 description of the API, built from what is mounted: every route Hono holds is listed, and the
 * routes the engine built from a resource declaration (src/engine/route-descriptions.ts) are described from that
 * declaration — parameters, filters with their reverse forms, sorts, includes, request and response schemas and
 * the errors they answer. Nothing is written by hand, so the description cannot drift from the routes.
 */
import type { Hono } from "hono";
import type { ResourceDef } from "../engine/define";
import { declaredResources } from "../engine/define";
import { descriptionOf, type RouteDescription, type UploadField } from "../engine/route-descriptions";
import type { AppEnv } from "../env";
import { MAX_CREDENTIAL_LENGTH, SIGN_IN_PATH, SIGN_IN_TYPE } from "../auth/sign-in";
import {
  bulkDocumentSchema,
  listDocumentSchema,
  requestSchema,
  resourceSchemas,
  SHARED_SCHEMAS,
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

/**
 * The document's shared parts: a parameter, response, header or schema that operations repeat is written once under
 * `components` and referenced. A name is reused only for the same value; another value under a taken name (two
 * declarations of one type with different filters) gets a numbered name of its own.
 */
class Components {
  readonly parts: Record<"parameters" | "responses" | "headers" | "schemas", Record<string, unknown>> = { parameters: {}, responses: {}, headers: {}, schemas: {} };
  private readonly texts = new Map<string, string>();

  /** Parts the document names itself: a shared part never takes their names. */
  constructor(reserved: Partial<Record<keyof Components["parts"], Record<string, unknown>>> = {}) {
    for (const [kind, parts] of Object.entries(reserved)) for (const name of Object.keys(parts)) this.texts.set(`${kind}/${name}`, "\u0000reserved");
  }

  ref(kind: keyof Components["parts"], name: string, value: unknown): { $ref: string } {
    const text = JSON.stringify(value);
    const safe = name.replace(/[^A-Za-z0-9._-]+/g, "_");
    for (let n = 1; ; n++) {
      const key = n === 1 ? safe : `${safe}_${n}`;
      const known = this.texts.get(`${kind}/${key}`);
      if (known === undefined) {
        this.parts[kind][key] = value;
        this.texts.set(`${kind}/${key}`, text);
      }
      if (known === undefined || known === text) return { $ref: `#/components/${kind}/${key}` };
    }
  }
}

const json = (schema: JsonSchema) => ({ [MEDIA_TYPE]: { schema } });
/**
 * The errors an operation answers, as its `default` response: one shared response per set of statuses. Its
 * description says why each status is answered, and `x-statuses` lists the statuses for tools. Listing each status
 * on each of 180 operations made the description three times its size.
 */
function errorResponses(shared: Components, statuses: Record<string, string>) {
  const text = Object.entries(statuses).map(([status, why]) => `${status}: ${why}`).join("; ");
  return {
    default: shared.ref("responses", "errors", { description: `A JSON:API error document. ${text}`, "x-statuses": Object.keys(statuses), content: json({ $ref: "#/components/schemas/ErrorDocument" }) }),
  };
}

/** A query parameter (optional, as OpenAPI takes a parameter without `required`). */
function query(name: string, description: string, schema: JsonSchema = { type: "string" }) {
  return { name, in: "query", description, schema };
}

/** The name a type's shared parts go by: `contacts` → `Contacts`. */
const partName = (def: ResourceDef) => def.type.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());

function listParameters(shared: Components, def: ResourceDef) {
  const type = partName(def);
  const filters = Object.keys(def.filters ?? {});
  const parameters: Array<{ $ref: string }> = [];
  if (filters.length) {
    // `filter[status]=...&filter[reverse_status]=true`: one deepObject parameter whose properties are the filters
    // (each named for what it filters: a description per filter would only say its name again).
    const properties: Record<string, JsonSchema> = Object.fromEntries(filters.map((name) => [name, { type: "string" }]));
    if (def.reversibleFilters) for (const name of filters) properties[`reverse_${name}`] = { enum: ["true", "false"] };
    const negation = def.reversibleFilters ? "; filter[reverse_<name>]=true negates filter[<name>]" : "";
    const filter = { ...query("filter", `Filters, each sent as filter[<name>]=<value>${negation}`, { type: "object", properties, additionalProperties: false }), style: "deepObject", explode: true };
    parameters.push(shared.ref("parameters", `${type}.filter`, filter));
  }
  const sorts = Object.keys(def.sorts ?? {});
  if (sorts.length) {
    const values = sorts.flatMap((name) => [name, `-${name}`]);
    const sort = query("sort", `One of: ${values.join(", ")}${def.multipleSorts ? " (several, comma-separated)" : ""}`, def.multipleSorts ? { type: "string" } : { type: "string", enum: values });
    parameters.push(shared.ref("parameters", `${type}.sort`, sort));
  }
  parameters.push(
    shared.ref("parameters", "page", query("page", "Page number, from 1", { type: "integer", minimum: 1 })),
    shared.ref("parameters", "per_page", query("per_page", "Rows per page", { type: "integer", minimum: 1 })),
  );
  return parameters;
}

function readParameters(shared: Components, def: ResourceDef) {
  const type = partName(def);
  return [
    shared.ref("parameters", `${type}.include`, query("include", `Related records to include, comma-separated, dotted for paths: ${Object.keys(def.relationships).join(", ")}`)),
    shared.ref("parameters", `${type}.fields`, query(`fields[${def.type}]`, "Sparse fieldset: the attributes and relationships to answer, comma-separated")),
  ];
}

/** Every route takes it: given once per path, for all the path's operations. */
const BOOKMARK = { name: "X-D1-Bookmark", in: "header", required: false, description: "Read your own writes: the X-D1-Bookmark of an earlier answer", schema: { type: "string" } };

const HEADERS = {
  override: { name: "X-HTTP-Method-Override", in: "header", required: false, description: "GET: the request is this path's GET, its parameters in the body", schema: { type: "string", enum: ["GET"] } },
  ifNoneMatch: { name: "If-None-Match", in: "header", required: false, description: "An ETag of an earlier answer: 304 when nothing changed", schema: { type: "string" } },
};

function describedOperation(shared: Components, description: RouteDescription, method: string) {
  const def = description.resource;
  const types = description.requestTypes ?? [def.type];
  const name = def.type.replace(/_/g, " ");
  const type = partName(def);
  const header = (key: keyof typeof HEADERS) => shared.ref("parameters", key, HEADERS[key]);
  const document = (kind: string, schema: JsonSchema) => shared.ref("schemas", `${type}${kind}`, schema);
  // The answers a type's operations share, whatever their status: a page, a record, one document per bulk item. The
  // headers every answer carries (X-Request-Id, X-D1-Bookmark) are described once, in the document's description.
  const answer = (key: string, text: string, schema?: JsonSchema) => shared.ref("responses", key, { description: text, ...(schema ? { content: json(schema) } : {}) });
  const page = () => answer(`${type}.page`, `A page of ${name}`, listDocumentSchema(def.type));
  const record = () => answer(`${type}.record`, `The ${name} record (as stored, after a write)`, singleDocumentSchema(def.type));
  const errors = (statuses: Record<string, string>) => errorResponses(shared, statuses);
  switch (description.action) {
    case "list": {
      const override = method === "post";
      return {
        summary: override ? `List ${name} (parameters in the body, X-HTTP-Method-Override: GET)` : `List ${name}`,
        tags: [def.type],
        parameters: [...listParameters(shared, def), ...readParameters(shared, def), ...(override ? [header("override")] : [header("ifNoneMatch")])],
        responses: {
          "200": page(),
          ...(override
            ? errors({ ...COMMON_ERRORS, "405": "A POST without X-HTTP-Method-Override: GET (this path creates nothing)", "413": WRITE_ERRORS["413"], "415": WRITE_ERRORS["415"] })
            : { "304": notModified(shared), ...errors(COMMON_ERRORS) }),
        },
      };
    }
    case "show": {
      // A summary (src/read/summaries.ts) is read by POST too, its parameters in the body.
      const override = method === "post";
      return {
        summary: override ? `Read ${name} (parameters in the body, X-HTTP-Method-Override: GET)` : `Show one of ${name}`,
        tags: [def.type],
        parameters: [...readParameters(shared, def), ...(override ? [header("override")] : [header("ifNoneMatch")])],
        responses: {
          "200": record(),
          ...(override ? errors({ ...COMMON_ERRORS, "405": "A POST without X-HTTP-Method-Override: GET" }) : { "304": notModified(shared), ...errors(COMMON_ERRORS) }),
        },
      };
    }
    case "create":
    case "update":
      return {
        summary: `${description.action === "create" ? "Create" : "Update"} ${description.action === "create" ? "one of " : ""}${name}`,
        tags: [def.type],
        parameters: [...readParameters(shared, def), ...(description.alsoLists ? [header("override")] : [])],
        requestBody: {
          required: true,
          content: {
            ...json(document(description.action === "create" ? "CreateRequest" : "UpdateRequest", requestSchema(def, types, description.action, (schemaName, schema) => shared.ref("schemas", schemaName, schema), type))),
            ...(description.upload ? { "multipart/form-data": { schema: uploadSchema(description.upload) } } : {}),
          },
        },
        responses: {
          // With X-HTTP-Method-Override: GET, a create path answers a page.
          ...(description.alsoLists ? { "200": page() } : {}),
          [description.action === "create" ? "201" : "200"]: record(),
          ...errors({ ...COMMON_ERRORS, ...WRITE_ERRORS }),
        },
      };
    case "accept":
      return {
        summary: description.summary ?? `Act on one of ${name}`,
        tags: [def.type],
        responses: { "202": record(), ...errors({ ...COMMON_ERRORS, ...WRITE_ERRORS }) },
      };
    case "merge":
      return {
        summary: `Merge one of ${name} into another: the winner answers, the loser is deleted`,
        tags: [def.type],
        requestBody: { required: true, content: json(shared.ref("schemas", "MergeRequest", { type: "object", required: ["data"], properties: { data: MERGE_ITEM } })) },
        responses: { "200": record(), ...errors({ ...COMMON_ERRORS, ...WRITE_ERRORS }) },
      };
    case "delete":
      return { summary: `Delete one of ${name}`, tags: [def.type], responses: { "204": answer("deleted", "Deleted"), ...errors(COMMON_ERRORS) } };
    case "bulk-merge":
      return {
        summary: `Merge ${name} in pairs (not inside /batch): one document per pair, the winner or why it was not merged`,
        tags: [def.type],
        requestBody: {
          required: true,
          content: json(shared.ref("schemas", "BulkMergeRequest", { type: "object", required: ["data"], properties: { data: { type: "array", items: { type: "object", required: ["data"], properties: { data: MERGE_ITEM } } } } })),
        },
        responses: { "200": answer(`${type}.bulk`, "One document per item, in order", bulkDocumentSchema(def.type)), ...errors({ ...COMMON_ERRORS, ...WRITE_ERRORS }) },
      };
    default:
      return {
        summary: `Bulk ${description.action.slice(5)} of ${name}`,
        tags: [def.type],
        requestBody: { required: true, content: json(shared.ref("schemas", "BulkRequest", { type: "object", required: ["data"], properties: { data: { type: "array", items: { type: "object" } } } })) },
        responses: { "200": answer(`${type}.bulk`, "One document per item, in order", bulkDocumentSchema(def.type)), ...errors({ ...COMMON_ERRORS, ...WRITE_ERRORS }) },
      };
  }
}

/** A merge as the clients send it: the type is not checked, the two ids are. */
const MERGE_ITEM = {
  type: "object",
  required: ["attributes"],
  properties: {
    type: { type: "string" },
    attributes: { type: "object", required: ["winner_id", "loser_id"], properties: { winner_id: { type: "string", format: "uuid" }, loser_id: { type: "string", format: "uuid" } } },
  },
};

const notModified = (shared: Components) => shared.ref("responses", "notModified", { description: "Not modified" });

/** A file upload's form: each field a string, the file binary. */
function uploadSchema(fields: Record<string, UploadField>): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [name, { type: "string", ...(field.file ? { format: "binary" } : {}), description: field.description }]),
  );
  return { type: "object", required: Object.entries(fields).filter(([, field]) => !field.optional).map(([name]) => name), properties };
}

/** Signing in and out (src/auth/sign-in.ts): the request and answer the clients rely on, and what each refusal means. */
function signInOperation(shared: Components, method: string) {
  const credential = (description: string) => ({ type: "string", maxLength: MAX_CREDENTIAL_LENGTH, description });
  if (method === "delete") {
    return {
      summary: "Sign out: every token of the caller issued until now is refused from now on",
      tags: ["user"],
      responses: { "204": shared.ref("responses", "SignedOut", { description: "Signed out" }), ...errorResponses(shared, { "401": COMMON_ERRORS["401"], "429": COMMON_ERRORS["429"], "500": COMMON_ERRORS["500"], "503": COMMON_ERRORS["503"] }) },
    };
  }
  return {
    summary: "Sign in: exchange the identity provider's token (or a CAS ticket) for the service's token",
    description:
      "Send exactly one of id_token (an OpenID Connect ID token), access_token (the provider's access token, a JWT or opaque) " +
      "or cas_ticket (a CAS service ticket issued for this URL, where the deployment sets CAS_BASE_URL). No token is needed. " +
      "The answer's json_web_token is sent as `Authorization: Bearer <token>` on every other request.",
    tags: ["user"],
    security: [],
    requestBody: {
      required: true,
      content: json(
        shared.ref("schemas", "AuthenticateRequest", {
          type: "object",
          required: ["data"],
          properties: {
            data: {
              type: "object",
              required: ["type", "attributes"],
              properties: {
                type: { const: SIGN_IN_TYPE },
                attributes: {
                  type: "object",
                  additionalProperties: false,
                  properties: { id_token: credential("An OpenID Connect ID token"), access_token: credential("The provider's access token"), cas_ticket: credential("A CAS service ticket (ST-...)") },
                },
              },
            },
          },
        }),
      ),
    },
    responses: {
      "200": shared.ref("responses", "Authenticated", {
        description: "The service's token",
        content: json(
          shared.ref("schemas", "AuthenticateDocument", {
            type: "object",
            required: ["data"],
            properties: {
              data: {
                type: "object",
                required: ["id", "type", "attributes"],
                properties: { id: { const: "" }, type: { const: SIGN_IN_TYPE }, attributes: { type: "object", required: ["json_web_token"], properties: { json_web_token: { type: "string" } } } },
              },
            },
          }),
        ),
      }),
      ...errorResponses(shared, {
        "400": "No credential, more than one, or one that is not a string or too long; a cas_ticket where CAS is not configured",
        "401": "The identity provider's token or ticket is not valid for this service",
        "403": "The person has no access: not a user, not invited, or disabled (ask the administrator)",
        "406": COMMON_ERRORS["406"],
        "409": "A data.type other than authenticate",
        "413": WRITE_ERRORS["413"],
        "415": WRITE_ERRORS["415"],
        "429": "Too many sign-in attempts from this address (see Retry-After)",
        "500": COMMON_ERRORS["500"],
        "503": "Signing in is not configured, or the identity provider cannot be reached (see Retry-After)",
      }),
    },
  };
}

/** A route mounted by hand: listed with what every route may answer. */
function plainOperation(shared: Components, method: string, path: string) {
  const open = path === "/api/v2/health" || path === "/api/v2/openapi.json";
  return {
    summary: `${method.toUpperCase()} ${path}`,
    tags: [path.split("/")[3] ?? "api"],
    ...(open ? { security: [] } : {}),
    responses: {
      "200": shared.ref("responses", "answer", { description: "The answer", content: { [MEDIA_TYPE]: { schema: {} }, "application/json": { schema: {} } } }),
      ...(method === "post" ? { "201": shared.ref("responses", "created", { description: "Created", content: json({}) }) } : {}),
      "204": shared.ref("responses", "done", { description: "Done, nothing to answer" }),
      ...(method === "get" ? { "304": notModified(shared) } : {}),
      ...errorResponses(shared, method === "get" ? COMMON_ERRORS : { ...COMMON_ERRORS, ...WRITE_ERRORS, "410": "No longer there to act on (e.g. an invite already used)" }),
    },
  };
}

/**
 * `getAccountListWebhooksById` for GET /account_lists/{account_list_id}/webhooks/{id}: a collection followed by its
 * record's id is named by the record (`contacts/{contact_id}` → `Contact`), any other parameter by `By<name>`.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v2/, "")
    .replace(/\/[a-z_]+\/\{(\w+)_id\}/g, "/$1")
    .replace(/\{(\w+)\}/g, "By_$1");
  return `${method}${words.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`;
}

export function buildOpenApiDocument(app: Hono<AppEnv>, serverUrl?: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const namedSchemas = { ...SHARED_SCHEMAS, ...resourceSchemas(declaredResources()) };
  const shared = new Components({ schemas: namedSchemas });
  for (const route of app.routes) {
    const method = route.method.toLowerCase() as (typeof METHODS)[number];
    if (!METHODS.includes(method) || !route.path.startsWith("/api/")) continue;
    const { path, parameters } = openApiPath(route.path);
    const item = (paths[path] ??= {});
    if (item[method]) continue;
    const description = descriptionOf(route.handler);
    const operation = description
      ? describedOperation(shared, description, method)
      : path === SIGN_IN_PATH
        ? signInOperation(shared, method)
        : plainOperation(shared, method, path);
    // The path's parameters and the bookmark are the path item's, for all its operations.
    item.parameters ??= [
      ...parameters.map((parameter) =>
        shared.ref("parameters", `path.${parameter.name}`, { name: parameter.name, in: "path", required: true, schema: { type: "string", ...(parameter.pattern ? { pattern: parameter.pattern } : {}) } }),
      ),
      shared.ref("parameters", "bookmark", BOOKMARK),
    ];
    item[method] = {
      operationId: operationIdOf(method, path),
      ...operation,
    };
  }
  // A read sent as POST is its GET (src/jsonapi/method-override.ts): described as such where the clients send it so.
  for (const route of app.routes) {
    const description = route.method === "GET" ? descriptionOf(route.handler) : undefined;
    const item = paths[openApiPath(route.path).path];
    if (!description?.alsoSentAsPost || !item || item.post) continue;
    item.post = { operationId: operationIdOf("post", openApiPath(route.path).path), ...describedOperation(shared, description, "post") };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Fundraising records API",
      version: "2",
      description:
        "JSON:API for the records of people who raise their own support. Every answer is a JSON:API document " +
        "(application/vnd.api+json). Every answer carries the headers X-Request-Id (the request's id, also in each error's " +
        "meta.request_id) and X-D1-Bookmark: send it back to read this answer's writes from any replica.",
      license: { name: "MIT", identifier: "MIT" },
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT (HS256; claims user_id, iat, exp and gen), from POST /api/v2/user/authenticate" } },
      parameters: shared.parts.parameters,
      responses: shared.parts.responses,
      headers: shared.parts.headers,
      schemas: { ...namedSchemas, ...shared.parts.schemas },
    },
  };
}
