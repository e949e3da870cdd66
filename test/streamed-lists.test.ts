/**
 * Large pages are streamed from D1 in chunks, and a batch's answers have a total budget: the same documents as
 * small pages give, without building the large ones whole.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_BATCH_RESPONSE_BYTES } from "../src/resources/batch/routes";
import { get, post } from "./helpers/api";
import { createViewer } from "./helpers/factories";
import { storage } from "./helpers/storage";

type Viewer = Awaited<ReturnType<typeof createViewer>>;
let viewer: Viewer;
const CONTACTS = 1_100;

/** CONTACTS contacts in the viewer's list, each with a person and an address, written by SQLite itself. */
async function fillList(accountListId: string): Promise<void> {
  const stamp = "2026-02-01T00:00:00Z";
  const n = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${CONTACTS})`;
  const uuid = (prefix: string) => `'${prefix}' || substr('00000000' || i, -8) || '-0000-4000-8000-' || substr('000000000000' || i, -12)`;
  await storage.batch([
    storage.prepare(`${n} INSERT INTO contacts (id, account_list_id, name, status, created_at, updated_at) SELECT ${uuid("c")}, ?, 'Contact ' || substr('0000' || i, -4), 'Partner - Financial', ?, ? FROM n`).bind(accountListId, stamp, stamp),
    storage.prepare(`${n} INSERT INTO people (id, contact_id, first_name, last_name, created_at, updated_at) SELECT ${uuid("b")}, ${uuid("c")}, 'First ' || i, 'Last', ?, ? FROM n`).bind(stamp, stamp),
    storage.prepare(`${n} INSERT INTO addresses (id, contact_id, street, city, created_at, updated_at) SELECT ${uuid("a")}, ${uuid("c")}, i || ' Long Street Name For Width', 'Springfield', ?, ? FROM n`).bind(stamp, stamp),
  ]);
}

beforeAll(async () => {
  viewer = await createViewer();
  await fillList(viewer.list.id);
});

const keys = (resources: Array<{ type: string; id: string }>) => resources.map((resource) => `${resource.type}:${resource.id}`);

describe("a large page", () => {
  it("is streamed in chunks and answers what the same records answer in small pages", async () => {
    const query = "sort=name&include=people,addresses,people.email_addresses";
    const streamed = await get(`/api/v2/contacts?per_page=1050&${query}`, viewer.token);
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get("ETag")).toBeNull();
    expect(Object.keys(streamed.body)).toEqual(["data", "meta", "included"]);
    expect(streamed.body.meta.pagination).toEqual({ page: 1, per_page: 1050, total_count: CONTACTS, total_pages: 2 });

    const small: { data: Array<{ type: string; id: string }>; included: Array<{ type: string; id: string }> } = { data: [], included: [] };
    for (let page = 1; page <= 11; page++) {
      const answer = await get(`/api/v2/contacts?per_page=100&page=${page}&${query}`, viewer.token);
      expect(answer.headers.get("ETag")).toMatch(/^"/);
      small.data.push(...answer.body.data);
      small.included.push(...answer.body.included);
    }
    // The same records, in the same order and with the same contents, and each included record once.
    expect(streamed.body.data).toEqual(small.data.slice(0, 1050));
    expect(new Set(keys(streamed.body.included)).size).toBe(streamed.body.included.length);
    const includedOfFirst1050 = new Set(
      streamed.body.data.flatMap((contact: { relationships: Record<string, { data: Array<{ type: string; id: string }> }> }) =>
        keys([...contact.relationships.people.data, ...contact.relationships.addresses.data]),
      ),
    );
    expect(new Set(keys(streamed.body.included))).toEqual(includedOfFirst1050);
    const byKey = new Map(small.included.map((resource) => [`${resource.type}:${resource.id}`, resource]));
    for (const resource of streamed.body.included) expect(resource).toEqual(byKey.get(`${resource.type}:${resource.id}`));

    // The page past the first chunk and the last page of all.
    const last = await get(`/api/v2/contacts?per_page=1050&page=2&${query}`, viewer.token);
    expect(last.body.data).toEqual(small.data.slice(1050));
    const beyond = await get(`/api/v2/contacts?per_page=1050&page=3&${query}`, viewer.token);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta.pagination.total_count).toBe(CONTACTS);
  });

  it("streams without includes as well, and inside a batch", async () => {
    const plain = await get("/api/v2/contacts?per_page=500&fields[contacts]=name", viewer.token);
    expect(plain.body.data).toHaveLength(500);
    expect(Object.keys(plain.body)).toEqual(["data", "meta"]);
    const batch = await post("/api/v2/batch", { requests: [{ method: "GET", path: "/api/v2/contacts?per_page=500&fields[contacts]=name" }] }, viewer.token, { raw: true });
    expect(batch.status).toBe(200);
    expect(JSON.parse(batch.body[0].body)).toEqual(plain.body);
  });
});

describe("POST /api/v2/batch", () => {
  it(`answers 413 for the items past ${MAX_BATCH_RESPONSE_BYTES} bytes of answers, in order, and runs none of the items after`, async () => {
    const page = "/api/v2/contacts?per_page=1100&include=people,addresses";
    const size = (await get(page, viewer.token)).text.length;
    const fit = Math.floor(MAX_BATCH_RESPONSE_BYTES / size);
    expect(fit).toBeGreaterThan(0);
    expect(fit).toBeLessThan(40);
    const newName = `Written after the budget ${crypto.randomUUID().slice(0, 6)}`;
    const requests = [
      ...Array.from({ length: fit + 2 }, () => ({ method: "GET", path: page })),
      { method: "POST", path: "/api/v2/contacts", body: { data: { type: "contacts", attributes: { name: newName, account_list_id: viewer.list.id } } } },
    ];
    const answer = await post("/api/v2/batch", { requests }, viewer.token, { raw: true });
    expect(answer.status).toBe(200);
    const statuses = answer.body.map((entry: { status: number }) => entry.status);
    expect(statuses).toEqual([...Array(fit).fill(200), 413, 413, 413]);
    expect(JSON.parse(answer.body[fit].body).errors[0].detail).toContain(`would pass ${MAX_BATCH_RESPONSE_BYTES} bytes`);
    expect(answer.text.length).toBeLessThan(MAX_BATCH_RESPONSE_BYTES * 1.2);
    // The write past the budget was not run.
    const found = await get(`/api/v2/contacts?filter[wildcard_search]=${encodeURIComponent(newName)}`, viewer.token);
    expect(found.body.data).toEqual([]);
  });

  it("still answers 429 for more than 100 items", async () => {
    const requests = Array.from({ length: 101 }, () => ({ method: "GET", path: "/api/v2/constants" }));
    expect((await post("/api/v2/batch", { requests }, viewer.token, { raw: true })).status).toBe(429);
  });
});
