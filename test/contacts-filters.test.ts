/**
 * Contact filters on the contact's own fields. Each test has its own account list, so the reverse of a filter
 * is checked against exactly the contacts the test made.
 */
import { describe, expect, it } from "vitest";
import { errorOf, get } from "./helpers/api";
import { createAccountList, createViewer } from "./helpers/factories";
import { daysFromToday, expectFilter, insertContact, insertTags, listedNames } from "./helpers/contact-fixtures";

const CONTACTS = "/api/v2/contacts";
const RANGE_ERROR = (name: string) =>
  `Wrong format of date range for filter '${name}', should follow 'YYYY-MM-DD...YYYY-MM-DD' for dates and 'YYYY-MM-DDThh:mm:ssZ...YYYY-MM-DDThh:mm:ssZ' for datetimes`;

describe("status", () => {
  it("leaves out hidden statuses by default and reads active, hidden and null", async () => {
    const { list, token } = await createViewer();
    await insertContact(list.id, "Ann, Partner", { status: "Partner - Financial" });
    await insertContact(list.id, "Ben, Asked", { status: "Ask in Future" });
    await insertContact(list.id, "Cid, Blank", { status: null });
    await insertContact(list.id, "Dee, Empty", { status: "" });
    await insertContact(list.id, "Eve, NotInterested", { status: "Not Interested" });
    await insertContact(list.id, "Fay, Expired", { status: "Expired Referral" });
    expect(await listedNames(token, "")).toEqual(["Ann, Partner", "Ben, Asked", "Cid, Blank", "Dee, Empty"]);
    expect(await listedNames(token, "filter[status]=active")).toEqual(["Ann, Partner", "Ben, Asked", "Cid, Blank", "Dee, Empty"]);
    expect(await listedNames(token, "filter[status]=hidden")).toEqual(["Eve, NotInterested", "Fay, Expired"]);
    expect(await listedNames(token, "filter[status]=null")).toEqual(["Cid, Blank", "Dee, Empty"]);
    expect(await listedNames(token, "filter[status]=Not Interested,Partner - Financial")).toEqual(["Ann, Partner", "Eve, NotInterested"]);
    expect(await listedNames(token, "filter[status][]=Ask in Future&filter[status][]=null")).toEqual(["Ben, Asked", "Cid, Blank", "Dee, Empty"]);
    // The reverse of a status filter is everything else, hidden ones included.
    expect(await listedNames(token, "filter[status]=Partner - Financial&filter[reverse_status]=true")).toEqual([
      "Ben, Asked",
      "Cid, Blank",
      "Dee, Empty",
      "Eve, NotInterested",
      "Fay, Expired",
    ]);
    expect(await listedNames(token, "filter[status]=hidden&filter[reverse_status]=true")).toEqual(["Ann, Partner", "Ben, Asked", "Cid, Blank", "Dee, Empty"]);
    expect(await listedNames(token, "filter[status]=active&filter[reverse_status]=true")).toEqual(["Eve, NotInterested", "Fay, Expired"]);
  });

  it("echoes the recognised filters as sent and ignores unknown ones", async () => {
    const { list, token } = await createViewer();
    await insertContact(list.id, "Only, One", { status: "Partner - Pray" });
    const response = await get(`${CONTACTS}?filter[status]=Partner - Pray&filter[reverseStatus]=false&filter[bogus]=1&filter[anyTags]=true`, token);
    expect(response.body.meta.filter).toEqual({ status: "Partner - Pray", reverse_status: "false", any_tags: "true" });
    expect(response.body.data.map((c: { attributes: { name: string } }) => c.attributes.name)).toEqual(["Only, One"]);
  });
});

describe("choices of the contact's own fields", () => {
  it("likely, church, locale, source and timezone take several values and none", async () => {
    const { list, token } = await createViewer();
    await insertContact(list.id, "Able, A", { likelyToGive: "Likely", churchName: "Grace", locale: "en", source: "MPDX", timezone: "America/New_York" });
    await insertContact(list.id, "Bold, B", { likelyToGive: "Most Likely", churchName: "Hope", locale: "de", source: "import", timezone: "Europe/Berlin" });
    await insertContact(list.id, "Calm, C", { likelyToGive: null, churchName: "", locale: null, source: "", timezone: null });
    await expectFilter(token, "filter[likely]=Likely", ["Able, A"]);
    await expectFilter(token, "filter[likely]=none,Most Likely", ["Bold, B", "Calm, C"]);
    await expectFilter(token, "filter[church]=Grace,Hope", ["Able, A", "Bold, B"]);
    await expectFilter(token, "filter[church]=none", ["Calm, C"]);
    await expectFilter(token, "filter[locale]=de", ["Bold, B"]);
    await expectFilter(token, "filter[locale]=en,none", ["Able, A", "Calm, C"]);
    await expectFilter(token, "filter[source]=import,MPDX", ["Able, A", "Bold, B"]);
    await expectFilter(token, "filter[source]=none", ["Calm, C"]);
    await expectFilter(token, "filter[timezone]=Europe/Berlin", ["Bold, B"]);
    await expectFilter(token, "filter[timezone]=none", ["Calm, C"]);
  });

  it("ids, not_ids and user_ids", async () => {
    const { user, list, token } = await createViewer();
    const a = await insertContact(list.id, "Ids, A", { userId: user.id });
    const b = await insertContact(list.id, "Ids, B");
    await insertContact(list.id, "Ids, C");
    await expectFilter(token, `filter[ids]=${a.id},${b.id.toUpperCase()}`, ["Ids, A", "Ids, B"]);
    await expectFilter(token, `filter[not_ids]=${a.id}`, ["Ids, B", "Ids, C"]);
    await expectFilter(token, `filter[user_ids]=${user.id}`, ["Ids, A"]);
  });

  it("booleans: pledge_received, status_valid, no_appeals, starred; contact_type", async () => {
    const { list, token } = await createViewer();
    await insertContact(list.id, "Bool, A", { pledgeReceived: true, statusValid: false, noAppeals: true, starredAt: "2026-01-01T00:00:00Z", isOrganization: true });
    await insertContact(list.id, "Bool, B", {});
    await expectFilter(token, "filter[pledge_received]=true", ["Bool, A"]);
    await expectFilter(token, "filter[pledge_received]=false", ["Bool, B"]);
    await expectFilter(token, "filter[status_valid]=false", ["Bool, A"]);
    await expectFilter(token, "filter[status_valid]=true", ["Bool, B"]);
    await expectFilter(token, "filter[no_appeals]=true", ["Bool, A"]);
    await expectFilter(token, "filter[starred]=true", ["Bool, A"]);
    await expectFilter(token, "filter[starred]=false", ["Bool, B"]);
    await expectFilter(token, "filter[contact_type]=company", ["Bool, A"]);
    await expectFilter(token, "filter[contact_type]=person", ["Bool, B"]);
    expect(await listedNames(token, "filter[contact_type]=person,company")).toEqual(["Bool, A", "Bool, B"]);
    expect(await listedNames(token, "filter[no_appeals]=false")).toEqual(["Bool, A", "Bool, B"]);
  });

  it("newsletter: all, no_value, none, address, email, both", async () => {
    const { list, token } = await createViewer();
    await insertContact(list.id, "News, Physical", { sendNewsletter: "Physical" });
    await insertContact(list.id, "News, Email", { sendNewsletter: "Email" });
    await insertContact(list.id, "News, Both", { sendNewsletter: "Both" });
    await insertContact(list.id, "News, None", { sendNewsletter: "None" });
    await insertContact(list.id, "News, Blank", { sendNewsletter: null });
    await expectFilter(token, "filter[newsletter]=all", ["News, Both", "News, Email", "News, None", "News, Physical"]);
    await expectFilter(token, "filter[newsletter]=no_value", ["News, Blank"]);
    await expectFilter(token, "filter[newsletter]=none", ["News, None"]);
    await expectFilter(token, "filter[newsletter]=address", ["News, Both", "News, Physical"]);
    await expectFilter(token, "filter[newsletter]=email", ["News, Both", "News, Email"]);
    await expectFilter(token, "filter[newsletter]=both", ["News, Both"]);
  });

  it("name_like, notes and wildcard_search", async () => {
    const { list, token } = await createViewer();
    await insertContact(list.id, "Doe, John", { notes: "Met at the Coffee shop" });
    await insertContact(list.id, "Doerr, Ann", { notes: "" });
    await insertContact(list.id, "Adoe, Kim");
    await expectFilter(token, "filter[name_like]=doe", ["Doe, John", "Doerr, Ann"]);
    await expectFilter(token, "filter[notes][wildcard_note_search]=coffee", ["Doe, John"]);
    await expectFilter(token, "filter[wildcard_search]=john doe", ["Doe, John"]);
    await expectFilter(token, "filter[wildcard_search]=COFFEE", ["Doe, John"]);
    await expectFilter(token, "filter[wildcard_search]=doe", ["Adoe, Kim", "Doe, John", "Doerr, Ann"]);
  });
});

describe("pledges", () => {
  it("pledge_amount, pledge_currency (the list's currency for contacts without one) and pledge_frequency", async () => {
    const { list, token } = await createViewer({ currency: "CAD" });
    await insertContact(list.id, "Pledge, Euro", { pledgeAmount: "100.0", pledgeCurrency: "EUR", pledgeFrequency: "1.0" });
    await insertContact(list.id, "Pledge, Default", { pledgeAmount: "99.95", pledgeCurrency: null, pledgeFrequency: "0.23076923076923" });
    await insertContact(list.id, "Pledge, None", {});
    await expectFilter(token, "filter[pledge_amount]=100,99.95", ["Pledge, Default", "Pledge, Euro"]);
    await expectFilter(token, "filter[pledge_amount]=100.00", ["Pledge, Euro"]);
    await expectFilter(token, "filter[pledge_currency]=cad", ["Pledge, Default", "Pledge, None"]);
    await expectFilter(token, "filter[pledge_currency]=EUR", ["Pledge, Euro"]);
    await expectFilter(token, "filter[pledge_frequency]=1", ["Pledge, Euro"]);
    await expectFilter(token, "filter[pledge_frequency]=0.23076923076923,null", ["Pledge, Default", "Pledge, None"]);
    const bad = await get(`${CONTACTS}?filter[pledge_amount]=lots`, token);
    expect(errorOf(bad, 400)).toMatchObject({ detail: "Filter 'pledge_amount' must be a comma-separated list of decimal numbers", source: { parameter: "filter[pledge_amount]" } });
  });

  it("pledge_late_by counts days late from late_at for financial partners", async () => {
    const { list, token } = await createViewer();
    const partner = { status: "Partner - Financial" };
    await insertContact(list.id, "Late, 0", { ...partner, lateAt: daysFromToday(0) });
    await insertContact(list.id, "Late, 29", { ...partner, lateAt: daysFromToday(-29) });
    await insertContact(list.id, "Late, 30", { ...partner, lateAt: daysFromToday(-30) });
    await insertContact(list.id, "Late, 75", { ...partner, lateAt: daysFromToday(-75) });
    await insertContact(list.id, "Late, 90", { ...partner, lateAt: daysFromToday(-90) });
    await insertContact(list.id, "Late, Future", { ...partner, lateAt: daysFromToday(5) });
    await insertContact(list.id, "Late, Pray", { status: "Partner - Pray", lateAt: daysFromToday(-40) });
    await expectFilter(token, "filter[pledge_late_by]=0_30", ["Late, 0", "Late, 29"]);
    await expectFilter(token, "filter[pledge_late_by]=30_60", ["Late, 30"]);
    await expectFilter(token, "filter[pledge_late_by]=60_90", ["Late, 75"]);
    await expectFilter(token, "filter[pledge_late_by]=90", ["Late, 90"]);
    expect(await listedNames(token, "filter[pledge_late_by]=")).toHaveLength(7);
  });
});

describe("date filters", () => {
  it("created_at and updated_at: inclusive .., exclusive ..., one day, datetimes", async () => {
    const { list, token } = await createViewer();
    await insertContact(list.id, "Time, Early", { createdAt: "2026-03-01T00:00:00Z", updatedAt: "2026-04-01T10:00:00Z" });
    await insertContact(list.id, "Time, Late", { createdAt: "2026-03-02T23:59:59Z", updatedAt: "2026-04-02T00:00:00Z" });
    await insertContact(list.id, "Time, Later", { createdAt: "2026-03-03T00:00:00Z", updatedAt: "2026-04-03T00:00:00Z" });
    await expectFilter(token, "filter[created_at]=2026-03-01..2026-03-02", ["Time, Early", "Time, Late"]);
    await expectFilter(token, "filter[created_at]=2026-03-01...2026-03-03", ["Time, Early", "Time, Late"]);
    await expectFilter(token, "filter[created_at]=2026-03-01...2026-03-02", ["Time, Early"]);
    await expectFilter(token, "filter[created_at]=2026-03-03", ["Time, Later"]);
    await expectFilter(token, "filter[created_at]=2026-03-02T23:59:59Z..2026-03-03T00:00:00Z", ["Time, Late", "Time, Later"]);
    await expectFilter(token, "filter[created_at]=2026-03-02T23:59:59Z...2026-03-03T00:00:00Z", ["Time, Late"]);
    await expectFilter(token, "filter[updated_at]=2026-04-02", ["Time, Late"]);
    await expectFilter(token, "filter[updatedAt]=2026-04-01..2026-04-02", ["Time, Early", "Time, Late"]);
    for (const [name, value] of [
      ["created_at", "2026-03-01..."],
      ["created_at", "yesterday"],
      ["updated_at", "2026-02-30"],
      ["updated_at", "2026-03-01..2026-03-02..2026-03-03"],
      ["late_at", "03/01/2026"],
      ["next_ask", "2026-13-01..2026-13-02"],
    ]) {
      const error = errorOf(await get(`${CONTACTS}?filter[${name}]=${value}`, token), 400);
      expect(error).toMatchObject({ detail: RANGE_ERROR(name), source: { parameter: `filter[${name}]` } });
    }
  });

  it("late_at and next_ask compare dates", async () => {
    const { list, token } = await createViewer();
    await insertContact(list.id, "Ask, May", { nextAsk: "2026-05-01", lateAt: "2026-01-31" });
    await insertContact(list.id, "Ask, June", { nextAsk: "2026-06-30", lateAt: "2026-02-01" });
    await insertContact(list.id, "Ask, Never", {});
    await expectFilter(token, "filter[next_ask]=2026-05-01..2026-06-29", ["Ask, May"]);
    await expectFilter(token, "filter[next_ask]=2026-05-02..2026-06-30", ["Ask, June"]);
    await expectFilter(token, "filter[next_ask]=2026-05-01...2026-06-30", ["Ask, May"]);
    await expectFilter(token, "filter[late_at]=2026-02-01", ["Ask, June"]);
    await expectFilter(token, "filter[late_at]=2026-01-01T00:00:00Z..2026-01-31T00:00:00Z", ["Ask, May"]);
  });
});

describe("tags", () => {
  it("tags need all (or any with any_tags), exclude_tags leaves out any", async () => {
    const { list, token } = await createViewer();
    const a = await insertContact(list.id, "Tag, A");
    const b = await insertContact(list.id, "Tag, B");
    await insertContact(list.id, "Tag, None");
    await insertTags(a.id, ["friend", "church"]);
    await insertTags(b.id, ["friend"]);
    await expectFilter(token, "filter[tags]=Friend,church", ["Tag, A"]);
    await expectFilter(token, "filter[tags]=friend,church&filter[any_tags]=true", ["Tag, A", "Tag, B"]);
    await expectFilter(token, "filter[exclude_tags]=church", ["Tag, B", "Tag, None"]);
    await expectFilter(token, "filter[exclude_tags]=church,friend", ["Tag, None"]);
  });
});

describe("account lists", () => {
  it("lists contacts of every list of the user, narrowed by account_list_id; others' lists are 404", async () => {
    const { user, list, token } = await createViewer();
    const second = await createAccountList(user);
    const { list: foreign } = await createViewer();
    await insertContact(list.id, "First, List");
    await insertContact(second.id, "Second, List");
    await insertContact(foreign.id, "Foreign, List");
    expect(await listedNames(token, "")).toEqual(["First, List", "Second, List"]);
    await expectFilter(token, `filter[account_list_id]=${second.id}`, ["Second, List"]);
    const error = errorOf(await get(`${CONTACTS}?filter[account_list_id]=${foreign.id}`, token), 404);
    expect(error.detail).toBe(`Resource 'AccountList' with id '${foreign.id}' does not exist`);
  });

  it("reverse_account_list_id: the user's lists other than those named, never another user's; echoed as sent", async () => {
    const { user, list, token } = await createViewer();
    const [second, third] = [await createAccountList(user), await createAccountList(user)];
    const { list: foreign } = await createViewer();
    await insertContact(list.id, "First, List");
    await insertContact(second.id, "Second, List");
    await insertContact(third.id, "Third, List");
    await insertContact(foreign.id, "Foreign, List");
    const reversed = (lists: string) => `filter[account_list_id]=${lists}&filter[reverse_account_list_id]=true`;
    expect(await listedNames(token, reversed(list.id))).toEqual(["Second, List", "Third, List"]);
    expect(await listedNames(token, reversed(`${list.id},${third.id}`))).toEqual(["Second, List"]);
    const response = await get(`${CONTACTS}?${reversed(second.id)}`, token);
    expect(response.body.meta.filter).toEqual({ account_list_id: second.id, reverse_account_list_id: "true" });
    expect(response.body.meta.pagination.total_count).toBe(2);
    const error = errorOf(await get(`${CONTACTS}?${reversed(foreign.id)}`, token), 404);
    expect(error.detail).toBe(`Resource 'AccountList' with id '${foreign.id}' does not exist`);
  });
});
