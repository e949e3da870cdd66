/**
 * GET /api/v2/deleted_records: every delete path writes its row with the delete, a refused delete none; the
 * Android app's sync request; who may read; the daily removal of old rows.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import worker from "../src/index";
import { del, errorOf, get, request } from "./helpers/api";
import { runInBackground } from "./helpers/background";
import { givingTo, insertContact, insertTask } from "./helpers/contact-fixtures";
import { addToList, createUser, createViewer, db, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
/** The instant a sync starts from: a minute ago, as the Android app sends it (no fractional seconds). */
const since = () => new Date(Date.now() - 60_000).toISOString().slice(0, 19) + "Z";

async function storedFor(deletableId: string) {
  return db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.deletableId, deletableId));
}

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
});

describe("a deletion's row", () => {
  it("is written by a single delete and answered to the Android app's sync request, verbatim", async () => {
    const contact = await insertContact(alice.list.id, "Doe, John");
    expect((await del(`/api/v2/contacts/${contact.id}`, alice.token)).status).toBe(204);
    const at = since().replaceAll(":", "%3A");
    // Retrofit: the two @Query parameters, then the @QueryMap (per_page, page).
    const answer = await get(`/api/v2/deleted_records?filter%5Btypes%5D=Contact&filter%5Bsince_date%5D=${at}&per_page=500&page=1`, alice.token);
    expect(answer.status, answer.text).toBe(200);
    const record = answer.body.data.find((item: { attributes: { deletable_id: string } }) => item.attributes.deletable_id === contact.id);
    expect(record).toMatchObject({
      type: "deleted_records",
      attributes: { deletable_type: "Contact", deleted_from_id: alice.list.id, deleted_from_type: "AccountList" },
      relationships: { deleted_from: { data: { type: "account_lists", id: alice.list.id } }, deleted_by: { data: { type: "users", id: alice.user.id } } },
    });
    expect(Date.now() - Date.parse(record.attributes.deleted_at)).toBeLessThan(60_000);
    expect(answer.body.meta.pagination).toMatchObject({ per_page: 500, page: 1 });
    expect(answer.body.data.every((item: { attributes: { deletable_type: string } }) => item.attributes.deletable_type === "Contact")).toBe(true);
  });

  it("is written by bulk deletes, /batch items and background requests; a refused delete writes none", async () => {
    const bulkTask = await insertTask(alice.list.id, []);
    const batchTask = await insertTask(alice.list.id, []);
    const backgroundContact = await insertContact(alice.list.id, "Background, Deleted");
    const bobsTask = await insertTask(bob.list.id, []);
    const bulk = await request("DELETE", "/api/v2/tasks/bulk", {
      token: alice.token,
      raw: true,
      body: { data: [{ data: { type: "tasks", id: bulkTask.id } }, { data: { type: "tasks", id: bobsTask.id } }] },
    });
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body[1].errors[0].status).toBe("403");
    const batch = await request("POST", "/api/v2/batch", { token: alice.token, raw: true, body: { requests: [{ method: "DELETE", path: `/api/v2/tasks/${batchTask.id}` }] } });
    expect(JSON.parse(batch.text)[0].status).toBe(204);
    await runInBackground(alice.token, [{ path: `api/v2/contacts/${backgroundContact.id}`, request_method: "DELETE" }]);
    for (const [id, type] of [[bulkTask.id, "Activity"], [batchTask.id, "Activity"], [backgroundContact.id, "Contact"]]) {
      const rows = await storedFor(id);
      expect(rows, id).toHaveLength(1);
      expect(rows[0]).toMatchObject({ deletableType: type, accountListId: alice.list.id, deletedById: alice.user.id });
    }
    expect(await storedFor(bobsTask.id)).toEqual([]);
    // A delete refused outright (someone else's) writes nothing either.
    expect((await del(`/api/v2/tasks/${bobsTask.id}`, alice.token)).status).toBe(403);
    expect(await storedFor(bobsTask.id)).toEqual([]);
  });

  it("answers tasks for filter[types]=Task and for Activity, their original name", async () => {
    const task = await insertTask(alice.list.id, []);
    expect((await del(`/api/v2/tasks/${task.id}`, alice.token)).status).toBe(204);
    for (const types of ["Task", "Activity", "Contact,Task"]) {
      const answer = await get(`/api/v2/deleted_records?filter[types]=${types}&filter[since_date]=${since()}&per_page=500`, alice.token);
      expect(answer.body.data.map((item: { attributes: { deletable_id: string } }) => item.attributes.deletable_id), types).toContain(task.id);
    }
    const contactsOnly = await get(`/api/v2/deleted_records?filter[types]=Contact&per_page=500`, alice.token);
    expect(contactsOnly.body.data.map((item: { attributes: { deletable_id: string } }) => item.attributes.deletable_id)).not.toContain(task.id);
  });

  it("names a donation's designation account as where it was deleted from", async () => {
    const contact = await insertContact(alice.list.id, "Giver, Gary");
    const giving = await givingTo(alice.list.id);
    const { id: donation } = await giving.give(contact.id, "10", "2026-01-01");
    const designation = giving.designation.id;
    const deleted = await del(`/api/v2/account_lists/${alice.list.id}/donations/${donation}`, alice.token);
    expect(deleted.status, deleted.text).toBe(204);
    const answer = await get(`/api/v2/deleted_records?filter[types]=Donation&per_page=500`, alice.token);
    const record = answer.body.data.find((item: { attributes: { deletable_id: string } }) => item.attributes.deletable_id === donation);
    expect(record.attributes).toMatchObject({ deletable_type: "Donation", deleted_from_id: designation, deleted_from_type: "DesignationAccount" });
    expect(record.relationships.deleted_from.data).toEqual({ type: "designation_accounts", id: designation });
  });
});

describe("reading", () => {
  it("is for the list's users and coaches; another user's filter[account_list_id] is not found", async () => {
    const contact = await insertContact(alice.list.id, "Coached, Deleted");
    expect((await del(`/api/v2/contacts/${contact.id}`, alice.token)).status).toBe(204);
    const coach = await createUser();
    await addToList(alice.list.id, coach.id, "coach");
    const coached = await get(`/api/v2/deleted_records?filter[account_list_id]=${alice.list.id}&per_page=500`, coach.token);
    expect(coached.status, coached.text).toBe(200);
    expect(coached.body.data.map((item: { attributes: { deletable_id: string } }) => item.attributes.deletable_id)).toContain(contact.id);
    const bobs = await get(`/api/v2/deleted_records?per_page=500`, bob.token);
    expect(bobs.body.data.map((item: { attributes: { deletable_id: string } }) => item.attributes.deletable_id)).not.toContain(contact.id);
    errorOf(await get(`/api/v2/deleted_records?filter[account_list_id]=${alice.list.id}`, bob.token), 404);
    errorOf(await get(`/api/v2/deleted_records`), 401);
  });

  it("takes since_date as a range, sorts by created_at either way, and refuses what it cannot read", async () => {
    const viewer = await createViewer();
    const ids = [uuid(), uuid(), uuid()];
    const days = ["2026-01-10T08:00:00Z", "2026-02-10T08:00:00Z", "2026-03-10T08:00:00Z"];
    await db.insert(schema.deletedRecords).values(
      ids.map((id, index) => ({
        id,
        accountListId: viewer.list.id,
        deletableId: uuid(),
        deletableType: "Contact",
        deletedFromId: viewer.list.id,
        deletedFromType: "AccountList",
        deletedAt: days[index],
        createdAt: days[index],
        updatedAt: days[index],
      })),
    );
    const listed = async (query: string) => (await get(`/api/v2/deleted_records?${query}`, viewer.token)).body.data.map((item: { id: string }) => item.id);
    expect(await listed("filter[since_date]=2026-02-01..2026-03-01")).toEqual([ids[1]]);
    expect(await listed("filter[since_date]=2026-02-01T00:00:00Z..2026-12-31T00:00:00Z&sort=-created_at")).toEqual([ids[2], ids[1]]);
    expect(await listed("sort=updated_at")).toEqual(ids);
    const badType = errorOf(await get("/api/v2/deleted_records?filter[types]=Person", viewer.token), 400);
    expect(badType.source).toEqual({ parameter: "filter[types]" });
    errorOf(await get("/api/v2/deleted_records?filter[since_date]=yesterday", viewer.token), 400);
    errorOf(await get("/api/v2/deleted_records?sort=deletable_id", viewer.token), 400);
  });
});

describe("the daily job", () => {
  it("removes rows older than DELETED_RECORDS_DAYS and keeps the rest", async () => {
    const viewer = await createViewer();
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 19) + "Z";
    const old = uuid();
    const recent = uuid();
    await db.insert(schema.deletedRecords).values(
      [
        [old, day(400)],
        [recent, day(300)],
      ].map(([id, at]) => ({ id, accountListId: viewer.list.id, deletableId: uuid(), deletableType: "Activity", deletedFromId: viewer.list.id, deletedFromType: "AccountList", deletedAt: at, createdAt: at, updatedAt: at })),
    );
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: "23 3 * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    const left = await db.select({ id: schema.deletedRecords.id }).from(schema.deletedRecords).where(eq(schema.deletedRecords.accountListId, viewer.list.id));
    expect(left.map((row) => row.id)).toEqual([recent]);
  });
});
