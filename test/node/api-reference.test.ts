/**
 * The API description and its reference page, checked from outside the Worker: the service runs under wrangler
 * (with its static assets), the description is validated by a maintained OpenAPI 3.1 validator, and the page is
 * loaded in a real headless Chromium, offline and under its Content-Security-Policy.
 * DOCS_SCREENSHOT=<file.png> also saves a screenshot of the page.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { chromium, type Browser } from "playwright-core";
import { startService, type Service } from "./service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let worker: Service;
let origin: string;

beforeAll(async () => {
  ({ service: worker, origin } = await startService());
}, 120_000);

afterAll(async () => {
  await worker?.dispose();
});

describe("GET /api/v2/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document that describes the contacts list with its filters", async () => {
    const response = await fetch(`${origin}/api/v2/openapi.json`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const document = JSON.parse(text) as {
      openapi: string;
      paths: Record<string, { parameters: Array<{ name?: string; $ref?: string }> } & Record<string, { parameters: Array<{ name?: string; $ref?: string }> }>>;
      components: { parameters: Record<string, { name: string; style?: string; schema: { properties?: Record<string, unknown> } }> };
    };
    // Parameters, responses, headers and documents that operations repeat are shared components: each operation adds
    // little more than its own name and references (written out in full, it took three times this).
    const operations = Object.values(document.paths).flatMap((item) => Object.keys(item).filter((key) => key !== "parameters")).length;
    expect(text.length / operations).toBeLessThan(1_500);
    const result = await new Validator().validate(document as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? [], String(JSON.stringify(result.errors)).slice(0, 1000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
    // Shared parameters are referenced from components; the filters are one deepObject parameter, filter[<name>].
    // Those every operation of a path takes (the bookmark) are the path's.
    const contacts = document.paths["/api/v2/contacts"];
    const names = [...contacts.parameters, ...contacts.get.parameters].flatMap((parameter) => {
      const shared = parameter.$ref ? document.components.parameters[parameter.$ref.split("/").pop()!] : (parameter as { name: string; style?: string; schema: { properties?: Record<string, unknown> } });
      return shared.style === "deepObject" ? Object.keys(shared.schema.properties!).map((key) => `${shared.name}[${key}]`) : [shared.name];
    });
    expect(names).toEqual(expect.arrayContaining(["filter[status]", "filter[reverse_status]", "sort", "include", "fields[contacts]", "page", "per_page", "X-D1-Bookmark"]));
  });
});

describe("GET /api/v2/docs/", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("is served with a strict Content-Security-Policy", async () => {
    const response = await fetch(`${origin}/api/v2/docs/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
  });

  it("renders the reference from this origin alone, showing the contacts list and its filters", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const elsewhere: string[] = [];
    const problems: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(origin) && !request.url().startsWith("data:")) elsewhere.push(request.url());
    });
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(String(error)));

    await page.goto(`${origin}/api/v2/docs`);
    expect(new URL(page.url()).pathname).toBe("/api/v2/docs/");
    await page.locator('.opblock-tag[data-tag="contacts"]').click();
    const operation = page.locator(".opblock-get", { has: page.locator('.opblock-summary-path[data-path="/api/v2/contacts"]') });
    await operation.first().locator(".opblock-summary").click();
    await expect.poll(async () => (await operation.first().innerText()).includes("fields[contacts]"), { timeout: 20_000 }).toBe(true);
    const text = await operation.first().innerText();
    expect(text).toContain("List contacts");
    // The filters are one deepObject parameter: "Try it out" offers each filter and its reverse_ form to fill in.
    await operation.first().getByRole("button", { name: "Try it out" }).click();
    const filters = operation.first().locator('tr[data-param-name="filter"] textarea');
    await expect.poll(async () => await filters.inputValue(), { timeout: 20_000 }).toContain('"reverse_status"');
    expect(await filters.inputValue()).toContain('"status"');
    if (process.env.DOCS_SCREENSHOT) {
      await operation.first().evaluate((element) => element.scrollIntoView());
      await page.screenshot({ path: process.env.DOCS_SCREENSHOT });
    }
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
