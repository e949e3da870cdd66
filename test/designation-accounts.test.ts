import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { errorOf, get, patch, put, request } from "./helpers/api";
import { addToList, createUser, createViewer, db, timestamps, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
let coach: Awaited<ReturnType<typeof createUser>>;
const orgId = uuid();
const ids = { usd: uuid(), eur: uuid(), bare: uuid(), numberOnly: uuid(), bobs: uuid(), balanceOld: uuid(), balanceNew: uuid() };

const base = (listId: string) => `/api/v2/account_lists/${listId}/designation_accounts`;
const body = (attributes: Record<string, unknown>) => ({ data: { type: "designation_accounts", attributes } });

async function stored(id: string) {
  const [row] = await db.select().from(schema.designationAccounts).where(eq(schema.designationAccounts.id, id));
  return row;
}

beforeAll(async () => {
  alice = await createViewer({ currency: "CAD" });
  bob = await createViewer();
  coach = await createUser();
  await addToList(alice.list.id, coach.id, "coach");
  await db.insert(schema.currencyRates).values([
    { code: "CAD", rate: "1.25", updatedAt: "2026-01-01T00:00:00Z" },
    { code: "EUR", rate: "0.8", updatedAt: "2026-01-01T00:00:00Z" },
    { code: "JPY", rate: "150.123", updatedAt: "2026-01-01T00:00:00Z" },
  ]);
  await db.insert(schema.organizations).values({ id: orgId, name: "Cru Canada", apiClass: "DataServer", helpEmail: "help@example.org", oauth: true, ...timestamps() });
  const account = (id: string, values: Partial<typeof schema.designationAccounts.$inferInsert>, offset: number) => ({
    id,
    accountListId: alice.list.id,
    ...timestamps(offset),
    ...values,
  });
  for (const row of [
    account(ids.usd, { name: "Staff Fund", designationNumber: "0012345", legacyDesignationNumber: "12345", currency: "USD", balance: "200", balanceUpdatedAt: "2026-01-02T03:04:05Z", organizationId: orgId }, 10),
    account(ids.eur, { name: "Euro Ministry", designationNumber: "987", currency: "EUR", balance: "50.01" }, 20),
    account(ids.bare, { balance: "-10.5" }, 30),
    account(ids.numberOnly, { designationNumber: "5550001", currency: "JPY", balance: "1000" }, 40),
    { ...account(ids.bobs, { name: "Bob Fund", currency: "USD", balance: "1" }, 50), accountListId: bob.list.id },
  ]) {
    await db.insert(schema.designationAccounts).values(row);
  }
  await db.insert(schema.balances).values([
    { id: ids.balanceOld, designationAccountId: ids.usd, balance: "150", ...timestamps(60) },
    { id: ids.balanceNew, designationAccountId: ids.usd, balance: "200", ...timestamps(70) },
  ]);
});

describe("GET designation accounts", () => {
  it("lists the list's accounts with converted balances, exchange rates and display names", async () => {
    const response = await get(base(alice.list.id), alice.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.map((d: { id: string }) => d.id)).toEqual([ids.usd, ids.eur, ids.bare, ids.numberOnly]);
    expect(response.body.meta.pagination).toEqual({ page: 1, per_page: 25, total_count: 4, total_pages: 1 });
    const [usd, eur, bare, numberOnly] = response.body.data;
    expect(usd.attributes).toMatchObject({
      active: true,
      balance: "200.0",
      balance_updated_at: "2026-01-02T03:04:05Z",
      converted_balance: "250.0",
      currency: "USD",
      currency_symbol: "$",
      designation_number: "0012345",
      legacy_designation_number: "12345",
      display_name: "Staff Fund (0012345)",
      exchange_rate: "1.25",
      name: "Staff Fund",
      organization_name: "Cru Canada",
    });
    expect(usd.relationships.balances.data).toEqual([
      { type: "balances", id: ids.balanceOld },
      { type: "balances", id: ids.balanceNew },
    ]);
    expect(usd.relationships.organization.data).toEqual({ type: "organizations", id: orgId });
    // 50.01 EUR * 1.25 / 0.8 = 78.140625 CAD.
    expect(eur.attributes).toMatchObject({ converted_balance: "78.14", exchange_rate: "1.5625", currency_symbol: "€", display_name: "Euro Ministry (987)", organization_name: null });
    // No currency: the list's own, rate 1.
    expect(bare.attributes).toMatchObject({ converted_balance: "-10.5", exchange_rate: "1.0", currency: null, currency_symbol: null, display_name: "Unknown" });
    expect(bare.relationships.organization.data).toBeNull();
    // 1000 JPY * 1.25 / 150.123 = 8.3265...; the factor's expansion never ends: fifteen significant digits.
    expect(numberOnly.attributes).toMatchObject({ converted_balance: "8.33", exchange_rate: "0.00832650559874236", display_name: "5550001" });
  });

  it("answers exchange_rate exactly as a decimal string, digits a binary float cannot hold included", async () => {
    // Seventeen significant digits: as a JSON number this would come back as 98765432109.87654.
    const viewer = await createViewer({ currency: "ZZX" });
    await db.insert(schema.currencyRates).values({ code: "ZZX", rate: "98765432109.876543", updatedAt: "2026-01-01T00:00:00Z" });
    const accounts = [
      { id: uuid(), accountListId: viewer.list.id, name: "Dollars", currency: "USD", balance: "1", ...timestamps(1) },
      { id: uuid(), accountListId: viewer.list.id, name: "Own currency", currency: "ZZX", balance: "1", ...timestamps(2) },
    ];
    await db.insert(schema.designationAccounts).values(accounts);
    const response = await get(base(viewer.list.id), viewer.token);
    expect(response.status, response.text).toBe(200);
    expect(response.text).toContain('"exchange_rate":"98765432109.876543"');
    expect(response.body.data.map((d: { attributes: { exchange_rate: unknown } }) => d.attributes.exchange_rate)).toEqual(["98765432109.876543", "1.0"]);
    const shown = await get(`${base(viewer.list.id)}/${accounts[0].id}?fields[designation_accounts]=exchange_rate`, viewer.token);
    expect(shown.body.data.attributes).toEqual({ exchange_rate: "98765432109.876543" });
  });

  it("keeps a small factor's precision: significant digits, not fixed places", async () => {
    const viewer = await createViewer({ currency: "USD" });
    await db.insert(schema.currencyRates).values([
      { code: "ZZI", rate: "420000", updatedAt: "2026-01-01T00:00:00Z" },
      { code: "ZZV", rate: "25345.5", updatedAt: "2026-01-01T00:00:00Z" },
      { code: "ZZE", rate: "0.8", updatedAt: "2026-01-01T00:00:00Z" },
    ]);
    await db.insert(schema.designationAccounts).values([
      { id: uuid(), accountListId: viewer.list.id, name: "Rials", currency: "ZZI", balance: "1000000", ...timestamps(1) },
      { id: uuid(), accountListId: viewer.list.id, name: "Dong", currency: "ZZV", balance: "1000000", ...timestamps(2) },
      { id: uuid(), accountListId: viewer.list.id, name: "Euro-like", currency: "ZZE", balance: "8", ...timestamps(3) },
    ]);
    const response = await get(base(viewer.list.id), viewer.token);
    const attributes = response.body.data.map((d: { attributes: Record<string, unknown> }) => [d.attributes.exchange_rate, d.attributes.converted_balance]);
    expect(attributes).toEqual([
      // 1/420000 never ends: fifteen significant digits; balance * rate gives the converted balance to the cent.
      ["0.00000238095238095238", "2.38"],
      ["0.0000394547355546349", "39.45"],
      // 1/0.8 ends after two places: exact.
      ["1.25", "10.0"],
    ]);
  });

  it("filters with wildcard_search on the name (contains, any case) or the number (starts with)", async () => {
    const byName = await get(`${base(alice.list.id)}?filter[wildcard_search]=MINISTRY`, alice.token);
    expect(byName.body.data.map((d: { id: string }) => d.id)).toEqual([ids.eur]);
    expect(byName.body.meta.filter).toEqual({ wildcard_search: "MINISTRY" });
    const byNumber = await get(`${base(alice.list.id)}?filter[wildcardSearch]=555`, alice.token);
    expect(byNumber.body.data.map((d: { id: string }) => d.id)).toEqual([ids.numberOnly]);
    const notInside = await get(`${base(alice.list.id)}?filter[wildcard_search]=2345`, alice.token);
    expect(notInside.body.data).toEqual([]);
    const blank = await get(`${base(alice.list.id)}?filter[wildcard_search]=`, alice.token);
    expect(blank.body.data).toHaveLength(4);
  });

  it("pages, sorts, keeps sparse fieldsets and includes balances and the organization", async () => {
    const page = await get(`${base(alice.list.id)}?per_page=1&page=2&sort=-created_at`, alice.token);
    expect(page.body.data.map((d: { id: string }) => d.id)).toEqual([ids.bare]);
    expect(page.body.meta.pagination).toEqual({ page: 2, per_page: 1, total_count: 4, total_pages: 4 });
    const sparse = await get(`${base(alice.list.id)}/${ids.usd}?fields[designation_accounts]=display_name,converted_balance`, alice.token);
    expect(sparse.body.data.attributes).toEqual({ display_name: "Staff Fund (0012345)", converted_balance: "250.0" });
    const included = await get(`${base(alice.list.id)}/${ids.usd}?include=balances,organization`, alice.token);
    expect(included.body.included).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "balances", id: ids.balanceOld, attributes: expect.objectContaining({ balance: "150.0" }) }),
        expect.objectContaining({ type: "balances", id: ids.balanceNew }),
        expect.objectContaining({
          type: "organizations",
          id: orgId,
          attributes: expect.objectContaining({ name: "Cru Canada", api_class: "DataServer", help_email: "help@example.org", oauth: true }),
        }),
      ]),
    );
    expect(included.body.included).toHaveLength(3);
  });

  it("shows one account; 404 for unknown ids or another list's account, 403 for another user's list, 401 without token", async () => {
    const one = await get(`${base(alice.list.id)}/${ids.eur}`, alice.token);
    expect(one.body.data.attributes.converted_balance).toBe("78.14");
    expect((await get(`${base(alice.list.id)}/${ids.eur}`, coach.token)).status).toBe(200);
    const missing = uuid();
    expect(errorOf(await get(`${base(alice.list.id)}/${missing}`, alice.token), 404).detail).toBe(`Couldn't find DesignationAccount with 'id'=${missing}`);
    errorOf(await get(`${base(alice.list.id)}/${ids.bobs}`, alice.token), 404);
    errorOf(await get(`${base(bob.list.id)}/${ids.bobs}`, alice.token), 403);
    errorOf(await get(base(bob.list.id), alice.token), 403);
    errorOf(await get(base(alice.list.id)), 401);
  });
});

describe("PUT designation accounts", () => {
  it("changes only active; other attributes are ignored", async () => {
    const before = await stored(ids.eur);
    const response = await put(
      `${base(alice.list.id)}/${ids.eur}`,
      body({ active: false, name: "Renamed", balance: "1000000", currency: "USD", updated_in_db_at: before.updatedAt }),
      alice.token,
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ active: false, name: "Euro Ministry", balance: "50.01", currency: "EUR" });
    expect(await stored(ids.eur)).toMatchObject({ active: false, name: "Euro Ministry", balance: "50.01", currency: "EUR" });
    const list = await get(`/api/v2/account_lists/${alice.list.id}?fields[account_lists]=balance`, alice.token);
    // 250 (USD) - 10.5 + 8.3265... : the inactive EUR account no longer counts.
    expect(list.body.data.attributes.balance).toBe("247.83");
    const back = await patch(`${base(alice.list.id)}/${ids.eur}`, body({ active: true, overwrite: true }), alice.token);
    expect(back.body.data.attributes.active).toBe(true);
  });

  it("refuses stale copies, bad values, wrong types, coaches and strangers with nothing changed", async () => {
    const before = await stored(ids.usd);
    const path = `${base(alice.list.id)}/${ids.usd}`;
    const stale = errorOf(await put(path, body({ active: false, updated_in_db_at: "2020-01-01 00:00:00 UTC" }), alice.token), 409);
    expect(stale.meta).toEqual({ updated_in_db_at: before.updatedAt });
    errorOf(await put(path, body({ active: false }), alice.token), 409);
    const bad = errorOf(await put(path, body({ active: "perhaps", overwrite: true }), alice.token), 400);
    expect(bad).toMatchObject({ detail: "Active must be true or false", source: { pointer: "/data/attributes/active" } });
    const wrongType = errorOf(await put(path, { data: { type: "account_lists", attributes: { active: false, overwrite: true } } }, alice.token), 409);
    expect(wrongType.detail).toBe("'account_lists' is not a valid resource type for this endpoint. Expected 'designation_accounts' instead");
    errorOf(await put(path, body({ active: false, overwrite: true, organization_id: uuid() }), alice.token), 409);
    errorOf(await put(path, body({ active: false, overwrite: true }), coach.token), 403);
    errorOf(await put(path, body({ active: false, overwrite: true }), bob.token), 403);
    errorOf(await put(`${base(bob.list.id)}/${ids.bobs}`, body({ active: false, overwrite: true }), alice.token), 403);
    errorOf(await put(`${base(alice.list.id)}/${uuid()}`, body({ active: false, overwrite: true }), alice.token), 404);
    errorOf(await put(path, body({ active: false, overwrite: true })), 401);
    expect(await stored(ids.usd)).toEqual(before);
  });

  it("has no create or delete", async () => {
    errorOf(await request("POST", base(alice.list.id), { token: alice.token, body: body({ active: true }) }), 405);
    errorOf(await request("DELETE", `${base(alice.list.id)}/${ids.usd}`, { token: alice.token }), 405);
    expect(await stored(ids.usd)).toBeDefined();
  });
});
