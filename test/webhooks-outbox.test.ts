/**
 * The webhook outbox: every way of writing a subscribed record records its event once, in the write's own batch;
 * refused writes and writes no endpoint subscribes to record nothing.
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as schema from "../drizzle/schema";
import { webhookTriggers } from "../drizzle/webhook-triggers";
import { del, post, put, request } from "./helpers/api";
import { runInBackground } from "./helpers/background";
import { insertContact } from "./helpers/contact-fixtures";
import { dailyRun, listWithPreference } from "./helpers/events";
import { createViewer, db, uuid } from "./helpers/factories";
import { stopAnswering } from "./helpers/identity-provider";
import { expectTriggersAsDeclared } from "./helpers/kept-sums";
import { createDesignationAccount, createDonationRow, createDonorAccount, createOrganization } from "./helpers/money-records";
import { endpointAt, eventsOf, Receiver } from "./helpers/webhook-receiver";

type Viewer = Awaited<ReturnType<typeof createViewer>>;

afterEach(() => {
  vi.restoreAllMocks();
  stopAnswering();
});

const contactBody = (listId: string, name: string, extra: Record<string, unknown> = {}) => ({
  data: { type: "contacts", attributes: { name }, relationships: { account_list: { data: { type: "account_lists", id: listId } } }, ...extra },
});

/** A list with an endpoint subscribing to `types`, at a receiver that answers 200. */
async function subscribedList(types: string[] = ["*"]) {
  const viewer = await createViewer();
  const receiver = new Receiver();
  const endpoint = await endpointAt(receiver, viewer, types);
  return { viewer, receiver, endpoint };
}

async function typesOf(viewer: Viewer) {
  return (await eventsOf(viewer.list.id)).map((event) => event.eventType).sort();
}

describe("the outbox's triggers", () => {
  it("are exactly those declared", async () => {
    await expectTriggersAsDeclared(["INSERT INTO webhook_events"], webhookTriggers());
  });

  it("record one event per single write, with the row as written", async () => {
    const { viewer } = await subscribedList(["contact.created", "contact.updated", "contact.deleted"]);
    const created = await post("/api/v2/contacts", contactBody(viewer.list.id, "Single, Sam"), viewer.token);
    expect(created.status, created.text).toBe(201);
    const [event] = await eventsOf(viewer.list.id);
    expect(event).toMatchObject({ eventType: "contact.created", resourceType: "contacts", resourceId: created.body.data.id, occurredAt: created.body.data.attributes.created_at });
    expect(JSON.parse(event.snapshot!)).toMatchObject({ id: created.body.data.id, name: "Single, Sam", account_list_id: viewer.list.id });

    const id = created.body.data.id;
    const updated = await put(`/api/v2/contacts/${id}`, { data: { type: "contacts", id, attributes: { notes: "hi", overwrite: true } } }, viewer.token);
    expect(updated.status, updated.text).toBe(200);
    expect((await del(`/api/v2/contacts/${id}`, viewer.token)).status).toBe(204);
    expect(await typesOf(viewer)).toEqual(["contact.created", "contact.deleted", "contact.updated"]);
    const deleted = (await eventsOf(viewer.list.id)).find((e) => e.eventType === "contact.deleted")!;
    expect(deleted.snapshot).toBeNull();
  });

  it("record one event per record of a bulk write, a /batch and a background batch", async () => {
    const { viewer } = await subscribedList(["task.created", "contact.created"]);
    const bulk = await request("POST", "/api/v2/tasks/bulk", {
      body: { data: [1, 2, 3].map((n) => ({ data: { type: "tasks", attributes: { subject: `Bulk ${n}` }, relationships: { account_list: { data: { type: "account_lists", id: viewer.list.id } } } } })) },
      token: viewer.token,
      raw: true,
    });
    expect(bulk.status, bulk.text).toBe(200);
    const batch = await post(
      "/api/v2/batch",
      { requests: [1, 2].map((n) => ({ method: "POST", path: "/api/v2/contacts", body: contactBody(viewer.list.id, `Batch ${n}`) })) },
      viewer.token,
      { raw: true },
    );
    expect(batch.status, batch.text).toBe(200);
    await runInBackground(viewer.token, [{ path: "/api/v2/contacts", request_method: "post", request_body: JSON.stringify(contactBody(viewer.list.id, "Background, Bea")) }]);
    const types = await typesOf(viewer);
    expect(types.filter((type) => type === "task.created")).toHaveLength(3);
    expect(types.filter((type) => type === "contact.created")).toHaveLength(3);
  });

  it("record the sideposting write's record once, and nothing for records no one subscribes to", async () => {
    const { viewer } = await subscribedList(["contact.created"]);
    const personId = uuid();
    const body = contactBody(viewer.list.id, "Sidepost, Sue", { relationships: { account_list: { data: { type: "account_lists", id: viewer.list.id } }, people: { data: [{ type: "people", id: personId }] } } });
    const created = await post("/api/v2/contacts", { ...body, included: [{ type: "people", id: personId, attributes: { first_name: "Sue", last_name: "Sidepost" } }] }, viewer.token);
    expect(created.status, created.text).toBe(201);
    const [person] = await db.select().from(schema.people).where(eq(schema.people.id, personId));
    expect(person).toBeDefined();
    expect(await typesOf(viewer)).toEqual(["contact.created"]);
  });

  it("record task.completed, not task.updated, when a task is completed", async () => {
    const { viewer } = await subscribedList(["task.updated", "task.completed"]);
    const created = await post("/api/v2/tasks", { data: { type: "tasks", attributes: { subject: "Call" }, relationships: { account_list: { data: { type: "account_lists", id: viewer.list.id } } } } }, viewer.token);
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id;
    await put(`/api/v2/tasks/${id}`, { data: { type: "tasks", id, attributes: { subject: "Call back", overwrite: true } } }, viewer.token);
    await put(`/api/v2/tasks/${id}`, { data: { type: "tasks", id, attributes: { completed: true, overwrite: true } } }, viewer.token);
    expect(await typesOf(viewer)).toEqual(["task.completed", "task.updated"]);
  });

  it("record donations of the list (a gift's list is its designation account's)", async () => {
    const { viewer } = await subscribedList(["donation.created", "donation.deleted"]);
    const organization = await createOrganization();
    const designation = await createDesignationAccount(viewer.list.id, { organizationId: organization.id });
    const donor = await createDonorAccount(organization.id);
    const donation = await createDonationRow({ accountListId: viewer.list.id, designationAccountId: designation.id, donorAccountId: donor.id }, { amount: "25" });
    await db.delete(schema.donations).where(eq(schema.donations.id, donation.id));
    expect(await typesOf(viewer)).toEqual(["donation.created", "donation.deleted"]);
  });

  it("record the notifications of the daily run", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-25T05:00:00Z") });
    try {
      const viewer = await listWithPreference("stopped_giving");
      const receiver = new Receiver();
      await endpointAt(receiver, viewer, ["notification.created"]);
      const late = await insertContact(viewer.list.id, "Late, Lou", { status: "Partner - Financial", pledgeReceived: true, pledgeCurrency: "USD", pledgeAmount: "100", pledgeFrequency: "1.0" });
      await viewer.giving.give(late.id, "100", "2026-09-01");
      await dailyRun("2026-11-25T05:00:00Z");
      const notifications = await db.select().from(schema.notifications).where(eq(schema.notifications.accountListId, viewer.list.id));
      expect(notifications.length).toBeGreaterThan(0);
      const events = await eventsOf(viewer.list.id);
      expect(events.map((event) => event.resourceId).sort()).toEqual(notifications.map((n) => n.id).sort());
    } finally {
      vi.useRealTimers();
    }
  });

  it("record nothing for a refused write", async () => {
    const { viewer } = await subscribedList(["*"]);
    const refused = await post("/api/v2/contacts", contactBody(viewer.list.id, ""), viewer.token);
    expect(refused.status).toBe(400);
    const created = await post("/api/v2/contacts", contactBody(viewer.list.id, "Kept, Kim"), viewer.token);
    const id = created.body.data.id;
    const stale = await put(`/api/v2/contacts/${id}`, { data: { type: "contacts", id, attributes: { notes: "late", updated_in_db_at: "2020-01-01T00:00:00Z" } } }, viewer.token);
    expect(stale.status).toBe(409);
    expect(await typesOf(viewer)).toEqual(["contact.created"]);
  });

  it("write no extra row for a list no enabled endpoint subscribes to the type of", async () => {
    const bare = await createViewer();
    await post("/api/v2/contacts", contactBody(bare.list.id, "Bare, Bo"), bare.token);
    const { viewer } = await subscribedList(["task.created"]);
    await post("/api/v2/contacts", contactBody(viewer.list.id, "Other, Ola"), viewer.token);
    const off = await subscribedList(["*"]);
    const path = `/api/v2/account_lists/${off.viewer.list.id}/webhooks/${off.endpoint.id}`;
    expect((await put(path, { data: { type: "webhooks", id: off.endpoint.id, attributes: { enabled: false, overwrite: true } } }, off.viewer.token)).status).toBe(200);
    await post("/api/v2/contacts", contactBody(off.viewer.list.id, "Off, Otto"), off.viewer.token);
    for (const list of [bare, viewer, off.viewer]) expect(await eventsOf(list.list.id)).toEqual([]);
    const deliveries = await db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.accountListId, viewer.list.id));
    expect(deliveries).toEqual([]);
  });
});
