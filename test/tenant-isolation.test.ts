/**
 * A write may link only records the viewer reaches: every relationship written by id is checked by the engine
 * against the target's declared scope, through single requests, /batch items and background requests.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { declaredResources, resourceFor } from "../src/engine/define";
import "../src/resources";
import { errorOf, get, post, put, request } from "./helpers/api";
import { runInBackground } from "./helpers/background";
import { createViewer } from "./helpers/factories";
import { createContact, createDesignationAccount, createDonationRow, createDonorAccount, createOrganization, linkDonorAccount, storedRow } from "./helpers/money-records";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
let alicesDonor: { id: string };
let bobsDonor: { id: string };
let bobsDesignation: { id: string };
let bobsDonation: { id: string };

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  const organization = await createOrganization();
  alicesDonor = await createDonorAccount(organization.id, { name: "Alice's private giver", accountNumber: "A-1" });
  await linkDonorAccount((await createContact(alice.list.id, { name: "Giver, Private" })).id, alicesDonor.id);
  bobsDonor = await createDonorAccount(organization.id);
  await linkDonorAccount((await createContact(bob.list.id)).id, bobsDonor.id);
  bobsDesignation = await createDesignationAccount(bob.list.id);
  bobsDonation = await createDonationRow({ accountListId: bob.list.id, designationAccountId: bobsDesignation.id, donorAccountId: bobsDonor.id });
});

const donationsOf = (listId: string) => `/api/v2/account_lists/${listId}/donations`;
const donationBody = (donorId: string, id?: string, attributes: Record<string, unknown> = { amount: "5", donation_date: "2026-03-01" }) => ({
  data: {
    type: "donations",
    ...(id ? { id } : {}),
    attributes,
    relationships: {
      donor_account: { data: { type: "donor_accounts", id: donorId } },
      designation_account: { data: { type: "designation_accounts", id: bobsDesignation.id } },
    },
  },
});
const notFound = (id: string) => `Couldn't find DonorAccount with 'id'=${id}`;

describe("linking another user's records", () => {
  it("refuses a donation naming another list's donor account, on create and update, and stores nothing", async () => {
    const before = await get(`${donationsOf(bob.list.id)}?per_page=0`, bob.token);
    const created = await post(`${donationsOf(bob.list.id)}?include=donor_account`, donationBody(alicesDonor.id), bob.token);
    expect(errorOf(created, 404).detail).toBe(notFound(alicesDonor.id));
    expect(created.text).not.toContain("Alice's private giver");
    const updated = await put(`${donationsOf(bob.list.id)}/${bobsDonation.id}`, donationBody(alicesDonor.id, bobsDonation.id, { overwrite: true }), bob.token);
    expect(errorOf(updated, 404).detail).toBe(notFound(alicesDonor.id));
    expect((await storedRow(schema.donations, bobsDonation.id))?.donorAccountId).toBe(bobsDonor.id);
    expect((await get(`${donationsOf(bob.list.id)}?per_page=0`, bob.token)).body.meta.pagination.total_count).toBe(before.body.meta.pagination.total_count);
    // The donor account of one's own list links as before.
    const own = await post(`${donationsOf(bob.list.id)}?include=donor_account`, donationBody(bobsDonor.id), bob.token);
    expect(own.status, own.text).toBe(201);
    expect(own.body.included.map((r: { id: string }) => r.id)).toEqual([bobsDonor.id]);
  });

  it("refuses it in a /batch item and in a background request too", async () => {
    const batch = await request("POST", "/api/v2/batch", {
      token: bob.token,
      raw: true,
      body: { requests: [{ method: "POST", path: donationsOf(bob.list.id), body: donationBody(alicesDonor.id) }] },
    });
    expect(batch.status).toBe(200);
    const [entry] = JSON.parse(batch.text);
    expect(entry.status).toBe(404);
    expect(JSON.parse(entry.body).errors[0].detail).toBe(notFound(alicesDonor.id));
    const id = await runInBackground(bob.token, [
      { path: `api/v2/account_lists/${bob.list.id}/donations`, request_method: "POST", request_body: JSON.stringify(donationBody(alicesDonor.id)) },
    ]);
    const [stored] = await (await import("./helpers/factories")).db
      .select()
      .from(schema.backgroundBatchRequests)
      .where(eq(schema.backgroundBatchRequests.backgroundBatchId, id));
    expect(stored.responseStatus).toBe(404);
    expect(String(stored.responseBody)).toContain(notFound(alicesDonor.id));
  });

  it("declares every relationship a write can link by id as a resource the engine can scope", () => {
    const writable = declaredResources().flatMap((def) =>
      Object.entries(def.relationships)
        .filter(([, rel]) => rel.write && rel.column)
        .map(([name, rel]) => ({ owner: def.type, name, target: rel.resource ?? rel.type })),
    );
    expect(writable.length).toBeGreaterThan(5);
    for (const { owner, name, target } of writable) expect(resourceFor(target), `${owner}.${name} -> ${target}`).toBeDefined();
    expect(writable.map(({ owner, name }) => `${owner}.${name}`)).toContain("donations.donor_account");
  });
});
