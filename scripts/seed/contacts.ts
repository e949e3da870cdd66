/** Contacts of one account list: people, addresses, tags, referrals and partner history. */
import {
  CHURCHES,
  CONTACT_TAGS,
  FEMALE_NAMES,
  type FrequencyName,
  LAST_NAMES,
  MALE_NAMES,
  PLEDGE_FREQUENCIES,
  type Place,
  STATUSES,
  STREETS,
} from "./catalog";
import { cents, stamps } from "./dataset";
import { addPerson, type PersonInfo } from "./people";
import { Random, seedId } from "./random";
import { firstDueAfter } from "./schedule";
import type { ContactInfo, ListContext, Pledge, ShowcaseContact } from "./types";

const HIDDEN: readonly string[] = STATUSES.hidden;

const STATUS_WEIGHTS: ReadonlyArray<readonly [string | null, number]> = [
  ["Partner - Financial", 30],
  ["Partner - Special", 8],
  ["Partner - Pray", 10],
  ["Never Contacted", 9],
  ["Ask in Future", 6],
  ["Cultivate Relationship", 6],
  ["Contact for Appointment", 4],
  ["Appointment Scheduled", 2],
  ["Call for Decision", 2],
  [null, 11],
  ["Not Interested", 4],
  ["Unresponsive", 3],
  ["Never Ask", 2],
  ["Research Abandoned", 2],
  ["Expired Referral", 1],
];

const FREQUENCY_WEIGHTS: ReadonlyArray<readonly [FrequencyName, number]> = [
  ["monthly", 60],
  ["quarterly", 10],
  ["annual", 8],
  ["weekly", 4],
  ["biweekly", 5],
  ["bimonthly", 4],
  ["fourMonthly", 2],
  ["semiAnnual", 5],
  ["biennial", 2],
];

const PLEDGE_DOLLARS = [25, 30, 35, 40, 50, 50, 75, 100, 100, 125, 150, 200, 250, 300, 500];
const ORGANIZATION_KINDS = ["Bible Church", "Community Church", "Rotary Club", "Family Foundation", "Dental Group", "Christian School"];
const NOTES = [
  "Met at the missions conference; interested in the student ministry.",
  "Prefers a phone call to e-mail. Ask about the grandchildren.",
  "Gave a one-time gift for the summer project; follow up in the spring.",
  "Long-time friend of the family. Sends a card every Christmas.",
  "Works with international students; would love a visit when in town.",
  "Moved recently - confirm the new address before the next newsletter.",
];

/** Generates the list's contacts and returns what later steps (giving, tasks, appeals) need to know. */
export function generateContacts(ctx: ListContext): ContactInfo[] {
  const { spec, clock, data } = ctx;
  const usedNames = new Set<string>();
  const contacts: ContactInfo[] = [];

  for (let index = 0; index < spec.contactCount; index++) {
    const r = new Random(spec.key, "contact", index);
    const showcase = spec.showcase?.[index];
    const id = seedId("contact", spec.key, index);
    const status = showcase ? showcase.status : r.weighted(STATUS_WEIGHTS);
    const kind = showcase?.kind ?? r.weighted([["single", 50], ["couple", 44], ["organization", 6]] as const);
    const pledge = showcase ? showcasePledge(ctx, showcase) : randomPledge(ctx, r, status);
    const otherCurrency = pledge && spec.otherCurrency && pledge.currency === spec.otherCurrency.currency;
    const place = showcase?.place ?? r.pick(otherCurrency ? spec.otherCurrency!.places : r.weighted(spec.places));
    const createdAt = pledge
      ? clock.time(Math.max(clock.daysUntil(pledge.startDate) - r.int(10, 120), -spec.createdDaysAgo), r.int(8, 20), r.int(0, 59))
      : clock.time(-r.int(5, spec.createdDaysAgo), r.int(8, 20), r.int(0, 59));
    const updatedAt = clock.time(Math.min(clock.daysUntil(createdAt.slice(0, 10)) + r.int(0, 400), 0), 6, r.int(0, 59));

    const people: Array<{ firstName: string; lastName: string; gender: "male" | "female"; emails?: string[] }> = [];
    let name: string;
    if (showcase) {
      name = showcase.name;
      people.push(...(showcase.people ?? []));
    } else if (kind === "organization") {
      name = uniqueName(usedNames, () => ({ name: `${place.city} ${r.pick(ORGANIZATION_KINDS)}`, value: null })).name;
    } else {
      const drawn = uniqueName(usedNames, () => {
        const lastName = r.pick(LAST_NAMES);
        const gender = r.chance(0.5) ? "male" : "female";
        const couple: typeof people = [{ firstName: r.pick(gender === "male" ? MALE_NAMES : FEMALE_NAMES), lastName, gender }];
        if (kind === "couple") {
          const spouseGender = gender === "male" ? "female" : "male";
          couple.push({ firstName: r.pick(spouseGender === "male" ? MALE_NAMES : FEMALE_NAMES), lastName, gender: spouseGender });
        }
        return { name: `${lastName}, ${couple.map((p) => p.firstName).join(" and ")}`, value: couple };
      });
      name = drawn.name;
      people.push(...drawn.value);
    }
    usedNames.add(name);

    const hidden = status !== null && HIDDEN.includes(status);
    const noAppeals = showcase?.noAppeals ?? (r.chance(0.04) || status === "Never Ask");
    const deceased = !showcase && r.chance(0.01);
    const lateAt = pledge?.stoppedOn && status === "Partner - Financial" ? firstDueAfter(pledge.startDate, pledge.frequency, pledge.stoppedOn) : null;
    const partner = status?.startsWith("Partner") ?? false;
    const notes = r.chance(0.25) ? r.pick(NOTES) : null;

    data.add("contacts", {
      id,
      account_list_id: spec.id,
      user_id: r.chance(0.2) ? spec.ownerId : null,
      name,
      status,
      likely_to_give: showcase?.likelyToGive ?? r.weighted([[null, 4], ["Least Likely", 2], ["Likely", 3], ["Most Likely", 2]] as const),
      send_newsletter:
        showcase?.sendNewsletter ?? r.weighted([[null, 2], ["Physical", 3], ["Email", 4], ["Both", 3], ["None", 1]] as const),
      church_name: kind === "organization" ? null : r.chance(0.45) ? r.pick(CHURCHES) : null,
      deceased,
      direct_deposit: pledge !== null && r.chance(0.4),
      magazine: partner && r.chance(0.2),
      missionary_pages_banner: r.chance(0.05),
      no_appeals: noAppeals,
      no_gift_aid: spec.giftAidCountry === true && r.chance(0.25),
      pledge_received: pledge?.received ?? false,
      status_valid: !r.chance(0.03),
      is_organization: kind === "organization",
      envelope_greeting: envelopeGreeting(kind, people, name),
      greeting: kind === "organization" ? null : people.map((p) => p.firstName).join(" and "),
      late_at: lateAt,
      locale: r.weighted(spec.locales),
      next_ask: ["Ask in Future", "Call for Decision", "Cultivate Relationship"].includes(status ?? "") && r.chance(0.6)
        ? clock.date(r.int(-30, 200))
        : null,
      notes,
      notes_saved_at: notes ? updatedAt : null,
      pledge_amount: pledge && status === "Partner - Financial" ? cents(pledge.amountCents) : null,
      pledge_currency: pledge && status === "Partner - Financial" ? pledge.currency : null,
      pledge_frequency: pledge && status === "Partner - Financial" ? PLEDGE_FREQUENCIES[pledge.frequency].key : null,
      pledge_start_date: pledge && status === "Partner - Financial" ? pledge.startDate : null,
      preferred_contact_method: r.chance(0.4) ? r.pick(["Email", "Call Mobile", "Call Home", "Text", "Call Work"]) : null,
      relationship_code: r.chance(0.1) ? r.pick(["Friend", "Family", "Church", "Colleague"]) : null,
      source: r.weighted([["Manual", 6], ["Donor system", 3], ["Import", 2], ["Form", 1]] as const),
      starred_at: r.chance(0.06) ? clock.time(-r.int(1, 300), r.int(8, 20)) : null,
      timezone: place.timezone,
      website: kind === "organization" && r.chance(0.6) ? `https://www.${name.toLowerCase().replace(/[^a-z]+/g, "")}.example.org` : null,
      avatar: r.chance(0.05) ? `https://avatars.example.org/contacts/${id}.png` : null,
      suggested_changes: r.chance(0.03) ? { status: "Partner - Financial", pledge_frequency: "1.0" } : null,
      ...stamps(createdAt, updatedAt),
    });

    const personInfos: PersonInfo[] = people.map((person, position) =>
      addPerson(data, r, "people", {
        key: `${spec.key}:${index}:${position}`,
        contactId: id,
        firstName: person.firstName,
        lastName: person.lastName,
        gender: person.gender,
        married: people.length === 2,
        isPrimary: position === 0,
        position,
        place,
        createdAt,
        emails: person.emails,
        deceased,
      }),
    );
    if (personInfos.length === 2 && r.chance(0.15)) {
      data.add("family_relationships", {
        id: seedId("family-relationship", spec.key, index),
        person_id: personInfos[0].id,
        related_person_id: personInfos[1].id,
        relationship: people[1].gender === "female" ? "Wife" : "Husband",
        ...stamps(createdAt),
      });
    }

    addAddresses(ctx, r, id, index, kind === "organization", place, createdAt);

    const tags = new Set(showcase?.tags ?? (r.chance(0.4) ? r.sample(CONTACT_TAGS, r.int(1, 3)) : []));
    if (pledge && pledge.frequency === "monthly" && status === "Partner - Financial" && r.chance(0.5)) tags.add("monthly");
    for (const tag of tags) data.add("contact_tags", { contact_id: id, name: tag });

    if (pledge) addStatusLog(ctx, id, status, pledge);

    contacts.push({
      id,
      index,
      name,
      status,
      hidden,
      isOrganization: kind === "organization",
      noAppeals,
      people: personInfos,
      place,
      pledge,
      oneOffGifts: oneOffGifts(r, status),
      createdAt,
    });
  }

  addReferrals(ctx, contacts);
  return contacts;
}

/** Draws until the name is not yet used in the list, so that contacts can be told apart (and found) by name. */
function uniqueName<T>(used: Set<string>, draw: () => { name: string; value: T }): { name: string; value: T } {
  for (let attempt = 0; attempt < 500; attempt++) {
    const drawn = draw();
    if (!used.has(drawn.name)) return drawn;
  }
  throw new Error("ran out of distinct contact names: add names to the catalog");
}

function envelopeGreeting(kind: string, people: Array<{ firstName: string; lastName: string }>, name: string): string | null {
  if (kind === "organization") return name;
  if (people.length === 2) return `${people[0].firstName} and ${people[1].firstName} ${people[0].lastName}`;
  return people.length === 1 ? `${people[0].firstName} ${people[0].lastName}` : null;
}

function showcasePledge(ctx: ListContext, showcase: ShowcaseContact): Pledge | null {
  if (!showcase.pledge) return null;
  return {
    amountCents: showcase.pledge.amountCents,
    currency: showcase.pledge.currency ?? ctx.spec.currency,
    frequency: showcase.pledge.frequency,
    startDate: ctx.clock.date(showcase.pledge.startDays),
    received: true,
    stoppedOn: null,
    increasedFrom: null,
    increasedOn: null,
  };
}

/** Financial partners pledge; some prayer partners and some who said no used to. */
function randomPledge(ctx: ListContext, r: Random, status: string | null): Pledge | null {
  const { spec, clock } = ctx;
  const financial = status === "Partner - Financial";
  const former = (status === "Partner - Pray" && r.chance(0.3)) || (status === "Not Interested" && r.chance(0.3));
  if (!financial && !former) return null;

  const startDays = -r.int(financial ? 10 : 400, 1300);
  const frequency = r.weighted(FREQUENCY_WEIGHTS);
  const dollars = r.pick(PLEDGE_DOLLARS) * (PLEDGE_FREQUENCIES[frequency].months >= 6 ? 6 : 1);
  const currency = spec.otherCurrency && r.chance(spec.otherCurrency.share) ? spec.otherCurrency.currency : spec.currency;
  let stoppedOn: string | null = null;
  if (former) stoppedOn = clock.date(-r.int(180, 540));
  else if (r.chance(0.08) && startDays < -200) stoppedOn = clock.date(-r.int(75, 160));
  if (stoppedOn && clock.daysUntil(stoppedOn) <= startDays) stoppedOn = null;
  const increased = financial && !stoppedOn && startDays < -400 && r.chance(0.12);
  return {
    amountCents: dollars * 100,
    currency,
    frequency,
    startDate: clock.date(startDays),
    received: financial && startDays < -20 && r.chance(0.9),
    stoppedOn,
    increasedFrom: increased ? Math.round((dollars * r.pick([0.5, 0.6, 0.75])) / 5) * 500 : null,
    increasedOn: increased ? clock.date(-r.int(30, 300)) : null,
  };
}

function oneOffGifts(r: Random, status: string | null): number {
  if (status === "Partner - Special") return r.int(2, 6);
  if (["Partner - Pray", "Ask in Future", "Cultivate Relationship", null].includes(status)) return r.chance(0.1) ? 1 : 0;
  return 0;
}

function addAddresses(ctx: ListContext, r: Random, contactId: string, index: number, organization: boolean, place: Place, createdAt: string) {
  const { spec, data } = ctx;
  const row = (key: string, at: Place, location: string, extra: { primary: boolean; historic: boolean }) => {
    data.add("addresses", {
      id: seedId("address", spec.key, index, key),
      contact_id: contactId,
      street: `${r.int(1, 9899)} ${r.pick(STREETS)}`,
      city: at.city,
      state: at.state,
      region: at.region,
      metro_area: at.metroArea,
      country: at.country,
      postal_code: at.postalCode,
      location,
      primary_mailing_address: extra.primary,
      historic: extra.historic,
      valid: !r.chance(0.03),
      source: r.weighted([["Manual", 6], ["Donor system", 3], ["Import", 1]] as const),
      latitude: Math.round((at.latitude + (r.next() - 0.5) / 10) * 10000) / 10000,
      longitude: Math.round((at.longitude + (r.next() - 0.5) / 10) * 10000) / 10000,
      ...stamps(createdAt),
    });
  };
  if (organization) {
    row("business", place, "Business", { primary: true, historic: false });
    return;
  }
  if (!r.chance(0.92)) return;
  row("home", place, r.chance(0.9) ? "Home" : "Mailing", { primary: true, historic: false });
  const pool = r.weighted(spec.places);
  if (r.chance(0.15)) row("previous", r.pick(pool), "Home", { primary: false, historic: true });
  if (r.chance(0.05)) row("business", place, "Business", { primary: false, historic: false });
  if (r.chance(0.03)) row("seasonal", r.pick(pool), "Seasonal", { primary: false, historic: false });
}

/** The status and pledge history: the start, an increase, and the end for those who stopped. */
function addStatusLog(ctx: ListContext, contactId: string, status: string | null, pledge: Pledge) {
  const { data } = ctx;
  const log = (key: string, on: string, values: { status: string | null; amountCents: number | null }) =>
    data.add("partner_status_logs", {
      id: seedId("partner-status-log", contactId, key),
      contact_id: contactId,
      recorded_on: on,
      status: values.status,
      pledge_amount: values.amountCents === null ? null : cents(values.amountCents),
      pledge_currency: values.amountCents === null ? null : pledge.currency,
      pledge_frequency: values.amountCents === null ? null : PLEDGE_FREQUENCIES[pledge.frequency].key,
      pledge_received: values.amountCents !== null,
      pledge_start_date: values.amountCents === null ? null : pledge.startDate,
      ...stamps(`${on}T09:00:00Z`),
    });
  log("start", pledge.startDate, { status: "Partner - Financial", amountCents: pledge.increasedFrom ?? pledge.amountCents });
  if (pledge.increasedOn) log("increase", pledge.increasedOn, { status: "Partner - Financial", amountCents: pledge.amountCents });
  if (pledge.stoppedOn && status !== "Partner - Financial") log("stop", pledge.stoppedOn, { status, amountCents: null });
}

/** About one contact in eight was referred by an earlier one; expired referrals always were. */
function addReferrals(ctx: ListContext, contacts: ContactInfo[]) {
  const { spec, data } = ctx;
  for (const contact of contacts) {
    if (contact.index < 5) continue;
    const r = new Random(spec.key, "referral", contact.index);
    if (contact.status !== "Expired Referral" && !r.chance(0.12)) continue;
    const referrer = contacts[r.int(0, contact.index - 1)];
    data.add("contact_referrals", {
      id: seedId("contact-referral", referrer.id, contact.id),
      referred_by_id: referrer.id,
      referred_to_id: contact.id,
      ...stamps(contact.createdAt),
    });
  }
}
