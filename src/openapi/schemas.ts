/**
 * JSON Schemas (OpenAPI 3.1 dialect) derived from the resource declarations: an attribute's schema comes from its
 * declared `schema` when its builder knows the format (dates, timestamps, decimal strings), else from its column's
 * type and nullability; a computed attribute without one may be any JSON value.
 */
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { AttributeDef, RelationshipDef, ResourceDef } from "../engine/define";
import { DATE, DECIMAL_STRING, TIMESTAMP, type JsonSchema } from "../jsonapi/formats";

export type { JsonSchema };

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });


const nullable = (schema: JsonSchema): JsonSchema => {
  const type = schema.type;
  if (typeof type === "string") return { ...schema, type: [type, "null"] };
  if (Array.isArray(type)) return type.includes("null") ? schema : { ...schema, type: [...type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
};

function columnSchema(column: SQLiteColumn): JsonSchema {
  const kind = (column as unknown as { dataType: string }).dataType;
  const sqlType = column.getSQLType().toLowerCase();
  if (kind === "boolean") return { type: "boolean" };
  if (kind === "json") return { type: ["object", "array"] };
  if (kind === "number") return sqlType === "real" ? { type: "number" } : { type: "integer" };
  if (kind === "custom" && sqlType === "integer") return DECIMAL_STRING;
  return { type: "string" };
}

/** The value formats attributes share, each referenced by name (with its nullable form) rather than repeated. */
const FORMATS = new Map<JsonSchema, string>([
  [DECIMAL_STRING, "Decimal"],
  [DATE, "Date"],
  [TIMESTAMP, "Timestamp"],
]);

const formatSchemas = (): Record<string, JsonSchema> =>
  Object.fromEntries([...FORMATS].flatMap(([schema, name]) => [[name, schema], [`Nullable${name}`, nullable(schema)]]));

/** The schema of an attribute's answered value. */
export function attributeSchema(attribute: AttributeDef): JsonSchema {
  if (attribute.column) {
    const schema = attribute.schema ?? columnSchema(attribute.column);
    const format = FORMATS.get(schema);
    if (format) return ref(attribute.column.notNull ? format : `Nullable${format}`);
    return attribute.column.notNull ? schema : nullable(schema);
  }
  const format = attribute.schema && FORMATS.get(attribute.schema);
  return format ? ref(format) : (attribute.schema ?? {});
}

const identifier = (types: string[], extra: boolean): JsonSchema => ({
  type: "object",
  required: ["type", "id"],
  properties: { type: types.length === 1 ? { const: types[0] } : { enum: types }, id: { type: "string" } },
  ...(extra ? {} : { additionalProperties: false }),
});

/** A relationship's schema, shared by every relationship of the same kind to the same type. */
function relationshipSchema(relationship: RelationshipDef, shared: Record<string, JsonSchema>): JsonSchema {
  const types = [relationship.type, ...(relationship.alsoTypes ?? [])];
  const name = `${relationship.kind === "many" ? "ToMany" : "ToOne"}.${types.join("-or-")}${relationship.identifierMembers ? ".stamped" : ""}`;
  if (!shared[name]) {
    const target = identifier(types, Boolean(relationship.identifierMembers));
    const data = relationship.kind === "many" ? { type: "array", items: target } : { anyOf: [target, { type: "null" }] };
    shared[name] = { type: "object", required: ["data"], properties: { data } };
  }
  return ref(name);
}

const schemaName = (type: string) => `${type.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase())}Resource`;

export function resourceRef(type: string): JsonSchema {
  return { $ref: `#/components/schemas/${schemaName(type)}` };
}

/** The resource object as answered: every declared attribute and relationship may appear, nothing else may. */
export function resourceSchemas(resources: ResourceDef[]): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = formatSchemas();
  for (const def of resources) {
    schemas[schemaName(def.type)] = {
      type: "object",
      required: ["type", "id"],
      properties: {
        type: { const: def.type },
        id: { type: "string" },
        attributes: {
          type: "object",
          properties: Object.fromEntries(Object.entries(def.attributes).map(([name, attribute]) => [name, attributeSchema(attribute)])),
          additionalProperties: false,
        },
        relationships: {
          type: "object",
          properties: Object.fromEntries(Object.entries(def.relationships).map(([name, relationship]) => [name, relationshipSchema(relationship, schemas)])),
          additionalProperties: false,
        },
        links: { type: "object" },
        meta: { type: "object" },
      },
      additionalProperties: false,
    };
  }
  return schemas;
}

/** Registers a schema under a name in the document's components and answers a reference to it. */
export type ShareSchema = (name: string, schema: JsonSchema) => JsonSchema;

/**
 * The request body of a create or update: the writable attributes, with the value kinds they accept. Create and
 * update share the attributes both take; a create adds those written only then and names the required ones.
 */
export function requestSchema(def: ResourceDef, types: string[], action: "create" | "update", share: ShareSchema, typeName: string): JsonSchema {
  const writable = Object.entries(def.attributes).filter(([, attribute]) => attribute.write);
  const properties = (entries: typeof writable) => Object.fromEntries(entries.map(([name, attribute]) => [name, attributeSchema(attribute)]));
  const both = share(`${typeName}WritableAttributes`, { type: "object", properties: properties(writable.filter(([, attribute]) => !attribute.write!.createOnly)) });
  const createOnly = writable.filter(([, attribute]) => attribute.write!.createOnly);
  const required = writable.filter(([, attribute]) => attribute.write!.required).map(([name]) => name);
  const attributes =
    action === "create"
      ? { allOf: [both], ...(createOnly.length ? { properties: properties(createOnly) } : {}), ...(required.length ? { required } : {}) }
      : { allOf: [both, ref("UpdateStamp")] };
  const relationships = Object.keys(def.relationships).filter((name) => def.relationships[name].write || def.relationships[name].sidepost);
  return {
    allOf: [ref(action === "create" ? "CreateDocument" : "UpdateDocument")],
    properties: {
      data: {
        properties: {
          type: { enum: types },
          attributes,
          relationships: share(`${typeName}WritableRelationships`, { type: "object", properties: Object.fromEntries(relationships.map((name) => [name, { type: "object" }])) }),
        },
      },
    },
  };
}

/** A create's or an update's document, whatever the type: each type's request names its type and attributes (`requestSchema`). */
const requestDocument = (id: string): JsonSchema => ({
  type: "object",
  required: ["data"],
  properties: {
    data: { type: "object", required: ["type"], properties: { id: { type: "string", format: "uuid", description: id } } },
    included: ref("Sideposted"),
  },
});

const ERROR_ARRAY: JsonSchema = {
  type: "array",
  minItems: 1,
  items: {
    type: "object",
    required: ["status", "title"],
    properties: {
      status: { type: "string", pattern: "^[1-5]\\d\\d$" },
      title: { type: "string" },
      detail: { type: "string" },
      code: { type: "string" },
      source: { type: "object", properties: { pointer: { type: "string" }, parameter: { type: "string" } }, additionalProperties: false },
      meta: { type: "object", properties: { request_id: { type: "string", description: "The X-Request-Id of the answer" } } },
    },
    additionalProperties: false,
  },
};

const INCLUDED = ref("Included");

const LIST_META: JsonSchema = {
  type: "object",
  required: ["pagination"],
  properties: {
    pagination: {
      type: "object",
      required: ["page", "per_page", "total_count", "total_pages"],
      properties: { page: { type: "integer" }, per_page: { type: "integer" }, total_count: { type: "integer" }, total_pages: { type: "integer" } },
    },
    sort: { type: ["string", "null"] },
    filter: { type: "object" },
  },
};

/** The schemas every document shares, referenced by name from the documents of each type. */
export const SHARED_SCHEMAS: Record<string, JsonSchema> = {
  ErrorDocument: { type: "object", required: ["errors"], properties: { errors: ref("Errors") }, additionalProperties: false },
  Errors: ERROR_ARRAY,
  Included: { type: "array", items: { type: "object", required: ["type", "id"], properties: { type: { type: "string" }, id: { type: "string" } } } },
  ListMeta: LIST_META,
  // What an update sends besides the attributes it changes.
  UpdateStamp: {
    type: "object",
    properties: {
      updated_in_db_at: { ...TIMESTAMP, description: "The stored updated_at the client last read; required unless overwrite is true" },
      overwrite: { type: "boolean", description: "true writes whatever the stored updated_in_db_at" },
    },
  },
  Sideposted: { type: "array", items: { type: "object" }, description: "Related records written with this one (sideposting)" },
  CreateDocument: requestDocument("Optional: a client-generated id"),
  UpdateDocument: requestDocument("The id in the path"),
  // The forms of the documents that answer records; each type's document names its resource (`ofType`).
  SingleDocument: { type: "object", required: ["data"], properties: { data: { type: "object" }, included: INCLUDED, meta: { type: "object" } }, additionalProperties: false },
  ListDocument: { type: "object", required: ["data", "meta"], properties: { data: { type: "array" }, included: INCLUDED, meta: ref("ListMeta") }, additionalProperties: false },
};

/** A document of one type's records: the shared document's form, its data that type's resources. */
const ofType = (document: string, data: JsonSchema): JsonSchema => ({ allOf: [ref(document)], properties: { data } });

export function singleDocumentSchema(type: string): JsonSchema {
  return ofType("SingleDocument", resourceRef(type));
}

export function listDocumentSchema(type: string): JsonSchema {
  return ofType("ListDocument", { items: resourceRef(type) });
}

/** A bulk answer: one document per item, in order, each the item's resource or its errors. */
export function bulkDocumentSchema(type: string): JsonSchema {
  return {
    type: "array",
    items: {
      anyOf: [
        { type: "object", required: ["data"], properties: { data: resourceRef(type) }, additionalProperties: false },
        { type: "object", required: ["errors"], properties: { errors: ref("Errors"), meta: { type: "object" } } },
      ],
    },
  };
}
