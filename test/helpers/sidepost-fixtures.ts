/**
 * Contact writes carrying nested records in `included` (sideposting), and what they stored.
 */
import { eq } from "drizzle-orm";
import * as schema from "../../drizzle/schema";
import { put } from "./api";
import { beforeAll } from "vitest";
import { createViewer, db } from "./factories";

export const CONTACTS = "/api/v2/contacts";

export const addressesOf = (contactId: string) => db.select().from(schema.addresses).where(eq(schema.addresses.contactId, contactId)).orderBy(schema.addresses.createdAt);
export const emailsOf = (personId: string) => db.select().from(schema.emailAddresses).where(eq(schema.emailAddresses.personId, personId));
export const phonesOf = (personId: string) => db.select().from(schema.phoneNumbers).where(eq(schema.phoneNumbers.personId, personId));
export const peopleOf = (contactId: string) => db.select().from(schema.people).where(eq(schema.people.contactId, contactId));

export const ids = (type: string, ...list: string[]) => ({ data: list.map((id) => ({ type, id })) });
/** The relationship of the same name as the type, linking `list`. */
export const rel = (type: string, ...list: string[]) => ({ [type]: ids(type, ...list) });

/** A contact update carrying `relationships` and `included`, forcing the contact's own values. */
export const sidepostAs =
  (token: () => string) =>
  (contactId: string, relationships: Record<string, unknown>, included: unknown[]) =>
    put(`${CONTACTS}/${contactId}`, { data: { type: "contacts", id: contactId, attributes: { overwrite: true }, relationships }, included }, token());

type Viewer = Awaited<ReturnType<typeof createViewer>>;

/** alice, who writes, and bob, whose records she must not reach: created before the file's tests run. */
export function viewers(): { alice: Viewer; bob: Viewer } {
  const created = {} as { alice: Viewer; bob: Viewer };
  beforeAll(async () => {
    created.alice = await createViewer();
    created.bob = await createViewer();
  });
  return created;
}
