/**
 * Background batches finish after a crash: the sweeper (a Cron Trigger) sends again the requests whose queue
 * message is gone, and a request that runs again cannot repeat its effect.
 */
import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as schema from "../drizzle/schema";
import type { BackgroundBatchMessage } from "../src/env";
import worker from "../src/index";
import { CLAIM_LEASE_SECONDS } from "../src/queue/claims";
import { sweepBackgroundRequests } from "../src/queue/sweeper";
import { get } from "./helpers/api";
import { createViewer, db, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;

beforeAll(async () => {
  alice = await createViewer();
});

const at = (ms: number) => new Date(ms).toISOString().slice(0, 19) + "Z";
const ago = (seconds: number) => at(Date.now() - seconds * 1000);

/** A stored batch whose requests are in the given states, as a crash would leave them; no message is sent. */
async function strandedBatch(requests: Array<Partial<typeof schema.backgroundBatchRequests.$inferInsert>>) {
  const batchId = uuid();
  const stamp = ago(3600);
  await db.insert(schema.backgroundBatches).values({ id: batchId, userId: alice.user.id, origin: "https://api.example.org", createdAt: stamp, updatedAt: stamp });
  const ids: string[] = [];
  for (const [position, request] of requests.entries()) {
    const id = uuid();
    ids.push(id);
    await db.insert(schema.backgroundBatchRequests).values({ id, backgroundBatchId: batchId, position, path: "/api/v2/user", enqueuedAt: stamp, createdAt: stamp, updatedAt: stamp, ...request });
  }
  return { batchId, ids };
}

async function runSweep(scheduledTime = Date.now()) {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ cron: "*/5 * * * *", scheduledTime }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const pendingOf = async (batchId: string) => (await get(`/api/v2/background_batches/${batchId}`, alice.token)).body.data.attributes.pending as number;
const stateOf = async (id: string) => (await db.select().from(schema.backgroundBatchRequests).where(eq(schema.backgroundBatchRequests.id, id)))[0];

describe("the sweeper", () => {
  it("sends again a request whose message was acknowledged without running it, and the batch finishes", async () => {
    const { batchId, ids } = await strandedBatch([{ state: "pending" }, { state: "pending" }]);
    expect(await pendingOf(batchId)).toBe(2);
    await runSweep();
    await vi.waitUntil(async () => (await pendingOf(batchId)) === 0, { timeout: 15_000, interval: 50 });
    for (const id of ids) expect(await stateOf(id)).toMatchObject({ state: "done", responseStatus: 200 });
  });

  it("takes over a claim that expired, and leaves a live claim and a recent message alone", async () => {
    const { batchId, ids } = await strandedBatch([
      { state: "running", claimedAt: ago(CLAIM_LEASE_SECONDS + 60), attempts: 1 },
      { state: "running", claimedAt: ago(10), attempts: 1 },
      { state: "pending", enqueuedAt: ago(10) },
    ]);
    const swept = await sweepBackgroundRequests(env);
    expect(swept).toContain(ids[0]);
    expect(swept).not.toContain(ids[1]);
    expect(swept).not.toContain(ids[2]);
    await vi.waitUntil(async () => (await stateOf(ids[0])).state === "done", { timeout: 15_000, interval: 50 });
    expect(await stateOf(ids[0])).toMatchObject({ responseStatus: 200, attempts: 2 });
    expect((await stateOf(ids[1])).state).toBe("running");
    expect(await pendingOf(batchId)).toBe(2);
  });

  it("sends a request once however many sweeps overlap, and again only a lease later", async () => {
    const { ids } = await strandedBatch([{ state: "running", claimedAt: ago(CLAIM_LEASE_SECONDS * 2), attempts: 3 }]);
    const now = Date.now();
    const sweeps = await Promise.all([sweepBackgroundRequests(env, now), sweepBackgroundRequests(env, now), sweepBackgroundRequests(env, now)]);
    expect(sweeps.flat().filter((id) => id === ids[0])).toHaveLength(1);
    expect(await sweepBackgroundRequests(env, now + 60_000)).not.toContain(ids[0]);
    await vi.waitUntil(async () => (await stateOf(ids[0])).state === "done", { timeout: 15_000, interval: 50 });
  });
});

describe("a request that runs again", () => {
  it("after its effect but before its answer was recorded creates nothing twice: the second run answers as the first did", async () => {
    const body = JSON.stringify({
      data: { type: "contacts", attributes: { name: "Once, Only", create_default_person: false }, relationships: { account_list: { data: { type: "account_lists", id: alice.list.id } } } },
    });
    const { batchId, ids } = await strandedBatch([{ state: "pending", path: "/api/v2/contacts", requestMethod: "POST", requestBody: body }]);
    const deliver = async () => {
      const batch = createMessageBatch<BackgroundBatchMessage>("background-batch-requests", [{ id: uuid(), timestamp: new Date(), attempts: 1, body: { requestId: ids[0] } }]);
      const ctx = createExecutionContext();
      await worker.queue!(batch, env, ctx);
      await getQueueResult(batch, ctx);
    };
    await deliver();
    expect(await stateOf(ids[0])).toMatchObject({ state: "done", responseStatus: 201 });
    const created = await db.select().from(schema.contacts).where(eq(schema.contacts.name, "Once, Only"));
    expect(created.map((row) => row.id)).toEqual([ids[0]]);
    // The record step is lost (a crash between the effect and storing the answer): the request is pending again.
    await db.update(schema.backgroundBatchRequests).set({ state: "pending", claimedAt: null, responseStatus: null, responseBody: null }).where(eq(schema.backgroundBatchRequests.id, ids[0]));
    await deliver();
    const rerun = await stateOf(ids[0]);
    expect(rerun).toMatchObject({ state: "done", responseStatus: 201 });
    const answered = JSON.parse(String(rerun.responseBody)).data;
    expect(answered).toMatchObject({ id: ids[0], type: "contacts", attributes: { name: "Once, Only" } });
    const again = await db.select().from(schema.contacts).where(eq(schema.contacts.name, "Once, Only"));
    // The same one row, not written again.
    expect(again).toEqual(created);
    expect(await pendingOf(batchId)).toBe(0);
  });
});
