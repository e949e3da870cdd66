/**
 * Coaching: a list's coaches as the web app's preferences page and mpdx-react read and remove them, the lists a
 * user coaches (/user/account_list_coaches, /coaching/account_lists), and who may see what.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { del, get } from "./helpers/api";
import { insertEmail } from "./helpers/contact-fixtures";
import { addToList, createAccountList, createUser, createViewer, db, timestamps, uuid } from "./helpers/factories";
import * as schema from "../drizzle/schema";
import { eq } from "drizzle-orm";

type Viewer = Awaited<ReturnType<typeof createViewer>>;

let alice: Viewer;
let bob: Viewer;
let coach: Awaited<ReturnType<typeof createUser>>;
let coachedSecond: { id: string };

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  const person = { id: uuid(), firstName: "Carol", lastName: "Coach", ...timestamps() };
  await db.insert(schema.people).values(person);
  coach = await createUser({ firstName: "Carol", lastName: "Coach", personId: person.id });
  await insertEmail(person.id, "carol@example.org", { primary: true });
  await addToList(alice.list.id, coach.id, "coach");
  coachedSecond = await createAccountList(bob.user, { name: "Bob's second" });
  await addToList(coachedSecond.id, coach.id, "coach");
});

describe("a list's coaches", () => {
  it("answers the web app's preferences request and mpdx-react's, verbatim", async () => {
    const web = await get(
      `/api/v2/account_lists/${alice.list.id}/coaches?include=email_addresses&fields[email_addresses]=email,primary&fields[users]=email_addresses,first_name,last_name`,
      alice.token,
    );
    expect(web.status, web.text).toBe(200);
    expect(web.body.data).toHaveLength(1);
    expect(web.body.data[0]).toMatchObject({ id: coach.id, type: "users", attributes: { first_name: "Carol", last_name: "Coach" } });
    expect(web.body.included.map((item: { attributes: Record<string, unknown> }) => item.attributes)).toEqual([{ email: "carol@example.org", primary: true }]);
    const react = await get(`/api/v2/account_lists/${alice.list.id}/coaches`, alice.token);
    expect(react.body.data[0].attributes).toMatchObject({ first_name: "Carol", last_name: "Coach", created_at: expect.any(String), updated_at: expect.any(String), updated_in_db_at: expect.any(String) });
    expect((await get(`/api/v2/account_lists/${alice.list.id}/coaches/${coach.id}`, coach.token)).status).toBe(200);
    expect((await get(`/api/v2/account_lists/${alice.list.id}/coaches`, bob.token)).status).toBe(403);
  });
});

describe("the lists a user coaches", () => {
  it("are their coachings, with the list included, as the Android app pages them", async () => {
    const answer = await get("/api/v2/user/account_list_coaches?include=account_list&page=1", coach.token);
    expect(answer.status, answer.text).toBe(200);
    const lists = answer.body.data.map((item: { relationships: { account_list: { data: { id: string } } } }) => item.relationships.account_list.data.id).sort();
    expect(lists).toEqual([alice.list.id, coachedSecond.id].sort());
    expect(answer.body.data[0]).toMatchObject({ type: "account_list_coaches", relationships: { coach: { data: { type: "users", id: coach.id } } } });
    expect(answer.body.data[0].attributes).toEqual({ created_at: expect.any(String), updated_at: expect.any(String), updated_in_db_at: expect.any(String) });
    expect(answer.body.included.map((item: { id: string }) => item.id).sort()).toEqual(lists);
    // Another user coaches nothing: theirs are empty, and a coaching is not someone else's to read.
    const none = await get("/api/v2/user/account_list_coaches", alice.token);
    expect(none.body.data).toEqual([]);
    expect((await get(`/api/v2/user/account_list_coaches/${answer.body.data[0].id}`, alice.token)).status).toBe(404);
  });

  it("are listed as account lists for the web app's coaching page, sorted by name", async () => {
    const answer = await get("/api/v2/coaching/account_lists?page=1&per_page=10&include=users&fields[users]=first_name,last_name,avatar&sort=name", coach.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.map((item: { id: string }) => item.id)).toEqual([coachedSecond.id, alice.list.id].sort((a, b) => (a === coachedSecond.id ? -1 : 1)));
    expect((await get(`/api/v2/coaching/account_lists/${alice.list.id}`, coach.token)).status).toBe(200);
    expect((await get("/api/v2/coaching/account_lists", alice.token)).body.data).toEqual([]);
  });

  it("ends when a user of the list removes the coach", async () => {
    expect((await del(`/api/v2/account_lists/${coachedSecond.id}/coaches/${coach.id}`, bob.token)).status).toBe(204);
    const rows = await db.select().from(schema.accountListCoaches).where(eq(schema.accountListCoaches.accountListId, coachedSecond.id));
    expect(rows).toEqual([]);
    const answer = await get("/api/v2/user/account_list_coaches", coach.token);
    expect(answer.body.data.map((item: { relationships: { account_list: { data: { id: string } } } }) => item.relationships.account_list.data.id)).toEqual([alice.list.id]);
  });
});
