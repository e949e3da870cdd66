/**
 * POST /contacts/people/merges/bulk and /contacts/<id>/people/merges: the web app's request, what moves to the
 * winning person, what is kept and deleted, and who may merge.
 */
import { userStrangerAndCoach } from "./helpers/team";
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { errorOf, post, request } from "./helpers/api";
import { insertContact, insertEmail, insertFacebook, insertPerson, insertPhone } from "./helpers/contact-fixtures";
import { createUser, createViewer, db } from "./helpers/factories";

type Viewer = Awaited<ReturnType<typeof createViewer>>;

const bulk = (pairs: Array<[winner: string, loser: string]>) => ({
  data: pairs.map(([winner, loser]) => ({ data: { type: "people", attributes: { winner_id: winner, loser_id: loser } } })),
});
const mergePeople = (body: unknown, token: string) => request("POST", "/api/v2/contacts/people/merges/bulk", { body, token, raw: true });
const person = async (id: string) => (await db.select().from(schema.people).where(eq(schema.people.id, id)))[0];

let alice: Viewer;
let bob: Viewer;
let coach: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  ({ owner: alice, stranger: bob, coach } = await userStrangerAndCoach());
});

describe("a person merge", () => {
  it("moves the loser's details to the winner, fills the winner's blanks, deletes the loser (the web app's request)", async () => {
    const contact = await insertContact(alice.list.id, "Reed, Ann");
    const winner = await insertPerson(contact.id, "Ann", { lastName: "Reed" });
    const loser = await insertPerson(contact.id, "Annie", { lastName: "Reed", birthdayMonth: 4, birthdayDay: 2, gender: "female" });
    await insertEmail(winner.id, "ann@example.org", { primary: true });
    const sameEmail = await insertEmail(loser.id, "ANN@example.org ", { primary: true });
    const newEmail = await insertEmail(loser.id, "annie@example.org", { primary: true });
    await insertPhone(winner.id, "(555) 010-0100", "mobile");
    const samePhone = await insertPhone(loser.id, "555-010-0100", "home");
    const newPhone = await insertPhone(loser.id, "555 010 0199", "work");
    await insertFacebook(loser.id, "annie.reed");

    // The web app's Merge People tool (src/contacts/show/people/people.service.ts#bulkMerge).
    const answer = await mergePeople({ data: [{ data: { type: "people", attributes: { winner_id: winner.id, loser_id: loser.id } } }] }, alice.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toHaveLength(1);
    expect(answer.body[0].data).toMatchObject({ id: winner.id, type: "people", attributes: { first_name: "Ann", last_name: "Reed", birthday_month: 4, birthday_day: 2, gender: "female" } });
    expect(await person(loser.id)).toBeUndefined();
    const emails = await db.select().from(schema.emailAddresses).where(inArray(schema.emailAddresses.id, [sameEmail.id, newEmail.id]));
    expect(emails.map((row) => [row.id, row.personId, row.primary])).toEqual([[newEmail.id, winner.id, false]]);
    const phones = await db.select().from(schema.phoneNumbers).where(inArray(schema.phoneNumbers.id, [samePhone.id, newPhone.id]));
    expect(phones.map((row) => [row.id, row.personId])).toEqual([[newPhone.id, winner.id]]);
    const facebook = await db.select().from(schema.facebookAccounts).where(eq(schema.facebookAccounts.personId, winner.id));
    expect(facebook.map((row) => row.username)).toEqual(["annie.reed"]);
    const [deletion] = await db.select().from(schema.deletedRecords).where(eq(schema.deletedRecords.deletableId, loser.id));
    expect(deletion).toMatchObject({ deletableType: "Person", accountListId: alice.list.id, deletedFromId: alice.list.id, deletedById: alice.user.id });
  });

  it("merges only people of one contact; the single route under the contact answers the winner", async () => {
    const contact = await insertContact(alice.list.id, "Cole, Max");
    const other = await insertContact(alice.list.id, "Cole, Maxine");
    const [max, maxAgain, elsewhere] = [await insertPerson(contact.id, "Max"), await insertPerson(contact.id, "Max", { middleName: "J" }), await insertPerson(other.id, "Max")];
    // No pair left to merge: 404, as the original answers.
    expect(errorOf(await mergePeople(bulk([[max.id, elsewhere.id]]), alice.token), 404).detail).toMatch(/^Couldn't find Person/);
    expect(await person(elsewhere.id)).toBeDefined();
    const refusedSingle = await post(`/api/v2/contacts/${contact.id}/people/merges`, { data: { type: "merges", attributes: { winner_id: max.id, loser_id: elsewhere.id } } }, alice.token);
    expect(refusedSingle.status).toBe(404);

    const single = await post(`/api/v2/contacts/${contact.id}/people/merges`, { data: { type: "merges", attributes: { winner_id: max.id, loser_id: maxAgain.id } } }, alice.token);
    expect(single.status, single.text).toBe(200);
    expect(single.body.data).toMatchObject({ id: max.id, type: "people", attributes: { middle_name: "J" } });
    // Under another contact, these people are not there.
    const third = await insertPerson(contact.id, "Max");
    const wrongContact = await post(`/api/v2/contacts/${other.id}/people/merges`, { data: { type: "merges", attributes: { winner_id: max.id, loser_id: third.id } } }, alice.token);
    expect(wrongContact.status).toBe(404);
    expect(await person(third.id)).toBeDefined();
  });

  it("is refused to coaches and strangers (404) and bad input (400); nothing changes", async () => {
    const contact = await insertContact(alice.list.id, "Hale, Bo");
    const [winner, loser] = [await insertPerson(contact.id, "Bo"), await insertPerson(contact.id, "Bo")];
    for (const token of [coach.token, bob.token]) expect(errorOf(await mergePeople(bulk([[winner.id, loser.id]]), token), 404).detail).toMatch(/^Couldn't find Person/);
    expect(errorOf(await mergePeople(bulk([[winner.id, "x"]]), alice.token), 400).source).toEqual({ pointer: "/data/0/data/attributes/loser_id" });
    expect((await post(`/api/v2/contacts/${contact.id}/people/merges`, { data: { type: "merges", attributes: { winner_id: winner.id, loser_id: loser.id } } }, bob.token)).status).toBe(404);
    expect(await person(loser.id)).toBeDefined();
  });
});
