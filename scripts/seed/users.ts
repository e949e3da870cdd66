/** Users, each with the person row that holds their own e-mail addresses, phones and social accounts. */
import type { Place } from "./catalog";
import type { Clock } from "./clock";
import { type Dataset, stamps } from "./dataset";
import { addPerson } from "./people";
import { Random, seedId } from "./random";

export interface UserSpec {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  gender: "male" | "female";
  married: boolean;
  place: Place;
  timeZone: string;
  locale: string;
  defaultAccountListId: string | null;
  hourToSendNotifications: number | null;
  createdDaysAgo: number;
  title?: string;
  occupation?: string;
  organizationAccounts: Array<{ organizationId: string; username: string }>;
}

/** The person row standing for a user (its id is what comments by that user point at). */
export function userPersonId(user: { email: string }): string {
  return seedId("person", `user:${user.email}`);
}

export function addUser(data: Dataset, clock: Clock, user: UserSpec): void {
  const r = new Random("user", user.email);
  const createdAt = clock.time(-user.createdDaysAgo, 15);
  const person = addPerson(data, r, "user_people", {
    key: `user:${user.email}`,
    contactId: null,
    firstName: user.firstName,
    lastName: user.lastName,
    gender: user.gender,
    married: user.married,
    isPrimary: true,
    position: 0,
    place: user.place,
    createdAt,
    emails: [user.email, `${user.firstName.toLowerCase()}.${user.lastName.toLowerCase()}@ministry.example.org`],
    richness: "full",
  });
  if (person.id !== userPersonId(user)) throw new Error("user person id mismatch");

  const masterPersonId = seedId("master-person", user.email);
  data.add("master_people", { id: masterPersonId, ...stamps(createdAt) });
  data.add("users", {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    legal_first_name: user.firstName,
    middle_name: null,
    suffix: null,
    title: user.title ?? null,
    alma_mater: "State University",
    employer: "Cru",
    gender: user.gender,
    marital_status: user.married ? "Married" : "Single",
    occupation: user.occupation ?? "Ministry staff",
    avatar: `https://avatars.example.org/users/${user.id}.png`,
    anniversary_day: user.married ? 16 : null,
    anniversary_month: user.married ? 6 : null,
    anniversary_year: user.married ? 2012 : null,
    birthday_day: r.int(1, 28),
    birthday_month: r.int(1, 12),
    birthday_year: r.int(1975, 1995),
    deceased: false,
    optout_enewsletter: false,
    contacts_filter: JSON.stringify({ status: "active" }),
    contacts_view_options: JSON.stringify({ list: "flows" }),
    default_account_list_id: user.defaultAccountListId,
    locale: user.locale,
    setup: false,
    tab_orders: JSON.stringify({ contact: ["details", "tasks", "donations", "referrals", "notes"] }),
    tasks_filter: JSON.stringify({ date_range: "overdue" }),
    time_zone: user.timeZone,
    hour_to_send_notifications: user.hourToSendNotifications,
    master_person_id: masterPersonId,
    person_id: person.id,
    ...stamps(createdAt, clock.time(-2, 18)),
  });

  for (const account of user.organizationAccounts) {
    data.add("organization_accounts", {
      id: seedId("organization-account", user.id, account.organizationId),
      user_id: user.id,
      organization_id: account.organizationId,
      username: account.username,
      ...stamps(createdAt),
    });
  }
}
