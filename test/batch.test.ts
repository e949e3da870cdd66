import { NOTIFICATION_TYPE_IDS } from "../src/constants/notifications";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { errorOf, post, recordedDocument, request } from "./helpers/api";
import { createViewer, db, timestamps, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
const typeIds = { larger: NOTIFICATION_TYPE_IDS.larger_gift, smaller: NOTIFICATION_TYPE_IDS.smaller_gift, special: NOTIFICATION_TYPE_IDS.special_gift };
const announcementId = uuid();

const preferences = (listId: string) => `/api/v2/account_lists/${listId}/notification_preferences`;
const preferenceBody = (typeId: string, attributes: Record<string, unknown>, id?: string) => ({
  data: {
    type: "notification_preferences",
    ...(id ? { id } : {}),
    attributes,
    relationships: { notification_type: { data: { type: "notification_types", id: typeId } } },
  },
});

interface Entry {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers of every JSON:API answer, as recorded items name them. */
const EVERY_ANSWER = {
  "Content-Type": "application/vnd.api+json; charset=utf-8",
  "X-Frame-Options": "SAMEORIGIN",
  "X-XSS-Protection": "0",
  "X-Content-Type-Options": "nosniff",
  "X-Download-Options": "noopen",
  "X-Permitted-Cross-Domain-Policies": "none",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Strict-Transport-Security": "max-age=15552000; includeSubDomains",
};

const batch = (body: unknown, token: string | null = alice.token, headers: Record<string, string> = {}) =>
  post("/api/v2/batch", body, token, { raw: true, headers });

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  await db.insert(schema.announcements).values({ id: announcementId, title: "Welcome", body: "Hello", displayMethod: "banner", ...timestamps() });
});

async function storedPreferences(listId: string) {
  return db.select().from(schema.notificationPreferences).where(eq(schema.notificationPreferences.accountListId, listId));
}

describe("POST /api/v2/batch", () => {
  it("runs every item in order and answers a plain JSON array of status, headers and body", async () => {
    const response = await batch({
      requests: [
        { method: "GET", path: "/api/v2/announcements" },
        { method: "GET", path: `/api/v2/announcements/${uuid()}` },
        { method: "get", path: "/api/v2/no_such_thing" },
        { method: "POST", path: preferences(alice.list.id), body: preferenceBody(typeIds.larger, { app: true }) },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
    const entries = response.body as Entry[];
    expect(entries.map((e) => e.status)).toEqual([200, 404, 404, 201]);
    for (const entry of entries) expect(Object.keys(entry).sort()).toEqual(["body", "headers", "status"]);

    const [list, missing, unrouted, created] = entries;
    expect(list.headers).toMatchObject({ ...EVERY_ANSWER, "Cache-Control": "max-age=0, private, must-revalidate" });
    expect(list.headers.ETag).toMatch(/^(W\/)?"/);
    expect(typeof list.body).toBe("string");
    expect(JSON.parse(list.body).data.map((a: { id: string }) => a.id)).toEqual([announcementId]);
    expect(JSON.parse(missing.body).errors[0].detail).toMatch(/^Couldn't find Announcement with 'id'=/);
    expect(JSON.parse(unrouted.body).errors[0].detail).toBe("Route not found");
    const createdDocument = JSON.parse(created.body);
    expect(createdDocument.data.attributes.app).toBe(true);
    expect(created.headers.Location).toBe(`https://api.example.org${preferences(alice.list.id)}/${createdDocument.data.id}`);
    expect(await storedPreferences(alice.list.id)).toHaveLength(1);
  });

  it("lets a later item see what an earlier one wrote, with bodies as JSON values or strings", async () => {
    const id = uuid();
    const path = `${preferences(alice.list.id)}/${id}`;
    const response = await batch({
      requests: [
        { method: "POST", path: preferences(alice.list.id), body: JSON.stringify(preferenceBody(typeIds.smaller, { email: true }, id)) },
        { method: "GET", path },
        { method: "PATCH", path, body: preferenceBody(typeIds.smaller, { task: true, overwrite: true }) },
        { method: "GET", path: `${path}?fields[notification_preferences]=task` },
        { method: "DELETE", path },
        { method: "GET", path },
      ],
    });
    const entries = response.body as Entry[];
    expect(entries.map((e) => e.status)).toEqual([201, 200, 200, 200, 204, 404]);
    expect(JSON.parse(entries[1].body).data).toMatchObject({ id, attributes: { email: true, task: false } });
    expect(JSON.parse(entries[3].body).data.attributes).toEqual({ task: true });
    expect(entries[4].body).toBe("");
    expect(await storedPreferences(alice.list.id)).toHaveLength(1);
  });

  it("accepts a path without the leading slash and with a query string", async () => {
    const response = await batch({ requests: [{ method: "GET", path: "api/v2/announcements?fields[announcements]=title" }] });
    const [entry] = response.body as Entry[];
    expect(entry.status).toBe(200);
    expect(JSON.parse(entry.body).data[0].attributes).toEqual({ title: "Welcome" });
  });

  it("lets later items use access an earlier item gained, and answers a long run of reads in order", async () => {
    const owner = await createViewer();
    const inviteId = uuid();
    const code = "c".repeat(64);
    await db.insert(schema.accountListInvites).values({ id: inviteId, accountListId: owner.list.id, invitedByUserId: owner.user.id, code, recipientEmail: "alice@example.org", inviteUserAs: "user", ...timestamps() });
    const ownersList = `/api/v2/account_lists/${owner.list.id}`;
    const reads = Array.from({ length: 9 }, (_, i) => ({ method: "GET", path: i % 2 ? "/api/v2/constants?fields[constant_list]=codes" : "/api/v2/announcements" }));
    const response = await batch({
      requests: [
        { method: "GET", path: ownersList },
        { method: "PUT", path: `${ownersList}/invites/${inviteId}/accept`, body: { data: { type: "account_list_invites", attributes: { code } } } },
        { method: "GET", path: `${ownersList}?fields[account_lists]=name` },
        ...reads,
      ],
    });
    const entries = response.body as Entry[];
    expect(entries.map((e) => e.status)).toEqual([403, 200, 200, ...reads.map(() => 200)]);
    reads.forEach((read, i) => {
      const body = JSON.parse(entries[3 + i].body);
      if (read.path.includes("constants")) expect(body.data.type).toBe("constant_list");
      else expect(body.data[0].type).toBe("announcements");
    });
  });

  it("with on_error ABORT stops at the first failing item and answers with its status", async () => {
    const before = (await storedPreferences(alice.list.id)).length;
    const response = await batch({
      on_error: "ABORT",
      requests: [
        { method: "GET", path: "/api/v2/announcements" },
        { method: "GET", path: preferences(bob.list.id) },
        { method: "POST", path: preferences(alice.list.id), body: preferenceBody(typeIds.special, { app: true }) },
      ],
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
    const entries = response.body as Entry[];
    expect(entries.map((e) => e.status)).toEqual([200, 403]);
    expect(JSON.parse(entries[1].body).errors[0].detail).toBe(`Not allowed to perform that action on the resource with ID ${bob.list.id} of type account_lists`);
    // The item after the failure never ran.
    expect(await storedPreferences(alice.list.id)).toHaveLength(before);

    const allGood = await batch({ on_error: "abort", requests: [{ method: "GET", path: "/api/v2/constants" }, { method: "GET", path: "/api/v2/announcements" }] });
    expect(allGood.status).toBe(200);
    expect((allGood.body as Entry[]).map((e) => e.status)).toEqual([200, 200]);
  });

  it("with on_error CONTINUE (the default) answers 200 and runs every item whatever fails", async () => {
    const response = await batch({
      on_error: "CONTINUE",
      requests: [{ method: "GET", path: preferences(bob.list.id) }, { method: "DELETE", path: "/api/v2/announcements" }, { method: "GET", path: "/api/v2/constants" }],
    });
    expect(response.status).toBe(200);
    const entries = response.body as Entry[];
    expect(entries.map((e) => e.status)).toEqual([403, 405, 200]);
    expect(entries[1].headers.Allow).toContain("GET");
  });

  it("runs items as the caller: the outer credential is required and passed on", async () => {
    const noToken = errorOf(await post("/api/v2/batch", { requests: [] }, null), 401);
    expect(noToken.title).toBe("Unauthorized");
    errorOf(await post("/api/v2/batch", { requests: [{ method: "GET", path: "/api/v2/constants" }] }, "not-a-token"), 401);

    // Bob's own list answers to Bob's batch; a download-link token is passed on as well.
    const asBob = await batch({ requests: [{ method: "GET", path: preferences(bob.list.id) }] }, bob.token);
    expect((asBob.body as Entry[])[0].status).toBe(200);
    const viaQuery = await request("POST", `/api/v2/batch?access_token=${bob.token}`, {
      body: { requests: [{ method: "GET", path: preferences(bob.list.id) }] },
      raw: true,
    });
    expect(viaQuery.status).toBe(200);
    expect((viaQuery.body as Entry[])[0].status).toBe(200);
  });

  it("answers an empty array for an empty batch", async () => {
    const response = await batch({ requests: [] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it("refuses a body that is not a batch document with 400 and more than 100 items with 429, running nothing", async () => {
    const before = (await storedPreferences(alice.list.id)).length;
    const tooMany = Array.from({ length: 101 }, () => ({ method: "POST", path: preferences(alice.list.id), body: preferenceBody(typeIds.special, {}) }));
    const limited = errorOf(await post("/api/v2/batch", { requests: tooMany }, alice.token), 429);
    expect(limited.detail).toBe("A batch may hold at most 100 requests; this one has 101");
    expect(await storedPreferences(alice.list.id)).toHaveLength(before);

    const hundred = Array.from({ length: 100 }, () => ({ method: "GET", path: "/api/v2/constants" }));
    expect((await batch({ requests: hundred })).body).toHaveLength(100);

    expect(errorOf(await post("/api/v2/batch", "{not json", alice.token), 400).source).toEqual({ pointer: "" });
    expect(errorOf(await post("/api/v2/batch", [], alice.token), 400).source).toEqual({ pointer: "" });
    expect(errorOf(await post("/api/v2/batch", {}, alice.token), 400).source).toEqual({ pointer: "/requests" });
    expect(errorOf(await post("/api/v2/batch", { requests: { method: "GET" } }, alice.token), 400).source).toEqual({ pointer: "/requests" });
    const mode = errorOf(await post("/api/v2/batch", { requests: [], on_error: "STOP" }, alice.token), 400);
    expect(mode).toEqual({ status: "400", title: "Bad Request", detail: "on_error must be CONTINUE or ABORT", source: { pointer: "/on_error" } });
  });

  it("answers 405 for an item method it does not run and 400 for an item without a path", async () => {
    const response = await batch({
      requests: [
        { method: "HEAD", path: "/api/v2/constants" },
        { method: "OPTIONS", path: "/api/v2/constants" },
        { path: "/api/v2/constants" },
        { method: "GET" },
        { method: "GET", path: "  " },
        "GET /api/v2/constants",
        { method: "GET", path: "/api/v2/constants" },
      ],
    });
    expect(response.status).toBe(200);
    const entries = response.body as Entry[];
    expect(entries.map((e) => e.status)).toEqual([405, 405, 405, 400, 400, 400, 200]);
    expect(entries[0].headers).toMatchObject({ "Content-Type": "application/vnd.api+json; charset=utf-8", Allow: "GET, POST, PUT, PATCH, DELETE" });
    expect(recordedDocument(entries[0])).toEqual({
      errors: [{ status: "405", title: "Method Not Allowed", detail: "HEAD is not allowed in a batch request; use GET, POST, PUT, PATCH or DELETE" }],
    });
    expect(recordedDocument(entries[3]).errors[0]).toEqual({ status: "400", title: "Bad Request", detail: "Each batch request needs a path" });
  });

  it("refuses bulk endpoints and the batch endpoint itself inside a batch with a 403 item", async () => {
    const nested = { requests: [{ method: "POST", path: preferences(alice.list.id), body: preferenceBody(typeIds.special, {}) }] };
    const before = (await storedPreferences(alice.list.id)).length;
    const response = await batch({
      requests: [
        { method: "PUT", path: "/api/v2/contacts/bulk", body: { data: [] } },
        { method: "DELETE", path: "/api/v2/tasks/bulk" },
        { method: "POST", path: "/api/v2/account_lists/x/things/bulk?x=1" },
        { method: "POST", path: "/api/v2/batch", body: nested },
        { method: "POST", path: "api/v2/batch/", body: nested },
        { method: "POST", path: "/api/v2/%62atch", body: nested },
        { method: "POST", path: "/api/v2//BATCH", body: nested },
      ],
    });
    const entries = response.body as Entry[];
    expect(entries.map((e) => e.status)).toEqual([403, 403, 403, 403, 403, 403, 403]);
    for (const entry of entries) {
      expect(recordedDocument(entry)).toEqual({ errors: [{ status: "403", title: "Forbidden", detail: "You cannot access this endpoint from within a batch request" }] });
    }
    expect(await storedPreferences(alice.list.id)).toHaveLength(before);

    const aborted = await batch({ on_error: "ABORT", requests: [{ method: "PUT", path: "/api/v2/contacts/bulk" }, { method: "GET", path: "/api/v2/constants" }] });
    expect(aborted.status).toBe(403);
    expect(aborted.body).toHaveLength(1);
  });

  it("gives the items it answers itself the headers every answer of the app carries, each its own request id", async () => {
    const response = await batch({
      requests: [
        { method: "GET", path: "/api/v2/no_such_thing" },
        { method: "HEAD", path: "/api/v2/constants" },
        { method: "GET" },
        "GET /api/v2/constants",
        { method: "POST", path: "/api/v2/batch", body: { requests: [] } },
        { method: "PUT", path: "/api/v2/contacts/bulk", body: { data: [] } },
      ],
    });
    const [answeredByApp, ...refused] = response.body as Entry[];
    expect([answeredByApp, ...refused].map((e) => e.status)).toEqual([404, 405, 400, 400, 403, 403]);
    expect(answeredByApp.headers).toMatchObject(EVERY_ANSWER);
    for (const entry of refused) {
      expect(entry.headers).toMatchObject(EVERY_ANSWER);
      expect(entry.headers["X-Request-Id"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      // An error answer carries no caching headers, from the app or not.
      expect(entry.headers["Cache-Control"]).toBe(answeredByApp.headers["Cache-Control"]);
      expect(entry.headers.ETag).toBeUndefined();
    }
    expect(refused[0].headers.Allow).toBe("GET, POST, PUT, PATCH, DELETE");
    const ids = [answeredByApp, ...refused].map((e) => e.headers["X-Request-Id"]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(response.headers.get("x-request-id"));
  });

  it("takes only POST and, like every endpoint with a body, a JSON:API content type", async () => {
    const wrongMethod = await request("GET", "/api/v2/batch", { token: alice.token });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toContain("POST");
    errorOf(await post("/api/v2/batch", { requests: [] }, alice.token, { headers: { "Content-Type": "application/json" } }), 415);
  });
});
