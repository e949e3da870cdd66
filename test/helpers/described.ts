/**
 * The drift guard: every answer the suite receives is checked against the API's own description
 * (GET /api/v2/openapi.json) — the route and method must be described, the status listed for that operation, and
 * the body valid against the schema given for that status. A test fails when an answer and the description
 * disagree.
 */
import { Validator } from "@cfworker/json-schema";
import { exports } from "cloudflare:workers";
import { expect } from "vitest";

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}

interface Described {
  components: object;
  operations: Array<{ method: string; pattern: RegExp; path: string; operation: Operation }>;
}

let described: Promise<Described> | undefined;
const validators = new Map<object, Validator>();

function load(): Promise<Described> {
  described ??= (async () => {
    const response = await exports.default.fetch(new Request("https://api.example.org/api/v2/openapi.json"));
    type Parameter = { in: string; name: string; schema?: { pattern?: string } };
    const document = (await response.json()) as { paths: Record<string, Record<string, Operation> & { parameters?: Array<Parameter | { $ref: string }> }>; components: object };
    const operations: Described["operations"] = [];
    for (const [path, { parameters = [], ...item }] of Object.entries(document.paths)) {
      // The path's parameters are given once for all its operations, as shared components.
      const inPath = parameters.map((parameter) => resolved<Parameter>(document.components, parameter)!).filter((p) => p.in === "path");
      const patterns = new Map(inPath.map((p) => [p.name, p.schema?.pattern?.replace(/^\^|\$$/g, "") ?? "[^/]+"]));
      for (const [method, operation] of Object.entries(item)) {
        const source = path.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === "{" || c === "}" ? c : `\\${c}`)).replace(/\{(\w+)\}/g, (_, name: string) => `(?:${patterns.get(name) ?? "[^/]+"})`);
        operations.push({ method: method.toUpperCase(), pattern: new RegExp(`^${source}/?$`), path, operation });
      }
    }
    return { components: document.components, operations };
  })();
  return described;
}

function validatorFor(schema: object, components: object): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    validator = new Validator({ ...schema, components } as object, "2020-12", false);
    validators.set(schema, validator);
  }
  return validator;
}

/** The part a `$ref` names (`#/components/responses/Error404`), or the part itself. */
export function resolved<T>(components: object, part: T | { $ref: string } | undefined): T | undefined {
  const ref = (part as { $ref?: string } | undefined)?.$ref;
  if (!ref) return part as T | undefined;
  return ref.replace(/^#\/components\//, "").split("/").reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], components) as T | undefined;
}

/** Checks one answer against the description of the operation that gave it. */
export async function assertDescribed(method: string, url: string, headers: Record<string, string>, response: Response, body: unknown): Promise<void> {
  const { components, operations } = await load();
  const path = new URL(url).pathname;
  // A read sent as POST is answered as its GET (src/jsonapi/method-override.ts), but for the body it was sent with.
  const sentAsPost = method === "POST" && headers["X-HTTP-Method-Override"]?.trim().toUpperCase() === "GET";
  if (sentAsPost && (response.status === 413 || response.status === 415)) return;
  const asked = sentAsPost || method === "HEAD" ? "GET" : method;
  const found = operations.find((candidate) => candidate.method === asked && candidate.pattern.test(path));
  if (!found) {
    // No such route or method: the service's own 404 and 405, answered as error documents; under a list or record
    // the caller may not reach, its refusal, which comes before the route (src/engine/account-list-scope.ts,
    // src/routes/nested-routes.ts).
    const refused = /^\/api\/v2\/(?:account_lists\/[^/]+|[a-z_]+\/[0-9a-f-]{36})\/./i.test(path) ? [403] : [];
    expect([404, 405, ...refused], `${method} ${path} is not in the API description but answered ${response.status}`).toContain(response.status);
    return;
  }
  // A status is listed by itself, or among the `x-statuses` of the operation's default (error) response.
  const errors = resolved<{ "x-statuses"?: string[] }>(components, found.operation.responses.default as object);
  const listed = found.operation.responses[String(response.status)] ?? (errors?.["x-statuses"]?.includes(String(response.status)) ? found.operation.responses.default : undefined);
  const answer = resolved(components, listed);
  expect(answer, `${method} ${found.path} answered ${response.status}, which its description does not list`).toBeDefined();
  const mediaType = (response.headers.get("content-type") ?? "").split(";")[0].trim();
  const schema = answer?.content?.[mediaType]?.schema;
  if (!schema || body === undefined || typeof body === "string" || method === "HEAD") return;
  const result = validatorFor(schema, components).validate(body);
  if (!result.valid) {
    throw new Error(
      `${method} ${found.path} answered ${response.status} with a body its description does not allow: ` +
        `${JSON.stringify(result.errors.filter((e) => !/^(?:A subschema|Property .* does not match schema)/.test(e.error)).slice(0, 4))}\n${JSON.stringify(body).slice(0, 400)}`,
    );
  }
}
