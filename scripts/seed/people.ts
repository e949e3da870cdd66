/** People with their e-mail addresses, phone numbers, social accounts and websites. */
import { ALMA_MATERS, EMPLOYERS, OCCUPATIONS, type Place } from "./catalog";
import { type Bucket, type Dataset, stamps } from "./dataset";
import { type Random, seedId } from "./random";

export interface PersonInput {
  /** Seeds the ids of the person's rows. */
  key: string;
  contactId: string | null;
  firstName: string;
  lastName: string;
  gender: "male" | "female";
  married: boolean;
  isPrimary: boolean;
  position: number;
  place: Place;
  createdAt: string;
  /** Fixed e-mail addresses (the first is primary); otherwise generated from the name. */
  emails?: string[];
  /** Percentages of people that get each detail; the users get all of them. */
  richness?: "full" | "normal";
  deceased?: boolean;
}

export interface PersonInfo {
  id: string;
  firstName: string;
  lastName: string;
  birthdayMonth: number | null;
  birthdayDay: number | null;
  hasEmail: boolean;
}

export function slug(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");
}

function phone(r: Random, place: Place): string {
  const tail = String(r.int(0, 99)).padStart(2, "0");
  if (place.phonePrefix.startsWith("+1 ")) return `${place.phonePrefix}-555-01${tail}`;
  if (place.phonePrefix === "+44 20") return `+44 20 7946 0${r.int(0, 9)}${tail}`;
  if (place.phonePrefix.startsWith("+44")) return `${place.phonePrefix} 496 0${r.int(0, 9)}${tail}`;
  return `${place.phonePrefix} ${r.int(100, 999)} ${r.int(1000, 9999)}`;
}

export function addPerson(data: Dataset, r: Random, bucket: Bucket, input: PersonInput): PersonInfo {
  const full = input.richness === "full";
  const id = seedId("person", input.key);
  const hasBirthday = full || r.chance(0.6);
  const birthdayMonth = hasBirthday ? r.int(1, 12) : null;
  const birthdayDay = hasBirthday ? r.int(1, 28) : null;
  const birthYear = r.int(1942, 2001);
  const hasAnniversary = input.married && (full || r.chance(0.5));
  const createdAt = input.createdAt;

  data.add(bucket, {
    id,
    contact_id: input.contactId,
    first_name: input.firstName,
    last_name: input.lastName,
    middle_name: r.chance(0.2) ? r.pick(["Lee", "Marie", "James", "Ann", "Grace", "John"]) : null,
    title: r.chance(0.3) ? (input.gender === "male" ? r.pick(["Mr.", "Dr.", "Rev."]) : r.pick(["Mrs.", "Ms.", "Dr."])) : null,
    suffix: input.gender === "male" && r.chance(0.04) ? r.pick(["Jr.", "Sr.", "III"]) : null,
    gender: input.gender,
    marital_status: input.married ? "Married" : r.chance(0.5) ? r.pick(["Single", "Widowed", "Divorced"]) : null,
    birthday_day: birthdayDay,
    birthday_month: birthdayMonth,
    birthday_year: hasBirthday && (full || r.chance(0.5)) ? birthYear : null,
    anniversary_day: hasAnniversary ? r.int(1, 28) : null,
    anniversary_month: hasAnniversary ? r.int(1, 12) : null,
    anniversary_year: hasAnniversary && r.chance(0.7) ? birthYear + r.int(20, 30) : null,
    deceased: input.deceased ?? false,
    optout_enewsletter: !full && r.chance(0.05),
    alma_mater: full || r.chance(0.25) ? r.pick(ALMA_MATERS) : null,
    employer: full || r.chance(0.4) ? r.pick(EMPLOYERS) : null,
    occupation: full || r.chance(0.4) ? r.pick(OCCUPATIONS) : null,
    is_primary: input.isPrimary,
    position: input.position,
    ...stamps(createdAt),
  });

  const nameSlug = `${slug(input.firstName)}.${slug(input.lastName)}`;
  const emails = input.emails ?? (r.chance(0.85) ? [`${nameSlug}${r.chance(0.3) ? r.int(1, 99) : ""}@example.com`] : []);
  if (input.emails === undefined && emails.length > 0 && r.chance(0.1)) emails.push(`${nameSlug}@work.example.net`);
  emails.forEach((email, n) => {
    data.add("email_addresses", {
      id: seedId("email-address", input.key, n),
      person_id: id,
      email,
      primary: n === 0,
      historic: false,
      valid: full || !r.chance(0.03),
      location: email.includes("@work.") ? "work" : "home",
      source: "Manual",
      ...stamps(createdAt),
    });
  });
  if (!full && emails.length > 0 && r.chance(0.05)) {
    data.add("email_addresses", {
      id: seedId("email-address", input.key, "old"),
      person_id: id,
      email: `${nameSlug}@oldmail.example.net`,
      primary: false,
      historic: true,
      valid: false,
      location: "home",
      source: "Import",
      ...stamps(createdAt),
    });
  }

  const phones: Array<[string, number]> = [
    ["mobile", full ? 1 : input.isPrimary ? 0.8 : 0.6],
    ["home", full ? 1 : 0.3],
    ["work", full ? 1 : 0.15],
  ];
  let primaryPhone = true;
  for (const [location, probability] of phones) {
    if (!r.chance(probability)) continue;
    data.add("phone_numbers", {
      id: seedId("phone-number", input.key, location),
      person_id: id,
      number: phone(r, input.place),
      location,
      primary: primaryPhone,
      historic: false,
      valid: true,
      source: "Manual",
      ...stamps(createdAt),
    });
    primaryPhone = false;
  }

  if (full || r.chance(0.2)) {
    data.add("facebook_accounts", {
      id: seedId("facebook-account", input.key),
      person_id: id,
      username: `${nameSlug}.${r.int(10, 999)}`,
      ...stamps(createdAt),
    });
  }
  if (full || r.chance(0.1)) {
    data.add("linkedin_accounts", {
      id: seedId("linkedin-account", input.key),
      person_id: id,
      public_url: `https://linkedin.example.com/in/${slug(input.firstName)}-${slug(input.lastName)}`,
      ...stamps(createdAt),
    });
  }
  if (full || r.chance(0.08)) {
    data.add("twitter_accounts", {
      id: seedId("twitter-account", input.key),
      person_id: id,
      screen_name: `${slug(input.firstName)}${slug(input.lastName)}`,
      primary: true,
      ...stamps(createdAt),
    });
  }
  if (full || r.chance(0.05)) {
    data.add("websites", {
      id: seedId("website", input.key),
      person_id: id,
      url: `https://www.${slug(input.lastName)}family.example.com`,
      primary: true,
      ...stamps(createdAt),
    });
  }

  return { id, firstName: input.firstName, lastName: input.lastName, birthdayMonth, birthdayDay, hasEmail: emails.length > 0 };
}
