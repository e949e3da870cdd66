/**
 * The contacts a task concerns, joined through activity contacts, written as the original does and its clients
 * expect: nothing is replaced. `relationships.contacts` adds the named contacts and keeps the others (an empty
 * list changes nothing). `relationships.activity_contacts` is sideposted by the engine (engine/sidepost.ts):
 * an included entry with a new id and a `contact` adds that contact, one marked `_destroy` removes its link.
 * Both may come in one body. Every contact must be of the task's account list.
 */
import { sql } from "drizzle-orm";
import { activityContacts, contacts } from "../../../drizzle/schema";
import { checkSameList } from "../../engine/account-list-scope";
import type { BatchStatement, RequestContext, WriteInput } from "../../engine/define";
import { nestedDestroyed, nestedLinks } from "../../engine/sidepost";
import { conflict } from "../../jsonapi/errors";
import { toManyLinkage } from "../../jsonapi/request-document";
import { contactTarget } from "../donations/list-records";

/** The contact ids a request names, through `contacts` and through new included activity contacts, first mention first. */
function namedContacts(input: WriteInput): { viaContacts: string[]; viaActivityContacts: string[] } {
  const viaContacts =
    "contacts" in input.relationships
      ? toManyLinkage(input.relationships.contacts, "contacts").map((linkage, index) => {
          if (linkage.type !== "contacts") {
            throw conflict(`'${linkage.type}' is not a valid resource type for relationship contacts. Expected 'contacts' instead`, {
              pointer: `/data/relationships/contacts/data/${index}/type`,
            });
          }
          return linkage.id;
        })
      : [];
  return { viaContacts, viaActivityContacts: nestedLinks(input, "activity_contacts", "contact") };
}

/** The task's linked contacts that stay: all but those whose activity contact the request destroys. */
export async function keptContactIds(taskId: string, input: WriteInput, ctx: RequestContext): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: activityContacts.id, contactId: activityContacts.contactId })
    .from(activityContacts)
    .where(sql`${activityContacts.taskId} = ${taskId}`)
    .orderBy(sql`rowid`);
  const destroyed = nestedDestroyed(input, "activity_contacts");
  return rows.filter((row) => !destroyed.includes(row.id)).map((row) => row.contactId);
}

/** What the request adds to the task's contacts: checked against the task's list, and the first contact for a default subject. */
export interface ContactsAdded {
  /** Contacts named in `contacts` that are not linked yet (nor added as included activity contacts). */
  viaContacts: string[];
  firstContact?: string;
}

/**
 * Checks every contact the task will have is of `accountListId` (unknown 404, another user's 403, another of
 * the viewer's lists 400) and returns the links to add. `current`: the task's contacts that stay (none for a new task).
 */
export async function contactsAdded(input: WriteInput, current: string[], accountListId: string, ctx: RequestContext): Promise<ContactsAdded> {
  const { viaContacts, viaActivityContacts } = namedContacts(input);
  const added = [...new Set(viaContacts)].filter((id) => !current.includes(id) && !viaActivityContacts.includes(id));
  await checkSameList(contactTarget, [...current, ...added], accountListId, ctx, "contacts");
  await checkSameList(contactTarget, viaActivityContacts, accountListId, ctx, "activity_contacts");
  return { viaContacts: added, firstContact: current[0] ?? viaContacts[0] ?? viaActivityContacts[0] };
}

/** The name of a contact, for the subject generated from it. */
export async function contactName(contactId: string, ctx: RequestContext): Promise<string | undefined> {
  const [row] = await ctx.db.select({ name: contacts.name }).from(contacts).where(sql`${contacts.id} = ${contactId}`).limit(1);
  return row?.name;
}

/** Inserts the links `contacts` adds, in the batch that writes the task; any number of links, few parameters. */
export function linkWrites(ctx: RequestContext, taskId: string, contactIds: string[]): BatchStatement[] {
  if (contactIds.length === 0) return [];
  const fresh = contactIds.map((contactId) => [crypto.randomUUID(), contactId]);
  return [
    // Columns in table order (id, task_id, contact_id, created_at, updated_at, then the copies of the task's state,
    // which the link's trigger writes: drizzle/task-link-copies.ts).
    ctx.db
      .insert(activityContacts)
      .select(
        sql`SELECT json_extract(value, '$[0]'), ${taskId}, json_extract(value, '$[1]'), ${ctx.now}, ${ctx.now}, 0, NULL, NULL FROM json_each(${JSON.stringify(fresh)})`,
      ) as unknown as BatchStatement,
  ];
}
