/**
 * POST /contacts/merges/bulk and /contacts/merges: the clients' requests verbatim, what moves to the winner, what is
 * kept and deleted, the loser's deletion recorded and its webhook event; kept counts stay exact; who may merge;
 * bad input changes nothing; not inside /batch.
 */
import { userStrangerAndCoach } from "./helpers/team";
import { and, eq, inArray } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as schema from "../drizzle/schema";
import { errorOf, get, post, request } from "./helpers/api";
import {
  askInAppeal,
  givingTo,
  insertAddress,
  insertAppeal,
  insertContact,
  insertEmail,
  insertPerson,
  insertPledge,
  insertReferral,
  insertTags,
  insertTask,
  storedContact,
} from "./helpers/contact-fixtures";
import { createAccountList, createUser, createViewer, db, tokenFor, uuid } from "./helpers/factories";
import { expectCountsKept } from "./helpers/kept-sums";
import { endpointAt, eventsOf, Receiver } from "./helpers/webhook-receiver";

type Viewer = Awaited<ReturnType<typeof createViewer>>;

const bulk = (pairs: Array<[winner: string, loser: string]>, type = "contacts") => ({
  data: pairs.map(([winner, loser]) => ({ data: { type, attributes: { winner_id: winner, loser_id: loser } } })),
});
const mergeBulk = (body: unknown, token: string) => request("POST", "/api/v2/contacts/merges/bulk", { body, token, raw: true });

let alice: Viewer;
let bob: Viewer;
let coach: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  ({ owner: alice, stranger: bob, coach } = await userStrangerAndCoach());
});

afterEach(() => vi.restoreAllMocks());

describe("a contact merge", () => {
  it("moves the loser's records to the winner, keeps the winner's, deletes the loser and records it (the web app's request)", async () => {
    const receiver = new Receiver();
    await endpointAt(receiver, alice, ["contact.updated", "contact.deleted"]);
    const winner = await insertContact(alice.list.id, "Doe, John", { notes: "Met at church", status: "Ask in Future", sendNewsletter: "Email" });
    const loser = await insertContact(alice.list.id, "John Doe", { notes: "Likes coffee", status: "Partner - Financial", pledgeAmount: "50.0", greeting: "Johnny", sendNewsletter: "Physical" });
    // People: the loser's John is the winner's John (merged into him), its Jane moves.
    const john = await insertPerson(winner.id, "John", { lastName: "Doe" });
    const johnAgain = await insertPerson(loser.id, "john", { lastName: "doe" });
    const johnsEmail = await insertEmail(johnAgain.id, "john@example.org");
    const jane = await insertPerson(loser.id, "Jane", { lastName: "Doe" });
    // Tasks: one with a subject the winner has stays with the loser (and goes with it); the others move.
    await insertTask(alice.list.id, [winner.id], { subject: "Thank you call" });
    const sameSubject = await insertTask(alice.list.id, [loser.id], { subject: "Thank you call" });
    const moved = await insertTask(alice.list.id, [loser.id], { subject: "Send newsletter" });
    const shared = await insertTask(alice.list.id, [winner.id, loser.id], { subject: "Visit" });
    // Gifts: the loser's donor account (and so its gifts) moves.
    const giving = await givingTo(alice.list.id);
    await giving.give(loser.id, "25.0", "2026-03-01");
    await giving.give(winner.id, "10.0", "2026-02-01");
    const losersDonor = await giving.donorAccountOf(loser.id);
    // Addresses: the same place stays the winner's; another moves, not primary.
    await insertAddress(winner.id, { street: "1 Main St", city: "Springfield", primaryMailingAddress: true });
    await insertAddress(loser.id, { street: "1 main st", city: "SPRINGFIELD", primaryMailingAddress: true, source: "Import" });
    const elsewhere = await insertAddress(loser.id, { street: "9 Elm St", city: "Shelbyville", primaryMailingAddress: true });
    await insertTags(winner.id, ["friend"]);
    await insertTags(loser.id, ["friend", "donor"]);
    const appeal = await insertAppeal(alice.list.id, "Year end");
    await askInAppeal(appeal.id, loser.id);
    const pledge = await insertPledge(alice.list.id, loser.id, { appealId: appeal.id, amount: "75.0" });
    const referrer = await insertContact(alice.list.id, "Referrer, Ruth");
    await insertReferral(referrer.id, loser.id);

    // The web app sends the pair as the Tools merge screen does (src/contacts/contacts.service.ts#merge).
    const answer = await mergeBulk({ data: [{ data: { type: "contacts", attributes: { winner_id: winner.id, loser_id: loser.id } } }] }, alice.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/vnd\.api\+json/);
    expect(Array.isArray(answer.body)).toBe(true);
    expect(answer.body).toHaveLength(1);
    const document = answer.body[0];
    expect(document.data).toMatchObject({ id: winner.id, type: "contacts", attributes: { name: "Doe, John", status: "Partner - Financial", pledge_amount: "50.0", greeting: "Johnny", send_newsletter: "Both" } });
    expect(document.data.attributes.notes).toBe("Met at church\nLikes coffee");
    expect([...document.data.attributes.tag_list].sort()).toEqual(["donor", "friend"]);

    expect(await storedContact(loser.id)).toBeUndefined();
    const people = await db.select().from(schema.people).where(inArray(schema.people.id, [john.id, johnAgain.id, jane.id]));
    expect(people.map((person) => [person.id, person.contactId]).sort()).toEqual([[jane.id, winner.id], [john.id, winner.id]].sort());
    const [email] = await db.select().from(schema.emailAddresses).where(eq(schema.emailAddresses.id, johnsEmail.id));
    expect(email.personId).toBe(john.id);
    const links = await db.select().from(schema.activityContacts).where(inArray(schema.activityContacts.taskId, [sameSubject.id, moved.id, shared.id]));
    expect(links.map((link) => [link.taskId, link.contactId]).sort()).toEqual([[moved.id, winner.id], [shared.id, winner.id]].sort());
    const donorLinks = await db.select().from(schema.contactDonorAccounts).where(eq(schema.contactDonorAccounts.donorAccountId, losersDonor));
    expect(donorLinks.map((link) => link.contactId)).toEqual([winner.id]);
    const addresses = await db.select().from(schema.addresses).where(eq(schema.addresses.contactId, winner.id));
    expect(addresses.map((row) => [row.street, row.primaryMailingAddress, row.source]).sort()).toEqual([["1 Main St", true, "Import"], ["9 Elm St", false, null]]);
    expect(addresses.find((row) => row.id === elsewhere.id)).toBeDefined();
    const [membership] = await db.select().from(schema.appealContacts).where(eq(schema.appealContacts.appealId, appeal.id));
    expect(membership.contactId).toBe(winner.id);
    const [storedPledge] = await db.select().from(schema.pledges).where(eq(schema.pledges.id, pledge.id));
    expect(storedPledge.contactId).toBe(winner.id);
    const [referral] = await db.select().from(schema.contactReferrals).where(eq(schema.contactReferrals.referredById, referrer.id));
    expect(referral.referredToId).toBe(winner.id);

    // The loser's deletion and its merged person's, for offline clients; the winner's change and the loser's
    // deletion for the endpoint listening.
    const deletions = await db.select().from(schema.deletedRecords).where(inArray(schema.deletedRecords.deletableId, [loser.id, johnAgain.id]));
    expect(deletions.map((row) => [row.deletableId, row.deletableType, row.accountListId, row.deletedById]).sort()).toEqual(
      [[loser.id, "Contact", alice.list.id, alice.user.id], [johnAgain.id, "Person", alice.list.id, alice.user.id]].sort(),
    );
    const synced = await get(`/api/v2/deleted_records?filter[types]=Contact&per_page=500`, alice.token);
    expect(synced.body.data.map((row: { attributes: { deletable_id: string } }) => row.attributes.deletable_id)).toContain(loser.id);
    const events = await eventsOf(alice.list.id);
    expect(events.filter((event) => event.resourceId === loser.id).map((event) => event.eventType)).toEqual(["contact.deleted"]);
    expect(events.filter((event) => event.resourceId === winner.id).map((event) => event.eventType)).toEqual(["contact.updated"]);
    // The list's totals and counts follow: one contact fewer, the pledge counted once.
    await expectCountsKept();
  });

  it("makes the winner's donor accounts of one number one, and merges two pledges to one appeal, recomputing the status", async () => {
    const winner = await insertContact(alice.list.id, "Gray, Ada");
    const loser = await insertContact(alice.list.id, "Ada Gray");
    const spouse = await insertContact(alice.list.id, "Gray, Bob");
    // The loser gives through two donor accounts of one number (two organizations); both move, and are made one.
    const [first, second] = [await givingTo(alice.list.id), await givingTo(alice.list.id)];
    const [one, two] = [await first.donorAccountOf(loser.id, "D-200"), await second.donorAccountOf(loser.id, "D-200")];
    const [giftOne, giftTwo] = [await first.give(loser.id, "25.0", "2026-03-01"), await second.give(loser.id, "20.0", "2026-03-02")];
    // Another contact of the list linked to one of them follows it.
    await db.insert(schema.contactDonorAccounts).values({ id: uuid(), contactId: spouse.id, donorAccountId: two, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" });
    const winnersGift = await first.give(winner.id, "30.0", "2026-02-01");
    // Two pledges to one appeal: the gifts of both now cover the winner's amount, so it is processed.
    const appeal = await insertAppeal(alice.list.id, "Spring");
    const kept = await insertPledge(alice.list.id, winner.id, { appealId: appeal.id, amount: "50.0", status: "not_received" });
    const merged = await insertPledge(alice.list.id, loser.id, { appealId: appeal.id, amount: "40.0", status: "received_not_processed" });
    await db.insert(schema.pledgeDonations).values([{ pledgeId: kept.id, donationId: winnersGift.id }, { pledgeId: merged.id, donationId: giftOne.id }]);

    const answer = await mergeBulk(bulk([[winner.id, loser.id]]), alice.token);
    expect(answer.status, answer.text).toBe(200);

    const [oldest] = await db.select().from(schema.donorAccounts).where(inArray(schema.donorAccounts.id, [one, two])).orderBy(schema.donorAccounts.createdAt, schema.donorAccounts.id);
    const other = oldest.id === one ? two : one;
    const links = await db.select().from(schema.contactDonorAccounts).where(inArray(schema.contactDonorAccounts.donorAccountId, [one, two]));
    expect(links.map((link) => [link.contactId, link.donorAccountId]).sort()).toEqual([[winner.id, oldest.id], [spouse.id, oldest.id]].sort());
    const gifts = await db.select().from(schema.donations).where(inArray(schema.donations.id, [giftOne.id, giftTwo.id]));
    expect(gifts.map((gift) => gift.donorAccountId)).toEqual([oldest.id, oldest.id]);
    // The donor account itself is kept: it is shared with other lists.
    expect(await db.select().from(schema.donorAccounts).where(eq(schema.donorAccounts.id, other))).toHaveLength(1);

    const pledges = await db.select().from(schema.pledges).where(inArray(schema.pledges.id, [kept.id, merged.id]));
    expect(pledges.map((pledge) => [pledge.id, pledge.contactId, pledge.amount, pledge.status])).toEqual([[kept.id, winner.id, "50.0", "processed"]]);
    const pledgeGifts = await db.select().from(schema.pledgeDonations).where(eq(schema.pledgeDonations.pledgeId, kept.id));
    expect(pledgeGifts.map((row) => row.donationId).sort()).toEqual([winnersGift.id, giftOne.id].sort());
    await expectCountsKept();
  });

  it("keeps the further status of two merged pledges whose gifts do not cover the amount", async () => {
    const winner = await insertContact(alice.list.id, "Lee, Ann");
    const loser = await insertContact(alice.list.id, "Ann Lee");
    const appeal = await insertAppeal(alice.list.id, "Autumn");
    const kept = await insertPledge(alice.list.id, winner.id, { appealId: appeal.id, amount: "50.0", status: "not_received" });
    await insertPledge(alice.list.id, loser.id, { appealId: appeal.id, amount: "90.0", status: "received_not_processed" });
    expect((await mergeBulk(bulk([[winner.id, loser.id]]), alice.token)).status).toBe(200);
    const [pledge] = await db.select().from(schema.pledges).where(eq(schema.pledges.appealId, appeal.id));
    expect([pledge.id, pledge.amount, pledge.status]).toEqual([kept.id, "90.0", "received_not_processed"]);
  });

  it("takes mpdx-react's request (loser first) and several pairs, answering each; a pair of two lists is refused", async () => {
    const second = await createAccountList(alice.user);
    const winner = await insertContact(alice.list.id, "Kay, Lin");
    const [first, again] = [await insertContact(alice.list.id, "Lin Kay"), await insertContact(alice.list.id, "Kay, Lin and Al")];
    const otherList = await insertContact(second.id, "Kay, Lin");
    // The first pair's loser named again is gone by then.
    const body = {
      data: [
        { data: { type: "contacts", attributes: { loser_id: first.id, winner_id: winner.id } } },
        { data: { type: "contacts", attributes: { loser_id: again.id, winner_id: winner.id } } },
        { data: { type: "contacts", attributes: { loser_id: otherList.id, winner_id: winner.id } } },
        { data: { type: "contacts", attributes: { loser_id: first.id, winner_id: winner.id } } },
      ],
    };
    const answer = await mergeBulk(body, alice.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body[0].data.id).toBe(winner.id);
    expect(answer.body[1].data.id).toBe(winner.id);
    expect(answer.body[2]).toMatchObject({ id: winner.id, errors: [{ status: "409" }] });
    expect(answer.body[3]).toMatchObject({ id: winner.id, errors: [{ status: "404" }] });
    expect(await storedContact(first.id)).toBeUndefined();
    expect(await storedContact(again.id)).toBeUndefined();
    expect(await storedContact(otherList.id)).toBeDefined();
  });

  it("answers a bad pair among good ones on its own and stores nothing for it, while the others merge", async () => {
    const receiver = new Receiver();
    await endpointAt(receiver, alice, ["contact.updated", "contact.deleted"]);
    const second = await createAccountList(alice.user);
    const [winner, loser, other, otherLoser] = await Promise.all(["Bad, Bea", "Bea Bad", "Good, Gil", "Gil Good"].map((name) => insertContact(alice.list.id, name)));
    const elsewhere = await insertContact(second.id, "Bad, Bea");
    const keptPerson = await insertPerson(elsewhere.id, "Bea");
    await insertTask(alice.list.id, [winner.id], { subject: "Stays" });
    const nowhere = uuid();
    const answer = await mergeBulk(
      bulk([
        [winner.id, loser.id],
        [winner.id, nowhere],
        [winner.id, elsewhere.id],
        [other.id, otherLoser.id],
        [other.id, loser.id],
      ]),
      alice.token,
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body[0].data.id).toBe(winner.id);
    expect(answer.body[1]).toMatchObject({ id: winner.id, errors: [{ status: "404", detail: `Couldn't find Contact with 'id'=${nowhere}` }] });
    expect(answer.body[2]).toMatchObject({ id: winner.id, errors: [{ status: "409", detail: "The two contacts are in different account lists" }] });
    expect(answer.body[3].data.id).toBe(other.id);
    expect(answer.body[4]).toMatchObject({ id: other.id, errors: [{ status: "404", detail: `Couldn't find Contact with 'id'=${loser.id}` }] });
    expect(await storedContact(loser.id)).toBeUndefined();
    expect(await storedContact(otherLoser.id)).toBeUndefined();
    // The refused pair's records are as they were: the loser of another list, its person, its name.
    expect(await storedContact(elsewhere.id)).toMatchObject({ name: "Bad, Bea" });
    const [person] = await db.select().from(schema.people).where(eq(schema.people.id, keptPerson.id));
    expect(person.contactId).toBe(elsewhere.id);
    const deletions = await db.select().from(schema.deletedRecords).where(inArray(schema.deletedRecords.deletableId, [loser.id, otherLoser.id, elsewhere.id, nowhere, keptPerson.id]));
    expect(deletions.map((row) => row.deletableId).sort()).toEqual([loser.id, otherLoser.id].sort());
    const events = await eventsOf(alice.list.id);
    expect(events.filter((event) => [loser.id, otherLoser.id].includes(event.resourceId)).map((event) => event.eventType)).toEqual(["contact.deleted", "contact.deleted"]);
    expect(events.filter((event) => event.resourceId === winner.id).map((event) => event.eventType)).toEqual(["contact.updated"]);
    expect((await eventsOf(second.id)).filter((event) => event.resourceId === elsewhere.id)).toEqual([]);
    // The single route answers its pair's own status.
    const refused = await post("/api/v2/contacts/merges", { data: { type: "merges", attributes: { winner_id: winner.id, loser_id: elsewhere.id } } }, alice.token);
    expect(errorOf(refused, 409).detail).toBe("The two contacts are in different account lists");
    expect(errorOf(await post("/api/v2/contacts/merges", { data: { type: "merges", attributes: { winner_id: nowhere, loser_id: winner.id } } }, alice.token), 404).detail).toBe(`Couldn't find Contact with 'id'=${nowhere}`);
    await expectCountsKept();
  });

  it("merges several of the loser's people of one name into the winner's oldest of that name, in the order they were made", async () => {
    const yearsAgo = (years: number) => new Date(Date.now() - years * 365 * 86_400_000).toISOString();
    const winner = await insertContact(alice.list.id, "Hart, Hal");
    const loser = await insertContact(alice.list.id, "Hal Hart");
    const oldest = await insertPerson(winner.id, "Hal", { lastName: "Hart", createdAt: yearsAgo(4) });
    const younger = await insertPerson(winner.id, "hal", { lastName: "HART", createdAt: yearsAgo(3), title: "Dr" });
    const first = await insertPerson(loser.id, " HAL", { lastName: "hart", createdAt: yearsAgo(2), middleName: "  ", gender: "male" });
    const second = await insertPerson(loser.id, "Hal ", { lastName: "Hart", createdAt: yearsAgo(1), middleName: "Q", gender: "female", suffix: "Jr" });
    const josé = await insertPerson(loser.id, "JOSÉ", { lastName: "Hart" });
    const josés = await insertPerson(winner.id, "josé", { lastName: "hart" });
    await insertEmail(first.id, "hal@example.org", { primary: true });
    await insertEmail(second.id, "HAL@example.org", { primary: true });
    await insertEmail(second.id, "hal.hart@example.org", { primary: true });
    expect((await mergeBulk(bulk([[winner.id, loser.id]]), alice.token)).status).toBe(200);

    const people = await db.select().from(schema.people).where(inArray(schema.people.id, [oldest.id, younger.id, first.id, second.id, josé.id, josés.id]));
    expect(people.map((row) => row.id).sort()).toEqual([oldest.id, younger.id, josés.id].sort());
    const kept = people.find((row) => row.id === oldest.id)!;
    // The first merge fills the middle name with its blank, the second with "Q"; the gender is the first's.
    expect([kept.middleName, kept.gender, kept.suffix, kept.title]).toEqual(["Q", "male", "Jr", null]);
    const emails = await db.select().from(schema.emailAddresses).where(eq(schema.emailAddresses.personId, oldest.id));
    expect(emails.map((row) => [row.email, row.primary]).sort()).toEqual([["hal.hart@example.org", false], ["hal@example.org", true]]);
    const deletions = await db.select().from(schema.deletedRecords).where(inArray(schema.deletedRecords.deletableId, [first.id, second.id, josé.id]));
    expect(deletions).toHaveLength(3);
  });

  it("merges by the single route, answering the winner", async () => {
    const winner = await insertContact(alice.list.id, "Single, Sid");
    const loser = await insertContact(alice.list.id, "Sid Single", { website: "https://sid.example.org" });
    const answer = await post("/api/v2/contacts/merges?fields[merges]=name,website", { data: { type: "merges", attributes: { winner_id: winner.id, loser_id: loser.id } } }, alice.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toMatchObject({ id: winner.id, type: "contacts", attributes: { website: "https://sid.example.org" } });
    expect(await storedContact(loser.id)).toBeUndefined();
  });

  it("is the list users' alone: coaches and strangers find nothing (404), bad input is 400, nothing changes", async () => {
    const winner = await insertContact(alice.list.id, "Guard, Gus");
    const loser = await insertContact(alice.list.id, "Gus Guard");
    for (const token of [coach.token, bob.token]) {
      const refused = await mergeBulk(bulk([[winner.id, loser.id]]), token);
      expect(errorOf(refused, 404).detail).toMatch(/^Couldn't find Contact/);
    }
    const cases: Array<[unknown, string]> = [
      [{ data: { type: "contacts" } }, "/data"],
      [{ data: [] }, "/data"],
      [bulk([[winner.id, "not-an-id"]]), "/data/0/data/attributes/loser_id"],
      [{ data: [{ data: { type: "contacts", attributes: { loser_id: loser.id } } }] }, "/data/0/data/attributes/winner_id"],
      [bulk([[winner.id, loser.id], [winner.id, winner.id]]), "/data/1/data/attributes/loser_id"],
    ];
    for (const [body, pointer] of cases) {
      const refused = await mergeBulk(body, alice.token);
      expect(errorOf(refused, 400).source, JSON.stringify(body)).toEqual({ pointer });
    }
    expect((await mergeBulk("not json", alice.token)).status).toBe(400);
    const inBatch = await post("/api/v2/batch", { requests: [{ method: "POST", path: "/api/v2/contacts/merges/bulk", body: bulk([[winner.id, loser.id]]) }] }, alice.token, { raw: true });
    expect(inBatch.status, inBatch.text).toBe(200);
    expect(inBatch.body[0].status).toBe(403);
    expect(await storedContact(loser.id)).toBeDefined();
    const deletions = await db.select().from(schema.deletedRecords).where(and(eq(schema.deletedRecords.deletableId, loser.id)));
    expect(deletions).toEqual([]);
    expect((await mergeBulk(bulk([[winner.id, loser.id]]), await tokenFor(uuid()))).status).toBe(401);
  });
});
