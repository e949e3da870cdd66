/**
 * D1 sessions: every answer carries its session's bookmark, a client that sends it back reads its own writes,
 * and the items of a batch share one session.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { errorOf, get, post, request } from "./helpers/api";
import { createViewer } from "./helpers/factories";

const BOOKMARK = "X-D1-Bookmark";
let alice: Awaited<ReturnType<typeof createViewer>>;

beforeAll(async () => {
  alice = await createViewer();
});

const contactBody = (name: string) => ({
  data: { type: "contacts", attributes: { name }, relationships: { account_list: { data: { type: "account_lists", id: alice.list.id } } } },
});

/** A bookmark per database: bare when the request touched the directory alone, else `<binding>:<bookmark>` each. */
function byDatabase(header: string): Map<string, string> {
  const parts = header.split(",");
  if (parts.length === 1 && !parts[0].includes(":")) return new Map([["DB", parts[0]]]);
  return new Map(parts.map((part) => [part.slice(0, part.indexOf(":")), part.slice(part.indexOf(":") + 1)]));
}

/** Bookmarks are fixed-width hex groups, so a later one sorts after an earlier one, database by database. */
const notBefore = (later: string, earlier: string) => {
  const after = byDatabase(later);
  for (const [name, bookmark] of byDatabase(earlier)) {
    if (after.has(name)) expect(after.get(name)! >= bookmark, `${later} >= ${earlier}`).toBe(true);
  }
};

describe("D1 sessions", () => {
  it("answer reads, writes and errors with the session's bookmark, and expose it to browsers", async () => {
    const list = await get("/api/v2/contacts", alice.token, { headers: { Origin: "https://app.example.org" } });
    expect(list.status).toBe(200);
    for (const bookmark of byDatabase(list.headers.get(BOOKMARK)!).values()) expect(bookmark).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/);
    expect(list.headers.get("Access-Control-Expose-Headers")).toContain(BOOKMARK);
    const created = await post("/api/v2/contacts", contactBody("Session, Write"), alice.token);
    expect(created.status).toBe(201);
    notBefore(created.headers.get(BOOKMARK)!, list.headers.get(BOOKMARK)!);
    const missing = await get("/api/v2/contacts/00000000-0000-4000-8000-000000000000", alice.token);
    expect(missing.status).toBe(404);
    expect(missing.headers.get(BOOKMARK)).toBeTruthy();
  });

  it("read a write with the bookmark its answer carried", async () => {
    const created = await post("/api/v2/contacts", contactBody("Session, Read your write"), alice.token);
    const bookmark = created.headers.get(BOOKMARK)!;
    const read = await get(`/api/v2/contacts/${created.body.data.id}`, alice.token, { headers: { [BOOKMARK]: bookmark } });
    expect(read.status).toBe(200);
    expect(read.body.data.attributes.name).toBe("Session, Read your write");
    notBefore(read.headers.get(BOOKMARK)!, bookmark);
  });

  it("refuse a bookmark this service never answered, before reading anything", async () => {
    for (const bad of ["latest", "'; DROP TABLE contacts; --", "0000-zz"]) {
      const response = await get("/api/v2/contacts", alice.token, { headers: { [BOOKMARK]: bad } });
      expect(errorOf(response, 400).detail).toBe(`${BOOKMARK} is not a bookmark this service answered`);
    }
  });

  it("run the items of a batch in one session: a read after a write sees it, and each item carries the bookmark", async () => {
    const response = await request("POST", "/api/v2/batch", {
      token: alice.token,
      raw: true,
      body: {
        requests: [
          { method: "POST", path: "/api/v2/contacts", body: contactBody("Session, In a batch") },
          { method: "GET", path: "/api/v2/contacts?filter[wildcard_search]=In%20a%20batch" },
          { method: "GET", path: "/api/v2/contacts?per_page=0" },
        ],
      },
    });
    expect(response.status, response.text).toBe(200);
    const entries = JSON.parse(response.text) as Array<{ status: number; headers: Record<string, string>; body: string }>;
    expect(entries.map((entry) => entry.status)).toEqual([201, 200, 200]);
    expect(JSON.parse(entries[1].body).data.map((c: { attributes: { name: string } }) => c.attributes.name)).toEqual(["Session, In a batch"]);
    const bookmarks = entries.map((entry) => Object.entries(entry.headers).find(([name]) => name.toLowerCase() === BOOKMARK.toLowerCase())?.[1]);
    for (const bookmark of bookmarks) expect(bookmark).toBeTruthy();
    notBefore(bookmarks[1]!, bookmarks[0]!);
    notBefore(response.headers.get(BOOKMARK)!, bookmarks[2]!);
  });
});
