import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { errorOf, get } from "./helpers/api";
import { createViewer, db, timestamps, uuid } from "./helpers/factories";

let token: string;
const ids = { banner: uuid(), modal: uuid(), spanish: uuid(), expired: uuid(), scheduled: uuid(), action: uuid() };

beforeAll(async () => {
  ({ token } = await createViewer());
  await db.insert(schema.announcements).values([
    { id: ids.banner, title: "Welcome", body: "Hello", displayMethod: "banner", style: "info", languageCode: "en_us", ...timestamps(10) },
    { id: ids.modal, title: "Everyone", body: "For all", displayMethod: "modal", style: "warning", languageCode: null, ...timestamps(20) },
    { id: ids.spanish, title: "Hola", body: "Bienvenido", displayMethod: "banner", style: "success", languageCode: "es_419", ...timestamps(30) },
    { id: ids.expired, title: "Old", body: "Gone", displayMethod: "banner", endsAt: "2020-01-01T00:00:00Z", ...timestamps(40) },
    { id: ids.scheduled, title: "Later", body: "Soon", displayMethod: "modal", startsAt: "2099-01-01T00:00:00Z", ...timestamps(50) },
  ]);
  await db.insert(schema.announcementActions).values({ id: ids.action, announcementId: ids.banner, label: "Got it", action: "dismiss", style: "primary", position: 0, ...timestamps() });
});

describe("GET /api/v2/announcements", () => {
  it("lists current announcements oldest first with pagination meta", async () => {
    const response = await get("/api/v2/announcements", token);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["data", "meta"]);
    expect(response.body.data.map((a: { id: string }) => a.id)).toEqual([ids.banner, ids.modal, ids.spanish]);
    expect(response.body.meta).toEqual({ pagination: { page: 1, per_page: 25, total_count: 3, total_pages: 1 }, sort: null, filter: {} });
    const banner = response.body.data[0];
    expect(banner.attributes).toMatchObject({ title: "Welcome", display_method: "banner", style: "info", body: "Hello" });
    expect(banner.attributes.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(banner.attributes.updated_in_db_at).toBe(banner.attributes.updated_at);
    expect(banner.relationships.actions.data).toEqual([{ type: "announcement_actions", id: ids.action }]);
  });

  it("filters by language code, keeping announcements for every language", async () => {
    const response = await get("/api/v2/announcements?filter[language_code]=es_419", token);
    expect(response.body.data.map((a: { id: string }) => a.id)).toEqual([ids.modal, ids.spanish]);
    expect(response.body.meta.filter).toEqual({ language_code: "es_419" });
    const camel = await get("/api/v2/announcements?filter[languageCode]=es-419", token);
    expect(camel.body.data).toHaveLength(2);
  });

  it("pages with page/per_page and the page[number]/page[size] aliases, and counts with per_page=0", async () => {
    const second = await get("/api/v2/announcements?page=2&per_page=2", token);
    expect(second.body.data.map((a: { id: string }) => a.id)).toEqual([ids.spanish]);
    expect(second.body.meta.pagination).toEqual({ page: 2, per_page: 2, total_count: 3, total_pages: 2 });
    const alias = await get("/api/v2/announcements?page[number]=2&page[size]=2", token);
    expect(alias.body.data).toHaveLength(1);
    const beyond = await get("/api/v2/announcements?page=5&per_page=2", token);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta.pagination).toEqual({ page: 5, per_page: 2, total_count: 3, total_pages: 2 });
    const count = await get("/api/v2/announcements?per_page=0", token);
    expect(count.body.data).toEqual([]);
    expect(count.body.meta.pagination).toEqual({ page: 1, per_page: 0, total_count: 3, total_pages: 0 });
  });

  it("refuses bad paging values with the parameter named", async () => {
    for (const query of ["per_page=25001", "per_page=-1", "per_page=abc", "page=0"]) {
      const error = errorOf(await get(`/api/v2/announcements?${query}`, token), 400);
      expect(error.source.parameter).toBe(query.split("=")[0]);
    }
  });

  it("sorts by created_at either way and rejects other sorts with the exact details", async () => {
    const response = await get("/api/v2/announcements?sort=-created_at", token);
    expect(response.body.data.map((a: { id: string }) => a.id)).toEqual([ids.spanish, ids.modal, ids.banner]);
    expect(response.body.meta.sort).toBe("-created_at");
    expect(errorOf(await get("/api/v2/announcements?sort=title", token), 400).detail).toBe("Sorting by title is not supported for this endpoint.");
    expect(errorOf(await get("/api/v2/announcements?sort=created_at,updated_at", token), 400).detail).toBe(
      "This endpoint does not support multiple sorting parameters.",
    );
    expect(errorOf(await get("/api/v2/announcements?sort=created at!", token), 400).detail).toBe("Bad format for sort param.");
  });

  it("includes actions once each, and sparse fieldsets filter attributes and relationships", async () => {
    const response = await get("/api/v2/announcements?include=actions&fields[announcements]=title,actions&fields[announcement_actions]=label", token);
    expect(Object.keys(response.body).sort()).toEqual(["data", "included", "meta"]);
    expect(response.body.included).toEqual([{ id: ids.action, type: "announcement_actions", attributes: { label: "Got it" } }]);
    expect(response.body.data[0].attributes).toEqual({ title: "Welcome" });
    expect(Object.keys(response.body.data[0].relationships)).toEqual(["actions"]);
    const bare = await get("/api/v2/announcements?fields[announcements]=", token);
    expect(bare.body.data[0]).toEqual({ id: ids.banner, type: "announcements" });
    const star = await get("/api/v2/announcements?include=*", token);
    expect(star.body.included).toHaveLength(1);
    const unknown = await get("/api/v2/announcements?include=nothing", token);
    expect(unknown.status).toBe(200);
  });

  it("shows one announcement, and 404s an unknown id", async () => {
    const response = await get(`/api/v2/announcements/${ids.modal}`, token);
    expect(response.body.data.attributes.title).toBe("Everyone");
    const missing = uuid();
    expect(errorOf(await get(`/api/v2/announcements/${missing}`, token), 404).detail).toBe(`Couldn't find Announcement with 'id'=${missing}`);
  });

  it("answers an announcement outside its display window as not found, whether ended or not yet started", async () => {
    for (const id of [ids.expired, ids.scheduled]) {
      expect(errorOf(await get(`/api/v2/announcements/${id}`, token), 404).detail).toBe(`Couldn't find Announcement with 'id'=${id}`);
    }
    const listed = await get("/api/v2/announcements?per_page=100", token);
    const listedIds = listed.body.data.map((announcement: { id: string }) => announcement.id);
    expect(listedIds).not.toContain(ids.expired);
    expect(listedIds).not.toContain(ids.scheduled);
  });
});
