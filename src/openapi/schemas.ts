/**
 * JSON Schemas (OpenAPI 3.1 dialect) derived from the resource declarations: an attribute's schema comes from its
 * declared `schema` when its builder knows the format (dates, timestamps, decimal strings), else from its column's
 * type and nullability; a computed attribute without one may be any JSON value.
 */
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { AttributeDef, RelationshipDef, ResourceDef } from "../engine/define";

export type JsonSchema = Record<string, unknown>;

export const DECIMAL_STRING: JsonSchema = { type: "string", pattern: "^-?\\d+(\\.\\d+)?$", description: "An exact decimal, as a string" };
export const DATE: JsonSchema = { type: "string", format: "date" };
export const TIMESTAMP: JsonSchema = { type: "string", format: "date-time", description: "UTC, whole seconds: YYYY-MM-DDTHH:MM:SSZ" };

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

/** The schema of an attribute's answered value. */
export function attributeSchema(attribute: AttributeDef): JsonSchema {
  if (attribute.column) {
    const schema = attribute.schema ?? columnSchema(attribute.column);
    return attribute.column.notNull ? schema : nullable(schema);
  }
  return attribute.schema ?? {};
}

const identifier = (type: string, extra: boolean): JsonSchema => ({
  type: "object",
  required: ["type", "id"],
  properties: { type: { const: type }, id: { type: "string" } },
  ...(extra ? {} : { additionalProperties: false }),
});

function relationshipSchema(relationship: RelationshipDef): JsonSchema {
  const target = identifier(relationship.type, Boolean(relationship.identifierMembers));
  const data = relationship.kind === "many" ? { type: "array", items: target } : { anyOf: [target, { type: "null" }] };
  return { type: "object", required: ["data"], properties: { data } };
}

const schemaName = (type: string) => `${type.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase())}Resource`;

export function resourceRef(type: string): JsonSchema {
  return { $ref: `#/components/schemas/${schemaName(type)}` };
}

/** The resource object as answered: every declared attribute and relationship may appear, nothing else may. */
export function resourceSchemas(resources: ResourceDef[]): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
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
          properties: Object.fromEntries(Object.entries(def.relationships).map(([name, relationship]) => [name, relationshipSchema(relationship)])),
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

/** The request body of a create or update: the writable attributes, with the value kinds they accept. */
export function requestSchema(def: ResourceDef, types: string[], action: "create" | "update"): JsonSchema {
  const writable = Object.entries(def.attributes).filter(([, attribute]) => attribute.write && !(action === "update" && attribute.write.createOnly));
  const relationships = Object.entries(def.relationships).filter(([, relationship]) => relationship.write || relationship.sidepost);
  return {
    type: "object",
    required: ["data"],
    properties: {
      data: {
        type: "object",
        required: ["type"],
        properties: {
          type: { enum: types },
          id: { type: "string", format: "uuid", description: action === "create" ? "Optional: a client-generated id" : "The id in the path" },
          attributes: {
            type: "object",
            properties: {
              ...Object.fromEntries(writable.map(([name, attribute]) => [name, { ...attributeSchema(attribute), ...(attribute.write?.required ? { description: "Required on create" } : {}) }])),
              ...(action === "update"
                ? {
                    updated_in_db_at: { ...TIMESTAMP, description: "The stored updated_at the client last read; required unless overwrite is true" },
                    overwrite: { type: "boolean", description: "true writes whatever the stored updated_in_db_at" },
                  }
                : {}),
            },
          },
          relationships: { type: "object", properties: Object.fromEntries(relationships.map(([name]) => [name, { type: "object", properties: { data: {} } }])) },
        },
      },
      included: { type: "array", items: { type: "object" }, description: "Related records written with this one (sideposting)" },
    },
  };
}

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

export const ERROR_DOCUMENT: JsonSchema = { type: "object", required: ["errors"], properties: { errors: ERROR_ARRAY }, additionalProperties: false };

const INCLUDED: JsonSchema = {
  type: "array",
  items: { type: "object", required: ["type", "id"], properties: { type: { type: "string" }, id: { type: "string" } } },
};

export function singleDocumentSchema(type: string): JsonSchema {
  return { type: "object", required: ["data"], properties: { data: resourceRef(type), included: INCLUDED, meta: { type: "object" } }, additionalProperties: false };
}

export function listDocumentSchema(type: string): JsonSchema {
  return {
    type: "object",
    required: ["data", "meta"],
    properties: {
      data: { type: "array", items: resourceRef(type) },
      included: INCLUDED,
      meta: {
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
      },
    },
    additionalProperties: false,
  };
}

/** A bulk answer: one document per item, in order, each the item's resource or its errors. */
export function bulkDocumentSchema(type: string): JsonSchema {
  return {
    type: "array",
    items: {
      anyOf: [
        { type: "object", required: ["data"], properties: { data: resourceRef(type) }, additionalProperties: false },
        { type: "object", required: ["errors"], properties: { errors: ERROR_ARRAY, meta: { type: "object" } } },
      ],
    },
  };
}
