/**
 * The JSON Schemas of the value formats the interface answers: exact decimals as strings, dates, and timestamps in
 * whole UTC seconds. Attribute builders name them (src/engine/attributes.ts) and the API description uses them
 * (src/openapi/schemas.ts); they depend on nothing.
 */
export type JsonSchema = Record<string, unknown>;

export const DECIMAL_STRING: JsonSchema = { type: "string", pattern: "^-?\\d+(\\.\\d+)?$", description: "An exact decimal, as a string" };
export const DATE: JsonSchema = { type: "string", format: "date" };
export const TIMESTAMP: JsonSchema = { type: "string", format: "date-time", description: "UTC, whole seconds: YYYY-MM-DDTHH:MM:SSZ" };
