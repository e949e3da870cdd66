/**
 * The contacts a task concerns, joined through activity contacts. Requests set them either with
 * `relationships.contacts` (contact identifiers) or, as existing clients do, with
 * `relationships.activity_contacts` plus `included` activity contacts naming their contact. Either form replaces
 * the whole set; activity contacts kept from before keep their ids, new ones take the id the client generated.
 */
import { sql } from "drizzle-orm";
import { activityContacts, contacts } from "../../../drizzle/schema";
import { and, inList } from "../../db/sql";
import type { BatchStatement, RequestContext, WriteInput } from "../../engine/define";
import { badRequest, conflict } from "../../jsonapi/errors";
import { toManyLinkage, toOneLinkage } from "../../jsonapi/request-document";

export interface ContactLink {
  id: string;
  contactId: string;
  /** Where a client-generated id came from, for the error when it is taken. */
  idPointer?: string;
}

/** The requested set of links with what is needed to write it. */
export interface ContactLinksChange {
  links: ContactLink[];
  /** Ids of the task's current activity contacts that stay as they are. */
  kept: string[];
  /** The relationship the request used, for error pointers. */
  relationship: "contacts" | "activity_contacts";
  /** Ids of the task's current activity contacts that go. */
  dropped: string[];
}

export function sendsContacts(input: WriteInput): boolean {
  return "contacts" in input.relationships || "activity_contacts" in input.relationships;
}

export async function currentLinks(taskId: string, ctx: RequestContext): Promise<ContactLink[]> {
  return ctx.db
    .select({ id: activityContacts.id, contactId: activityContacts.contactId })
    .from(activityContacts)
    .where(sql`${activityContacts.taskId} = ${taskId}`)
    .orderBy(sql`rowid`);
}

function fromContacts(input: WriteInput, current: ContactLink[]): ContactLink[] {
  return toManyLinkage(input.relationships.contacts, "contacts").map((linkage, index) => {
    if (linkage.type !== "contacts") {
      throw conflict(`'${linkage.type}' is not a valid resource type for relationship contacts. Expected 'contacts' instead`, {
        pointer: `/data/relationships/contacts/data/${index}/type`,
      });
    }
    const known = current.find((link) => link.contactId === linkage.id);
    return { id: known?.id ?? crypto.randomUUID(), contactId: linkage.id };
  });
}

function isDestroyed(entry: Record<string, unknown>): boolean {
  const destroy = (entry.attributes as Record<string, unknown> | undefined)?._destroy;
  return destroy === true || destroy === "true" || destroy === 1 || destroy === "1";
}

function fromActivityContacts(input: WriteInput, current: ContactLink[]): ContactLink[] {
  const links: ContactLink[] = [];
  const seen = new Set<string>();
  toManyLinkage(input.relationships.activity_contacts, "activity_contacts").forEach((linkage, index) => {
    const pointer = `/data/relationships/activity_contacts/data/${index}`;
    if (linkage.type !== "activity_contacts") {
      throw conflict(`'${linkage.type}' is not a valid resource type for relationship activity_contacts. Expected 'activity_contacts' instead`, {
        pointer: `${pointer}/type`,
      });
    }
    if (seen.has(linkage.id)) throw badRequest(`Activity contact ${linkage.id} is listed more than once`, { pointer });
    seen.add(linkage.id);
    const includedIndex = input.included.findIndex(
      (entry) => isEntry(entry) && entry.type === "activity_contacts" && typeof entry.id === "string" && entry.id.toLowerCase() === linkage.id,
    );
    if (includedIndex === -1) {
      const known = current.find((link) => link.id === linkage.id);
      if (!known) throw badRequest(`Activity contact ${linkage.id} is neither in included nor one of the task's activity contacts`, { pointer });
      links.push(known);
      return;
    }
    const entry = input.included[includedIndex] as Record<string, unknown>;
    if (isDestroyed(entry)) return;
    const relationships = (entry.relationships ?? {}) as Record<string, unknown>;
    const contactPointer = `/included/${includedIndex}/relationships/contact`;
    if (!("contact" in relationships)) throw badRequest("An included activity contact needs a contact relationship", { pointer: contactPointer });
    let contact: ReturnType<typeof toOneLinkage>;
    try {
      contact = toOneLinkage(relationships.contact, "contact");
    } catch {
      throw badRequest("The contact relationship must be {data: {type: 'contacts', id}}", { pointer: contactPointer });
    }
    if (!contact || contact.type !== "contacts") {
      throw badRequest("The contact relationship must be {data: {type: 'contacts', id}}", { pointer: contactPointer });
    }
    links.push({ id: linkage.id, contactId: contact.id, idPointer: `/included/${includedIndex}/id` });
  });
  return links;
}

function isEntry(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The set the request asks for (each contact once, first mention wins); throws for malformed linkage. */
export function requestedLinks(input: WriteInput, current: ContactLink[]): ContactLinksChange {
  const both = "contacts" in input.relationships && "activity_contacts" in input.relationships;
  if (both) throw badRequest("Send the task's contacts either as contacts or as activity_contacts, not both", { pointer: "/data/relationships" });
  const relationship = "contacts" in input.relationships ? "contacts" : "activity_contacts";
  const requested = relationship === "contacts" ? fromContacts(input, current) : fromActivityContacts(input, current);
  const seen = new Set<string>();
  const links = requested.filter((link) => !seen.has(link.contactId) && seen.add(link.contactId));
  const kept = links.filter((link) => current.some((c) => c.id === link.id && c.contactId === link.contactId)).map((link) => link.id);
  return { links, kept, dropped: current.filter((link) => !kept.includes(link.id)).map((link) => link.id), relationship };
}

/** The name of a contact, for the subject generated from it. */
export async function contactName(contactId: string, ctx: RequestContext): Promise<string | undefined> {
  const [row] = await ctx.db.select({ name: contacts.name }).from(contacts).where(sql`${contacts.id} = ${contactId}`).limit(1);
  return row?.name;
}

/**
 * The new activity contact ids each request has given out so far, with the task and contact they went to: two
 * tasks of one bulk request (or two contacts of one task) cannot both take the same new id.
 */
const claimedInRequest = new WeakMap<RequestContext, Map<string, string>>();

/**
 * A client-generated activity contact id already used by another task, or by another link of this request,
 * cannot be taken. One of this task's own ids given to another contact is freed by the delete that runs before
 * the insert.
 */
export async function checkNewLinkIds(taskId: string, change: ContactLinksChange, ctx: RequestContext): Promise<void> {
  const fresh = change.links.filter((link) => link.idPointer && !change.kept.includes(link.id));
  if (fresh.length === 0) return;
  const claimed = claimedInRequest.get(ctx) ?? new Map<string, string>();
  claimedInRequest.set(ctx, claimed);
  const local = new Map(claimed);
  for (const link of fresh) {
    const owner = `${taskId} ${link.contactId}`;
    if ((local.get(link.id) ?? owner) !== owner) throw conflict(`A resource with id ${link.id} already exists`, { pointer: link.idPointer });
    local.set(link.id, owner);
  }
  const taken = await ctx.db
    .select({ id: activityContacts.id, taskId: activityContacts.taskId })
    .from(activityContacts)
    .where(inList(activityContacts.id, fresh.map((link) => link.id)));
  const other = taken.find((row) => row.taskId !== taskId);
  if (other) throw conflict(`A resource with id ${other.id} already exists`, { pointer: fresh.find((l) => l.id === other.id)!.idPointer });
  for (const [id, owner] of local) claimed.set(id, owner);
}

/** Deletes the links that go and inserts the new ones, in the batch that writes the task. */
export function linkWrites(ctx: RequestContext, taskId: string, change: ContactLinksChange): BatchStatement[] {
  const fresh = change.links.filter((link) => !change.kept.includes(link.id)).map((link) => [link.id, link.contactId]);
  const statements: BatchStatement[] = [];
  if (change.dropped.length > 0) {
    statements.push(ctx.db.delete(activityContacts).where(and([sql`${activityContacts.taskId} = ${taskId}`, inList(activityContacts.id, change.dropped)])!) as unknown as BatchStatement);
  }
  if (fresh.length > 0) {
    statements.push(
      // Columns in table order (id, task_id, contact_id, created_at, updated_at); any number of links, few parameters.
      ctx.db
        .insert(activityContacts)
        .select(sql`SELECT json_extract(value, '$[0]'), ${taskId}, json_extract(value, '$[1]'), ${ctx.now}, ${ctx.now} FROM json_each(${JSON.stringify(fresh)})`) as unknown as BatchStatement,
    );
  }
  return statements;
}
