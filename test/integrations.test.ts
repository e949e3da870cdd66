/**
 * A list's integrations as the web app's Preferences > Integrations screen uses them: its MailChimp account, its
 * Prayer Letters account (each one a list at most, named by the list), and the Chalkline send. The requests are
 * the built app's, verbatim: its GET is caught on 404 and shows "Connect".
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { del, errorOf, get, post } from "./helpers/api";
import { createViewer, db, uuid } from "./helpers/factories";
import { userStrangerAndCoach } from "./helpers/team";

type Team = Awaited<ReturnType<typeof userStrangerAndCoach>>;
let team: Team;

beforeAll(async () => {
  team = await userStrangerAndCoach();
});

const mailChimp = (listId: string) => `/api/v2/account_lists/${listId}/mail_chimp_account`;
const prayerLetters = (listId: string) => `/api/v2/account_lists/${listId}/prayer_letters_account`;
/** What the web app sends with a DELETE: its serializer's document of nothing. */
const deleteBody = (type: string) => ({ data: { type, id: "undefined" } });
const storedMailChimp = (listId: string) => db.select().from(schema.mailChimpAccounts).where(eq(schema.mailChimpAccounts.accountListId, listId));
const storedPrayerLetters = (listId: string) => db.select().from(schema.prayerLettersAccounts).where(eq(schema.prayerLettersAccounts.accountListId, listId));

describe("a list's MailChimp account", () => {
  it("is not there until connected: the web app's GET is 404, as for any missing record", async () => {
    const { owner } = team;
    const error = errorOf(await get(mailChimp(owner.list.id), owner.token), 404);
    expect(error.detail).toBe(`Couldn't find MailChimpAccount with 'account_list_id'=${owner.list.id}`);
    expect(errorOf(await get(`${mailChimp(owner.list.id)}/sync`, owner.token), 404).detail).toBe(error.detail);
    expect(errorOf(await del(mailChimp(owner.list.id), owner.token), 404).detail).toBe(error.detail);
  });

  it("connects, shows without its key, syncs, and disconnects", async () => {
    const { owner } = team;
    const created = await post(mailChimp(owner.list.id), { data: { type: "mail_chimp_accounts", attributes: { api_key: "0123456789abcdef-us4", primary_list_id: "1e72b58b72" } } }, owner.token);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.type).toBe("mail_chimp_accounts");
    const attributes = {
      active: false,
      auto_log_campaigns: true,
      lists_available_for_newsletters: [],
      lists_link: "https://us4.admin.mailchimp.com/lists/",
      lists_present: false,
      primary_list_id: "1e72b58b72",
      primary_list_name: null,
      valid: false,
      validate_key: false,
      validation_error: "The key is not checked with MailChimp by this service",
      created_at: expect.any(String),
      updated_at: expect.any(String),
      updated_in_db_at: expect.any(String),
    };
    expect(created.body.data.attributes).toEqual(attributes);
    expect(created.text).not.toContain("0123456789abcdef");
    const [row] = await storedMailChimp(owner.list.id);
    expect(row).toMatchObject({ id: created.body.data.id, apiKey: "0123456789abcdef-us4", primaryListId: "1e72b58b72", autoLogCampaigns: true });

    // The web app's load, verbatim.
    const shown = await get(`/api/v2/account_lists/${owner.list.id}/mail_chimp_account`, owner.token);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.data).toEqual({ id: created.body.data.id, type: "mail_chimp_accounts", attributes });
    // Asked for by name, the key is still not answered.
    const named = await get(`${mailChimp(owner.list.id)}?fields[mail_chimp_accounts]=api_key,primary_list_id`, owner.token);
    expect(named.body.data.attributes).toEqual({ api_key: null, primary_list_id: "1e72b58b72" });

    const synced = await get(`/api/v2/account_lists/${owner.list.id}/mail_chimp_account/sync`, owner.token);
    expect([synced.status, synced.text]).toEqual([200, ""]);

    const gone = await del(mailChimp(owner.list.id), owner.token, { body: deleteBody("mail_chimp_accounts") });
    expect([gone.status, gone.text]).toEqual([204, ""]);
    expect(await storedMailChimp(owner.list.id)).toEqual([]);
    errorOf(await get(mailChimp(owner.list.id), owner.token), 404);
    errorOf(await get(`${mailChimp(owner.list.id)}/sync`, owner.token), 404);
  });

  it("saves the web app's settings over the connection it read back, keeping the key it was not answered", async () => {
    const { list, token } = await createViewer();
    const first = await post(mailChimp(list.id), { data: { type: "mail_chimp_accounts", attributes: { api_key: "abc123-us12", auto_log_campaigns: false } } }, token);
    expect(first.status, first.text).toBe(201);
    expect(first.body.data.attributes).toMatchObject({ auto_log_campaigns: false, primary_list_id: null });
    // The screen's Save: the record it loaded, through its serializer (api_key, primary_list_id, auto_log_campaigns).
    const saved = await post(`/api/v2/account_lists/${list.id}/mail_chimp_account`, { data: { type: "mail_chimp_accounts", id: first.body.data.id, attributes: { primary_list_id: "29a77ba541", auto_log_campaigns: true } } }, token);
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body.data).toMatchObject({ id: first.body.data.id, attributes: { primary_list_id: "29a77ba541", auto_log_campaigns: true, lists_link: "https://us12.admin.mailchimp.com/lists/" } });
    const rows = await storedMailChimp(list.id);
    expect(rows).toEqual([expect.objectContaining({ id: first.body.data.id, apiKey: "abc123-us12", primaryListId: "29a77ba541", autoLogCampaigns: true })]);
    // A connection with another key replaces it: one a list, the new one.
    const replaced = await post(mailChimp(list.id), { data: { type: "mail_chimp_accounts", attributes: { api_key: "def456-us3" } } }, token);
    expect(replaced.status, replaced.text).toBe(201);
    expect(replaced.body.data.id).not.toBe(first.body.data.id);
    expect(replaced.body.data.attributes).toMatchObject({ primary_list_id: null, auto_log_campaigns: true, lists_link: "https://us3.admin.mailchimp.com/lists/" });
    expect(await storedMailChimp(list.id)).toEqual([expect.objectContaining({ id: replaced.body.data.id, apiKey: "def456-us3" })]);
  });

  it("refuses a missing or malformed key and bad values with 400 pointing at them, storing nothing", async () => {
    const { list, token } = await createViewer();
    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [{}, "api_key", "Api key can't be blank"],
      [{ api_key: "" }, "api_key", "Api key can't be blank"],
      [{ api_key: "not a key" }, "api_key", "Api key is invalid"],
      [{ api_key: "abc-eu1" }, "api_key", "Api key is invalid"],
      [{ api_key: 42 }, "api_key", "Api key is invalid"],
      [{ api_key: `${"k".repeat(300)}-us1` }, "api_key", "Api key is too long (maximum is 255 characters)"],
      [{ api_key: "abc-us1", auto_log_campaigns: "sometimes" }, "auto_log_campaigns", "Auto log campaigns must be true or false"],
      [{ api_key: "abc-us1", primary_list_id: { id: 1 } }, "primary_list_id", "Primary list must be a string"],
    ];
    for (const [attributes, attribute, detail] of refusals) {
      const error = errorOf(await post(mailChimp(list.id), { data: { type: "mail_chimp_accounts", attributes } }, token), 400);
      expect(error.source, JSON.stringify(attributes)).toEqual({ pointer: `/data/attributes/${attribute}` });
      expect(error.detail).toBe(detail);
    }
    // Another type, or another list in the body, is refused too.
    errorOf(await post(mailChimp(list.id), { data: { type: "prayer_letters_accounts", attributes: { api_key: "abc-us1" } } }, token), 409);
    const elsewhere = errorOf(
      await post(mailChimp(list.id), { data: { type: "mail_chimp_accounts", attributes: { api_key: "abc-us1" }, relationships: { account_list: { data: { type: "account_lists", id: team.stranger.list.id } } } } }, token),
      400,
    );
    expect(elsewhere.source).toEqual({ pointer: "/data/relationships/account_list" });
    expect(await storedMailChimp(list.id)).toEqual([]);
    // A refused replacement leaves the connection as it was.
    const kept = await post(mailChimp(list.id), { data: { type: "mail_chimp_accounts", attributes: { api_key: "abc-us1" } } }, token);
    expect(kept.status).toBe(201);
    errorOf(await post(mailChimp(list.id), { data: { type: "mail_chimp_accounts", attributes: { api_key: "wrong" } } }, token), 400);
    expect(await storedMailChimp(list.id)).toEqual([expect.objectContaining({ id: kept.body.data.id, apiKey: "abc-us1" })]);
  });
});

describe("a list's Prayer Letters account", () => {
  it("connects with a token it never answers, shows, syncs and disconnects, as the web app calls them", async () => {
    const { list, token } = await createViewer();
    errorOf(await get(`/api/v2/account_lists/${list.id}/prayer_letters_account`, token), 404);
    const refused = errorOf(await post(prayerLetters(list.id), { data: { type: "prayer_letters_accounts", attributes: { valid_token: true } } }, token), 400);
    expect(refused).toMatchObject({ detail: "Oauth2 token can't be blank", source: { pointer: "/data/attributes/oauth2_token" } });
    expect(await storedPrayerLetters(list.id)).toEqual([]);

    const created = await post(prayerLetters(list.id), { data: { type: "prayer_letters_accounts", attributes: { oauth2_token: "secret-token" } } }, token);
    expect(created.status, created.text).toBe(201);
    const attributes = { created_at: expect.any(String), updated_at: expect.any(String), updated_in_db_at: expect.any(String) };
    expect(created.body.data).toEqual({ id: expect.any(String), type: "prayer_letters_accounts", attributes });
    expect(created.text).not.toContain("secret-token");
    expect(await storedPrayerLetters(list.id)).toEqual([expect.objectContaining({ oauth2Token: "secret-token", validToken: true })]);

    const shown = await get(`/api/v2/account_lists/${list.id}/prayer_letters_account`, token);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual(created.body.data);
    const synced = await get(`/api/v2/account_lists/${list.id}/prayer_letters_account/sync`, token);
    expect([synced.status, synced.text]).toEqual([200, ""]);

    // Connected again: the new token takes the old one's place.
    const again = await post(prayerLetters(list.id), { data: { type: "prayer_letters_accounts", attributes: { oauth2_token: "newer-token" } } }, token);
    expect(again.status).toBe(201);
    expect(await storedPrayerLetters(list.id)).toEqual([expect.objectContaining({ id: again.body.data.id, oauth2Token: "newer-token" })]);

    const gone = await del(`/api/v2/account_lists/${list.id}/prayer_letters_account`, token, { body: deleteBody("prayer_letters_accounts") });
    expect(gone.status).toBe(204);
    expect(await storedPrayerLetters(list.id)).toEqual([]);
    errorOf(await get(`${prayerLetters(list.id)}/sync`, token), 404);
    errorOf(await del(prayerLetters(list.id), token), 404);
  });
});

describe("the Chalkline send", () => {
  it("answers the web app's request as the original did, sending nothing", async () => {
    const { owner } = team;
    const sent = await post(`/api/v2/account_lists/${owner.list.id}/chalkline_mail`, { data: { type: "chalkline_mails" } }, owner.token);
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toEqual({ data: { id: "", type: "chalkline_mails", attributes: { created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), updated_at: null, updated_in_db_at: null } } });
  });
});

describe("who reaches a list's integrations", () => {
  it("its users alone: a coach of the list and a stranger find no list (404), and no token is 401", async () => {
    const { owner, stranger, coach } = team;
    const connected = await post(prayerLetters(owner.list.id), { data: { type: "prayer_letters_accounts", attributes: { oauth2_token: "owner-token" } } }, owner.token);
    expect(connected.status).toBe(201);
    const notFound = `Couldn't find AccountList with 'id'=${owner.list.id}`;
    for (const token of [coach.token, stranger.token]) {
      for (const path of [mailChimp(owner.list.id), prayerLetters(owner.list.id)]) {
        expect(errorOf(await get(path, token), 404).detail).toBe(notFound);
        expect(errorOf(await get(`${path}/sync`, token), 404).detail).toBe(notFound);
        expect(errorOf(await del(path, token), 404).detail).toBe(notFound);
      }
      errorOf(await post(mailChimp(owner.list.id), { data: { type: "mail_chimp_accounts", attributes: { api_key: "theirs-us1" } } }, token), 404);
      errorOf(await post(prayerLetters(owner.list.id), { data: { type: "prayer_letters_accounts", attributes: { oauth2_token: "theirs" } } }, token), 404);
      errorOf(await post(`/api/v2/account_lists/${owner.list.id}/chalkline_mail`, { data: { type: "chalkline_mails" } }, token), 404);
    }
    // Nothing of theirs was stored, nothing of the owner's removed.
    expect(await storedPrayerLetters(owner.list.id)).toEqual([expect.objectContaining({ id: connected.body.data.id, oauth2Token: "owner-token" })]);
    expect(await storedMailChimp(owner.list.id)).toEqual([]);
    // An unknown list is not there either.
    errorOf(await get(mailChimp(uuid()), owner.token), 404);
    for (const path of [mailChimp(owner.list.id), `${prayerLetters(owner.list.id)}/sync`]) errorOf(await get(path, null), 401);
    errorOf(await post(`/api/v2/account_lists/${owner.list.id}/chalkline_mail`, { data: { type: "chalkline_mails" } }, null), 401);
    expect((await del(prayerLetters(owner.list.id), owner.token)).status).toBe(204);
  });
});
