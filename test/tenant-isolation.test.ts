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
import { createAccountList, createViewer, db, timestamps, uuid } from "./helpers/factories";
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

/**
 * A list database holds copies of the users of its lists, their own people and details, beside other users' lists
 * (in the split layout, Alice's lists and Bob's share both list databases). Bob reaches none of Alice's copies, by
 * any route, include, batch item or background request, and changes none.
 */
describe("another user's copies beside one's lists", () => {
  let alicesPerson: string;
  let bobsTasks: string[];

  beforeAll(async () => {
    const aliceSecond = await createAccountList(alice.user);
    const bobSecond = await createAccountList(bob.user);
    alicesPerson = uuid();
    await db.insert(schema.people).values({ id: alicesPerson, firstName: "Alice", lastName: "Private", ...timestamps() });
    await db.update(schema.users).set({ personId: alicesPerson }).where(eq(schema.users.id, alice.user.id));
    await db.insert(schema.emailAddresses).values({ id: uuid(), personId: alicesPerson, email: "alice.private@example.org", ...timestamps() });
    await createContact(aliceSecond.id, { name: "Alice's, Second" });
    bobsTasks = [];
    for (const list of [bob.list.id, bobSecond.id]) {
      const created = await post("/api/v2/tasks", { data: { type: "tasks", attributes: { subject: "Bob's" }, relationships: { account_list: { data: { type: "account_lists", id: list } } } } }, bob.token);
      expect(created.status, created.text).toBe(201);
      bobsTasks.push(created.body.data.id);
    }
  });

  const stored = async () => ({
    person: (await db.select().from(schema.people).where(eq(schema.people.id, alicesPerson)))[0],
    emails: (await db.select().from(schema.emailAddresses).where(eq(schema.emailAddresses.personId, alicesPerson))).map((row) => row.email),
  });

  it("are not shown to him, nor taken as his to link, whatever asks", async () => {
    const before = await stored();
    expect(before.emails).toEqual(["alice.private@example.org"]);
    const listed = await get("/api/v2/tasks?include=user,comments,comments.person,account_list.users&per_page=100", bob.token);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((task: { id: string }) => task.id).sort()).toEqual([...bobsTasks].sort());
    expect(listed.text).not.toContain(alice.user.id);
    expect(listed.text).not.toContain(alicesPerson);
    // Her person as a comment's author, her user as a task's: not found.
    const comment = { data: { type: "comments", attributes: { body: "As Alice" }, relationships: { person: { data: { type: "people", id: alicesPerson } } } } };
    for (const task of bobsTasks) {
      expect(errorOf(await post(`/api/v2/tasks/${task}/comments`, comment, bob.token), 404).detail).toBe(`Couldn't find Person with 'id'=${alicesPerson}`);
      const assigned = await put(`/api/v2/tasks/${task}`, { data: { type: "tasks", id: task, attributes: { overwrite: true }, relationships: { user: { data: { type: "users", id: alice.user.id } } } } }, bob.token);
      expect(errorOf(assigned, 404).detail).toBe(`Couldn't find User with 'id'=${alice.user.id}`);
    }
    // The same through /batch and a background request.
    const batch = await request("POST", "/api/v2/batch", {
      token: bob.token,
      raw: true,
      body: { requests: [{ method: "POST", path: `/api/v2/tasks/${bobsTasks[1]}/comments`, body: comment }, { method: "GET", path: `/api/v2/tasks/${bobsTasks[1]}?include=comments.person,user` }] },
    });
    expect(batch.status).toBe(200);
    const [posted, read] = JSON.parse(batch.text);
    expect(posted.status).toBe(404);
    expect(read.status).toBe(200);
    expect(read.body).not.toContain(alicesPerson);
    const id = await runInBackground(bob.token, [{ path: `api/v2/tasks/${bobsTasks[1]}/comments`, request_method: "POST", request_body: JSON.stringify(comment) }]);
    const [background] = await db.select().from(schema.backgroundBatchRequests).where(eq(schema.backgroundBatchRequests.backgroundBatchId, id));
    expect(background.responseStatus).toBe(404);
    expect(await db.select().from(schema.comments).where(eq(schema.comments.personId, alicesPerson))).toEqual([]);
    expect(await stored()).toEqual(before);
  });
});
