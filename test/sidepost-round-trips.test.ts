/**
 * Sideposting costs no round trip per nested record: the ids sent are looked up with the parent's own read and
 * every nested write joins the parent's batch, so an update sideposting ten addresses makes one D1 call more than
 * the same update alone, the read of what it wrote for `included`, and the same whatever their number (beside the
 * claim of their client-chosen ids, one call to each database at once).
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { listDatabaseNames } from "../src/db/databases";
import { insertContact } from "./helpers/contact-fixtures";
import { createViewer } from "./helpers/factories";
import { addressesOf } from "./helpers/sidepost-fixtures";
import { withD1Counts } from "./helpers/d1-counts";

let alice: Awaited<ReturnType<typeof createViewer>>;

beforeAll(async () => {
  alice = await createViewer();
});

/** A PUT through the app with the D1 counters on (the X-D1-* headers load tests read). */
const countedPut = (path: string, body: unknown) => withD1Counts("PUT", path, alice.token, body);

const addresses = (count: number) => {
  const ids = Array.from({ length: count }, () => crypto.randomUUID());
  return {
    relationships: { addresses: { data: ids.map((id) => ({ type: "addresses", id })) } },
    included: ids.map((id, n) => ({ type: "addresses", id, attributes: { street: `${n} Trip Rd`, city: "Tripton" } })),
  };
};

describe("the round trips of a sideposted update", () => {
  it("are those of the plain update plus one, for one or ten nested records", async () => {
    const contact = await insertContact(alice.list.id, "Trips, Tara");
    const update = (extra: { relationships?: unknown; included?: unknown[] } = {}) => ({
      data: { type: "contacts", id: contact.id, attributes: { notes: "counted", overwrite: true }, relationships: extra.relationships ?? {} },
      included: extra.included ?? [],
    });
    const plain = await countedPut(`/api/v2/contacts/${contact.id}`, update());
    const one = await countedPut(`/api/v2/contacts/${contact.id}`, update(addresses(1)));
    const ten = await countedPut(`/api/v2/contacts/${contact.id}`, update(addresses(10)));
    expect([plain.status, one.status, ten.status]).toEqual([200, 200, 200]);
    expect(plain.roundTrips).toBeGreaterThan(0);
    // The nested records' client-chosen ids are claimed in the directory while every other database is asked for
    // them, all at once (src/engine/client-ids.ts): a call to each database, one step on the critical path.
    const claiming = listDatabaseNames(env).length;
    expect(one.roundTrips).toBe(plain.roundTrips + 1 + claiming);
    expect(ten.roundTrips).toBe(one.roundTrips);
    expect(one.criticalPath).toBe(plain.criticalPath + 2);
    expect(ten.criticalPath).toBe(one.criticalPath);
    expect(await addressesOf(contact.id)).toHaveLength(11);
  });
});
