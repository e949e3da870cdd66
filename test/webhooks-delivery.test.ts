/**
 * Webhook deliveries through the queue: signed payloads the standardwebhooks library verifies, retries, failure,
 * redelivery, 410, rotation, a killed attempt recovered by the five-minute cron, volume, the log and its cleanup.
 * (The suite's WEBHOOK_RETRY_SECONDS is "1,1,1": four attempts a second apart.)
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as schema from "../drizzle/schema";
import { database } from "../src/db/client";
import { onListDatabase } from "../src/db/list-env";
import type { Bindings } from "../src/env";
import { attemptDelivery, claimDelivery, retryAfterSeconds, retryDelay, retrySchedule } from "../src/webhooks/delivery";
import { MANUAL_SEND_WINDOW_SECONDS, MANUAL_SENDS_PER_WINDOW } from "../src/webhooks/limits";
import { renderPayload } from "../src/webhooks/payloads";
import { errorOf, get, post, put, request } from "./helpers/api";
import { runCron } from "./helpers/events";
import { createAccountList, createViewer, db, tokenFor, uuid } from "./helpers/factories";
import { stopAnswering } from "./helpers/identity-provider";
import { createDesignationAccount, createDonationRow, createDonorAccount, createOrganization } from "./helpers/money-records";
import { deliveriesOf, endpointAt, eventsOf, Receiver, settled } from "./helpers/webhook-receiver";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  stopAnswering();
});

const contactBody = (listId: string, name: string) => ({
  data: { type: "contacts", attributes: { name }, relationships: { account_list: { data: { type: "account_lists", id: listId } } } },
});
/** Bindings whose queue drops every message: nothing is attempted until the five-minute cron. */
const lostQueue = { ...env, WEBHOOK_QUEUE: { send: async () => undefined, sendBatch: async () => undefined } };
const status = (code: number, headers: Record<string, string> = {}) => () => new Response(code === 204 ? null : `answer ${code}`, { status: code, headers });

async function setUp(types: string[] = ["*"]) {
  const viewer = await createViewer();
  const receiver = new Receiver();
  const endpoint = await endpointAt(receiver, viewer, types);
  const webhooks = `/api/v2/account_lists/${viewer.list.id}/webhooks`;
  return { viewer, receiver, endpoint, webhooks };
}

async function addContact(viewer: { list: { id: string }; token: string }, name = `Doe, ${uuid().slice(0, 6)}`) {
  const created = await post("/api/v2/contacts", contactBody(viewer.list.id, name), viewer.token);
  expect(created.status, created.text).toBe(201);
  return created.body.data as { id: string; attributes: Record<string, unknown> };
}

describe("a delivery", () => {
  it("POSTs the event signed as Standard Webhooks, with the record as GET shows it", async () => {
    const { viewer, receiver, endpoint } = await setUp(["contact.created"]);
    const contact = await addContact(viewer, "Signed, Sid");
    const [delivery] = await settled(endpoint.id, 1);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1, responseStatus: 200, responseBody: "ok", eventType: "contact.created" });
    receiver.verifyAll(endpoint.secret);
    const [received] = receiver.received;
    expect(received.id).toBe(delivery.id);
    expect(received.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(received.payload.type).toBe("contact.created");
    expect(received.payload.timestamp).toBe(contact.attributes.created_at);
    const shown = await get(`/api/v2/contacts/${contact.id}`, viewer.token);
    expect(received.payload.data).toMatchObject({ type: "contacts", id: contact.id, attributes: shown.body.data.attributes });
    expect(received.payload.data.relationships).toBeDefined();
  });

  it("renders tasks and gifts as GET shows them", async () => {
    const { viewer, receiver, endpoint } = await setUp(["task.created", "donation.created"]);
    const task = await post("/api/v2/tasks", { data: { type: "tasks", attributes: { subject: "Thank Ann", activity_type: "Call" }, relationships: { account_list: { data: { type: "account_lists", id: viewer.list.id } } } } }, viewer.token);
    expect(task.status, task.text).toBe(201);
    const organization = await createOrganization();
    const designation = await createDesignationAccount(viewer.list.id, { organizationId: organization.id });
    const donor = await createDonorAccount(organization.id);
    const gift = await createDonationRow({ accountListId: viewer.list.id, designationAccountId: designation.id, donorAccountId: donor.id }, { amount: "25" });
    // A gift written straight to the database is sent by the sweep.
    await runCron("*/5 * * * *", Date.now() + 5 * 60_000, env as unknown as Bindings);
    await settled(endpoint.id, 2);
    const byType = Object.fromEntries(receiver.received.map((r) => [r.payload.type, r.payload.data]));
    const shownTask = await get(`/api/v2/tasks/${task.body.data.id}`, viewer.token);
    expect(byType["task.created"]).toMatchObject({ type: "tasks", id: task.body.data.id, attributes: shownTask.body.data.attributes });
    const shownGift = await get(`/api/v2/account_lists/${viewer.list.id}/donations/${gift.id}`, viewer.token);
    expect(shownGift.status, shownGift.text).toBe(200);
    expect(byType["donation.created"]).toMatchObject({ type: "donations", id: gift.id, attributes: shownGift.body.data.attributes });
  });

  it("retries a failing endpoint with the same webhook-id until it answers 2xx", async () => {
    const { viewer, receiver, endpoint } = await setUp();
    receiver.answers.push(status(500), status(503, { "Retry-After": "1" }));
    await addContact(viewer);
    const [delivery] = await settled(endpoint.id, 1);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 3, responseStatus: 200 });
    expect(receiver.received.map((r) => r.id)).toEqual([delivery.id, delivery.id, delivery.id]);
    receiver.verifyAll(endpoint.secret);
  });

  it("fails after the last attempt, a redirect counting as a failure; a redelivery sends it again with the same webhook-id", async () => {
    const { viewer, receiver, endpoint, webhooks } = await setUp();
    receiver.otherwise = status(302, { Location: "https://elsewhere.example.org/" });
    await addContact(viewer);
    const [failed] = await settled(endpoint.id, 1);
    expect(failed).toMatchObject({ status: "failed", attempts: 4, responseStatus: 302, responseBody: "answer 302" });
    expect(receiver.received).toHaveLength(4);

    const log = await get(`${webhooks}/${endpoint.id}/deliveries?filter[status]=failed`, viewer.token);
    expect(log.body.data.map((d: { id: string }) => d.id)).toEqual([failed.id]);
    expect(log.body.data[0].attributes).toMatchObject({ status: "failed", attempts: 4, response_status: 302, webhook_id: endpoint.id, event_type: "contact.created" });

    receiver.otherwise = status(204);
    const again = await post(`${webhooks}/${endpoint.id}/deliveries/${failed.id}/redeliver`, {}, viewer.token);
    expect(again.status, again.text).toBe(202);
    expect(again.body.data).toMatchObject({ id: failed.id, type: "webhook_deliveries", attributes: { status: "pending" } });
    const [delivered] = await settled(endpoint.id, 1);
    expect(delivered).toMatchObject({ status: "delivered", attempts: 5, responseStatus: 204 });
    expect(new Set(receiver.received.map((r) => r.id))).toEqual(new Set([failed.id]));
    receiver.verifyAll(endpoint.secret);
  });

  it("waits as long as a 429's Retry-After asks", async () => {
    const { viewer, receiver, endpoint } = await setUp();
    receiver.answers.push(status(429, { "Retry-After": "120" }));
    await addContact(viewer);
    await vi.waitUntil(async () => (await deliveriesOf(endpoint.id))[0]?.attempts === 1 && (await deliveriesOf(endpoint.id))[0]?.claimedUntil === null, { timeout: 10_000, interval: 50 });
    const [waiting] = await deliveriesOf(endpoint.id);
    expect(waiting).toMatchObject({ status: "pending", responseStatus: 429 });
    expect(Date.parse(waiting.nextAttemptAt) - Date.parse(waiting.lastAttemptAt!)).toBe(120_000);
  });

  it("turns the endpoint off at a 410 and tells the list's users", async () => {
    const { viewer, receiver, endpoint, webhooks } = await setUp();
    receiver.otherwise = status(410);
    await addContact(viewer);
    const [gone] = await settled(endpoint.id, 1);
    expect(gone).toMatchObject({ status: "failed", attempts: 1, responseStatus: 410 });
    const shown = await get(`${webhooks}/${endpoint.id}`, viewer.token);
    expect(shown.body.data.attributes).toMatchObject({ enabled: false, disabled_reason: "The endpoint answered 410 Gone" });
    const mails = await db.select().from(schema.notificationOutbox).where(eq(schema.notificationOutbox.webhookId, endpoint.id));
    expect(mails).toMatchObject([{ kind: "webhook_disabled", userId: viewer.user.id, channel: "email" }]);
    await addContact(viewer);
    expect(await eventsOf(viewer.list.id)).toHaveLength(1);
    // Turned on again: the reason goes.
    const on = await put(`${webhooks}/${endpoint.id}`, { data: { type: "webhooks", id: endpoint.id, attributes: { enabled: true, overwrite: true } } }, viewer.token);
    expect(on.body.data.attributes).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it("turns the endpoint off after five days of nothing but failures", async () => {
    const { viewer, receiver, endpoint, webhooks } = await setUp();
    receiver.otherwise = status(500);
    const sixDaysAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 19) + "Z";
    await db.update(schema.webhooks).set({ failingSince: sixDaysAgo }).where(eq(schema.webhooks.id, endpoint.id));
    await addContact(viewer);
    const [delivery] = await settled(endpoint.id, 1);
    expect(delivery.status).toBe("failed");
    const shown = await get(`${webhooks}/${endpoint.id}`, viewer.token);
    expect(shown.body.data.attributes).toMatchObject({ enabled: false, disabled_reason: "Every attempt failed for 5 days" });
  });

  it("fails at once, without sending, when its secret cannot be read (WEBHOOK_SECRETS_KEY changed)", async () => {
    const { viewer, receiver, endpoint } = await setUp();
    await db.update(schema.webhooks).set({ secret: "v1.c2VhbGVkIHVuZGVyIGFub3RoZXIga2V5IGVudGlyZWx5" }).where(eq(schema.webhooks.id, endpoint.id));
    await addContact(viewer);
    const [delivery] = await settled(endpoint.id, 1);
    expect(delivery).toMatchObject({ status: "failed", attempts: 1, responseBody: "The delivery could not be signed (OperationError)" });
    expect(receiver.received).toHaveLength(0);
  });

  it("sends a webhook.test event on POST .../test", async () => {
    const { viewer, receiver, endpoint, webhooks } = await setUp(["task.created"]);
    const accepted = await post(`${webhooks}/${endpoint.id}/test`, {}, viewer.token);
    expect(accepted.status, accepted.text).toBe(202);
    expect(accepted.body.data.attributes).toMatchObject({ event_type: "webhook.test", status: "pending" });
    await settled(endpoint.id, 1);
    expect(receiver.received[0].payload).toMatchObject({ type: "webhook.test", data: { type: "webhooks", id: endpoint.id } });
    receiver.verifyAll(endpoint.secret);
  });
});

describe("the bytes sent", () => {
  const tagged = (id: string, tag: string) => ({ data: { type: "contacts", id, attributes: { tag_list: tag, overwrite: true } } });
  const movedTo = (id: string, listId: string) => ({ data: { type: "contacts", id, attributes: { overwrite: true }, relationships: { account_list: { data: { type: "account_lists", id: listId } } } } });

  it("are the same at every attempt, whatever changed between them, and verify each time", async () => {
    const { viewer, receiver, endpoint } = await setUp(["contact.created"]);
    receiver.answers.push(status(500));
    const contact = await addContact(viewer, "Steady, Sam");
    await vi.waitUntil(async () => (await deliveriesOf(endpoint.id))[0]?.responseStatus === 500, { timeout: 10_000, interval: 20 });
    // Changed before the retry: the retry still sends what the first attempt sent.
    expect((await put(`/api/v2/contacts/${contact.id}`, tagged(contact.id, "changed-later"), viewer.token)).status).toBe(200);
    const [delivered] = await settled(endpoint.id, 1);
    expect(delivered).toMatchObject({ status: "delivered", attempts: 2 });
    const [first, second] = receiver.received;
    expect(second.id).toBe(first.id);
    expect(second.body).toBe(first.body);
    expect(second.body).not.toContain("changed-later");
    receiver.verifyAll(endpoint.secret);
  });

  it("of a contact since moved to another list and tagged there carry nothing of that list, redelivered or first sent after the move", async () => {
    const { viewer, receiver, endpoint, webhooks } = await setUp(["contact.created"]);
    const otherList = await createAccountList(viewer.user);
    const taggedInA = (name: string) => ({ data: { ...contactBody(viewer.list.id, name).data, attributes: { name, tag_list: ["in-a"] } } });
    // Sent before the move.
    const sent = await post("/api/v2/contacts", taggedInA("Mover, Mia"), viewer.token);
    expect(sent.status, sent.text).toBe(201);
    const [delivered] = await settled(endpoint.id, 1);
    // Not yet sent when it moves: its queue message was lost, the five-minute cron sends it.
    const unsent = await post("/api/v2/contacts", taggedInA("Mover, Max"), viewer.token, { bindings: lostQueue });
    expect(unsent.status, unsent.text).toBe(201);
    // And one whose body no request rendered: its first attempt renders it, after the move, from its snapshot alone.
    const unrendered = await post("/api/v2/contacts", taggedInA("Mover, Meg"), viewer.token, { bindings: lostQueue });
    expect(unrendered.status, unrendered.text).toBe(201);
    const [unrenderedEvent] = (await eventsOf(viewer.list.id)).filter((event) => event.resourceId === unrendered.body.data.id);
    await db.update(schema.webhookEvents).set({ payload: null }).where(eq(schema.webhookEvents.id, unrenderedEvent.id));

    for (const id of [sent.body.data.id, unsent.body.data.id, unrendered.body.data.id] as string[]) {
      const moved = await put(`/api/v2/contacts/${id}`, movedTo(id, otherList.id), viewer.token);
      expect(moved.status, moved.text).toBe(200);
      expect((await put(`/api/v2/contacts/${id}`, tagged(id, "only-in-the-other-list"), viewer.token)).status).toBe(200);
    }

    const again = await post(`${webhooks}/${endpoint.id}/deliveries/${delivered.id}/redeliver`, {}, viewer.token);
    expect(again.status, again.text).toBe(202);
    await runCron("*/5 * * * *", Date.now() + 5 * 60_000, env as unknown as Bindings);
    const deliveries = await settled(endpoint.id, 3);
    expect(deliveries.every((delivery) => delivery.status === "delivered")).toBe(true);

    const ofContact = (id: string) => receiver.received.filter((received) => received.payload.data.id === id);
    const [before, redelivered] = ofContact(sent.body.data.id);
    expect(redelivered.body).toBe(before.body);
    expect(before.payload.data.attributes.tag_list).toEqual(["in-a"]);
    const [late] = ofContact(unsent.body.data.id);
    expect(late.payload.data).toMatchObject({ type: "contacts", attributes: { name: "Mover, Max", tag_list: ["in-a"] } });
    const [fallback] = ofContact(unrendered.body.data.id);
    expect(fallback.payload.data).toMatchObject({ type: "contacts", attributes: { name: "Mover, Meg", tag_list: [] } });
    expect(fallback.payload.data.relationships.account_list.data.id).toBe(viewer.list.id);
    for (const received of receiver.received) expect(received.body).not.toContain("only-in-the-other-list");
    receiver.verifyAll(endpoint.secret);
  });

  it("are the record as the write that raised the event left it, not as it stands at the first attempt", async () => {
    const { viewer, receiver, endpoint } = await setUp(["contact.created"]);
    // Its queue message lost: the first attempt is the five-minute cron's.
    const contact = await post("/api/v2/contacts", contactBody(viewer.list.id, "Early, Eve"), viewer.token, { bindings: lostQueue });
    expect(contact.status, contact.text).toBe(201);
    const id = contact.body.data.id as string;
    // Stored by the request that wrote the event, before it answered.
    const [event] = await eventsOf(viewer.list.id);
    expect(event.payload).not.toBeNull();
    expect((await put(`/api/v2/contacts/${id}`, tagged(id, "added-later"), viewer.token)).status).toBe(200);

    await runCron("*/5 * * * *", Date.now() + 5 * 60_000, env as unknown as Bindings);
    const [delivered] = await settled(endpoint.id, 1);
    expect(delivered.status).toBe("delivered");
    const [received] = receiver.received;
    expect(received.body).toBe(event.payload);
    expect(received.payload.data.attributes.tag_list).toEqual([]);
    expect(received.body).not.toContain("added-later");
  });

  it("of a record moved away, tagged there and moved back before its event was first sent carry its tags as they were", async () => {
    const { viewer, receiver, endpoint } = await setUp(["contact.updated"]);
    const otherList = await createAccountList(viewer.user);
    const contact = await addContact(viewer, "Back, Bea");
    const id = contact.id;
    // The event: tagged in the first list; its queue message lost, so first sent by the cron, after the moves.
    expect((await put(`/api/v2/contacts/${id}`, tagged(id, "in-a"), viewer.token, { bindings: lostQueue })).status).toBe(200);
    const [event] = await eventsOf(viewer.list.id);
    for (const step of [movedTo(id, otherList.id), tagged(id, "in-a, only-in-b"), movedTo(id, viewer.list.id)]) {
      const answer = await put(`/api/v2/contacts/${id}`, step, viewer.token, { bindings: lostQueue });
      expect(answer.status, answer.text).toBe(200);
    }

    await runCron("*/5 * * * *", Date.now() + 5 * 60_000, env as unknown as Bindings);
    const deliveries = await settled(endpoint.id, 2);
    const first = deliveries.find((delivery) => delivery.eventId === event.id)!;
    const [received] = receiver.received.filter((r) => r.id === first.id);
    expect(received.payload.data.attributes.tag_list).toEqual(["in-a"]);
    expect(received.body).not.toContain("only-in-b");
  });
});

describe("a body that cannot be rendered", () => {
  it("is stored nowhere: the attempt is tried again, as a failed one is, and sends the body once rendered", async () => {
    const { viewer, receiver, endpoint } = await setUp(["contact.created"]);
    const contact = await addContact(viewer, "Later, Lou");
    const [event] = await eventsOf(viewer.list.id);
    await settled(endpoint.id, 1);
    const [delivery] = await deliveriesOf(endpoint.id);
    // As if no request had rendered it, and the render failed (a snapshot the database cannot read).
    const snapshot = event.snapshot!;
    await db.update(schema.webhookEvents).set({ payload: null, snapshot: "{not json" }).where(eq(schema.webhookEvents.id, event.id));
    await db.update(schema.webhookDeliveries).set({ status: "pending", roundStart: 1, nextAttemptAt: "2026-01-01T00:00:00Z", claimedUntil: null }).where(eq(schema.webhookDeliveries.id, delivery.id));
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const listEnv = { ...(await onListDatabase(env as unknown as Bindings, viewer.list.id)), WEBHOOK_QUEUE: lostQueue.WEBHOOK_QUEUE } as unknown as Bindings;
    const sentBefore = receiver.received.length;

    expect(await attemptDelivery(listEnv, delivery.id)).toBe("retrying");
    expect(receiver.received).toHaveLength(sentBefore);
    const [stored] = await eventsOf(viewer.list.id);
    expect(stored.payload).toBeNull();
    const [retrying] = await deliveriesOf(endpoint.id);
    expect(retrying).toMatchObject({ status: "pending", attempts: 2, responseStatus: null, claimedUntil: null });
    expect(retrying.responseBody).toContain("could not be rendered");
    expect(errors).toHaveBeenCalled();

    await db.update(schema.webhookEvents).set({ snapshot }).where(eq(schema.webhookEvents.id, event.id));
    expect(await attemptDelivery(listEnv, delivery.id, Date.parse(retrying.nextAttemptAt) + 1000)).toBe("delivered");
    const [rendered] = await eventsOf(viewer.list.id);
    expect(JSON.parse(rendered.payload!).data).toMatchObject({ type: "contacts", id: contact.id });
    expect(receiver.received.at(-1)!.body).toBe(rendered.payload);
  });
});

describe("limits", () => {
  it("keeps the first 256 bytes of an answer in the log, no character cut in two", async () => {
    const { viewer, receiver, endpoint, webhooks } = await setUp();
    const long = "é".repeat(1000);
    receiver.otherwise = () => new Response(long, { status: 200 });
    await addContact(viewer);
    const [delivery] = await settled(endpoint.id, 1);
    expect(delivery.responseBody).toBe("é".repeat(128));
    const log = await get(`${webhooks}/${endpoint.id}/deliveries`, viewer.token);
    expect(new TextEncoder().encode(log.body.data[0].attributes.response_body).length).toBe(256);

    receiver.otherwise = () => new Response(`x${long}`, { status: 200 });
    await addContact(viewer);
    const odd = (await settled(endpoint.id, 2)).find((row) => row.id !== delivery.id)!;
    expect(odd.responseBody).toBe(`x${"é".repeat(127)}`);
  });

  it(`sends at most ${MANUAL_SENDS_PER_WINDOW} test events a minute per list, then 429 with Retry-After`, async () => {
    const start = Date.parse("2026-11-20T10:00:00Z");
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const { viewer, endpoint, webhooks } = await setUp();
    const second = await endpointAt(new Receiver(), viewer);
    const test = (id: string) => post(`${webhooks}/${id}/test`, {}, viewer.token);
    const answers = await Promise.all(Array.from({ length: MANUAL_SENDS_PER_WINDOW + 2 }, (_, n) => test(n % 2 ? second.id : endpoint.id)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(MANUAL_SENDS_PER_WINDOW).fill(202), 429, 429]);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.headers.get("retry-after")).toBe(String(MANUAL_SEND_WINDOW_SECONDS));
    expect(errorOf(refused, 429).detail).toContain(`At most ${MANUAL_SENDS_PER_WINDOW} test events and redeliveries a minute`);
    const tests = async () => (await eventsOf(viewer.list.id)).filter((event) => event.eventType === "webhook.test");
    expect(await tests()).toHaveLength(MANUAL_SENDS_PER_WINDOW);
    expect((await deliveriesOf(endpoint.id)).length + (await deliveriesOf(second.id)).length).toBe(MANUAL_SENDS_PER_WINDOW);

    vi.setSystemTime(start + 45_000);
    const later = await post(`${webhooks}/${endpoint.id}/test`, {}, await tokenFor(viewer.user.id));
    expect(later.status).toBe(429);
    expect(later.headers.get("retry-after")).toBe("15");
    // Another list is not held back.
    const other = await setUp();
    expect((await post(`${other.webhooks}/${other.endpoint.id}/test`, {}, await tokenFor(other.viewer.user.id))).status).toBe(202);

    vi.setSystemTime(start + MANUAL_SEND_WINDOW_SECONDS * 1000 + 1000);
    expect((await post(`${webhooks}/${endpoint.id}/test`, {}, await tokenFor(viewer.user.id))).status).toBe(202);
    expect(await tests()).toHaveLength(MANUAL_SENDS_PER_WINDOW + 1);
  });

  it("counts redeliveries with test events: the list's next manual send is 429 with Retry-After, changing nothing", async () => {
    const { viewer, endpoint, webhooks } = await setUp();
    await addContact(viewer);
    const [delivery] = await settled(endpoint.id, 1);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    // Sent nowhere (the queue drops them), so that each redelivery finds the last one idle.
    const redeliver = () => post(`${webhooks}/${endpoint.id}/deliveries/${delivery.id}/redeliver`, {}, viewer.token, { bindings: lostQueue });
    const test = () => post(`${webhooks}/${endpoint.id}/test`, {}, viewer.token, { bindings: lostQueue });
    for (let n = 0; n < MANUAL_SENDS_PER_WINDOW - 1; n++) {
      const answer = await redeliver();
      expect(answer.status, `${n} ${answer.text}`).toBe(202);
    }
    expect((await test()).status).toBe(202);
    const [before] = (await deliveriesOf(endpoint.id)).filter((row) => row.id === delivery.id);

    const refused = await redeliver();
    expect(errorOf(refused, 429).detail).toContain(`At most ${MANUAL_SENDS_PER_WINDOW} test events and redeliveries a minute`);
    expect(refused.headers.get("retry-after")).toBe(String(MANUAL_SEND_WINDOW_SECONDS));
    expect(errorOf(await test(), 429).detail).toContain("redeliveries");
    expect((await deliveriesOf(endpoint.id)).filter((row) => row.id === delivery.id)).toEqual([before]);
    const sends = await db.select().from(schema.webhookManualSends).where(eq(schema.webhookManualSends.accountListId, viewer.list.id));
    expect(sends.map((send) => send.kind).sort()).toEqual([...Array(MANUAL_SENDS_PER_WINDOW - 1).fill("redeliver"), "test"]);
    // An unknown delivery is still 404, not 429.
    errorOf(await post(`${webhooks}/${endpoint.id}/deliveries/${uuid()}/redeliver`, {}, viewer.token), 404);

    vi.setSystemTime(start + MANUAL_SEND_WINDOW_SECONDS * 1000 + 1000);
    expect((await redeliver()).status).toBe(202);
  });

  it("does not send to an endpoint whose stored URL is no longer allowed", async () => {
    const { viewer, receiver, endpoint } = await setUp();
    await db.update(schema.webhooks).set({ url: "https://[::ffff:0:7f00:1]/hook" }).where(eq(schema.webhooks.id, endpoint.id));
    await addContact(viewer);
    const [delivery] = await settled(endpoint.id, 1);
    expect(delivery).toMatchObject({ status: "failed", attempts: 1, responseBody: "The endpoint's URL must be a public address" });
    expect(receiver.received).toHaveLength(0);
  });
});

describe("secret rotation", () => {
  it("signs with both secrets for 24 hours, then with the new one only", async () => {
    const rotatedAt = Date.parse("2026-11-20T10:00:00Z");
    vi.useFakeTimers({ toFake: ["Date"], now: rotatedAt });
    const { viewer, receiver, endpoint, webhooks } = await setUp();
    const rotated = await put(`${webhooks}/${endpoint.id}`, { data: { type: "webhooks", id: endpoint.id, attributes: { rotate_secret: true, overwrite: true } } }, viewer.token);
    const secret = rotated.body.data.attributes.secret as string;
    expect(secret).not.toBe(endpoint.secret);

    // Tokens last an hour: each request is signed anew at the clock's time.
    vi.setSystemTime(rotatedAt + 23 * 3600_000);
    expect((await post(`${webhooks}/${endpoint.id}/test`, {}, await tokenFor(viewer.user.id))).status).toBe(202);
    await settled(endpoint.id, 1);
    const [during] = receiver.received;
    expect(during.signature.split(" ")).toHaveLength(2);
    const headers = (r: typeof during) => ({ "webhook-id": r.id, "webhook-timestamp": r.timestamp, "webhook-signature": r.signature });
    expect(() => new Webhook(secret).verify(during.body, headers(during))).not.toThrow();
    expect(() => new Webhook(endpoint.secret).verify(during.body, headers(during))).not.toThrow();

    vi.setSystemTime(rotatedAt + 25 * 3600_000);
    expect((await post(`${webhooks}/${endpoint.id}/test`, {}, await tokenFor(viewer.user.id))).status).toBe(202);
    await settled(endpoint.id, 2);
    const after = receiver.received[1];
    expect(after.signature.split(" ")).toHaveLength(1);
    expect(() => new Webhook(secret).verify(after.body, headers(after))).not.toThrow();
    expect(() => new Webhook(endpoint.secret).verify(after.body, headers(after))).toThrow();
  });
});

describe("an attempt killed half-way", () => {
  it("keeps its lease (no second attempt at once), then the five-minute cron sends it again: delivered once", async () => {
    const { viewer, receiver, endpoint } = await setUp();
    // The write's queue message is lost, and a consumer claims the delivery and is killed before it sends.
    const lost = { ...env, WEBHOOK_QUEUE: { send: async () => undefined, sendBatch: async () => undefined } };
    const created = await post("/api/v2/contacts", contactBody(viewer.list.id, "Killed, Kit"), viewer.token, { bindings: lost });
    expect(created.status).toBe(201);
    const [pending] = await deliveriesOf(endpoint.id);
    const listEnv = await onListDatabase(env as unknown as Bindings, viewer.list.id);
    const claimed = await claimDelivery(database(listEnv.DB), pending.id, Date.now());
    expect(claimed).toMatchObject({ id: pending.id, attempts: 1 });

    // Another message for it while the lease holds is dropped without an attempt.
    expect(await attemptDelivery(listEnv, pending.id)).toBe("not attempted");
    expect(receiver.received).toHaveLength(0);
    // The cron before the lease lapses leaves it alone.
    await runCron("*/5 * * * *", Date.now(), env as unknown as Bindings);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: "pending", attempts: 1 });

    // Past the lease: the cron finds it and sends it again.
    const later = Date.parse(claimed!.claimedUntil!) + 5 * 60_000;
    vi.useFakeTimers({ toFake: ["Date"], now: later });
    await runCron("*/5 * * * *", later, env as unknown as Bindings);
    const [delivered] = await settled(endpoint.id, 1);
    expect(delivered).toMatchObject({ status: "delivered", attempts: 2 });
    expect(receiver.received.map((r) => r.id)).toEqual([pending.id]);
    // Once delivered, nothing sends it again.
    await runCron("*/5 * * * *", later + 10 * 60_000, env as unknown as Bindings);
    expect(await attemptDelivery(listEnv, pending.id)).toBe("not attempted");
    expect(receiver.received).toHaveLength(1);
  });
});

describe("volume", () => {
  it("delivers each of 100 contacts of one /batch once", async () => {
    const { viewer, receiver, endpoint } = await setUp(["contact.created"]);
    const names = Array.from({ length: 100 }, (_, n) => `Batch, Number ${n}`);
    const response = await post("/api/v2/batch", { requests: names.map((name) => ({ method: "POST", path: "/api/v2/contacts", body: contactBody(viewer.list.id, name) })) }, viewer.token, { raw: true });
    expect(response.status).toBe(200);
    const deliveries = await settled(endpoint.id, 100, 60_000);
    expect(deliveries.every((d) => d.status === "delivered" && d.attempts === 1)).toBe(true);
    expect(receiver.received).toHaveLength(100);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(100);
    expect(new Set(receiver.received.map((r) => r.payload.data.id)).size).toBe(100);
    expect(receiver.received.map((r) => r.payload.data.attributes.name).sort()).toEqual([...names].sort());
    receiver.verifyAll(endpoint.secret);
  }, 90_000);

  it("delivers each contact of a 500-row CSV import once, and the import's completion", async () => {
    const { viewer, receiver, endpoint } = await setUp(["contact.created", "import.completed"]);
    const lines = ["first_name,last_name,email"];
    for (let row = 0; row < 500; row++) lines.push(`First${row},Last${row},person${row}@example.org`);
    const body = new FormData();
    body.append("data[type]", "imports");
    body.append("data[attributes][file]", new File([lines.join("\n") + "\n"], "partners.csv", { type: "text/csv" }));
    const imports = `/api/v2/account_lists/${viewer.list.id}/imports/csv`;
    const uploaded = await request("POST", imports, { token: viewer.token, body });
    expect(uploaded.status, uploaded.text).toBe(201);
    const id = uploaded.body.data.id;
    const started = await put(
      `${imports}/${id}`,
      { data: { type: "imports", id, attributes: { overwrite: true, in_preview: false, file_headers_mappings: { first_name: "first_name", last_name: "last_name", email_1: "email" } } } },
      viewer.token,
    );
    expect(started.status, started.text).toBe(200);
    const deliveries = await settled(endpoint.id, 501, 150_000);
    expect(deliveries.every((d) => d.status === "delivered")).toBe(true);
    expect(receiver.received).toHaveLength(501);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(501);
    const contacts = receiver.received.filter((r) => r.payload.type === "contact.created");
    expect(new Set(contacts.map((r) => r.payload.data.id)).size).toBe(500);
    expect(receiver.received.filter((r) => r.payload.type === "import.completed").map((r) => r.payload.data.id)).toEqual([id]);
  }, 180_000);
});

describe("the delivery log", () => {
  it("is paged newest first, filtered by status, and kept 30 days", async () => {
    const { viewer, endpoint, webhooks } = await setUp();
    for (let n = 0; n < 3; n++) await addContact(viewer);
    const deliveries = await settled(endpoint.id, 3);
    const page = await get(`${webhooks}/${endpoint.id}/deliveries?per_page=2`, viewer.token);
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(2);
    const all = await get(`${webhooks}/${endpoint.id}/deliveries`, viewer.token);
    const created = all.body.data.map((d: { attributes: { created_at: string } }) => d.attributes.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect((await get(`${webhooks}/${endpoint.id}/deliveries?filter[status]=pending`, viewer.token)).body.data).toEqual([]);

    // The daily job removes events (and their deliveries) older than 30 days.
    const old = deliveries[0];
    const longAgo = "2026-01-01T00:00:00Z";
    await db.update(schema.webhookEvents).set({ createdAt: longAgo }).where(eq(schema.webhookEvents.id, old.eventId));
    await runCron("23 3 * * *", Date.parse("2026-03-01T03:23:00Z"), env as unknown as Bindings);
    const kept = await deliveriesOf(endpoint.id);
    expect(kept.map((d) => d.id).sort()).toEqual(deliveries.slice(1).map((d) => d.id).sort());
  });
});

describe("the payload", () => {
  it("carries the record's identifier in place of a record over 64 KB", async () => {
    const event = {
      id: uuid(),
      accountListId: uuid(),
      eventType: "contact.updated",
      resourceType: "contacts",
      resourceId: uuid(),
      snapshot: null,
      data: JSON.stringify({ type: "contacts", id: "x", attributes: { notes: "n".repeat(70_000) } }),
      payload: null,
      occurredAt: "2026-11-20T10:00:00Z",
      createdAt: "2026-11-20T10:00:00Z",
    };
    const body = await renderPayload(env as unknown as Bindings, database(env.DB), event, "2026-11-20T10:00:00Z");
    expect(JSON.parse(body)).toEqual({ type: "contact.updated", timestamp: "2026-11-20T10:00:00Z", data: { type: "contacts", id: event.resourceId } });
  });
});

describe("the retry schedule", () => {
  it("reads WEBHOOK_RETRY_SECONDS, spreads each delay by up to a fifth, and honours Retry-After", () => {
    expect(retrySchedule({})).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(retrySchedule({ WEBHOOK_RETRY_SECONDS: "2, 4,8" })).toEqual([2, 4, 8]);
    expect(retrySchedule({ WEBHOOK_RETRY_SECONDS: "2,x" })).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(retryDelay([5, 300], 1, 0)).toBe(240);
    expect(retryDelay([5, 300], 1, 1)).toBe(360);
    expect(retryDelay([5, 300], 7, 0.5)).toBe(300);
    const now = Date.parse("2026-11-20T10:00:00Z");
    expect(retryAfterSeconds("30", now)).toBe(30);
    expect(retryAfterSeconds("Fri, 20 Nov 2026 10:01:00 GMT", now)).toBe(60);
    expect(retryAfterSeconds("soon", now)).toBeUndefined();
  });
});
