/** Contacts sideposting their people (with the people's details), referrals and donor account unlinks. */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { errorOf, get, post } from "./helpers/api";
import { db, timestamps, uuid } from "./helpers/factories";
import { insertContact, insertEmail, insertPerson, insertPhone, listedNames } from "./helpers/contact-fixtures";
import { addressesOf, CONTACTS, emailsOf, ids, peopleOf, phonesOf, rel, sidepostAs, viewers } from "./helpers/sidepost-fixtures";

const v = viewers();
const sidepost = sidepostAs(() => v.alice.token);

describe("sideposting people and their details", () => {
  it("creates a person with an e-mail address and a phone number in one write, and includes them", async () => {
    const contact = await insertContact(v.alice.list.id, "Newperson, Nora");
    const person = uuid();
    const mail = uuid();
    const phone = uuid();
    const response = await sidepost(contact.id, rel("people", person), [
      {
        type: "people",
        id: person,
        attributes: { first_name: "Nora", last_name: "Newperson", birthday_month: 4, birthday_day: 2 },
        relationships: { email_addresses: ids("email_addresses", mail), phone_numbers: ids("phone_numbers", phone) },
      },
      { type: "email_addresses", id: mail, attributes: { email: "nora@example.org", primary: true } },
      { type: "phone_numbers", id: phone, attributes: { number: "+1 (555) 010-2030", location: "mobile" } },
    ]);
    expect(response.status, response.text).toBe(200);
    const [stored] = await peopleOf(contact.id);
    expect([stored.firstName, stored.birthdayMonth, stored.isPrimary]).toEqual(["Nora", 4, true]);
    expect((await emailsOf(person)).map((e) => [e.email, e.primary])).toEqual([["nora@example.org", true]]);
    expect((await phonesOf(person)).map((p) => p.number)).toEqual(["+1 (555) 010-2030"]);
    const types = response.body.included.map((entry: { type: string; id: string }) => `${entry.type}:${entry.id}`);
    expect(types).toEqual(expect.arrayContaining([`people:${person}`, `email_addresses:${mail}`, `phone_numbers:${phone}`]));
    expect(response.body.data.relationships.primary_person.data).toEqual({ type: "people", id: person });
    // The contact filters read the new rows at once.
    expect(await listedNames(v.alice.token, "filter[contact_info_email]=Yes&filter[ids]=" + contact.id)).toEqual(["Newperson, Nora"]);
  });

  it("updates a person's e-mail address and marks it primary, unmarking the person's other one", async () => {
    const contact = await insertContact(v.alice.list.id, "Update, Uma");
    const person = await insertPerson(contact.id, "Uma");
    const first = await insertEmail(person.id, "first@example.org", { primary: true });
    const second = await insertEmail(person.id, "second@example.org");
    const response = await sidepost(contact.id, rel("people", person.id), [
      { type: "people", id: person.id, attributes: { occupation: "Pilot" }, relationships: { email_addresses: ids("email_addresses", second.id) } },
      { type: "email_addresses", id: second.id, attributes: { email: "Second@Example.org", primary: true } },
    ]);
    expect(response.status, response.text).toBe(200);
    const stored = await emailsOf(person.id);
    expect(stored.map((e) => [e.id, e.email, e.primary]).sort()).toEqual(
      [
        [first.id, "first@example.org", false],
        [second.id, "Second@Example.org", true],
      ].sort(),
    );
    expect((await peopleOf(contact.id))[0].occupation).toBe("Pilot");
  });

  it("a bad e-mail is 400 pointing into included, and nothing is stored", async () => {
    const contact = await insertContact(v.alice.list.id, "Bad, Ben");
    const person = uuid();
    const mail = uuid();
    const response = await sidepost(contact.id, rel("people", person), [
      { type: "people", id: person, attributes: { first_name: "Ben" }, relationships: { email_addresses: ids("email_addresses", mail) } },
      { type: "email_addresses", id: mail, attributes: { email: "not an address" } },
    ]);
    const error = errorOf(response, 400);
    expect(error.source.pointer).toBe("/included/1/attributes/email");
    expect(await peopleOf(contact.id)).toEqual([]);
  });

  it("a bad phone number is 400 pointing into included, and nothing is stored", async () => {
    const contact = await insertContact(v.alice.list.id, "Phone, Pat");
    const person = await insertPerson(contact.id, "Pat");
    const kept = await insertPhone(person.id, "555-0100", "home");
    const number = uuid();
    const response = await sidepost(contact.id, rel("people", person.id), [
      { type: "people", id: person.id, attributes: { last_name: "Changed" }, relationships: { phone_numbers: ids("phone_numbers", kept.id, number) } },
      { type: "phone_numbers", id: kept.id, attributes: { number: "555-0199" } },
      { type: "phone_numbers", id: number, attributes: { number: "call me maybe" } },
    ]);
    const error = errorOf(response, 400);
    expect(error.source.pointer).toBe("/included/2/attributes/number");
    expect((await phonesOf(person.id)).map((p) => p.number)).toEqual(["555-0100"]);
    expect((await peopleOf(contact.id))[0].lastName).toBeNull();
  });

  it("a person without a first name is 400 pointing at it", async () => {
    const contact = await insertContact(v.alice.list.id, "Blank, Bo");
    const person = uuid();
    const response = await sidepost(contact.id, rel("people", person), [{ type: "people", id: person, attributes: { last_name: "Blank" } }]);
    expect(errorOf(response, 400).source.pointer).toBe("/included/0/attributes/first_name");
    expect(await peopleOf(contact.id)).toEqual([]);
  });

  it("destroying a person removes their details", async () => {
    const contact = await insertContact(v.alice.list.id, "Gone, Gus");
    const person = await insertPerson(contact.id, "Gus");
    await insertEmail(person.id, "gus@example.org");
    await insertPhone(person.id, "555-0123", "mobile");
    const response = await sidepost(contact.id, rel("people", person.id), [{ type: "people", id: person.id, attributes: { _destroy: true } }]);
    expect(response.status, response.text).toBe(200);
    expect(await peopleOf(contact.id)).toEqual([]);
    expect(await emailsOf(person.id)).toEqual([]);
    expect(await phonesOf(person.id)).toEqual([]);
  });

  it("an e-mail address of someone else's person is 403 and nothing is written", async () => {
    const contact = await insertContact(v.alice.list.id, "Mine, Mia");
    const person = await insertPerson(contact.id, "Mia");
    const bobs = await insertContact(v.bob.list.id, "Bobs, Bo");
    const bobsPerson = await insertPerson(bobs.id, "Bo");
    const theirs = await insertEmail(bobsPerson.id, "bo@example.org");
    const response = await sidepost(contact.id, rel("people", person.id), [
      { type: "people", id: person.id, attributes: { first_name: "Mia2" }, relationships: { email_addresses: ids("email_addresses", theirs.id) } },
      { type: "email_addresses", id: theirs.id, attributes: { email: "stolen@example.org" } },
    ]);
    errorOf(response, 403);
    expect((await emailsOf(bobsPerson.id))[0].email).toBe("bo@example.org");
    expect((await peopleOf(contact.id))[0].firstName).toBe("Mia");
  });
});

const detailsOf = async (personId: string) => ({
  facebook: (await db.select().from(schema.facebookAccounts).where(eq(schema.facebookAccounts.personId, personId))).map((r) => r.username),
  linkedin: (await db.select().from(schema.linkedinAccounts).where(eq(schema.linkedinAccounts.personId, personId))).map((r) => r.publicUrl),
  twitter: (await db.select().from(schema.twitterAccounts).where(eq(schema.twitterAccounts.personId, personId))).map((r) => r.screenName),
  websites: (await db.select().from(schema.websites).where(eq(schema.websites.personId, personId))).map((r) => [r.url, r.primary]),
  family: (await db.select().from(schema.familyRelationships).where(eq(schema.familyRelationships.personId, personId))).map((r) => [r.relatedPersonId, r.relationship]),
});

describe("sideposting a person's other details", () => {
  it("creates social accounts, websites and a family relationship with the person, then updates and destroys them", async () => {
    const contact = await insertContact(v.alice.list.id, "Social, Sue and Sam");
    const sue = await insertPerson(contact.id, "Sue");
    const sam = await insertPerson(contact.id, "Sam");
    const oldSite = uuid();
    await db.insert(schema.websites).values({ id: oldSite, personId: sue.id, url: "https://old.example.org", primary: true, ...timestamps() });
    const [fb, li, tw, site, family] = [uuid(), uuid(), uuid(), uuid(), uuid()];
    const person = (relationships: Record<string, unknown>) => ({ type: "people", id: sue.id, relationships });
    const created = await sidepost(contact.id, rel("people", sue.id), [
      person({
        ...rel("facebook_accounts", fb),
        ...rel("linkedin_accounts", li),
        ...rel("twitter_accounts", tw),
        websites: ids("websites", site),
        ...rel("family_relationships", family),
      }),
      { type: "facebook_accounts", id: fb, attributes: { username: "sue.social" } },
      { type: "linkedin_accounts", id: li, attributes: { public_url: "https://linkedin.example.org/sue" } },
      { type: "twitter_accounts", id: tw, attributes: { screen_name: "suesocial", primary: true } },
      { type: "websites", id: site, attributes: { url: "https://sue.example.org", primary: true } },
      { type: "family_relationships", id: family, attributes: { relationship: "Wife" }, relationships: { related_person: { data: { type: "people", id: sam.id } } } },
    ]);
    expect(created.status, created.text).toBe(200);
    expect(await detailsOf(sue.id)).toEqual({
      facebook: ["sue.social"],
      linkedin: ["https://linkedin.example.org/sue"],
      twitter: ["suesocial"],
      websites: expect.arrayContaining([
        ["https://old.example.org", false],
        ["https://sue.example.org", true],
      ]),
      family: [[sam.id, "Wife"]],
    });
    const changed = await sidepost(contact.id, rel("people", sue.id), [
      person({ ...rel("facebook_accounts", fb), ...rel("family_relationships", family) }),
      { type: "facebook_accounts", id: fb, attributes: { username: "sue.renamed" } },
      { type: "family_relationships", id: family, attributes: { _destroy: true } },
    ]);
    expect(changed.status, changed.text).toBe(200);
    const after = await detailsOf(sue.id);
    expect([after.facebook, after.family]).toEqual([["sue.renamed"], []]);
  });

  it("a family relationship to someone else's person is 403 and nothing is written", async () => {
    const contact = await insertContact(v.alice.list.id, "Family, Fred");
    const fred = await insertPerson(contact.id, "Fred");
    const bobsPerson = await insertPerson((await insertContact(v.bob.list.id, "Bobs, Ben")).id, "Ben");
    const family = uuid();
    const response = await sidepost(contact.id, rel("people", fred.id), [
      { type: "people", id: fred.id, relationships: rel("family_relationships", family) },
      { type: "family_relationships", id: family, attributes: { relationship: "Brother" }, relationships: { related_person: { data: { type: "people", id: bobsPerson.id } } } },
    ]);
    errorOf(response, 403);
    expect((await detailsOf(fred.id)).family).toEqual([]);
  });
});

const referredBy = (id: string, referrerId: string) => ({ type: "contact_referrals", id, relationships: { referred_by: { data: { type: "contacts", id: referrerId } } } });

describe("sideposting referrals and donor accounts", () => {
  it("records who referred the contact", async () => {
    const contact = await insertContact(v.alice.list.id, "Referred, Rita");
    const referrer = await insertContact(v.alice.list.id, "Referrer, Rob");
    const referral = uuid();
    const named = await sidepost(contact.id, { contact_referrals_to_me: ids("contact_referrals", referral) }, [referredBy(referral, referrer.id)]);
    expect(named.status, named.text).toBe(200);
    const rows = await db.select().from(schema.contactReferrals).where(eq(schema.contactReferrals.referredToId, contact.id));
    expect(rows.map((r) => [r.id, r.referredById])).toEqual([[referral, referrer.id]]);
  });

  it("a referrer of someone else's list is 403 and nothing is written", async () => {
    const contact = await insertContact(v.alice.list.id, "Referred, Ray");
    const bobs = await insertContact(v.bob.list.id, "Bobs, Bill");
    const referral = uuid();
    const response = await sidepost(contact.id, { contact_referrals_to_me: ids("contact_referrals", referral) }, [referredBy(referral, bobs.id)]);
    errorOf(response, 403);
    expect(await db.select().from(schema.contactReferrals).where(eq(schema.contactReferrals.referredToId, contact.id))).toEqual([]);
  });

  it("_destroy on a donor account only unlinks it; other changes are refused", async () => {
    const contact = await insertContact(v.alice.list.id, "Donor, Dan");
    const org = uuid();
    await db.insert(schema.organizations).values({ id: org, name: "Org", ...timestamps() });
    const donor = uuid();
    await db.insert(schema.donorAccounts).values({ id: donor, organizationId: org, accountNumber: "42", name: "Dan", ...timestamps() });
    await db.insert(schema.contactDonorAccounts).values({ id: uuid(), contactId: contact.id, donorAccountId: donor, ...timestamps() });
    const refused = await sidepost(contact.id, rel("donor_accounts", donor), [{ type: "donor_accounts", id: donor, attributes: { name: "Renamed" } }]);
    expect(errorOf(refused, 400).source.pointer).toBe("/included/0");
    const response = await sidepost(contact.id, rel("donor_accounts", donor), [{ type: "donor_accounts", id: donor, attributes: { _destroy: "1" } }]);
    expect(response.status, response.text).toBe(200);
    expect(await db.select().from(schema.contactDonorAccounts).where(eq(schema.contactDonorAccounts.contactId, contact.id))).toEqual([]);
    const [kept] = await db.select().from(schema.donorAccounts).where(eq(schema.donorAccounts.id, donor));
    expect(kept.name).toBe("Dan");
  });
});

describe("sideposting with a new contact", () => {
  it("creates the contact with the people sent and makes none up from its name", async () => {
    const id = uuid();
    const [jane, mail] = [uuid(), uuid()];
    const response = await post(
      CONTACTS,
      {
        data: { type: "contacts", id, attributes: { name: "Doe, John and Jane" }, relationships: rel("people", jane) },
        included: [
          { type: "people", id: jane, attributes: { first_name: "Jane", last_name: "Doe" }, relationships: rel("email_addresses", mail) },
          { type: "email_addresses", id: mail, attributes: { email: "jane@example.org" } },
        ],
      },
      v.alice.token,
    );
    expect(response.status, response.text).toBe(201);
    expect((await peopleOf(id)).map((p) => [p.id, p.firstName, p.isPrimary])).toEqual([[jane, "Jane", true]]);
    expect((await emailsOf(jane)).map((e) => e.email)).toEqual(["jane@example.org"]);
  });

  it("creates the contact with its address in one write", async () => {
    const id = uuid();
    const address = uuid();
    const response = await post(
      CONTACTS,
      {
        data: { type: "contacts", id, attributes: { name: "Created, Cy", create_default_person: false }, relationships: rel("addresses", address) },
        included: [{ type: "addresses", id: address, attributes: { street: "9 New Rd", primary_mailing_address: true } }],
      },
      v.alice.token,
    );
    expect(response.status, response.text).toBe(201);
    expect((await addressesOf(id)).map((a) => [a.id, a.street, a.primaryMailingAddress])).toEqual([[address, "9 New Rd", true]]);
    const shown = await get(`${CONTACTS}/${id}?include=addresses`, v.alice.token);
    expect(shown.body.included[0].attributes.street).toBe("9 New Rd");
  });
});
