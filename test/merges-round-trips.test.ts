/**
 * A merge is one D1 round trip on each database holding the viewer's lists, whatever it moves: the pairs are judged,
 * merged (people merged by name with them) and the winners read back in one atomic batch.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { givingTo, insertContact, insertEmail, insertPerson, insertTask, storedContact } from "./helpers/contact-fixtures";
import { withD1Counts } from "./helpers/d1-counts";
import { createViewer } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;

beforeAll(async () => {
  alice = await createViewer();
});

const pair = (type: string, winner: string, loser: string) => ({ data: { type, attributes: { winner_id: winner, loser_id: loser } } });

describe("the round trips of a merge", () => {
  it("are one batch on each database of the viewer's lists, for contacts with tasks, gifts and people of one name", async () => {
    const [winner, loser] = [await insertContact(alice.list.id, "Trip, Tom"), await insertContact(alice.list.id, "Tom Trip")];
    const giving = await givingTo(alice.list.id);
    for (const contact of [winner, loser]) {
      for (let n = 0; n < 12; n++) await insertTask(alice.list.id, [contact.id], { subject: `${contact.id} task ${n}` });
      for (let n = 0; n < 4; n++) await giving.give(contact.id, "10.0", `2026-01-0${n + 1}`);
    }
    const tom = await insertPerson(winner.id, "Tom", { lastName: "Trip" });
    const again = await insertPerson(loser.id, "TOM", { lastName: "trip" });
    await insertEmail(again.id, "tom@example.org");

    // What the request costs before it reaches D1 (the viewer, read for each request here): a refused body.
    const refused = await withD1Counts("POST", "/api/v2/contacts/merges/bulk", alice.token, { data: [] });
    expect(refused.status).toBe(400);
    const merged = await withD1Counts("POST", "/api/v2/contacts/merges/bulk", alice.token, { data: [pair("contacts", winner.id, loser.id)] });
    expect(merged.status, merged.text).toBe(200);
    expect(JSON.parse(merged.text)[0].data.id).toBe(winner.id);
    // Alice's one list is on one database, in every layout.
    const databases = 1;
    expect(merged.roundTrips - refused.roundTrips).toBe(databases);
    expect(merged.criticalPath - refused.criticalPath).toBe(1);
    expect(await storedContact(loser.id)).toBeUndefined();

    // People, by the bulk route and the single one under their contact: the same.
    const [ann, annAgain, annThird] = [await insertPerson(winner.id, "Ann"), await insertPerson(winner.id, "Ann"), await insertPerson(winner.id, "Ann")];
    const people = await withD1Counts("POST", "/api/v2/contacts/people/merges/bulk", alice.token, { data: [pair("people", ann.id, annAgain.id)] });
    expect(people.status, people.text).toBe(200);
    expect(people.roundTrips - refused.roundTrips).toBe(databases);
    const single = await withD1Counts("POST", `/api/v2/contacts/${winner.id}/people/merges`, alice.token, pair("merges", ann.id, annThird.id));
    expect(single.status, single.text).toBe(200);
    expect(single.criticalPath - refused.criticalPath).toBe(1);
    expect(tom.id).toBeDefined();
  });
});
