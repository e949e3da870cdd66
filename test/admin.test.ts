/**
 * The operator's surface (/admin), through HTTP against the worker: onboarding a fundraiser, access, the identities
 * a user signs in as, disabling, exporting a list and erasing a user, with the refusals of each.
 */
import { env } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as schema from "../drizzle/schema";
import worker from "../src/index";
import { del, get, post, request } from "./helpers/api";
import { admin, TEST_ADMIN_SECRET } from "./helpers/admin";
import { stopAnswering, TestProvider } from "./helpers/identity-provider";
import { givingTo, insertContact, insertPerson, insertTask } from "./helpers/contact-fixtures";
import { addToList, createViewer, db, timestamps, tokenFor, uuid } from "./helpers/factories";
import { database } from "../src/db/client";
import { databaseBinding } from "../src/db/databases";
import { expectKeptSumsExact } from "./helpers/kept-sums";
import { storage } from "./helpers/storage";

const newEmail = () => `fundraiser-${uuid().slice(0, 8)}@Example.org`;

async function addUser(overrides: Record<string, unknown> = {}) {
  const answer = await admin("POST", "/users", { email: newEmail(), first_name: "Frida", last_name: "Raiser", ...overrides });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

afterEach(() => {
  vi.restoreAllMocks();
  stopAnswering();
});

describe("the administrative secret", () => {
  it("is required: 401 without it, with a wrong one or a user's token; 404 everywhere when none is configured", async () => {
    expect((await admin("POST", "/users", { email: newEmail(), first_name: "A", last_name: "B" }, null)).status).toBe(401);
    expect((await admin("POST", "/users", { email: newEmail(), first_name: "A", last_name: "B" }, `${TEST_ADMIN_SECRET}x`)).status).toBe(401);
    const viewer = await createViewer();
    const asUser = await admin("POST", "/users", { email: newEmail(), first_name: "A", last_name: "B" }, viewer.token);
    expect(asUser.status).toBe(401);
    expect(asUser.body.errors[0].detail).toContain("administrative secret");
    const before = await db.$count(schema.users);
    const unconfigured = await worker.fetch!(
      new Request("https://api.example.org/admin/users", { method: "POST", headers: { Authorization: `Bearer ${TEST_ADMIN_SECRET}`, "Content-Type": "application/json" }, body: JSON.stringify({ email: newEmail(), first_name: "A", last_name: "B" }) }),
      { ...env, ADMIN_SECRET: undefined },
      createExecutionContext(),
    );
    expect(unconfigured.status).toBe(404);
    expect(await db.$count(schema.users)).toBe(before);
    // Nor through a batch: its items reach the user's API only.
    const batched = await post("/api/v2/batch", { requests: [{ method: "POST", path: "/admin/users", body: { email: newEmail(), first_name: "A", last_name: "B" } }] }, viewer.token, { raw: true });
    expect(batched.body[0].status).toBe(404);
    expect(await db.$count(schema.users)).toBe(before);
  });
});

describe("user:add and list:add", () => {
  it("onboard a fundraiser whose token works at once, with their list as their default", async () => {
    const logged = vi.spyOn(console, "log");
    const email = newEmail();
    const created = await admin("POST", "/users", { email, first_name: "Frida", last_name: "Raiser", time_zone: "America/Chicago", locale: "de" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const token = await tokenFor(created.body.id);
    const me = await get("/api/v2/user", token);
    expect(me.status).toBe(200);
    expect(me.body.data.attributes).toMatchObject({ first_name: "Frida", last_name: "Raiser" });
    expect(me.body.data.attributes.preferences).toMatchObject({ time_zone: "America/Chicago", locale: "de" });

    const list = await admin("POST", "/account_lists", { user: created.body.id, name: "Frida's Ministry", currency: "eur" });
    expect(list.status).toBe(201);
    // A new list goes to a list database (not the directory) when the deployment binds some.
    expect(list.body).toEqual({ id: expect.any(String), database: expect.stringMatching(/^LIST_DB_[12]$/) });
    const placedOn = database(databaseBinding(env, list.body.database));
    const lists = await get("/api/v2/account_lists", token);
    expect(lists.body.data.map((resource: { id: string; attributes: { currency: string } }) => [resource.id, resource.attributes.currency])).toEqual([[list.body.id, "EUR"]]);
    expect((await get("/api/v2/user", token)).body.data.attributes.preferences.default_account_list).toBe(list.body.id);
    // A contact written with the new token goes to that list.
    const contact = await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: "First, Partner" } } }, token);
    expect(contact.status, contact.text).toBe(201);
    expect(contact.body.data.relationships.account_list.data.id).toBe(list.body.id);
    // Stored on the list's database alone.
    expect(await placedOn.$count(schema.contacts, eq(schema.contacts.id, contact.body.data.id))).toBe(1);
    expect(await database(env.DB).$count(schema.contacts, eq(schema.contacts.id, contact.body.data.id))).toBe(0);

    const lines = logged.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('"message":"admin"')).map((line) => JSON.parse(line));
    expect(lines).toEqual([
      expect.objectContaining({ action: "user:add", user_id: created.body.id }),
      expect.objectContaining({ action: "list:add", account_list_id: list.body.id, user_id: created.body.id, database: list.body.database }),
    ]);
  });

  it("refuse a second user with the same e-mail in any case, bad fields and an unknown user, storing nothing", async () => {
    const email = newEmail();
    await addUser({ email });
    const before = await db.$count(schema.users);
    const duplicate = await admin("POST", "/users", { email: email.toUpperCase(), first_name: "Other", last_name: "Person" });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errors[0]).toMatchObject({ detail: `A user with the e-mail address ${email.toUpperCase()} already exists`, source: { pointer: "/email" } });
    const bad = await admin("POST", "/users", { email: "not-an-address", first_name: "", time_zone: "Mars/Olympus", locale: "xx" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { source: { pointer: string } }) => error.source.pointer).sort()).toEqual(["/email", "/first_name", "/last_name", "/locale", "/time_zone"]);
    expect((await admin("POST", "/users", "not json")).status).toBe(400);
    expect(await db.$count(schema.users)).toBe(before);

    const lists = await db.$count(schema.accountLists);
    expect((await admin("POST", "/account_lists", { user: uuid(), name: "Nobody's", currency: "USD" })).status).toBe(404);
    const badList = await admin("POST", "/account_lists", { user: "nope", name: " ", currency: "XYZ" });
    expect(badList.status).toBe(400);
    expect(badList.body.errors.map((error: { source: { pointer: string } }) => error.source.pointer).sort()).toEqual(["/currency", "/name", "/user"]);
    const owner = await addUser();
    for (const [named, detail] of [
      ["LIST_DB_9", "database LIST_DB_9 is not a list database of this deployment"],
      ["IMPORT_FILES", "database must name a list database binding (DB or LIST_DB_<name>)"],
    ]) {
      const refused = await admin("POST", "/account_lists", { user: owner, name: "Placed", currency: "USD", database: named });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ detail, source: { pointer: "/database" } });
    }
    expect(await db.$count(schema.accountLists)).toBe(lists);
  });
});

describe("list:member and list:remove", () => {
  it("give and take access as a user or a coach; the last user stays; unknown ids are 404", async () => {
    const owner = await addUser();
    const list = (await admin("POST", "/account_lists", { user: owner, name: "Shared", currency: "USD" })).body.id;
    const helper = await addUser();
    const helperToken = await tokenFor(helper);
    expect((await get(`/api/v2/account_lists/${list}`, helperToken)).status).toBe(403);

    const coach = await admin("PUT", `/account_lists/${list}/members/${helper}`, { coach: true });
    expect(coach.body).toEqual({ account_list_id: list, user_id: helper, role: "coach" });
    expect((await get(`/api/v2/account_lists/${list}`, helperToken)).status).toBe(200);
    expect((await post("/api/v2/contacts", { data: { type: "contacts", attributes: { name: "Coach's", account_list_id: list } } }, helperToken)).status).not.toBe(201);

    expect((await admin("PUT", `/account_lists/${list}/members/${helper}`, {})).body.role).toBe("user");
    const coaches = await db.select().from(schema.accountListCoaches).where(eq(schema.accountListCoaches.accountListId, list));
    expect(coaches).toEqual([]);

    // The owner may go now that another user is there; the helper, then the last user, may not.
    expect((await admin("DELETE", `/account_lists/${list}/members/${owner}`)).status).toBe(200);
    const last = await admin("DELETE", `/account_lists/${list}/members/${helper}`);
    expect(last.status).toBe(409);
    expect(last.body.errors[0].detail).toBe("The last user of an account list cannot be removed from it");
    expect((await admin("PUT", `/account_lists/${list}/members/${helper}`, { coach: true })).status).toBe(409);
    expect((await get(`/api/v2/account_lists/${list}`, helperToken)).status).toBe(200);

    expect((await admin("DELETE", `/account_lists/${list}/members/${owner}`)).status).toBe(404);
    expect((await admin("PUT", `/account_lists/${uuid()}/members/${helper}`, {})).status).toBe(404);
    expect((await admin("PUT", `/account_lists/${list}/members/${uuid()}`, {})).status).toBe(404);
    expect((await admin("PUT", `/account_lists/${list}/members/${helper}`, { coach: "yes" })).status).toBe(400);
  });
});

describe("the last user of a list", () => {
  it("stays whatever removals run at once, and a user made coach loses the list as their default", async () => {
    const first = await addUser();
    const list = (await admin("POST", "/account_lists", { user: first, name: "Two users", currency: "USD" })).body.id;
    const second = await addUser();
    await admin("PUT", `/account_lists/${list}/members/${second}`, {});
    const answers = await Promise.all([admin("DELETE", `/account_lists/${list}/members/${first}`), admin("DELETE", `/account_lists/${list}/members/${second}`)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await db.$count(schema.accountListUsers, eq(schema.accountListUsers.accountListId, list))).toBe(1);

    // The user left is made a coach beside a new user: the list is no longer their default (it was the first's).
    const [{ userId: remaining }] = await db.select().from(schema.accountListUsers).where(eq(schema.accountListUsers.accountListId, list));
    const third = await addUser();
    await admin("PUT", `/account_lists/${list}/members/${third}`, {});
    expect((await admin("PUT", `/account_lists/${list}/members/${remaining}`, { coach: true })).status).toBe(200);
    const [user] = await db.select().from(schema.users).where(eq(schema.users.id, remaining));
    expect(user.defaultAccountListId).toBeNull();
    // The new user is now the last one: they cannot become a coach.
    expect((await admin("PUT", `/account_lists/${list}/members/${third}`, { coach: true })).status).toBe(409);
    expect(await db.$count(schema.accountListUsers, eq(schema.accountListUsers.accountListId, list))).toBe(1);
  });
});

describe("user:disable and user:enable", () => {
  it("refuse the user's tokens while disabled, keep their data, and restore access", async () => {
    const viewer = await createViewer();
    const contact = await insertContact(viewer.list.id, "Kept, Data");
    const disabled = await admin("POST", `/users/${viewer.user.id}/disable`);
    expect(disabled.body).toEqual({ id: viewer.user.id, disabled: true });
    const refused = await get("/api/v2/contacts", viewer.token);
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].detail).toBe("The access token's user is disabled");
    expect(await db.$count(schema.contacts, eq(schema.contacts.id, contact.id))).toBe(1);
    // Again: nothing more changes.
    expect((await admin("POST", `/users/${viewer.user.id}/disable`)).status).toBe(200);

    expect((await admin("POST", `/users/${viewer.user.id}/enable`)).body).toEqual({ id: viewer.user.id, disabled: false });
    expect((await get("/api/v2/contacts", viewer.token)).status).toBe(200);
    expect((await admin("POST", `/users/${uuid()}/disable`)).status).toBe(404);
  });
});

type Resource = { type: string; id: string; attributes: Record<string, unknown> };

describe("list:export", () => {
  it("writes every record the API lists for the list, one JSON:API document per line", async () => {
    const viewer = await createViewer();
    const giving = await givingTo(viewer.list.id);
    for (let i = 0; i < 3; i++) {
      const contact = await insertContact(viewer.list.id, `Exported ${i}`, { status: "Partner - Financial" });
      const person = await insertPerson(contact.id, `Person ${i}`);
      await db.insert(schema.emailAddresses).values({ id: uuid(), personId: person.id, email: `p${i}@example.org`, ...timestamps() });
      await db.insert(schema.addresses).values({ id: uuid(), contactId: contact.id, street: `${i} Main St`, ...timestamps() });
      const task = await insertTask(viewer.list.id, [contact.id], { subject: `Call ${i}` });
      await db.insert(schema.comments).values({ id: uuid(), taskId: task.id, body: `Note ${i}`, ...timestamps() });
      await giving.give(contact.id, "25", `2026-0${i + 1}-15`);
    }
    await insertContact(viewer.list.id, "Hidden, Status", { status: "Not Interested" });
    const appeal = await post("/api/v2/appeals", { data: { type: "appeals", attributes: { name: "Winter", amount: "1000" }, relationships: { account_list: { data: { type: "account_lists", id: viewer.list.id } } } } }, viewer.token);
    expect(appeal.status, appeal.text).toBe(201);
    const other = await createViewer();
    await insertContact(other.list.id, "Someone, Else's");

    const answer = await admin("GET", `/account_lists/${viewer.list.id}/export`);
    expect(answer.status).toBe(200);
    const lines = answer.text.trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(lines[0].meta).toMatchObject({ account_list_id: viewer.list.id });
    const exported = lines.slice(1).map((line: { data: Resource }) => line.data);
    const byKey = new Map(exported.map((resource: Resource) => [`${resource.type}:${resource.id}`, resource]));
    expect(byKey.size).toBe(exported.length);
    expect(exported.some((resource: Resource) => resource.attributes?.name === "Someone, Else's")).toBe(false);

    const listed = async (path: string) => (await get(path, viewer.token)).body.data as Resource[];
    const L = viewer.list.id;
    const everything = [
      ...(await listed(`/api/v2/account_lists/${L}`).then((data) => [data].flat())),
      ...(await listed(`/api/v2/contacts?filter[account_list_id]=${L}&filter[status]=active,hidden,null&per_page=500`)),
      ...(await listed(`/api/v2/contacts/people?per_page=500`)),
      ...(await listed(`/api/v2/tasks?filter[account_list_id]=${L}&per_page=500`)),
      ...(await listed(`/api/v2/account_lists/${L}/donations?per_page=500`)),
      ...(await listed(`/api/v2/account_lists/${L}/designation_accounts`)),
      ...(await listed(`/api/v2/appeals?filter[account_list_id]=${L}`)),
    ];
    for (const task of await listed(`/api/v2/tasks?filter[account_list_id]=${L}`)) everything.push(...(await listed(`/api/v2/tasks/${task.id}/comments`)));
    expect(everything.length).toBeGreaterThan(15);
    for (const resource of everything) expect(byKey.has(`${resource.type}:${resource.id}`), `${resource.type} ${resource.id}`).toBe(true);
    expect(exported.filter((resource: Resource) => resource.type === "contacts")).toHaveLength(4);
    // Each record as the API shows it.
    const [contact] = await listed(`/api/v2/contacts?filter[account_list_id]=${L}&per_page=1`);
    expect(byKey.get(`contacts:${contact.id}`)).toEqual((await get(`/api/v2/contacts/${contact.id}`, viewer.token)).body.data);

    expect((await admin("GET", `/account_lists/${uuid()}/export`)).status).toBe(404);
  });
});

describe("user:erase", () => {
  it("shows what would go, then erases in steps that resume where they stopped, leaving shared lists without the user", async () => {
    const leaving = await createViewer();
    const sole = leaving.list;
    const stayer = await createViewer();
    await addToList(stayer.list.id, leaving.user.id);
    const stayerContact = await insertContact(stayer.list.id, "Stays, Here");
    // Enough rows that one step cannot finish: 2,000 contacts with a person each, and some tasks.
    await storage.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
       INSERT INTO contacts (id, account_list_id, name, status, created_at, updated_at) SELECT lower(hex(randomblob(16))), ?, 'Erased ' || i, 'Partner - Financial', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z' FROM n`,
    )
      .bind(sole.id)
      .run();
    await storage.prepare(`INSERT INTO people (id, contact_id, first_name, created_at, updated_at) SELECT lower(hex(randomblob(16))), id, 'P', created_at, updated_at FROM contacts WHERE account_list_id = ?`).bind(sole.id).run();
    await insertTask(sole.id, [], { subject: "Gone with the list" });
    // Where they signed in (src/auth/identities.ts): the links go with them, the stayer's stays.
    const link = (userId: string, subject: string) => ({ id: uuid(), issuer: "https://id.example.org", subject, userId, ...timestamps() });
    await db.insert(schema.identityLinks).values([link(leaving.user.id, "leaving"), link(stayer.user.id, "stayer")]);
    // A deletion offline clients are still to learn of: it goes with its list.
    const deletedTask = await insertTask(sole.id, [], { subject: "Deleted before" });
    expect((await del(`/api/v2/tasks/${deletedTask.id}`, leaving.token)).status).toBe(204);

    const plan = await admin("GET", `/users/${leaving.user.id}/erasure`);
    expect(plan.status).toBe(200);
    expect(plan.body.memberships).toEqual([{ account_list_id: stayer.list.id, role: "user" }]);
    expect(plan.body.sole_lists).toEqual([{ account_list_id: sole.id, rows: expect.objectContaining({ contacts: 2000, people: 2000, tasks: 1, deleted_records: 1 }) }]);
    // Looking changed nothing.
    expect((await get("/api/v2/contacts?per_page=1", leaving.token)).status).toBe(200);

    const first = await admin("POST", `/users/${leaving.user.id}/erasure`);
    expect(first.body.done).toBe(false);
    // Cut short: the user is already refused, part of the list is gone, the rest is still there.
    expect((await get("/api/v2/contacts?per_page=1", leaving.token)).status).toBe(401);
    const left = await db.$count(schema.contacts, eq(schema.contacts.accountListId, sole.id));
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(2000);

    let steps = 1;
    for (let step = first.body; !step.done && steps < 50; steps++) {
      const answer = await admin("POST", `/users/${leaving.user.id}/erasure`);
      expect(answer.status, answer.text).toBe(200);
      step = answer.body;
    }
    expect(steps).toBeGreaterThan(1);
    expect(steps).toBeLessThan(50);
    expect(await db.$count(schema.users, eq(schema.users.id, leaving.user.id))).toBe(0);
    expect(await db.$count(schema.accountLists, eq(schema.accountLists.id, sole.id))).toBe(0);
    expect(await db.$count(schema.contacts, eq(schema.contacts.accountListId, sole.id))).toBe(0);
    expect((await storage.prepare("SELECT count(*) AS n FROM people WHERE contact_id IS NOT NULL AND contact_id NOT IN (SELECT id FROM contacts)").first<{ n: number }>())!.n).toBe(0);
    expect(await db.$count(schema.accountListUsers, eq(schema.accountListUsers.userId, leaving.user.id))).toBe(0);
    expect(await db.select({ subject: schema.identityLinks.subject }).from(schema.identityLinks)).toEqual([{ subject: "stayer" }]);
    expect(await db.$count(schema.listRowCounts, eq(schema.listRowCounts.accountListId, sole.id))).toBe(0);
    expect(await db.$count(schema.contactNameStamps, eq(schema.contactNameStamps.accountListId, sole.id))).toBe(0);
    expect(await db.$count(schema.deletedRecords, eq(schema.deletedRecords.accountListId, sole.id))).toBe(0);
    // The shared list stays, with its other user and rows; its kept counts still equal count(*).
    expect(await db.$count(schema.contacts, eq(schema.contacts.id, stayerContact.id))).toBe(1);
    expect((await get(`/api/v2/account_lists/${stayer.list.id}`, stayer.token)).status).toBe(200);
    const drift = await storage.prepare(
      `SELECT count(*) AS n FROM (SELECT account_list_id, count(*) AS rows FROM contacts GROUP BY account_list_id) c
       LEFT JOIN (SELECT account_list_id, sum(rows) AS rows FROM list_row_counts WHERE table_name = 'contacts' GROUP BY account_list_id) k USING (account_list_id)
       WHERE k.rows IS NOT c.rows`,
    ).first<{ n: number }>();
    expect(drift!.n).toBe(0);
    await expectKeptSumsExact();
    // Run again after it finished: the user is gone.
    expect((await admin("GET", `/users/${leaving.user.id}/erasure`)).status).toBe(404);
    expect((await admin("POST", `/users/${leaving.user.id}/erasure`)).body).toEqual({ user_id: leaving.user.id, done: true, deleted: {} });
  });
  it("deletes the files the user uploaded to import, in their own lists and in shared ones, before the rows that name them", async () => {
    const leaving = await createViewer();
    const stayer = await createViewer();
    await addToList(stayer.list.id, leaving.user.id);
    const uploads = [
      { id: uuid(), accountListId: leaving.list.id, userId: leaving.user.id },
      { id: uuid(), accountListId: stayer.list.id, userId: leaving.user.id },
      { id: uuid(), accountListId: stayer.list.id, userId: stayer.user.id },
    ].map((upload) => ({ ...upload, fileKey: `account_lists/${upload.accountListId}/imports/${upload.id}.csv` }));
    for (const upload of uploads) {
      await env.IMPORT_FILES.put(upload.fileKey, "first_name\nAnn\n");
      await db.insert(schema.imports).values({ ...upload, fileHeaders: {}, fileConstants: {}, sampleRows: [], fileHeadersMappings: {}, fileConstantsMappings: {}, ...timestamps() });
    }
    const first = await admin("POST", `/users/${leaving.user.id}/erasure`);
    expect(first.body).toEqual({ user_id: leaving.user.id, done: false, deleted: { import_files: 2 } });
    for (let step = first.body, steps = 0; !step.done && steps < 10; steps++) step = (await admin("POST", `/users/${leaving.user.id}/erasure`)).body;
    const kept = await Promise.all(uploads.map(async (upload) => (await env.IMPORT_FILES.head(upload.fileKey)) !== null));
    expect(kept).toEqual([false, false, true]);
    expect(await db.$count(schema.imports, eq(schema.imports.userId, leaving.user.id))).toBe(0);
  });
});

describe("identity:link, identity:unlink and identity:list", () => {
  const CAS_BASE_URL = "https://thekey.example.org/cas";

  it("link a provider's subject to a user, one per provider and each subject to one user, which then signs them in", async () => {
    const provider = await TestProvider.start();
    const bindings = { ...env, OIDC_ISSUER: provider.issuer, OIDC_AUDIENCE: "web-app", CAS_BASE_URL };
    const call = (method: string, path: string, body?: unknown) => admin(method, path, body, TEST_ADMIN_SECRET, bindings);
    const signIn = async (sub: string, email: string) =>
      request("POST", "/api/v2/user/authenticate", { bindings, headers: { "CF-Connecting-IP": "203.0.113.7" }, body: { data: { type: "authenticate", attributes: { id_token: await provider.sign({ sub, email, email_verified: true }) } } } });
    const [first, second] = [await addUser(), await addUser()];
    const firstEmail = (await db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, first)))[0].email;
    const links = () => db.$count(schema.identityLinks);

    expect((await call("GET", `/users/${first}/identities`)).body).toEqual({ user_id: first, identities: [] });
    const linked = await call("POST", `/users/${first}/identities`, { issuer: provider.issuer, subject: "person-1" });
    expect(linked.status, linked.text).toBe(201);
    expect(linked.body).toEqual({ user_id: first, issuer: provider.issuer, subject: "person-1" });
    // Again: the link is there already.
    const again = await call("POST", `/users/${first}/identities`, { issuer: provider.issuer, subject: "person-1" });
    expect([again.status, again.body]).toEqual([200, linked.body]);
    expect((await call("POST", `/users/${first}/identities`, { issuer: CAS_BASE_URL, subject: "F2F4A2A5-0C6B-4D8E-9A2B-3C1D5E6F7A8B" })).status).toBe(201);
    const listed = await call("GET", `/users/${first}/identities`);
    expect(listed.body).toEqual({
      user_id: first,
      identities: [
        { issuer: provider.issuer, subject: "person-1", created_at: expect.any(String) },
        { issuer: CAS_BASE_URL, subject: "F2F4A2A5-0C6B-4D8E-9A2B-3C1D5E6F7A8B", created_at: expect.any(String) },
      ].sort((a, b) => a.issuer.localeCompare(b.issuer)),
    });

    const before = await links();
    const refusals: Array<[string, string, unknown, number, Record<string, string>, string]> = [
      ["POST", `/users/${first}/identities`, { issuer: provider.issuer, subject: "person-2" }, 409, { pointer: "/issuer" }, "The user is linked to the subject person-1 of this issuer: unlink it first"],
      ["POST", `/users/${second}/identities`, { issuer: provider.issuer, subject: "person-1" }, 409, { pointer: "/subject" }, `This subject of the issuer is linked to user ${first}: unlink it there first`],
      ["POST", `/users/${second}/identities`, { issuer: "https://elsewhere.example.org", subject: "x" }, 400, { pointer: "/issuer" }, `issuer must be one this deployment signs in with: ${provider.issuer}, ${CAS_BASE_URL}`],
      ["POST", `/users/${second}/identities`, { issuer: provider.issuer, subject: " " }, 400, { pointer: "/subject" }, "subject can't be blank"],
      ["POST", `/users/${uuid()}/identities`, { issuer: provider.issuer, subject: "x" }, 404, {}, ""],
      ["DELETE", `/users/${second}/identities?issuer=${encodeURIComponent(provider.issuer)}`, undefined, 404, { parameter: "issuer" }, `User ${second} has no identity at ${provider.issuer}`],
      ["DELETE", `/users/${first}/identities`, undefined, 400, { parameter: "issuer" }, "issuer is required: the provider whose link to remove"],
    ];
    for (const [method, path, body, status, source, detail] of refusals) {
      const answer = await call(method, path, body);
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      if (detail) expect(answer.body.errors[0]).toMatchObject({ detail, ...(Object.keys(source).length ? { source } : {}) });
    }
    expect(await links()).toBe(before);
    // Where no provider is configured, no issuer is one to link.
    const unconfigured = await admin("POST", `/users/${second}/identities`, { issuer: provider.issuer, subject: "x" });
    expect(unconfigured.body.errors[0].detail).toBe("issuer must be one this deployment signs in with: none is configured (OIDC_ISSUER, CAS_BASE_URL)");

    // The link signs in; a newcomer with the user's address but another subject does not.
    const signedIn = await signIn("person-1", "changed@example.org");
    expect(signedIn.status, signedIn.text).toBe(200);
    expect((await get("/api/v2/user", signedIn.body.data.attributes.json_web_token)).body.data.id).toBe(first);
    expect((await signIn("person-2", firstEmail)).status).toBe(403);

    // The operator decides person-2 is the user now: unlink person-1, link person-2.
    const unlinked = await call("DELETE", `/users/${first}/identities?issuer=${encodeURIComponent(provider.issuer)}`);
    expect([unlinked.status, unlinked.body]).toEqual([200, { user_id: first, issuer: provider.issuer, subject: "person-1", removed: true }]);
    expect((await call("POST", `/users/${first}/identities`, { issuer: provider.issuer, subject: "person-2" })).status).toBe(201);
    const relinked = await signIn("person-2", firstEmail);
    expect((await get("/api/v2/user", relinked.body.data.attributes.json_web_token)).body.data.id).toBe(first);
    expect((await signIn("person-1", firstEmail)).status).toBe(403);
    expect((await call("GET", `/users/${first}/identities`)).body.identities.map((identity: { subject: string }) => identity.subject).sort()).toEqual(["F2F4A2A5-0C6B-4D8E-9A2B-3C1D5E6F7A8B", "person-2"]);
  });

  it("unlinking signs the user out everywhere; replace swaps the subject in one statement and signs them out too", async () => {
    const provider = await TestProvider.start();
    const bindings = { ...env, OIDC_ISSUER: provider.issuer, OIDC_AUDIENCE: "web-app", VIEWER_CACHE_SECONDS: "300" };
    const call = (method: string, path: string, body?: unknown) => admin(method, path, body, TEST_ADMIN_SECRET, bindings);
    const tokenOf = async (sub: string, email: string) => {
      const answer = await request("POST", "/api/v2/user/authenticate", { bindings, headers: { "CF-Connecting-IP": "203.0.113.8" }, body: { data: { type: "authenticate", attributes: { id_token: await provider.sign({ sub, email, email_verified: true }) } } } });
      expect(answer.status, answer.text).toBe(200);
      return answer.body.data.attributes.json_web_token as string;
    };
    const me = async (token: string) => (await get("/api/v2/user", token, { bindings })).status;
    const subjects = async (userId: string) => (await db.select({ subject: schema.identityLinks.subject }).from(schema.identityLinks).where(eq(schema.identityLinks.userId, userId))).map((row) => row.subject);
    const generation = async (userId: string) => (await db.select({ generation: schema.users.tokenGeneration }).from(schema.users).where(eq(schema.users.id, userId)))[0].generation;
    const [user, other] = [await addUser(), await addUser()];
    const email = (await db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, user)))[0].email;
    const issuer = provider.issuer;

    // The user signed in as person-a; the operator unlinks person-a: the token it got is refused at once.
    expect((await call("POST", `/users/${user}/identities`, { issuer, subject: "person-a" })).status).toBe(201);
    const before = await tokenOf("person-a", email);
    expect(await me(before)).toBe(200);
    const signedInGeneration = await generation(user);
    expect((await call("DELETE", `/users/${user}/identities?issuer=${encodeURIComponent(issuer)}`)).status).toBe(200);
    expect(await me(before)).toBe(401);
    expect(await generation(user)).toBe(signedInGeneration + 1);
    // A refused unlink signs no one out.
    const otherToken = await tokenOf("person-other", (await db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, other)))[0].email);
    expect((await call("DELETE", `/users/${user}/identities?issuer=${encodeURIComponent(issuer)}`)).status).toBe(404);
    expect(await generation(user)).toBe(signedInGeneration + 1);
    expect(await me(otherToken)).toBe(200);

    // replace where the user has no link at the issuer links, as without it.
    const linked = await call("POST", `/users/${user}/identities`, { issuer, subject: "person-b", replace: true });
    expect([linked.status, linked.body]).toEqual([201, { user_id: user, issuer, subject: "person-b" }]);
    const asB = await tokenOf("person-b", email);
    // The same subject again changes nothing, and signs no one out.
    expect((await call("POST", `/users/${user}/identities`, { issuer, subject: "person-b", replace: true })).status).toBe(200);
    expect(await me(asB)).toBe(200);
    // A subject linked to someone else is refused; nothing changes.
    const taken = await call("POST", `/users/${user}/identities`, { issuer, subject: "person-other", replace: true });
    expect(taken.status).toBe(409);
    expect(taken.body.errors[0]).toMatchObject({ detail: `This subject of the issuer is linked to user ${other}: unlink it there first`, source: { pointer: "/subject" } });
    expect(await subjects(user)).toEqual(["person-b"]);
    expect(await me(asB)).toBe(200);
    const notABoolean = await call("POST", `/users/${user}/identities`, { issuer, subject: "person-c", replace: "yes" });
    expect(notABoolean.status).toBe(400);
    expect(notABoolean.body.errors[0]).toMatchObject({ detail: "replace must be true or false", source: { pointer: "/replace" } });

    // The swap: person-c is the user's subject, the one link row changed in place, person-b's token refused.
    const [row] = await db.select({ id: schema.identityLinks.id }).from(schema.identityLinks).where(eq(schema.identityLinks.userId, user));
    const replaced = await call("POST", `/users/${user}/identities`, { issuer, subject: "person-c", replace: true });
    expect([replaced.status, replaced.body]).toEqual([200, { user_id: user, issuer, subject: "person-c", replaced_subject: "person-b" }]);
    expect(await db.select({ id: schema.identityLinks.id, subject: schema.identityLinks.subject }).from(schema.identityLinks).where(eq(schema.identityLinks.userId, user))).toEqual([{ id: row.id, subject: "person-c" }]);
    expect(await me(asB)).toBe(401);
    expect(await me(await tokenOf("person-c", email))).toBe(200);
    expect(await me(otherToken)).toBe(200);
  });
});
