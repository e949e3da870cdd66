/**
 * /api/v2/user/options: the web app's own settings per user, named by key (GET, POST, PUT, DELETE), as its users
 * service and its saved-filters dialog send them.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { del, errorOf, get, post, put, request } from "./helpers/api";
import { createViewer, db } from "./helpers/factories";

const OPTIONS = "/api/v2/user/options";
let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;

const storedOptions = (userId: string) => db.select().from(schema.userOptions).where(eq(schema.userOptions.userId, userId));

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
});

describe("the web app's first run", () => {
  it("lists none, creates setup_position, reads it by key, and saves it done with the option it read back", async () => {
    const none = await get(`${OPTIONS}?per_page=10000`, alice.token);
    expect(none.status, none.text).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(none.body.meta.pagination).toMatchObject({ total_count: 0 });

    // users.service createOption: the serializer's document of {key, value}.
    const created = await post(OPTIONS, { data: { type: "user_options", attributes: { key: "setup_position", value: "start" } } }, alice.token);
    expect(created.status, created.text).toBe(201);
    const option = created.body.data;
    expect(option.type).toBe("user_options");
    expect(option.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(option.attributes).sort()).toEqual(["created_at", "key", "updated_at", "updated_in_db_at", "value"]);
    expect(option.attributes).toMatchObject({ key: "setup_position", value: "start" });
    expect(option.relationships).toBeUndefined();
    expect(created.headers.get("Location")).toBe(`https://api.example.org${OPTIONS}/setup_position`);

    const shown = await get(`${OPTIONS}/setup_position`, alice.token);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.data).toEqual(option);
    const listed = await get(`${OPTIONS}?per_page=10000`, alice.token);
    expect(listed.body.data).toEqual([option]);

    // users.service setOption: the option as read, serialized with its key and value ('' once setup is done); the
    // app's api service adds overwrite to every PUT.
    const saved = await put(
      `${OPTIONS}/setup_position`,
      { data: { type: "user_options", id: option.id, attributes: { key: "setup_position", value: "", overwrite: true } } },
      alice.token,
    );
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.attributes).toMatchObject({ key: "setup_position", value: "" });
    const [row] = await storedOptions(alice.user.id);
    expect(row).toMatchObject({ key: "setup_position", value: "" });

    // Another user has options of their own: the key is not theirs.
    errorOf(await get(`${OPTIONS}/setup_position`, bob.token), 404);
    expect((await get(OPTIONS, bob.token)).body.data).toEqual([]);
  });

  it("replaces a saved filter with overwrite, as the saved-filters dialog does, and deletes it by key", async () => {
    const key = "saved_contacts_filter_My_Partners";
    const first = JSON.stringify({ status: "Partner - Financial" });
    const created = await request("POST", OPTIONS, { token: alice.token, body: { data: { attributes: { key, value: first }, type: "user_options" } } });
    expect(created.status, created.text).toBe(201);
    const second = JSON.stringify({ status: "Partner - Pray" });
    const replaced = await put(`${OPTIONS}/${key}`, { data: { attributes: { value: second, overwrite: true }, type: "user_options" } }, alice.token);
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.data.attributes.value).toBe(second);

    // The filters panel saves whether it is collapsed (a boolean), first with no value at all.
    const panel = await post(OPTIONS, { data: { type: "user_options", attributes: { key: "tasks_filters_collapse" } } }, alice.token);
    expect(panel.body.data.attributes.value).toBeNull();
    const collapsed = await put(`${OPTIONS}/tasks_filters_collapse`, { data: { type: "user_options", id: panel.body.data.id, attributes: { key: "tasks_filters_collapse", value: true, overwrite: true } } }, alice.token);
    expect(collapsed.status, collapsed.text).toBe(200);
    expect(collapsed.body.data.attributes.value).toBe("t");

    expect((await del(`${OPTIONS}/${key}`, alice.token)).status).toBe(204);
    errorOf(await get(`${OPTIONS}/${key}`, alice.token), 404);
    expect((await storedOptions(alice.user.id)).map((row) => row.key)).not.toContain(key);
  });
});

describe("refusals", () => {
  it("refuses a key taken, a blank or malformed key, a stale update, and changes nothing", async () => {
    await post(OPTIONS, { data: { type: "user_options", attributes: { key: "theme", value: "dark" } } }, bob.token);
    const before = await storedOptions(bob.user.id);

    const taken = errorOf(await post(OPTIONS, { data: { type: "user_options", attributes: { key: "theme", value: "light" } } }, bob.token), 400);
    expect(taken).toMatchObject({ title: "has already been taken", detail: "Key has already been taken", source: { pointer: "/data/attributes/key" } });
    const blank = errorOf(await post(OPTIONS, { data: { type: "user_options", attributes: { value: "x" } } }, bob.token), 400);
    expect(blank).toMatchObject({ detail: "Key can't be blank", source: { pointer: "/data/attributes/key" } });
    const malformed = errorOf(await post(OPTIONS, { data: { type: "user_options", attributes: { key: "has space", value: "x" } } }, bob.token), 400);
    expect(malformed).toMatchObject({ detail: "Key is invalid", source: { pointer: "/data/attributes/key" } });
    const stale = errorOf(await put(`${OPTIONS}/theme`, { data: { type: "user_options", attributes: { value: "light", updated_in_db_at: "2001-01-01T00:00:00Z" } } }, bob.token), 409);
    expect(stale.source).toEqual({ pointer: "/data/attributes/updated_in_db_at" });
    await post(OPTIONS, { data: { type: "user_options", attributes: { key: "other", value: "1" } } }, bob.token);
    const renamedOnto = errorOf(await put(`${OPTIONS}/other`, { data: { type: "user_options", attributes: { key: "theme", overwrite: true } } }, bob.token), 400);
    expect(renamedOnto.detail).toBe("Key has already been taken");
    const wrongType = errorOf(await post(OPTIONS, { data: { type: "users", attributes: { key: "x" } } }, bob.token), 409);
    expect(wrongType.detail).toContain("user_options");

    const after = await storedOptions(bob.user.id);
    expect(after.filter((row) => row.key === "theme")).toEqual(before);
    expect(after.map((row) => row.key).sort()).toEqual(["other", "theme"]);
    // A key names no option of another user's, whatever it is.
    errorOf(await put(`${OPTIONS}/theme`, { data: { type: "user_options", attributes: { value: "x", overwrite: true } } }, alice.token), 404);
    errorOf(await del(`${OPTIONS}/theme`, alice.token), 404);
    errorOf(await get(OPTIONS, null), 401);
  });
});
