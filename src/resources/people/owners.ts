/** The parents through which a contact's records belong to an account list. */
import { contacts, people } from "../../../drizzle/schema";
import { listOwner, ownedBy } from "../../engine/owned";

export const contactOwner = listOwner("contacts", "Contact", contacts.id, contacts.accountListId);

/** People of contacts; people standing for users (no contact) are not written through contacts. */
export const personOwner = ownedBy(contactOwner, "people", "Person", people.id, people.contactId);
