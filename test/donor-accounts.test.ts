/**
 * /account_lists/<id>/donor_accounts: the donor accounts of the list's contacts, as the donation pickers search them
 * and the Android app syncs them; who may read them.
 */
import { userStrangerAndCoach } from "./helpers/team";
import { beforeAll, describe, expect, it } from "vitest";
import { errorOf, get } from "./helpers/api";
import { givingTo, insertContact } from "./helpers/contact-fixtures";
import { createUser, createViewer, db, uuid } from "./helpers/factories";
import * as schema from "../drizzle/schema";
import { eq } from "drizzle-orm";

type Viewer = Awaited<ReturnType<typeof createViewer>>;
const path = (listId: string) => `/api/v2/account_lists/${listId}/donor_accounts`;

let alice: Viewer;
let bob: Viewer;
let coach: Awaited<ReturnType<typeof createUser>>;
let john: { id: string };
let johnsAccount: string;
let nameless: string;
let bobsAccount: string;
const number = `7${uuid().slice(0, 5)}`;

beforeAll(async () => {
  ({ owner: alice, stranger: bob, coach } = await userStrangerAndCoach());
  john = await insertContact(alice.list.id, "Doe, John");
  const named = await insertContact(alice.list.id, "Roe, Mary");
  const giving = await givingTo(alice.list.id);
  johnsAccount = await giving.donorAccountOf(john.id, number);
  await giving.give(john.id, "25.0", "2026-02-01");
  await giving.give(john.id, "10.5", "2026-05-01");
  // An account whose contact's name already holds its number.
  nameless = await giving.donorAccountOf(named.id, "Roe");
  const bobs = await insertContact(bob.list.id, "Doe, Jim");
  bobsAccount = await (await givingTo(bob.list.id)).donorAccountOf(bobs.id);
  await db.update(schema.donorAccounts).set({ name: "Doe household" }).where(eq(schema.donorAccounts.id, johnsAccount));
});

describe("a list's donor accounts", () => {
  it("answers the donation picker's search verbatim", async () => {
    // The web app's donorAccounts.service.ts and mpdx-react's getAccountListDonorAccounts.
    const answer = await get(`${path(alice.list.id)}?filter[wildcard_search]=doe&fields[donor_accounts]=display_name,account_number&per_page=6`, alice.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toEqual([{ id: johnsAccount, type: "donor_accounts", attributes: { display_name: `Doe, John (${number})`, account_number: number } }]);
    const byNumber = await get(`${path(alice.list.id)}?filter[wildcard_search]=${number}&fields[donor_accounts]=display_name`, alice.token);
    expect(byNumber.body.data.map((item: { id: string }) => item.id)).toEqual([johnsAccount]);
  });

  it("answers the Android app's sync, every field it reads, each account once", async () => {
    const answer = await get(`${path(alice.list.id)}?page=1`, alice.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.map((item: { id: string }) => item.id).sort()).toEqual([johnsAccount, nameless].sort());
    const johns = answer.body.data.find((item: { id: string }) => item.id === johnsAccount);
    expect(johns.attributes).toMatchObject({
      account_number: number,
      donor_type: null,
      first_donation_date: "2026-02-01",
      last_donation_date: "2026-05-01",
      total_donations: "35.5",
      display_name: `Doe, John (${number})`,
    });
    expect(Object.keys(johns.attributes)).toEqual(expect.arrayContaining(["created_at", "updated_at", "updated_in_db_at"]));
    expect(johns.relationships.contacts.data).toEqual([{ type: "contacts", id: john.id }]);
    const roes = answer.body.data.find((item: { id: string }) => item.id === nameless);
    expect(roes.attributes).toMatchObject({ display_name: "Roe, Mary", total_donations: "0.0", first_donation_date: null });
    expect(answer.body.meta.pagination).toMatchObject({ total_count: 2, page: 1 });
    const filtered = await get(`${path(alice.list.id)}?filter[contacts]=${john.id}`, alice.token);
    expect(filtered.body.data.map((item: { id: string }) => item.id)).toEqual([johnsAccount]);
  });

  it("shows one by id to the list's users and coaches; another list's account is not there", async () => {
    const shown = await get(`${path(alice.list.id)}/${johnsAccount}`, coach.token);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.data.attributes.total_donations).toBe("35.5");
    expect(errorOf(await get(`${path(alice.list.id)}/${bobsAccount}`, alice.token), 404).detail).toBe(`Couldn't find DonorAccount with 'id'=${bobsAccount}`);
    expect((await get(path(alice.list.id), bob.token)).status).toBe(403);
    expect((await get(path(uuid()), alice.token)).status).toBe(404);
  });
});
