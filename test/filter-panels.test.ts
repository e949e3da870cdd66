/**
 * The web app's filter panels, GET /api/v2/contacts/filters and /tasks/filters: the original's items with options
 * from the list's own data, and every option a value the list route's filter takes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../drizzle/schema";
import { errorOf, get, request, type ApiResponse } from "./helpers/api";
import { givingTo, insertAddress, insertAppeal, insertContact, insertTask } from "./helpers/contact-fixtures";
import { addToList, createUser, createViewer, db, timestamps, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;

interface Item {
  type: string;
  id: string;
  attributes: { name: string; title: string; type: string; priority: number; parent: string | null; default_selection: unknown; multiple?: boolean; options?: Array<{ name: string; id: string }> };
}

/**
 * The items carry an attribute named `type`, which JSON:API reserves but the web app draws its panels by: the
 * answer is read raw (the API description still checks it).
 */
const panel = async (path: string, token: string): Promise<ApiResponse & { items: Item[] }> => {
  const answer = await request("GET", path, { token, raw: true });
  return { ...answer, items: answer.body?.data ?? [] };
};
const optionIds = (items: Item[], name: string) => items.find((item) => item.attributes.name === name)?.attributes.options?.map((option) => option.id);

beforeAll(async () => {
  alice = await createViewer({ currency: "CAD" });
  bob = await createViewer();
  const giver = await insertContact(alice.list.id, "Giver, Gail", { pledgeAmount: "25", pledgeCurrency: "EUR", churchName: "Grace Chapel", timezone: "America/Chicago", locale: "fr" });
  const referred = await insertContact(alice.list.id, "Referred, Rae");
  await db.insert(schema.contactReferrals).values({ id: uuid(), referredById: giver.id, referredToId: referred.id, ...timestamps() });
  await insertAddress(giver.id, { city: "Springfield", state: "IL", country: "United States", region: "Midwest", metroArea: "Springfield Metro", primaryMailingAddress: true });
  await insertTask(alice.list.id, [giver.id], { activityType: "Call" });
  await insertAppeal(alice.list.id, "Year End");
  const giving = await givingTo(alice.list.id);
  await giving.give(giver.id, "12.5", "2026-01-15");
  const bobs = await insertContact(bob.list.id, "Bobs, Only", { churchName: "Bobs Church", pledgeAmount: "99" });
  await insertAddress(bobs.id, { city: "Shelbyville" });
});

describe("GET /api/v2/contacts/filters", () => {
  it("answers the original's items with options from the list's data, as the web app asks", async () => {
    const answer = await panel(`/api/v2/contacts/filters?filter%5Baccount_list_id%5D=${alice.list.id}`, alice.token);
    expect(answer.status, answer.text).toBe(200);
    const items = answer.items;
    expect(items.length).toBe(36);
    const status = items.find((item) => item.attributes.name === "status")!;
    expect(status).toMatchObject({ type: "contact_filters", id: "0", attributes: { title: "Status", type: "multiselect", priority: 0, parent: null, default_selection: "active, null", multiple: true } });
    expect(status.attributes.options!.slice(0, 3).map((option) => option.id)).toEqual(["active", "hidden", "null"]);
    const city = items.find((item) => item.attributes.name === "city")!;
    expect(city.attributes).toMatchObject({ title: "City", parent: "Contact Location", type: "multiselect" });
    expect(city.attributes.options).toEqual([{ name: "-- Any --", id: "", placeholder: "None" }, { name: "-- None --", id: "none" }, { name: "Springfield", id: "Springfield" }]);
    expect(optionIds(items, "church")).toEqual(["", "none", "Grace Chapel"]);
    expect(optionIds(items, "pledge_amount")).toEqual(["", "25.0"]);
    expect(optionIds(items, "pledge_currency")).toEqual(["", "CAD", "EUR"]);
    expect(optionIds(items, "timezone")).toEqual(["", "America/Chicago"]);
    expect(optionIds(items, "locale")).toEqual(["", "fr"]);
    expect(optionIds(items, "related_task_action")).toEqual(["", "none", "Call"]);
    expect(optionIds(items, "donation_amount")).toEqual(["", "12.5"]);
    expect(items.find((item) => item.attributes.name === "referrer")!.attributes.options!.at(-1)).toMatchObject({ name: "Giver, Gail" });
    expect(items.find((item) => item.attributes.name === "appeal")!.attributes.options!.at(-1)).toMatchObject({ name: "Year End" });
    expect(items.find((item) => item.attributes.name === "address_historic")!.attributes).toEqual({
      name: "address_historic", title: "Address No Longer Valid", type: "single_checkbox", priority: 14, parent: "Contact Location", default_selection: false,
    });
    // Nothing of another user's list.
    expect(answer.text).not.toContain("Shelbyville");
    expect(answer.text).not.toContain("Bobs Church");
  });

  it("offers only values the contacts list takes: every option of every item is accepted by its filter", async () => {
    const items = (await panel(`/api/v2/contacts/filters?filter[account_list_id]=${alice.list.id}`, alice.token)).items;
    await expectEveryOptionAccepted(items, "/api/v2/contacts", alice.list.id);
  });

  it("is for the list's users and coaches; another user's list is not found", async () => {
    const coach = await createUser();
    await addToList(alice.list.id, coach.id, "coach");
    const coached = await panel(`/api/v2/contacts/filters?filter[account_list_id]=${alice.list.id}`, coach.token);
    expect(coached.status).toBe(200);
    expect(optionIds(coached.items, "church")).toContain("Grace Chapel");
    errorOf(await get(`/api/v2/contacts/filters?filter[account_list_id]=${alice.list.id}`, bob.token), 404);
    errorOf(await get("/api/v2/contacts/filters"), 401);
  });
});

describe("GET /api/v2/tasks/filters", () => {
  it("answers the task filters, the contact ones drawn from the contacts' panel, each option accepted by the task list", async () => {
    const answer = await panel(`/api/v2/tasks/filters?filter%5Baccount_list_id%5D=${alice.list.id}`, alice.token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.items.map((item) => item.attributes.name).sort()).toEqual(
      [
        "activity_type", "contact_ids", "contact_church", "contact_city", "contact_country", "contact_info_addr", "contact_info_email", "contact_info_mobile",
        "contact_info_phone", "contact_info_work_phone", "contact_likely", "contact_metro_area", "contact_newsletter", "contact_pledge_frequency",
        "contact_referrer", "contact_region", "contact_state", "contact_status", "contact_timezone", "contact_type", "contact_designation_account_id",
      ].sort(),
    );
    expect(answer.items.find((item) => item.attributes.name === "contact_status")!.attributes.default_selection).toBe("");
    expect(optionIds(answer.items, "contact_city")).toEqual(["", "none", "Springfield"]);
    expect(optionIds(answer.items, "contact_ids")).toHaveLength(3);
    await expectEveryOptionAccepted(answer.items, "/api/v2/tasks", alice.list.id);
  });
});

/** Each option's id sent to the list route as its item's filter answers 200. */
async function expectEveryOptionAccepted(items: Item[], listPath: string, listId: string): Promise<void> {
  for (const item of items) {
    const { name, type, options } = item.attributes;
    const values: string[] =
      type === "single_checkbox" ? ["true"] : type === "text" ? (options ?? []).map((option) => `[${option.id}]=1`) : (options ?? []).filter((option) => option.id !== "").map((option) => option.id);
    expect(values.length, name).toBeGreaterThan(0);
    for (const value of values) {
      const parameter = value.startsWith("[") ? `filter[${name}]${value}` : `filter[${name}]=${encodeURIComponent(value)}`;
      const answer = await get(`${listPath}?filter[account_list_id]=${listId}&${parameter}&per_page=1`, alice.token);
      expect(answer.status, `${parameter}: ${answer.text}`).toBe(200);
    }
  }
}
