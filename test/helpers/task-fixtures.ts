/**
 * The people, lists and contacts the task endpoint tests share: alice (with a second list), a fellow user carol
 * and a coach of her list, bob with his own list, contact and task.
 */
import { expect } from "vitest";
import { asc, eq, sql } from "drizzle-orm";
import * as schema from "../../drizzle/schema";
import { post } from "./api";
import { addToList, createAccountList, createUser, createViewer, db, timestamps, uuid } from "./factories";

export const TASKS = "/api/v2/tasks";
export const link = (type: string, id: string) => ({ type, id });
export const contactsRel = (...ids: string[]) => ({ contacts: { data: ids.map((id) => link("contacts", id)) } });
export const body = (attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  data: { type: "tasks", attributes, relationships, ...extra },
});

export async function storedTask(id: string) {
  const [row] = await db.select().from(schema.tasks).where(eq(schema.tasks.id, id));
  return row;
}

/** A task's activity contacts in the order they were linked. */
export async function storedLinks(taskId: string) {
  return db
    .select({ id: schema.activityContacts.id, contactId: schema.activityContacts.contactId })
    .from(schema.activityContacts)
    .where(eq(schema.activityContacts.taskId, taskId))
    .orderBy(sql`rowid`);
}

export async function storedTags(taskId: string) {
  const rows = await db.select().from(schema.taskTags).where(eq(schema.taskTags.taskId, taskId)).orderBy(asc(schema.taskTags.name));
  return rows.map((row) => row.name);
}

export async function buildWorld() {
  const alice = await createViewer();
  const bob = await createViewer();
  const aliceSecondList = await createAccountList(alice.user);
  const carol = await createUser();
  await addToList(alice.list.id, carol.id);
  const coach = await createUser();
  await addToList(alice.list.id, coach.id, "coach");
  const contact = { john: uuid(), anna: uuid(), mark: uuid(), otherList: uuid(), bobs: uuid() };
  const person = { john: uuid(), johnEmail: uuid(), johnPhone: uuid() };
  await db.insert(schema.contacts).values([
    { id: contact.john, accountListId: alice.list.id, name: "Doe, John", ...timestamps() },
    { id: contact.anna, accountListId: alice.list.id, name: "Smith, Anna", ...timestamps() },
    { id: contact.mark, accountListId: alice.list.id, name: "Lee, Mark", ...timestamps() },
    { id: contact.otherList, accountListId: aliceSecondList.id, name: "Other, Person", ...timestamps() },
    { id: contact.bobs, accountListId: bob.list.id, name: "Bobs, Contact", ...timestamps() },
  ]);
  await db.insert(schema.people).values({ id: person.john, contactId: contact.john, firstName: "John", lastName: "Doe", ...timestamps() });
  await db.insert(schema.emailAddresses).values({ id: person.johnEmail, personId: person.john, email: "john@example.org", ...timestamps() });
  await db.insert(schema.phoneNumbers).values({ id: person.johnPhone, personId: person.john, number: "+1 555 0100", ...timestamps() });
  const bobTaskId = uuid();
  await db.insert(schema.tasks).values({ id: bobTaskId, accountListId: bob.list.id, subject: "Bob's call", activityType: "Call", ...timestamps() });
  /** Creates a task as alice through the API and answers its resource object. */
  const createTask = async (attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}) => {
    const response = await post(TASKS, body(attributes, relationships), alice.token);
    expect(response.status, response.text).toBe(201);
    return response.body.data;
  };
  return { alice, bob, aliceSecondList, carol, coach, contact, person, bobTaskId, createTask };
}

export type TaskWorld = Awaited<ReturnType<typeof buildWorld>>;
