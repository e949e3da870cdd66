/** Contacts sideposting their addresses. */
import { describe, expect, it } from "vitest";
import { errorOf, put } from "./helpers/api";
import { uuid } from "./helpers/factories";
import { insertAddress, insertContact, listedNames, storedContact } from "./helpers/contact-fixtures";
import { addressesOf, CONTACTS, rel, sidepostAs, viewers } from "./helpers/sidepost-fixtures";

const v = viewers();
const sidepost = sidepostAs(() => v.alice.token);

/** A contact update checked against the contact's updated_in_db_at, changing its notes and one address. */
const checkedUpdate = (contact: { id: string; updatedAt: string }, notes: string, addressId: string, attributes: Record<string, unknown>) =>
  put(
    `${CONTACTS}/${contact.id}`,
    {
      data: { type: "contacts", id: contact.id, attributes: { notes, updated_in_db_at: contact.updatedAt }, relationships: rel("addresses", addressId) },
      included: [{ type: "addresses", id: addressId, attributes }],
    },
    v.alice.token,
  );

describe("sideposting addresses", () => {
  it("sets the primary mailing address as mpdx-react sends it, unmarking the other one", async () => {
    const contact = await insertContact(v.alice.list.id, "Mailing, Mary");
    const home = await insertAddress(contact.id, { street: "1 Home St", primaryMailingAddress: true });
    const work = await insertAddress(contact.id, { street: "2 Work St" });
    // The request mpdx-react's REST proxy sends (setContactPrimaryAddress), verbatim.
    const response = await put(
      `${CONTACTS}/${contact.id}`,
      {
        included: [
          { type: "addresses", id: home.id, attributes: { primary_mailing_address: false } },
          { type: "addresses", id: work.id, attributes: { primary_mailing_address: true } },
        ],
        data: {
          type: "contacts",
          id: contact.id,
          attributes: { overwrite: true },
          relationships: { addresses: { data: [{ type: "addresses", id: home.id }, { type: "addresses", id: work.id }] } },
        },
      },
      v.alice.token,
    );
    expect(response.status, response.text).toBe(200);
    const stored = await addressesOf(contact.id);
    expect(stored.map((a) => [a.street, a.primaryMailingAddress])).toEqual([
      ["1 Home St", false],
      ["2 Work St", true],
    ]);
    const included = response.body.included.filter((entry: { type: string }) => entry.type === "addresses");
    expect(included.find((a: { id: string }) => a.id === work.id).attributes.primary_mailing_address).toBe(true);
  });

  it("marking one primary alone unmarks the others in the same write", async () => {
    const contact = await insertContact(v.alice.list.id, "Single, Sam");
    const old = await insertAddress(contact.id, { street: "Old", primaryMailingAddress: true });
    const fresh = uuid();
    const response = await sidepost(contact.id, rel("addresses", fresh), [
      { type: "addresses", id: fresh, attributes: { street: "New", city: "Springfield", primary_mailing_address: true } },
    ]);
    expect(response.status, response.text).toBe(200);
    const stored = await addressesOf(contact.id);
    expect(stored.map((a) => [a.id, a.primaryMailingAddress])).toEqual([
      [old.id, false],
      [fresh, true],
    ]);
    expect(response.body.data.relationships.addresses.data).toEqual([
      { type: "addresses", id: old.id },
      { type: "addresses", id: fresh },
    ]);
  });

  it("a created address is seen at once by the city filter", async () => {
    const contact = await insertContact(v.alice.list.id, "Filter, Fay");
    const fresh = uuid();
    expect(await listedNames(v.alice.token, "filter[city]=Gotham")).toEqual([]);
    const response = await sidepost(contact.id, rel("addresses", fresh), [{ type: "addresses", id: fresh, attributes: { street: "1 Bat Way", city: "Gotham" } }]);
    expect(response.status, response.text).toBe(200);
    expect(await listedNames(v.alice.token, "filter[city]=Gotham")).toEqual(["Filter, Fay"]);
  });

  it("a historic address is never the primary one", async () => {
    const contact = await insertContact(v.alice.list.id, "History, Hal");
    const address = await insertAddress(contact.id, { street: "Past", primaryMailingAddress: true });
    const response = await sidepost(contact.id, rel("addresses", address.id), [{ type: "addresses", id: address.id, attributes: { historic: true } }]);
    expect(response.status, response.text).toBe(200);
    const [stored] = await addressesOf(contact.id);
    expect([stored.historic, stored.primaryMailingAddress, stored.street]).toEqual([true, false, "Past"]);
  });

  it("_destroy removes the address (true or \"1\")", async () => {
    const contact = await insertContact(v.alice.list.id, "Destroy, Dee");
    const one = await insertAddress(contact.id, { street: "One" });
    const two = await insertAddress(contact.id, { street: "Two" });
    const three = await insertAddress(contact.id, { street: "Three" });
    const response = await sidepost(contact.id, rel("addresses", one.id, two.id), [
      { type: "addresses", id: one.id, attributes: { _destroy: true } },
      { type: "addresses", id: two.id, attributes: { _destroy: "1" } },
    ]);
    expect(response.status, response.text).toBe(200);
    expect((await addressesOf(contact.id)).map((a) => a.id)).toEqual([three.id]);
  });

  it("an address of another of the viewer's contacts named by id is 404 and nothing is written", async () => {
    const contact = await insertContact(v.alice.list.id, "Mine, Mo");
    const other = await insertContact(v.alice.list.id, "Other, Otto");
    const theirs = await insertAddress(other.id, { street: "Theirs" });
    const fresh = uuid();
    const response = await sidepost(contact.id, rel("addresses", fresh, theirs.id), [
      { type: "addresses", id: fresh, attributes: { street: "Would be new" } },
      { type: "addresses", id: theirs.id, attributes: { street: "Taken over" } },
    ]);
    errorOf(response, 404);
    expect(await addressesOf(contact.id)).toEqual([]);
    expect((await addressesOf(other.id))[0].street).toBe("Theirs");
  });

  it("an address of someone else's contact named by id is 403 and nothing is written", async () => {
    const contact = await insertContact(v.alice.list.id, "Mine, Max");
    const bobs = await insertContact(v.bob.list.id, "Bobs, Bea");
    const theirs = await insertAddress(bobs.id, { street: "Bob's" });
    const response = await sidepost(contact.id, rel("addresses", theirs.id), [{ type: "addresses", id: theirs.id, attributes: { _destroy: true } }]);
    errorOf(response, 403);
    expect((await addressesOf(bobs.id)).map((a) => a.street)).toEqual(["Bob's"]);
  });

  it("a nested update without updated_in_db_at is checked through its parent alone", async () => {
    const contact = await insertContact(v.alice.list.id, "Checked, Cal");
    const address = await insertAddress(contact.id, { street: "Before" });
    const response = await checkedUpdate(contact, "moved", address.id, { street: "After" });
    expect(response.status, response.text).toBe(200);
    expect((await addressesOf(contact.id))[0].street).toBe("After");
    expect((await storedContact(contact.id)).notes).toBe("moved");
  });

  it("an included record no sideposting relationship references is refused, not dropped", async () => {
    const contact = await insertContact(v.alice.list.id, "Stray, Sid");
    const stray = uuid();
    const response = await sidepost(contact.id, {}, [{ type: "addresses", id: stray, attributes: { street: "Nowhere" } }]);
    expect(errorOf(response, 400).source.pointer).toBe("/included/0");
    expect(await addressesOf(contact.id)).toEqual([]);
  });

  it("a stale updated_in_db_at on the address is 409 and nothing is written", async () => {
    const contact = await insertContact(v.alice.list.id, "Stale, Stu");
    const address = await insertAddress(contact.id, { street: "Kept" });
    const response = await checkedUpdate(contact, "changed", address.id, { street: "Lost", updated_in_db_at: "2020-01-01T00:00:00Z" });
    const error = errorOf(response, 409);
    expect(error.source.pointer).toBe("/included/0/attributes/updated_in_db_at");
    expect((await addressesOf(contact.id))[0].street).toBe("Kept");
    expect((await storedContact(contact.id)).notes).toBeNull();
  });
});
