/**
 * The same data in several users' lists, placed differently (all on one database, or spread over several), for
 * the summaries of a viewer's lists (the home pages' analytics, the filter panels) to be compared: over several
 * databases they must answer what one database answers.
 */
import { expect } from "vitest";
import { get, post, request, type ApiResponse } from "./api";
import type { PlacedUser } from "./placement";

/** A client id per user (its first digit) and record, so both users' ids differ in that digit alone. */
export const idOf = (digit: number, kind: number, n: number) => `${digit}0000000-0000-4000-8000-${String(kind).padStart(4, "0")}${String(n).padStart(8, "0")}`;

const CITIES = [
  ["Springfield", "IL", "United States", "Midwest", "Springfield Metro"],
  ["Portland", "OR", "United States", "West", "Portland Metro"],
  ["Toronto", "ON", "Canada", "Ontario", "Greater Toronto"],
  ["Lyon", "", "France", "", ""],
];
const STATUSES = ["Partner - Financial", "Never Contacted", "Contact for Appointment", "Partner - Pray"];

const ok = async (answer: Promise<ApiResponse>, status = 201) => {
  const response = await answer;
  expect(response.status, response.text).toBe(status);
  return response;
};

/**
 * Each list of `user` gets four contacts with addresses (places shared between lists and not), people with a
 * birthday and an anniversary today, a referral, tasks overdue by type and newsletters completed on its own day.
 */
export async function fillLists(user: PlacedUser, digit: number): Promise<void> {
  const today = new Date().toISOString().slice(0, 10);
  const [month, day] = [Number(today.slice(5, 7)), Number(today.slice(8, 10))];
  for (const [listIndex, listId] of user.lists.entries()) {
    const contacts: string[] = [];
    for (let n = 0; n < 4; n++) {
      const k = listIndex * 4 + n;
      const id = idOf(digit, 1, k);
      contacts.push(id);
      await ok(
        post(
          "/api/v2/contacts",
          {
            data: {
              type: "contacts",
              id,
              attributes: {
                name: `${["Anderson", "Baker", "Carson", "Dawson", "Ellis"][(k * 3) % 5]}, Pat ${String(k).padStart(2, "0")}`,
                status: STATUSES[k % STATUSES.length],
                pledge_amount: String(10 * ((k % 3) + 1)),
                pledge_received: k % 2 === 1,
                church_name: `Church ${String.fromCharCode(65 + ((listIndex + n) % 3))}`,
                timezone: ["America/Chicago", "Europe/Paris"][k % 2],
              },
              relationships: { account_list: { data: { type: "account_lists", id: listId } } },
            },
          },
          user.token,
        ),
      );
      const [city, state, country, region, metro] = CITIES[(listIndex + n) % CITIES.length];
      await ok(post(`/api/v2/contacts/${id}/addresses`, { data: { type: "addresses", attributes: { street: `${k} Main St`, city, state, country, region, metro_area: metro } } }, user.token));
      await ok(
        post(
          `/api/v2/contacts/${id}/people`,
          {
            data: {
              type: "people",
              id: idOf(digit, 3, k),
              attributes: { first_name: ["Sam", "Alex", "Jo", "Lee"][(k * 5) % 4], last_name: "Pat", birthday_month: month, birthday_day: day, anniversary_month: month, anniversary_day: day },
            },
          },
          user.token,
        ),
      );
    }
    // The first contact referred the second.
    await ok(post(`/api/v2/contacts/${contacts[0]}/referrals`, { data: { type: "contact_referrals", relationships: { referred_to: { data: { type: "contacts", id: contacts[1] } } } } }, user.token));
  }
  const daysAgo = (days: number, time = "09:00:00") => `${new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)}T${time}Z`;
  const items = user.lists.flatMap((listId, listIndex) =>
    [
      { activity_type: ["Call", "Email", "Thank"][listIndex % 3], start_at: daysAgo(2 + listIndex) },
      { activity_type: "Call", start_at: daysAgo(10) },
      { activity_type: "Newsletter - Email", start_at: daysAgo(20 + listIndex), completed: true, completed_at: daysAgo(20 - listIndex * 5, "10:00:00") },
    ].map((attributes, n) => ({
      data: {
        type: "tasks",
        id: idOf(digit, 2, listIndex * 3 + n),
        attributes: { subject: `Task ${listIndex}.${n}`, ...attributes },
        relationships: { account_list: { data: { type: "account_lists", id: listId } }, contacts: { data: [{ type: "contacts", id: idOf(digit, 1, listIndex * 4 + n) }] } },
      },
    })),
  );
  const tasks = await request("POST", "/api/v2/tasks/bulk", { token: user.token, body: { data: items }, raw: true });
  expect(tasks.status, tasks.text).toBe(200);
}

/** A summary's document with each user's ids read as what they name: its lists as one, its records by kind and number. */
export function normalized(answer: ApiResponse, user: PlacedUser, digit: number): unknown {
  expect(answer.status, answer.text).toBe(200);
  let text = JSON.stringify(answer.body);
  for (const list of user.lists) text = text.replaceAll(list, "LIST");
  const document = JSON.parse(text.replaceAll(`${digit}0000000-`, "X0000000-")) as { data?: { attributes?: Record<string, unknown> }; included?: Array<{ type: string; id: string }> };
  // A summary's own timestamps are its first list's: the users' lists were made apart, maybe in different seconds.
  if (document.data?.attributes) for (const name of ["created_at", "updated_at", "updated_in_db_at"]) delete document.data.attributes[name];
  // Included resources are compared by what they are (their timestamps differ), whatever their order.
  return document.included ? { ...document, included: document.included.map((object) => `${object.type}:${object.id}`).sort() } : document;
}

/** `path` answered alike to two users with the same data. */
export async function expectAlike(path: string, one: { user: PlacedUser; digit: number }, other: { user: PlacedUser; digit: number }, read = (path: string, token: string) => get(path, token)): Promise<unknown> {
  const expected = normalized(await read(path, one.user.token), one.user, one.digit);
  expect(normalized(await read(path, other.user.token), other.user, other.digit)).toEqual(expected);
  return expected;
}
