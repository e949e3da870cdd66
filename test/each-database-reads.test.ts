/**
 * A read over the viewer's lists on several databases runs once (src/routing.ts): its handler must read each
 * database itself. Every read route a request over several databases can reach is declared so (`readsEachDatabase`);
 * one that is not would answer from the directory alone.
 */
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { HEALTH_PATH } from "../src/health";
import { OPENAPI_PATH } from "../src/openapi/route";
import { reportDatabase, requestDatabase } from "../src/db/placement";
import { isEachDatabaseReader } from "../src/engine/route-descriptions";
import type { Viewer } from "../src/viewer";

const [ONE, TWO] = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"];
const spread = { id: "33333333-3333-4333-8333-333333333333", readableListIds: [ONE, TWO], writableListIds: [ONE, TWO], listDatabases: { [ONE]: "LIST_DB_1", [TWO]: "LIST_DB_2" }, listsOfMembers: {} } as unknown as Viewer;

/** A path the route answers: each parameter given a value its pattern takes. */
const pathOf = (pattern: string) => pattern.replace(/:(\w+)(\{[^/]*\})?/g, (_, name: string) => (name === "key" ? "a_key" : "44444444-4444-4444-8444-444444444444"));

describe("reads over several databases", () => {
  it("are all served by handlers that read each database themselves", () => {
    const app = createApp();
    const spanning = app.routes.filter((route) => {
      // Health and the API description are answered before the viewer is known: they never reach the routing.
      if (route.method !== "GET" || !route.path.startsWith("/api/v2/") || route.path === HEALTH_PATH || route.path === OPENAPI_PATH) return false;
      const path = pathOf(route.path);
      return requestDatabase(path, spread) === "each" && reportDatabase(path, spread) === undefined;
    });
    // Lists, records by id, what hangs off a record, summaries, panels, tags.
    expect(spanning.map((route) => pathOf(route.path))).toEqual(
      expect.arrayContaining(["/api/v2/contacts", "/api/v2/contacts/44444444-4444-4444-8444-444444444444", "/api/v2/contacts/analytics", "/api/v2/tasks/tags"]),
    );
    expect(spanning.filter((route) => !isEachDatabaseReader(route.handler)).map((route) => route.path)).toEqual([]);
  });
});
