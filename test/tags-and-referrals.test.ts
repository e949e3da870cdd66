/**
 * Tags across records (the filter UI's list, bulk add and remove) for contacts and tasks, and a contact's
 * referrals as a nested route.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { errorOf, get, post, request } from "./helpers/api";
import { insertContact, insertTags, insertTask, storedContact } from "./helpers/contact-fixtures";
import { createViewer, db } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
});

const tagDoc = (name: string) => ({ data: { type: "tags", attributes: { name } } });
const tagsOf = async (contactId: string) => (await db.select().from(schema.contactTags).where(eq(schema.contactTags.contactId, contactId))).map((row) => row.name).sort();

describe("tags across records", () => {
  it("adds a tag to the contacts named, removes it again, and lists the viewer's tags", async () => {
    const one = await insertContact(alice.list.id, "Tagged, One");
    const two = await insertContact(alice.list.id, "Tagged, Two");
    const untouched = await insertContact(alice.list.id, "Tagged, Untouched");
    const bobs = await insertContact(bob.list.id, "Tagged, Bob's");
    await insertTags(bobs.id, ["bobs-tag"]);
    const before = await storedContact(one.id);
    const added = await request("POST", `/api/v2/contacts/tags/bulk?filter[contact_ids]=${one.id},${two.id},${bobs.id}`, { token: alice.token, body: tagDoc("Prayer Team") });
    expect(added.status, added.text).toBe(204);
    expect(await tagsOf(one.id)).toEqual(["prayer team"]);
    expect(await tagsOf(two.id)).toEqual(["prayer team"]);
    expect(await tagsOf(untouched.id)).toEqual([]);
    expect(await tagsOf(bobs.id)).toEqual(["bobs-tag"]);
    // Sync clients see the new tag list: the records' stamp moved on.
    expect((await storedContact(one.id)).updatedAt > before.updatedAt).toBe(true);
    expect((await storedContact(untouched.id)).updatedAt).toBe(untouched.updatedAt);
    const listed = await get("/api/v2/contacts/tags", alice.token);
    expect(listed.body.data).toEqual([{ id: "prayer team", type: "tags", attributes: { name: "prayer team" } }]);
    // Removing takes the filter from the body too, as the web app sends it.
    const removed = await request("DELETE", "/api/v2/contacts/tags/bulk", { token: alice.token, body: { ...tagDoc("prayer team"), filter: { contact_ids: one.id } } });
    expect(removed.status, removed.text).toBe(204);
    expect(await tagsOf(one.id)).toEqual([]);
    expect(await tagsOf(two.id)).toEqual(["prayer team"]);
  });

  it("works the same for tasks, and refuses bodies that name no tag", async () => {
    const task = await insertTask(alice.list.id, [], { subject: "Tag me" });
    expect((await request("POST", `/api/v2/tasks/tags/bulk?filter[task_ids]=${task.id}`, { token: alice.token, body: tagDoc("follow-up") })).status).toBe(204);
    expect((await get(`/api/v2/tasks/${task.id}`, alice.token)).body.data.attributes.tag_list).toEqual(["follow-up"]);
    expect((await get("/api/v2/tasks/tags", alice.token)).body.data.map((row: { id: string }) => row.id)).toEqual(["follow-up"]);
    expect((await get("/api/v2/tasks/tags", bob.token)).body.data).toEqual([]);
    expect(errorOf(await request("POST", "/api/v2/tasks/tags/bulk", { token: alice.token, body: { data: { type: "tags", attributes: {} } } }), 400).source).toEqual({ pointer: "/data/attributes/name" });
    errorOf(await request("POST", "/api/v2/tasks/tags/bulk", { token: alice.token, body: { data: { type: "contacts", attributes: { name: "x" } } } }), 409);
    errorOf(await request("DELETE", `/api/v2/tasks/tags/bulk?filter[account_list_id]=${bob.list.id}`, { token: alice.token, body: tagDoc("follow-up") }), 404);
  });
});

describe("a contact's referrals", () => {
  it("records whom the contact referred, under the contact, never naming another user's contact", async () => {
    const referrer = await insertContact(alice.list.id, "Referrer, Rita");
    const referred = await insertContact(alice.list.id, "Referred, Rob");
    const path = `/api/v2/contacts/${referrer.id}/referrals`;
    const created = await post(path, { data: { type: "contact_referrals", relationships: { referred_to: { data: { type: "contacts", id: referred.id } } } } }, alice.token);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.relationships.referred_by.data).toEqual({ type: "contacts", id: referrer.id });
    expect((await get(path, alice.token)).body.data.map((row: { id: string }) => row.id)).toEqual([created.body.data.id]);
    expect((await get(`/api/v2/contacts/${referred.id}/referrers`, alice.token)).body.data.map((row: { id: string }) => row.id)).toEqual([referrer.id]);
    const bobs = await insertContact(bob.list.id, "Referred, Bob's");
    errorOf(await post(path, { data: { type: "contact_referrals", relationships: { referred_to: { data: { type: "contacts", id: bobs.id } } } } }, alice.token), 403);
    expect(await db.select().from(schema.contactReferrals).where(eq(schema.contactReferrals.referredToId, bobs.id))).toEqual([]);
  });
});
