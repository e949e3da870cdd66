/**
 * Contact filters on the records around a contact: addresses, people and their details, appeals and pledges,
 * referrals and tasks. Each test has its own account list.
 */
import { describe, expect, it } from "vitest";
import { errorOf, get, post, request } from "./helpers/api";
import { createViewer, uuid } from "./helpers/factories";
import {
  askInAppeal,
  excludeFromAppeal,
  expectFilter,
  insertAddress,
  insertAppeal,
  insertContact,
  insertEmail,
  insertFacebook,
  insertPerson,
  insertPhone,
  insertPledge,
  insertReferral,
  insertTags,
  insertTask,
  listedNames,
} from "./helpers/contact-fixtures";

const CONTACTS = "/api/v2/contacts";

describe("addresses", () => {
  it("city, state, region, metro_area and country look at current addresses; none; address_historic switches to past ones", async () => {
    const { list, token } = await createViewer();
    const a = await insertContact(list.id, "Place, Orlando");
    const b = await insertContact(list.id, "Place, Berlin");
    const c = await insertContact(list.id, "Place, Moved");
    await insertContact(list.id, "Place, Nowhere");
    await insertAddress(a.id, { city: "Orlando", state: "FL", region: "Southeast", metroArea: "Orlando Metro", country: "United States" });
    await insertAddress(b.id, { city: "Berlin", state: "", region: "Europe", metroArea: "Berlin Metro", country: "Germany" });
    await insertAddress(c.id, { city: "Orlando", state: "FL", country: "United States", historic: true });
    await insertAddress(c.id, { city: "", country: "Canada" });
    await expectFilter(token, "filter[city]=Orlando", ["Place, Orlando"]);
    await expectFilter(token, "filter[city]=Berlin,none", ["Place, Berlin", "Place, Moved", "Place, Nowhere"]);
    await expectFilter(token, "filter[state]=FL", ["Place, Orlando"]);
    await expectFilter(token, "filter[state]=none", ["Place, Berlin", "Place, Moved", "Place, Nowhere"]);
    await expectFilter(token, "filter[region]=Europe", ["Place, Berlin"]);
    await expectFilter(token, "filter[metro_area]=Orlando Metro,Berlin Metro", ["Place, Berlin", "Place, Orlando"]);
    await expectFilter(token, "filter[country]=Canada,Germany", ["Place, Berlin", "Place, Moved"]);
    expect(await listedNames(token, "filter[city]=Orlando&filter[address_historic]=true")).toEqual(["Place, Moved"]);
    await expectFilter(token, "filter[address_historic]=true", ["Place, Moved"]);
    await expectFilter(token, "filter[address_historic]=false", ["Place, Berlin", "Place, Moved", "Place, Orlando"]);
  });

  it("address_valid=false, primary_address and address_lat_lng", async () => {
    const { list, token } = await createViewer();
    const invalid = await insertContact(list.id, "Addr, Invalid");
    const twoPrimaries = await insertContact(list.id, "Addr, TwoPrimaries");
    const good = await insertContact(list.id, "Addr, Good");
    const old = await insertContact(list.id, "Addr, OnlyOld");
    await insertContact(list.id, "Addr, None");
    await insertAddress(invalid.id, { valid: false, latitude: 28.5, longitude: -81.4 });
    await insertAddress(twoPrimaries.id, { primaryMailingAddress: true, latitude: 52.5, longitude: 13.4 });
    await insertAddress(twoPrimaries.id, { primaryMailingAddress: true, latitude: -33.9, longitude: 151.2 });
    await insertAddress(good.id, { primaryMailingAddress: true, latitude: 35.7, longitude: 139.7 });
    await insertAddress(old.id, { historic: true, primaryMailingAddress: true, latitude: 28.6, longitude: -81.3 });
    await expectFilter(token, "filter[address_valid]=false", ["Addr, Invalid", "Addr, TwoPrimaries"]);
    expect(await listedNames(token, "filter[address_valid]=true")).toHaveLength(5);
    await expectFilter(token, "filter[primary_address]=primary", ["Addr, Good", "Addr, TwoPrimaries"]);
    await expectFilter(token, "filter[primary_address]=active", ["Addr, Good", "Addr, Invalid", "Addr, TwoPrimaries"]);
    await expectFilter(token, "filter[primary_address]=inactive", ["Addr, OnlyOld"]);
    await expectFilter(token, "filter[primary_address]=primary,inactive", ["Addr, Good", "Addr, OnlyOld", "Addr, TwoPrimaries"]);
    expect(await listedNames(token, "filter[primary_address]=primary,null")).toHaveLength(5);
    // Florida (the past address does not count), as an object, as JSON text and as four numbers.
    const box = "filter[address_lat_lng][ne][lat]=30&filter[address_lat_lng][ne][lng]=-80&filter[address_lat_lng][sw][lat]=25&filter[address_lat_lng][sw][lng]=-85";
    await expectFilter(token, box, ["Addr, Invalid"]);
    await expectFilter(token, `filter[address_lat_lng]=${encodeURIComponent(JSON.stringify({ ne: { lat: 60, lng: 20 }, sw: { lat: 50, lng: 10 } }))}`, ["Addr, TwoPrimaries"]);
    await expectFilter(token, "filter[address_lat_lng]=40,-170,-40,130", ["Addr, Good", "Addr, TwoPrimaries"]);
    const bad = errorOf(await get(`${CONTACTS}?filter[address_lat_lng]=north`, token), 400);
    expect(bad).toMatchObject({ detail: "Filter 'address_lat_lng' must give ne and sw corners, each with lat and lng", source: { parameter: "filter[address_lat_lng]" } });
  });
});

describe("people and their contact details", () => {
  it("contact_info_* filters answer Yes or No about current details; opt_out", async () => {
    const { list, token } = await createViewer();
    const full = await insertContact(list.id, "Info, Full");
    const partial = await insertContact(list.id, "Info, Partial");
    const old = await insertContact(list.id, "Info, Old");
    await insertContact(list.id, "Info, Nothing");
    const fullPerson = await insertPerson(full.id, "Full", { optoutEnewsletter: true });
    await insertEmail(fullPerson.id, "full@example.org");
    await insertPhone(fullPerson.id, "555-0100", "mobile");
    await insertPhone(fullPerson.id, "555-0101", "home");
    await insertPhone(fullPerson.id, "555-0102", "work");
    await insertFacebook(fullPerson.id);
    await insertAddress(full.id, { city: "Here" });
    await insertPerson(partial.id, "First");
    const partialSpouse = await insertPerson(partial.id, "Second");
    await insertPhone(partialSpouse.id, "555-0200", "Mobile");
    const oldPerson = await insertPerson(old.id, "Old");
    await insertEmail(oldPerson.id, "old@example.org", { historic: true });
    await insertPhone(oldPerson.id, "555-0300", "home", { historic: true });
    await insertAddress(old.id, { historic: true });
    await expectFilter(token, "filter[contact_info_email]=Yes", ["Info, Full"]);
    await expectFilter(token, "filter[contact_info_email]=No", ["Info, Nothing", "Info, Old", "Info, Partial"]);
    await expectFilter(token, "filter[contact_info_mobile]=Yes", ["Info, Full", "Info, Partial"]);
    await expectFilter(token, "filter[contact_info_phone]=Yes", ["Info, Full"]);
    await expectFilter(token, "filter[contact_info_work_phone]=No", ["Info, Nothing", "Info, Old", "Info, Partial"]);
    await expectFilter(token, "filter[contact_info_facebook]=Yes", ["Info, Full"]);
    await expectFilter(token, "filter[contact_info_addr]=Yes", ["Info, Full"]);
    await expectFilter(token, "filter[contact_info_addr]=No", ["Info, Nothing", "Info, Old", "Info, Partial"]);
    await expectFilter(token, "filter[opt_out]=Yes", ["Info, Full"]);
    await expectFilter(token, "filter[opt_out]=No", ["Info, Nothing", "Info, Old", "Info, Partial"]);
  });

  it("wildcard_search finds people's names, e-mails, phone numbers and donor account numbers", async () => {
    const { list, token } = await createViewer();
    const a = await insertContact(list.id, "Household, One");
    const b = await insertContact(list.id, "Household, Two");
    await insertContact(list.id, "Household, Three");
    const person = await insertPerson(a.id, "Philippa", { lastName: "Quist" });
    await insertEmail(person.id, "pq@mail.example.org");
    const other = await insertPerson(b.id, "Zed");
    await insertPhone(other.id, "(555) 123-4567", "mobile");
    await expectFilter(token, "filter[wildcard_search]=philip", ["Household, One"]);
    await expectFilter(token, "filter[wildcard_search]=Philippa Quist", ["Household, One"]);
    await expectFilter(token, "filter[wildcard_search]=MAIL.example", ["Household, One"]);
    await expectFilter(token, "filter[wildcard_search]=555-1234", ["Household, Two"]);
  });

  it("alma_mater, birthday and anniversary (month and day, whatever the year)", async () => {
    const { list, token } = await createViewer();
    const a = await insertContact(list.id, "Born, March");
    const b = await insertContact(list.id, "Born, December");
    const c = await insertContact(list.id, "Born, Unknown");
    await insertPerson(a.id, "A", { almaMater: "State U", birthdayMonth: 3, birthdayDay: 15, birthdayYear: 1970, anniversaryMonth: 6, anniversaryDay: 1 });
    await insertPerson(b.id, "B", { almaMater: "Tech", birthdayMonth: 12, birthdayDay: 31, anniversaryMonth: 1, anniversaryDay: 2 });
    await insertPerson(c.id, "C", {});
    await expectFilter(token, "filter[alma_mater]=State U", ["Born, March"]);
    await expectFilter(token, "filter[alma_mater]=none,Tech", ["Born, December", "Born, Unknown"]);
    await expectFilter(token, "filter[birthday]=2026-03-15", ["Born, March"]);
    await expectFilter(token, "filter[birthday]=2026-03-01..2026-03-14", []);
    await expectFilter(token, "filter[birthday]=2026-12-30..2027-01-05", ["Born, December"]);
    await expectFilter(token, "filter[birthday]=2026-03-01...2026-12-31", ["Born, March"]);
    await expectFilter(token, "filter[birthday]=2026-01-01..2026-12-31", ["Born, December", "Born, March"]);
    await expectFilter(token, "filter[anniversary]=2025-12-25..2026-01-02", ["Born, December"]);
    await expectFilter(token, "filter[anniversary]=2026-06-01", ["Born, March"]);
    errorOf(await get(`${CONTACTS}?filter[birthday]=March`, token), 400);
  });
});

describe("appeals and pledges", () => {
  it("appeal with appeal_status, no_appeals; pledge", async () => {
    const { list, token } = await createViewer();
    const appeal = await insertAppeal(list.id, "Spring");
    const other = await insertAppeal(list.id, "Autumn");
    const asked = await insertContact(list.id, "Appeal, Asked");
    const pledged = await insertContact(list.id, "Appeal, Pledged");
    const given = await insertContact(list.id, "Appeal, Given");
    const processed = await insertContact(list.id, "Appeal, Processed");
    const excluded = await insertContact(list.id, "Appeal, Excluded", { noAppeals: true });
    const elsewhere = await insertContact(list.id, "Appeal, Elsewhere");
    await insertContact(list.id, "Appeal, Never");
    for (const contact of [asked, pledged, given, processed]) await askInAppeal(appeal.id, contact.id);
    await askInAppeal(other.id, elsewhere.id);
    await excludeFromAppeal(appeal.id, excluded.id);
    await insertPledge(list.id, pledged.id, { appealId: appeal.id, status: "not_received" });
    await insertPledge(list.id, given.id, { appealId: appeal.id, status: "received_not_processed" });
    await insertPledge(list.id, processed.id, { appealId: appeal.id, status: "processed" });
    await insertPledge(list.id, elsewhere.id, { appealId: other.id, status: "processed" });
    await expectFilter(token, `filter[appeal]=${appeal.id}`, ["Appeal, Asked", "Appeal, Given", "Appeal, Pledged", "Appeal, Processed"]);
    await expectFilter(token, `filter[appeal]=${appeal.id},${other.id}`, ["Appeal, Asked", "Appeal, Elsewhere", "Appeal, Given", "Appeal, Pledged", "Appeal, Processed"]);
    await expectFilter(token, `filter[appeal]=${appeal.id}&filter[appeal_status]=excluded`, ["Appeal, Excluded"]);
    await expectFilter(token, `filter[appeal]=${appeal.id}&filter[appeal_status]=asked`, ["Appeal, Asked"]);
    await expectFilter(token, `filter[appeal]=${appeal.id}&filter[appeal_status]=not_received`, ["Appeal, Pledged"]);
    await expectFilter(token, `filter[appeal]=${appeal.id}&filter[appeal_status]=received_not_processed`, ["Appeal, Given"]);
    await expectFilter(token, `filter[appeal]=${appeal.id}&filter[appeal_status]=processed,asked`, ["Appeal, Asked", "Appeal, Processed"]);
    await expectFilter(token, "filter[appeal]=no_appeals", ["Appeal, Excluded"]);
    // appeal_status needs appeal: alone it selects everything.
    expect(await listedNames(token, "filter[appeal_status]=processed")).toHaveLength(7);
    await expectFilter(token, "filter[pledge]=completed", ["Appeal, Elsewhere", "Appeal, Processed"]);
    await expectFilter(token, "filter[pledge]=pending", ["Appeal, Given"]);
    await expectFilter(token, "filter[pledge]=outstanding,pending", ["Appeal, Given", "Appeal, Pledged"]);
    // With appeal, only pledges of those appeals count (and the appeal filter still applies).
    expect(await listedNames(token, `filter[pledge]=completed&filter[appeal]=${appeal.id},${other.id}`)).toEqual(["Appeal, Elsewhere", "Appeal, Processed"]);
    expect(await listedNames(token, `filter[appeal]=${other.id}&filter[pledge]=pending`)).toEqual([]);
  });
});

describe("referrals", () => {
  it("referrer none, any or a contact; referrer_ids; the referrers endpoint", async () => {
    const { list, token } = await createViewer();
    const { list: foreignList, token: foreignToken } = await createViewer();
    const ref1 = await insertContact(list.id, "Ref, One");
    const ref2 = await insertContact(list.id, "Ref, Two", { status: "Never Ask" });
    const both = await insertContact(list.id, "Ref, Both");
    const single = await insertContact(list.id, "Ref, Single");
    await insertReferral(ref1.id, both.id);
    await insertReferral(ref2.id, both.id);
    await insertReferral(ref1.id, single.id);
    await expectFilter(token, "filter[referrer]=none", ["Ref, One"]);
    await expectFilter(token, "filter[referrer]=any", ["Ref, Both", "Ref, Single"]);
    await expectFilter(token, `filter[referrer]=${ref2.id}`, ["Ref, Both"]);
    await expectFilter(token, `filter[referrer_ids]=${ref1.id}`, ["Ref, Both", "Ref, Single"]);
    const referrers = await get(`${CONTACTS}/${both.id}/referrers?sort=name`, token);
    expect(referrers.status, referrers.text).toBe(200);
    expect(referrers.body.data.map((c: { id: string }) => c.id)).toEqual([ref1.id, ref2.id]);
    expect(referrers.body.meta.pagination).toEqual({ page: 1, per_page: 25, total_count: 2, total_pages: 1 });
    const linked = await get(`${CONTACTS}/${both.id}?include=contacts_that_referred_me,contact_referrals_to_me`, token);
    expect(linked.body.data.relationships.contacts_that_referred_me.data.map((c: { id: string }) => c.id).sort()).toEqual([ref1.id, ref2.id].sort());
    expect(linked.body.data.relationships.contact_referrals_to_me.data).toHaveLength(2);
    expect(linked.body.included.filter((r: { type: string }) => r.type === "contact_referrals")[0].relationships.referred_to.data).toEqual({ type: "contacts", id: both.id });
    errorOf(await get(`${CONTACTS}/${both.id}/referrers`, foreignToken), 403);
    const unknown = uuid();
    expect(errorOf(await get(`${CONTACTS}/${unknown}/referrers`, token), 404).detail).toBe(`Couldn't find Contact with 'id'=${unknown}`);
    void foreignList;
  });

  it("the referrers endpoint reads lists sent as POST with X-HTTP-Method-Override: GET, and refuses a plain POST", async () => {
    const { list, token } = await createViewer();
    const { token: foreignToken } = await createViewer();
    const [ref1, ref2, referred] = [await insertContact(list.id, "Ref, One"), await insertContact(list.id, "Ref, Two"), await insertContact(list.id, "Ref, To")];
    await insertReferral(ref1.id, referred.id);
    await insertReferral(ref2.id, referred.id);
    const path = `${CONTACTS}/${referred.id}/referrers`;
    const override = { headers: { "X-HTTP-Method-Override": "GET" } };
    const overridden = await post(`${path}?per_page=1`, { sort: "-name", fields: { contacts: "name" } }, token, override);
    expect(overridden.status, overridden.text).toBe(200);
    expect(overridden.body.data).toEqual([{ id: ref2.id, type: "contacts", attributes: { name: "Ref, Two" } }]);
    expect(overridden.body.meta).toEqual({ pagination: { page: 1, per_page: 1, total_count: 2, total_pages: 2 }, sort: "-name", filter: {} });
    const withoutBody = await request("POST", path, { token, ...override });
    expect(withoutBody.body.data.map((c: { id: string }) => c.id)).toEqual([ref1.id, ref2.id]);
    errorOf(await post(path, {}, foreignToken, override), 403);
    const plain = await post(path, { sort: "name" }, token);
    errorOf(plain, 405);
    expect(plain.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("tasks", () => {
  it("related_task_action, tasks_all_completed and task_due_date", async () => {
    const { list, token } = await createViewer();
    const caller = await insertContact(list.id, "Task, Call");
    const letter = await insertContact(list.id, "Task, Letter");
    const done = await insertContact(list.id, "Task, Done");
    await insertContact(list.id, "Task, None");
    await insertTask(list.id, [caller.id], { activityType: "Call", startAt: "2026-03-10T15:00:00Z" });
    await insertTask(list.id, [letter.id], { activityType: "Letter", startAt: "2026-03-11T00:00:00Z" });
    await insertTask(list.id, [done.id], { activityType: "Call", completed: true, completedAt: "2026-03-01T00:00:00Z", startAt: "2026-03-12T09:00:00Z" });
    await expectFilter(token, "filter[related_task_action]=Call", ["Task, Call"]);
    await expectFilter(token, "filter[related_task_action]=Call,Letter", ["Task, Call", "Task, Letter"]);
    await expectFilter(token, "filter[related_task_action]=none", ["Task, Done", "Task, None"]);
    await expectFilter(token, "filter[related_task_action]=null,Letter", ["Task, Done", "Task, Letter", "Task, None"]);
    await expectFilter(token, "filter[tasks_all_completed]=true", ["Task, Done", "Task, None"]);
    expect(await listedNames(token, "filter[tasks_all_completed]=false")).toHaveLength(4);
    await expectFilter(token, "filter[task_due_date]=03/10/2026 - 03/11/2026", ["Task, Call", "Task, Letter"]);
    await expectFilter(token, "filter[task_due_date]=3/12/2026 - 3/12/2026", ["Task, Done"]);
    await expectFilter(token, "filter[task_due_date]=2026-03-10...2026-03-11", ["Task, Call"]);
    const bad = errorOf(await get(`${CONTACTS}?filter[task_due_date]=13/45/2026 - 01/01/2027`, token), 400);
    expect(bad.source).toEqual({ parameter: "filter[task_due_date]" });
  });
});

describe("filters combined", () => {
  it("conditions on several related tables all hold, whichever of them rules a contact out, counted in the total", async () => {
    const { list, token } = await createViewer();
    const matching = "Combo, Match";
    const make = async (name: string, { city = "Orlando", tag = "prayer", email = "combo@example.org" } = {}) => {
      const contact = await insertContact(list.id, name);
      if (city) await insertAddress(contact.id, { city });
      if (tag) await insertTags(contact.id, [tag]);
      const person = await insertPerson(contact.id, "Pat");
      if (email) await insertEmail(person.id, email);
      return contact;
    };
    await make(matching);
    await make("Combo, Elsewhere", { city: "Berlin" });
    await make("Combo, Untagged", { tag: "" });
    await make("Combo, Other Tag", { tag: "monthly" });
    await make("Combo, No Email", { email: "" });
    await make("Combo, Other Email", { email: "someone@example.net" });
    await make("Combo, No Address", { city: "" });
    const query = "filter[city]=Orlando&filter[tags]=prayer&filter[wildcard_search]=combo@&filter[contact_info_email]=Yes";
    expect(await listedNames(token, query)).toEqual([matching]);
    const page = await get(`${CONTACTS}?${query}&per_page=1`, token);
    expect(page.body.meta.pagination).toMatchObject({ total_count: 1, total_pages: 1 });
    // A reversed related-table filter, checked among the others.
    expect(await listedNames(token, "filter[city]=Orlando&filter[tags]=prayer&filter[reverse_tags]=true&filter[contact_info_email]=Yes")).toEqual(["Combo, Untagged", "Combo, Other Tag"].sort());
  });
});
