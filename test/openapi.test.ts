/**
 * The API description (GET /api/v2/openapi.json) as a whole: it stays under 255 KB as routes are added, because
 * what operations repeat (parameters, answers, error answers, documents) is written once under `components` and
 * referenced. Each answer of the suite is checked against it (test/helpers/described.ts).
 */
import { describe, expect, it } from "vitest";
import { get } from "./helpers/api";
import { resolved } from "./helpers/described";

/**
 * The description's largest size, in bytes of its JSON: raised from 250,000 with the reports, exports, duplicates,
 * merges, user options and Tools counts (about 40 operations, some 297 KB in all).
 */
const MOST_BYTES = 310_000;

type Reference = { $ref: string };
interface Operation {
  parameters?: Reference[];
  requestBody?: { content: Record<string, { schema: Reference }> };
  responses: Record<string, Reference>;
}
interface Description {
  paths: Record<string, { parameters: Reference[] } & Record<string, Operation>>;
  components: { parameters: Record<string, { name: string; in: string }>; responses: Record<string, { "x-statuses"?: string[] }> };
}

async function description(): Promise<{ text: string; document: Description }> {
  const answer = await get("/api/v2/openapi.json", null, { raw: true });
  expect(answer.status).toBe(200);
  return { text: answer.text, document: answer.body as Description };
}

const operationsOf = (document: Description) =>
  Object.entries(document.paths).flatMap(([path, { parameters: _, ...item }]) => Object.entries(item).map(([method, operation]) => ({ at: `${method} ${path}`, operation })));

describe("GET /api/v2/openapi.json", () => {
  it(`is under ${MOST_BYTES.toLocaleString("en")} bytes`, async () => {
    const { text } = await description();
    const bytes = new TextEncoder().encode(text).length;
    expect(bytes).toBeGreaterThan(50_000);
    expect(bytes).toBeLessThan(MOST_BYTES);
  });

  it("refers each operation's parameters, answers and request documents to shared components", async () => {
    const { document } = await description();
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(150);
    for (const { at, operation } of operations) {
      for (const parameter of operation.parameters ?? []) expect(parameter.$ref, at).toMatch(/^#\/components\/parameters\//);
      for (const [status, answer] of Object.entries(operation.responses)) expect(answer.$ref, `${at} ${status}`).toMatch(/^#\/components\/responses\//);
      const body = operation.requestBody?.content["application/vnd.api+json"];
      if (body) expect(body.schema.$ref, at).toMatch(/^#\/components\/schemas\//);
    }
  });

  it("gives the bookmark header once per path, and each error answer's statuses", async () => {
    const { document } = await description();
    for (const [path, item] of Object.entries(document.paths)) {
      const names = item.parameters.map((parameter) => resolved<{ name: string; in: string }>(document.components, parameter)!);
      expect(names, path).toContainEqual(expect.objectContaining({ name: "X-D1-Bookmark", in: "header" }));
    }
    const contacts = document.paths["/api/v2/contacts"];
    const errors = resolved<{ "x-statuses": string[]; description: string }>(document.components, contacts.post.responses.default)!;
    expect(errors["x-statuses"]).toEqual(expect.arrayContaining(["400", "401", "403", "404", "409", "413", "415", "429", "500"]));
    expect(errors.description).toContain("409: A conflict");
    const listErrors = resolved<{ "x-statuses": string[] }>(document.components, contacts.get.responses.default)!;
    expect(listErrors["x-statuses"]).not.toContain("409");
  });
});
