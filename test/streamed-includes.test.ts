/**
 * Every list route, with each of its include paths, answered as a streamed page (101 and 2,500 rows) equals
 * the same records read in small pages: the same data in the same order, each included record once and as a small
 * page answers it. The routes come from the service's own description, so a new list route is covered (or fails
 * here for want of a parent id) without being named.
 *
 * The data is the benchmark's dataset at 400 contacts: the viewer reads about 280 contacts, 2,800 donations, 1,400
 * tasks and 420 people, each several chunks of a streamed page. Donations share two designation accounts a list:
 * most chunks of such a page include nothing new, which once left the answer cut short with status 200.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { benchIds, datasetStatements, uuid as benchUuid } from "../bench/dataset";
import { get, post } from "./helpers/api";
import { resolved } from "./helpers/described";
import { addToList, createUser, tokenFor } from "./helpers/factories";
import { storage } from "./helpers/storage";

const CONTACTS = 400;
const SIZES = [101, 2_500];
let token: string;

interface Resource {
  type: string;
  id: string;
  relationships?: Record<string, { data?: { type: string; id: string } | Array<{ type: string; id: string }> | null }>;
}

/** Path parameters of the nested list routes: a parent of the viewer's that has children in the dataset. */
const PARENTS: Record<string, () => Promise<string>> = {
  account_list_id: async () => benchIds.lists[0],
  appeal_id: async () => benchUuid("appeal", 1),
  // A person with e-mail addresses, and their contact: the parents of the person's nested routes.
  contact_id: async () =>
    firstId("SELECT p.contact_id AS id FROM email_addresses e JOIN people p ON p.id = e.person_id JOIN contacts c ON c.id = p.contact_id WHERE c.account_list_id = ? ORDER BY e.person_id LIMIT 1"),
  person_id: async () =>
    firstId("SELECT e.person_id AS id FROM email_addresses e JOIN people p ON p.id = e.person_id JOIN contacts c ON c.id = p.contact_id WHERE c.account_list_id = ? ORDER BY e.person_id LIMIT 1"),
  /** The one route named by a bare id: a contact's referrers. */
  id: async () => firstId("SELECT r.referred_to_id AS id FROM contact_referrals r JOIN contacts c ON c.id = r.referred_to_id WHERE c.account_list_id = ? ORDER BY r.referred_to_id LIMIT 1"),
  task_id: async () => firstId("SELECT m.task_id AS id FROM comments m JOIN tasks t ON t.id = m.task_id WHERE t.account_list_id = ? ORDER BY m.task_id LIMIT 1"),
  /** An endpoint of the first list with a log of 600 deliveries (the dataset has no webhooks). */
  webhook_id: async () => {
    const list = benchIds.lists[0];
    const created = await post(`/api/v2/account_lists/${list}/webhooks`, { data: { type: "webhooks", attributes: { url: "https://receiver.example.org/hook", event_types: ["*"], enabled: false } } }, token);
    expect(created.status, created.text).toBe(201);
    const webhook = created.body.data.id as string;
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString().slice(0, 19) + "Z";
    // Ten rows a statement: D1 binds at most 100 parameters.
    for (let start = 0; start < 600; start += 10) {
      const rows = Array.from({ length: 10 }, (_, i) => ({ n: start + i, event: crypto.randomUUID() }));
      await storage.batch([
        storage.prepare(
          `INSERT INTO webhook_events (id, account_list_id, event_type, resource_type, resource_id, occurred_at, created_at) VALUES ${rows.map(() => "(?, ?, 'contact.updated', 'contacts', ?, ?, ?)").join(", ")}`,
        ).bind(...rows.flatMap(({ n, event }) => [event, list, crypto.randomUUID(), at(n), at(n)])),
        storage.prepare(
          `INSERT INTO webhook_deliveries (id, account_list_id, webhook_id, event_id, event_type, status, attempts, next_attempt_at, created_at, updated_at) VALUES ${rows.map(() => "(?, ?, ?, ?, 'contact.updated', 'delivered', 1, ?, ?, ?)").join(", ")}`,
        ).bind(...rows.flatMap(({ n, event }) => [crypto.randomUUID(), list, webhook, event, at(n), at(n), at(n)])),
      ]);
    }
    return webhook;
  },
};

/** The first id the query finds in the viewer's first list. */
async function firstId(query: string): Promise<string> {
  const row = await storage.prepare(query).bind(benchIds.lists[0]).first<{ id: string }>();
  return row!.id;
}

const key = (resource: { type: string; id: string }) => `${resource.type}:${resource.id}`;

function linked(data: Resource[], relationship: string): Set<string> {
  const keys = new Set<string>();
  for (const resource of data) {
    const linkage = resource.relationships?.[relationship]?.data;
    for (const target of Array.isArray(linkage) ? linkage : linkage ? [linkage] : []) keys.add(key(target));
  }
  return keys;
}

/** The list routes the service describes (a GET that pages), with their include paths. */
async function listRoutes(): Promise<Array<{ path: string; includes: string[] }>> {
  type Parameter = { name: string; description?: string };
  const description = (await get("/api/v2/openapi.json", null, { raw: true })).body as { paths: Record<string, { get?: { parameters: Array<Parameter | { $ref: string }> } }>; components: object };
  const routes: Array<{ path: string; includes: string[] }> = [];
  for (const [template, item] of Object.entries(description.paths)) {
    const parameters = (item.get?.parameters ?? []).map((parameter) => resolved<Parameter>(description.components, parameter)!);
    if (!parameters.some((parameter) => parameter.name === "per_page")) continue;
    let path = template;
    for (const name of template.match(/\{(\w+)\}/g) ?? []) {
      const parent = PARENTS[name.slice(1, -1)];
      expect(parent, `a parent id for ${template}`).toBeDefined();
      path = path.replace(name, await parent());
    }
    const include = parameters.find((parameter) => parameter.name === "include");
    const includes = include?.description?.split(": ")[1]?.split(", ").filter(Boolean) ?? [];
    routes.push({ path, includes });
  }
  return routes;
}

/** The pages of 100 that the reference reads: the first ones and a spread up to the largest streamed page. */
const SAMPLED_PAGES = [1, 2, 5, 6, 13, 25];

/** The route's records read 100 at a time on the sampled pages: by offset, and what they include by type and id. */
async function smallPages(path: string, include: string, as: string) {
  const data = new Map<number, Resource>();
  const included = new Map<string, Resource>();
  const separator = path.includes("?") ? "&" : "?";
  for (const page of SAMPLED_PAGES) {
    const answer = await get(`${path}${separator}per_page=100&page=${page}${include ? `&include=${include}` : ""}`, as);
    expect(answer.status, `${path} page ${page}`).toBe(200);
    answer.body.data.forEach((resource: Resource, index: number) => data.set((page - 1) * 100 + index, resource));
    for (const resource of answer.body.included ?? []) included.set(key(resource), resource);
    if (answer.body.data.length < 100) break;
  }
  return { data, included };
}

/**
 * A user with the bench viewer's access (user of lists 1 and 2, coach of list 3): each route is read by one of
 * them, so that no one user's request budget runs out; the documents of one route are all read as the same user.
 */
async function viewerLike(): Promise<string> {
  const user = await createUser();
  await addToList(benchIds.lists[0], user.id);
  await addToList(benchIds.lists[1], user.id);
  await addToList(benchIds.lists[2], user.id, "coach");
  return user.token;
}

beforeAll(async () => {
  const statements = datasetStatements(CONTACTS);
  for (let i = 0; i < statements.length; i += 20) await storage.batch(statements.slice(i, i + 20).map((statement) => storage.prepare(statement.sql)));
  token = await tokenFor(benchIds.viewer);
}, 120_000);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("streamed pages with includes", () => {
  it("answer, for every list route and include path, the records small pages answer", async () => {
    const routes = await listRoutes();
    expect(routes.length).toBeGreaterThan(20);
    const readers = await Promise.all(routes.map(() => viewerLike()));
    let streamedAnswers = 0;
    for (const [index, { path, includes }] of routes.entries()) {
      const as = readers[index];
      for (const include of ["", ...includes]) {
        // Read per include path: some relationships answer their linkage only when included.
        const reference = await smallPages(path, include, as);
        for (const size of SIZES) {
          const separator = path.includes("?") ? "&" : "?";
          const answer = await get(`${path}${separator}per_page=${size}${include ? `&include=${include}` : ""}`, as);
          const where = `${path} include=${include} per_page=${size}`;
          expect(answer.status, where).toBe(200);
          expect(typeof answer.body, `${where}: a whole document`).toBe("object");
          const data = answer.body.data as Resource[];
          expect(data.length, where).toBe(Math.min(size, answer.body.meta.pagination.total_count));
          for (const [offset, resource] of reference.data) if (offset < size) expect(data[offset], `${where} row ${offset}`).toEqual(resource);
          if (data.length > 100) streamedAnswers++;
          if (!include) {
            expect(answer.body.included, where).toBeUndefined();
            continue;
          }
          const included = answer.body.included as Resource[];
          const keys = included.map(key);
          expect(new Set(keys).size, `${where}: each included once`).toBe(keys.length);
          // Everything included is linked from the page, and is what a small page answers for it.
          const primary = new Set(data.map(key));
          const links = linked(data, include);
          for (const resource of included) {
            expect(links.has(key(resource)) && !primary.has(key(resource)), `${where}: ${key(resource)} is linked`).toBe(true);
            if (reference.included.has(key(resource))) expect(resource, where).toEqual(reference.included.get(key(resource)));
          }
          // Whatever the sampled small pages include for the rows this page shows is included here too.
          const shown = new Set(keys);
          const sampledRows = [...reference.data.entries()].filter(([offset]) => offset < size).map(([, resource]) => resource);
          for (const target of linked(sampledRows, include)) {
            if (reference.included.has(target) && !primary.has(target)) expect(shown.has(target), `${where}: ${target} included`).toBe(true);
          }
        }
      }
    }
    // The routes with more rows than one small page were answered streamed, with each of their includes.
    expect(streamedAnswers).toBeGreaterThan(50);
  }, 600_000);

  it("donations with their designation account, as the web app asks for its designation names", async () => {
    const answer = await get(`/api/v2/account_lists/${benchIds.lists[0]}/donations?include=designation_account&per_page=10000`, token);
    expect(answer.status).toBe(200);
    // Twenty chunks and more, nearly all of them including nothing new.
    expect(answer.body.meta.pagination.total_count).toBeGreaterThan(2_000);
    expect(answer.body.data).toHaveLength(answer.body.meta.pagination.total_count);
    expect(answer.body.included.map((resource: Resource) => resource.type)).toEqual(["designation_accounts", "designation_accounts"]);
  });
});

describe("a streamed page that fails after its status is sent", () => {
  it("ends in a failed transfer, never a document that looks whole, and is logged under the request id", async () => {
    const { exports } = await import("cloudflare:workers");
    const errors = vi.spyOn(console, "error");
    const response = await exports.default.fetch(
      new Request(`https://api.example.org/api/v2/account_lists/${benchIds.lists[0]}/donations?include=designation_account&per_page=2500`, {
        headers: { Accept: "application/vnd.api+json", Authorization: `Bearer ${token}` },
      }),
    );
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    // The table the includes are read from goes away while the page is being sent.
    await storage.exec("ALTER TABLE designation_accounts RENAME TO designation_accounts_away");
    try {
      let failure: unknown;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += decoder.decode(value);
        }
      } catch (error) {
        failure = error;
      }
      expect(failure, "the body ends in an error").toBeDefined();
      expect(() => JSON.parse(text)).toThrow();
      const logged = errors.mock.calls.map(([line]) => String(line)).find((line) => line.includes("streamed answer failed"));
      expect(JSON.parse(logged!)).toMatchObject({ level: "error", request_id: response.headers.get("X-Request-Id") });
    } finally {
      await storage.exec("ALTER TABLE designation_accounts_away RENAME TO designation_accounts");
    }
  });
});
