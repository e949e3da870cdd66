/**
 * Answers a JSON:API reader can resolve: no record of `included` leads back to itself through the linkage of
 * included records. The three requests are the web app's as it sends them (its tasks page, its newsletter fix-up
 * and its dashboard's birthdays), whose answers it reads with a reader that follows every linkage it finds.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { request } from "./helpers/api";
import { insertAddress, insertContact, insertEmail, insertFacebook, insertPerson, insertTask } from "./helpers/contact-fixtures";
import { createViewer } from "./helpers/factories";
import { linkageCycle } from "./helpers/linkage-cycles";

let alice: Awaited<ReturnType<typeof createViewer>>;
const overridden = (path: string, body: unknown) => request("POST", path, { token: alice.token, body, headers: { "X-HTTP-Method-Override": "GET" } });
type Resource = { type: string; id: string; attributes?: Record<string, unknown>; relationships?: Record<string, unknown> };
const includedOf = (document: { included?: Resource[] }, type: string) => (document.included ?? []).filter((resource) => resource.type === type);

let family: { id: string };
let bea: { id: string };
let taskId: string;

beforeAll(async () => {
  alice = await createViewer();
  const today = new Date();
  family = await insertContact(alice.list.id, "Family, The", { status: "Partner - Financial" });
  bea = await insertPerson(family.id, "Bea", { lastName: "Family", birthdayMonth: today.getUTCMonth() + 1, birthdayDay: today.getUTCDate() });
  await insertEmail(bea.id, "bea@example.org", { primary: true });
  await insertFacebook(bea.id, "bea.family");
  await insertAddress(family.id, { street: "1 Main St", city: "Springfield", primaryMailingAddress: true });
  const other = await insertContact(alice.list.id, "Other, Ann", { status: "Partner - Pray" });
  await insertPerson(other.id, "Ann");
  taskId = (await insertTask(alice.list.id, [family.id, other.id], { subject: "Call the families", activityType: "Call" })).id;
});

describe("answers without linkage cycles", () => {
  it("the tasks page: included activity contacts link only their contact, contacts answer only their name", async () => {
    const answer = await overridden("/api/v2/tasks", {
      filter: { account_list_id: alice.list.id },
      page: 1,
      per_page: 50,
      include: "activity_contacts,activity_contacts.contact",
      fields: {
        activity_contacts: "contact",
        contact: "name",
        tasks:
          "activity_contacts,activity_type,completed,completed_at,no_date,contacts,starred,start_at,subject,tag_list,comments_count,location,result,notification_type,notification_time_before,notification_time_unit,subject_hidden",
      },
      data: { type: "tasks" },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(linkageCycle(answer.body)).toBeUndefined();
    const [task] = answer.body.data as Resource[];
    expect(task.id).toBe(taskId);
    expect(Object.keys(task.relationships!).sort()).toEqual(["activity_contacts", "contacts"]);
    const links = includedOf(answer.body, "activity_contacts");
    expect(links).toHaveLength(2);
    for (const link of links) expect(Object.keys(link.relationships!)).toEqual(["contact"]);
    const contacts = includedOf(answer.body, "contacts");
    expect(contacts.map((contact) => contact.attributes)).toEqual(expect.arrayContaining([{ name: "Family, The" }, { name: "Other, Ann" }]));
    // `fields[contact]` is the type's fieldset: its relationships are left out as its other attributes are.
    for (const contact of contacts) expect(contact.relationships).toBeUndefined();
  });

  it("the newsletter fix-up: people and their e-mail addresses, none linking back", async () => {
    const query = new URLSearchParams({
      "filter[account_list_id]": alice.list.id,
      "filter[newsletter]": "no_value",
      "filter[status]": "Partner - Financial,Partner - Special,Partner - Pray",
      "filter[deceased]": "false",
      "fields[contact]": "avatar,name,status,newsletter,addresses,primary_person",
      include: "addresses,people,people.email_addresses",
      sort: "name",
      page: "1",
      per_page: "10",
    });
    const answer = await request("GET", `/api/v2/contacts?${query}`, { token: alice.token });
    expect(answer.status, answer.text).toBe(200);
    expect(linkageCycle(answer.body)).toBeUndefined();
    const contact = (answer.body.data as Resource[]).find((resource) => resource.id === family.id)!;
    // `newsletter` names no attribute of a contact (`send_newsletter` does): it selects nothing, as in the original.
    expect(Object.keys(contact.attributes!).sort()).toEqual(["avatar", "name", "status"]);
    expect(Object.keys(contact.relationships!).sort()).toEqual(["addresses", "primary_person"]);
    const person = includedOf(answer.body, "people").find((resource) => resource.id === bea.id)!;
    expect(person.attributes).toMatchObject({ first_name: "Bea" });
    expect((person.relationships!.email_addresses as { data: unknown[] }).data).toHaveLength(1);
    expect(includedOf(answer.body, "email_addresses").map((email) => email.attributes!.email)).toEqual(["bea@example.org"]);
    expect(includedOf(answer.body, "addresses").map((address) => address.attributes!.street)).toEqual(["1 Main St"]);
  });

  it("the dashboard's birthdays: each person links their parent contact, which answers nothing more", async () => {
    const answer = await overridden("/api/v2/contacts/analytics", {
      include:
        "birthdays_this_week,birthdays_this_week.facebook_accounts,birthdays_this_week.twitter_accounts,birthdays_this_week.email_addresses,birthdays_this_week.parent_contact",
      fields: {
        contact_analytics: "birthdays_this_week",
        people: "birthday_day,birthday_month,birthday_year,facebook_accounts,first_name,last_name,twitter_accounts,email_addresses,parent_contact",
        email_addresses: "email,primary",
        facebook_accounts: "username",
        twitter_accounts: "screen_name",
        contact: "",
      },
      filter: { account_list_id: alice.list.id },
      data: { type: "analytics" },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(linkageCycle(answer.body)).toBeUndefined();
    const [person] = includedOf(answer.body, "people");
    expect(person.id).toBe(bea.id);
    expect(Object.keys(person.relationships!).sort()).toEqual(["email_addresses", "facebook_accounts", "parent_contact", "twitter_accounts"]);
    for (const type of ["email_addresses", "facebook_accounts"]) {
      const [detail] = includedOf(answer.body, type);
      expect(detail.relationships, type).toBeUndefined();
    }
    expect(includedOf(answer.body, "contacts")).toEqual([{ type: "contacts", id: family.id }]);
  });
});

describe("linkageCycle", () => {
  it("finds a record that leads back to itself through included records, and nothing in a tree", () => {
    const person = { type: "people", id: "p", relationships: { email_addresses: { data: [{ type: "email_addresses", id: "e" }] } } };
    const email = (back: boolean) => ({ type: "email_addresses", id: "e", relationships: back ? { person: { data: { type: "people", id: "p" } } } : {} });
    expect(linkageCycle({ data: [], included: [person, email(true)] })).toEqual(["people/p", "email_addresses/e", "people/p"]);
    expect(linkageCycle({ data: [], included: [person, email(false)] })).toBeUndefined();
  });
});
