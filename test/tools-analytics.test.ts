/**
 * GET /api/v2/tools/analytics: the Tools menu's counts per list, as the web app asks for them
 * (tools.service: `tools/analytics` with filter[account_list_id]).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { errorOf, get, request } from "./helpers/api";
import { insertAddress, insertContact, insertEmail, insertPerson, insertPhone } from "./helpers/contact-fixtures";
import { createAccountList, createViewer } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
let aliceSecond: { id: string };

const countsOf = (entry: { counts: Array<{ type: string; count: number }> }) => Object.fromEntries(entry.counts.map(({ type, count }) => [type, count]));

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  aliceSecond = await createAccountList(alice.user);
  const list = alice.list.id;
  // Commitment to check, and an address marked invalid; both partners get the newsletter.
  await insertContact(list, "Check, Commitment", { status: "Partner - Financial", statusValid: false, sendNewsletter: "Email" });
  const moved = await insertContact(list, "Moved, Maybe", { status: "Partner - Pray", sendNewsletter: "Physical" });
  await insertAddress(moved.id, { street: "1 Old Rd", valid: false });
  // Partners without a newsletter choice (one of them hidden: not counted).
  await insertContact(list, "Nothing, Chosen", { status: "Partner - Special" });
  await insertContact(list, "Gone, Away", { status: "Never Contacted" });
  await insertContact(list, "Hidden, Partner", { status: "Not Interested", statusValid: false });
  // Details to fix: an invalid e-mail address, two primary phone numbers.
  const family = await insertContact(list, "Family, The", { status: "Friend" });
  const ann = await insertPerson(family.id, "Ann", { lastName: "Family", gender: "female" });
  await insertEmail(ann.id, "ann@@example", { valid: false });
  await insertPhone(ann.id, "+1 555 0100", "mobile", { primary: true });
  await insertPhone(ann.id, "+1 555 0101", "home", { primary: true });
  // Duplicates: two contacts of one name; in one contact, Ann twice (a name and a number shared).
  await insertContact(list, "Smith, Joe", { status: "Friend" });
  await insertContact(list, " smith, joe ", { status: "Friend" });
  const annAgain = await insertPerson(family.id, "ann", { lastName: "family", gender: "female" });
  await insertPhone(annAgain.id, "(1) 555-0100", "mobile");
  const bo = await insertPerson(family.id, "Bo", { lastName: "Family", gender: "male" });
  await insertPhone(bo.id, "15550100", "mobile");
  // Bob's list: counted for Bob alone.
  await insertContact(bob.list.id, "Check, Bob", { status: "Partner - Financial", statusValid: false });
});

describe("GET /api/v2/tools/analytics", () => {
  it("counts each list's fix-ups and duplicate pairs, as the web app asks", async () => {
    const answer = await get(`/api/v2/tools/analytics?filter%5Baccount_list_id%5D=${alice.list.id}`, alice.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.type).toBe("tools_analytics");
    const [entry, ...others] = answer.body.data.attributes.counts_by_type;
    expect(others).toEqual([]);
    expect(entry.id).toBe(alice.list.id);
    expect(entry.counts.map((count: { type: string }) => count.type)).toEqual([
      "fix-commitment-info",
      "fix-phone-numbers",
      "fix-email-addresses",
      "fix-addresses",
      "fix-send-newsletter",
      "duplicate-contacts",
      "duplicate-people",
    ]);
    expect(countsOf(entry)).toEqual({
      "fix-commitment-info": 1,
      "fix-phone-numbers": 1,
      "fix-email-addresses": 1,
      "fix-addresses": 1,
      "fix-send-newsletter": 1,
      "duplicate-contacts": 1,
      // Ann and ann (name and number); Bo shares the number, but not Ann's gender.
      "duplicate-people": 1,
    });

    // The same counts as the pages list: the contacts list under the fix-up filters.
    const commitments = await get(`/api/v2/contacts?filter%5Baccount_list_id%5D=${alice.list.id}&filter%5Bstatus_valid%5D=false&per_page=0`, alice.token);
    expect(commitments.body.meta.pagination.total_count).toBe(1);
  });

  it("covers every list of the viewer's without a filter, as POST with X-HTTP-Method-Override too, and refuses another user's list", async () => {
    const all = await request("POST", "/api/v2/tools/analytics", { token: alice.token, body: { data: { type: "analytics" } }, headers: { "X-HTTP-Method-Override": "GET" } });
    expect(all.status, all.text).toBe(200);
    const entries = all.body.data.attributes.counts_by_type as Array<{ id: string; counts: Array<{ type: string; count: number }> }>;
    expect(entries.map((entry) => entry.id).sort()).toEqual([alice.list.id, aliceSecond.id].sort());
    expect(Object.values(countsOf(entries.find((entry) => entry.id === aliceSecond.id)!))).toEqual([0, 0, 0, 0, 0, 0, 0]);
    const bobs = await get("/api/v2/tools/analytics", bob.token);
    expect(countsOf(bobs.body.data.attributes.counts_by_type[0])["fix-commitment-info"]).toBe(1);

    errorOf(await get(`/api/v2/tools/analytics?filter%5Baccount_list_id%5D=${bob.list.id}`, alice.token), 404);
    errorOf(await get("/api/v2/tools/analytics", null), 401);
  });
});
