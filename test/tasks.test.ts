import { beforeAll, describe, expect, it } from "vitest";
import { asc, eq, sql } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { del, errorOf, get, patch, post, put } from "./helpers/api";
import { addToList, createAccountList, createUser, createViewer, db, timestamps, uuid } from "./helpers/factories";

let alice: Awaited<ReturnType<typeof createViewer>>;
let bob: Awaited<ReturnType<typeof createViewer>>;
let aliceSecondList: { id: string };
let carol: Awaited<ReturnType<typeof createUser>>;
let coach: Awaited<ReturnType<typeof createUser>>;
const contact = { john: uuid(), anna: uuid(), mark: uuid(), otherList: uuid(), bobs: uuid() };
const person = { john: uuid(), johnEmail: uuid(), johnPhone: uuid() };
let bobTaskId: string;

const TASKS = "/api/v2/tasks";
const link = (type: string, id: string) => ({ type, id });
const contactsRel = (...ids: string[]) => ({ contacts: { data: ids.map((id) => link("contacts", id)) } });
const body = (attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  data: { type: "tasks", attributes, relationships, ...extra },
});

async function storedTask(id: string) {
  const [row] = await db.select().from(schema.tasks).where(eq(schema.tasks.id, id));
  return row;
}

async function storedLinks(taskId: string) {
  return db
    .select({ id: schema.activityContacts.id, contactId: schema.activityContacts.contactId })
    .from(schema.activityContacts)
    .where(eq(schema.activityContacts.taskId, taskId))
    .orderBy(sql`rowid`);
}

async function storedTags(taskId: string) {
  const rows = await db.select().from(schema.taskTags).where(eq(schema.taskTags.taskId, taskId)).orderBy(asc(schema.taskTags.name));
  return rows.map((row) => row.name);
}

async function createTask(attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}) {
  const response = await post(TASKS, body(attributes, relationships), alice.token);
  expect(response.status, response.text).toBe(201);
  return response.body.data;
}

beforeAll(async () => {
  alice = await createViewer();
  bob = await createViewer();
  aliceSecondList = await createAccountList(alice.user);
  carol = await createUser();
  await addToList(alice.list.id, carol.id);
  coach = await createUser();
  await addToList(alice.list.id, coach.id, "coach");
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
  bobTaskId = uuid();
  await db.insert(schema.tasks).values({ id: bobTaskId, accountListId: bob.list.id, subject: "Bob's call", activityType: "Call", ...timestamps() });
});

describe("creating tasks", () => {
  it("creates a task with contacts, tags and a client id; answers 201 with Location and the stored values", async () => {
    const id = uuid();
    const response = await post(
      TASKS,
      body(
        {
          subject: "Visit the Does",
          activity_type: "Appointment",
          start_at: "2026-12-01 15:30:00",
          location: "Cafe",
          starred: true,
          notification_time_before: 30,
          notification_time_unit: "minutes",
          notification_type: "both",
          next_action: "Thank",
          tag_list: "Visit, FOLLOW-up ,visit",
        },
        { ...contactsRel(contact.john, contact.anna), account_list: { data: link("account_lists", alice.list.id) }, user: { data: link("users", carol.id) } },
        { id },
      ),
      alice.token,
    );
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get("location")).toBe(`https://api.example.org${TASKS}/${id}`);
    const data = response.body.data;
    expect(data.id).toBe(id);
    expect(data.attributes).toMatchObject({
      subject: "Visit the Does",
      subject_hidden: false,
      activity_type: "Appointment",
      start_at: "2026-12-01T15:30:00Z",
      location: "Cafe",
      starred: true,
      completed: false,
      completed_at: null,
      result: null,
      next_action: "Thank",
      notification_time_before: 30,
      notification_time_unit: "minutes",
      notification_type: "both",
      comments_count: 0,
      tag_list: ["follow-up", "visit"],
    });
    expect(data.attributes.updated_in_db_at).toBe(data.attributes.updated_at);
    expect(data.relationships.account_list.data).toEqual(link("account_lists", alice.list.id));
    expect(data.relationships.user.data).toEqual(link("users", carol.id));
    expect(data.relationships.contacts.data).toEqual([link("contacts", contact.john), link("contacts", contact.anna)]);
    expect(data.relationships.people.data).toEqual([link("people", person.john)]);
    expect(data.relationships.email_addresses.data).toEqual([link("email_addresses", person.johnEmail)]);
    expect(data.relationships.phone_numbers.data).toEqual([link("phone_numbers", person.johnPhone)]);
    const links = await storedLinks(id);
    expect(links.map((l) => l.contactId)).toEqual([contact.john, contact.anna]);
    expect(data.relationships.activity_contacts.data).toEqual(links.map((l) => link("activity_contacts", l.id)));
    expect(await storedTags(id)).toEqual(["follow-up", "visit"]);
    expect(await storedTask(id)).toMatchObject({ accountListId: alice.list.id, userId: carol.id, startAt: "2026-12-01T15:30:00Z" });
  });

  it("takes contacts from activity_contacts with included entries, keeping the client's activity contact ids", async () => {
    const first = uuid();
    const second = uuid();
    const response = await post(
      `${TASKS}?include=activity_contacts`,
      {
        ...body({ subject: "Thank them", activity_type: "Thank" }, { activity_contacts: { data: [link("activity_contacts", first), link("activity_contacts", second)] } }),
        included: [
          { type: "activity_contacts", id: first, relationships: { contact: { data: link("contacts", contact.anna) } } },
          { type: "activity_contacts", id: second, relationships: { contact: { data: link("contacts", contact.mark) } } },
        ],
      },
      alice.token,
    );
    expect(response.status, response.text).toBe(201);
    const id = response.body.data.id;
    expect(await storedLinks(id)).toEqual([
      { id: first, contactId: contact.anna },
      { id: second, contactId: contact.mark },
    ]);
    expect(response.body.data.relationships.contacts.data).toEqual([link("contacts", contact.anna), link("contacts", contact.mark)]);
    const included = response.body.included.find((entry: { id: string }) => entry.id === first);
    expect(included.relationships.contact.data).toEqual(link("contacts", contact.anna));
    expect(included.relationships.task.data).toEqual(link("tasks", id));
  });

  it("goes to the viewer's default list when no account list is sent", async () => {
    const data = await createTask({ subject: "Defaulted" });
    expect(data.relationships.account_list.data.id).toBe(alice.list.id);
  });

  it("generates a blank subject from the activity and the first contact, marked hidden", async () => {
    const data = await createTask({ activity_type: "Call", subject: "  " }, contactsRel(contact.anna, contact.john));
    expect(data.attributes.subject).toBe("Call Smith, Anna");
    expect(data.attributes.subject_hidden).toBe(true);
    const noActivity = await createTask({}, contactsRel(contact.john));
    expect(noActivity.attributes.subject).toBe("Doe, John");
    expect(noActivity.attributes.subject_hidden).toBe(true);
    const noContact = await createTask({ activity_type: "To Do" });
    expect(noContact.attributes.subject).toBe("To Do");
  });

  it("refuses a task whose subject would stay blank", async () => {
    const before = (await db.select().from(schema.tasks)).length;
    const error = errorOf(await post(TASKS, body({ subject: "" }), alice.token), 400);
    expect(error.detail).toBe("Subject can't be blank");
    expect(error.source.pointer).toBe("/data/attributes/subject");
    expect((await db.select().from(schema.tasks)).length).toBe(before);
  });

  it("completes on create: completed_at now, empty start_at and result filled", async () => {
    const before = new Date().toISOString().slice(0, 19) + "Z";
    const data = await createTask({ subject: "Done already", activity_type: "Call", completed: true });
    const after = new Date(Date.now() + 1000).toISOString().slice(0, 19) + "Z";
    expect(data.attributes.completed).toBe(true);
    expect(data.attributes.completed_at >= before && data.attributes.completed_at <= after).toBe(true);
    expect(data.attributes.start_at).toBe(data.attributes.completed_at);
    expect(data.attributes.result).toBe("Done");
    const sent = await createTask({
      subject: "Done earlier",
      activity_type: "Call",
      completed: true,
      completed_at: "2026-03-04 10:00:00 UTC",
      start_at: "2026-03-01T09:00:00Z",
      result: "Attempted",
    });
    expect(sent.attributes).toMatchObject({ completed_at: "2026-03-04T10:00:00Z", start_at: "2026-03-01T09:00:00Z", result: "Attempted" });
  });

  it("validates attribute values and writes nothing", async () => {
    const before = (await db.select().from(schema.tasks)).length;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ subject: "x", activity_type: "Dance" }, "activity_type", "Activity type is not included in the list"],
      [{ subject: "x", notification_time_before: -5 }, "notification_time_before", "Notification time before must be greater than or equal to 0"],
      [{ subject: "x", notification_time_before: "soon" }, "notification_time_before", "Notification time before must be an integer"],
      [{ subject: "x", notification_time_unit: "weeks" }, "notification_time_unit", "Notification time unit is not included in the list"],
      [{ subject: "x", notification_type: "pigeon" }, "notification_type", "Notification type is not included in the list"],
      [{ subject: "x", activity_type: "Call", result: "Received a pony" }, "result", "Result is not included in the list"],
      [{ subject: "x", activity_type: "Letter", next_action: "Appointment" }, "next_action", "Next action is not included in the list"],
      [{ subject: "x", start_at: "someday" }, "start_at", "Start at is not a valid time"],
      [{ subject: "x", completed: "maybe" }, "completed", "Completed must be true or false"],
      [{ subject: "x", tag_list: { a: 1 } }, "tag_list", "Tag list must be a comma-separated string or an array of strings"],
    ];
    for (const [attributes, name, detail] of cases) {
      const error = errorOf(await post(TASKS, body(attributes), alice.token), 400);
      expect(error.source.pointer).toBe(`/data/attributes/${name}`);
      expect(error.detail).toBe(detail);
    }
    expect((await db.select().from(schema.tasks)).length).toBe(before);
  });

  it("accepts the default results and next actions, and any value for activities the constants do not cover", async () => {
    const call = await createTask({ subject: "a", activity_type: "Call", result: "Done", next_action: "None" });
    expect(call.attributes).toMatchObject({ result: "Done", next_action: "None" });
    const letter = await createTask({ subject: "b", activity_type: "Letter", result: "Received", next_action: "Email" });
    expect(letter.attributes).toMatchObject({ result: "Received", next_action: "Email" });
    const todo = await createTask({ subject: "c", activity_type: "To Do", result: "Whatever happened", next_action: "Anything" });
    expect(todo.attributes).toMatchObject({ result: "Whatever happened", next_action: "Anything" });
    const newsletter = await createTask({ subject: "d", activity_type: "Newsletter - Email", tag_list: ["News", "news", " "] });
    expect(newsletter.attributes.tag_list).toEqual(["news"]);
  });

  it("checks the contacts: another of the viewer's lists 400, someone else's 403, unknown 404; nothing written", async () => {
    const before = (await db.select().from(schema.tasks)).length;
    const linksBefore = (await db.select().from(schema.activityContacts)).length;
    const elsewhere = errorOf(await post(TASKS, body({ subject: "x" }, contactsRel(contact.john, contact.otherList)), alice.token), 400);
    expect(elsewhere.detail).toBe("Contacts must belong to the same account list");
    expect(elsewhere.source.pointer).toBe("/data/relationships/contacts");
    const foreign = errorOf(await post(TASKS, body({ subject: "x" }, contactsRel(contact.bobs)), alice.token), 403);
    expect(foreign.detail).toBe(`Not allowed to perform that action on the resource with ID ${contact.bobs} of type contacts`);
    const unknown = uuid();
    const missing = errorOf(await post(TASKS, body({ subject: "x" }, contactsRel(unknown)), alice.token), 404);
    expect(missing.detail).toBe(`Couldn't find Contact with 'id'=${unknown}`);
    const wrongType = errorOf(await post(TASKS, body({ subject: "x" }, { contacts: { data: [link("people", contact.john)] } }), alice.token), 409);
    expect(wrongType.source.pointer).toBe("/data/relationships/contacts/data/0/type");
    const notArray = errorOf(await post(TASKS, body({ subject: "x" }, { contacts: { data: link("contacts", contact.john) } }), alice.token), 400);
    expect(notArray.source.pointer).toBe("/data/relationships/contacts");
    const both = errorOf(
      await post(TASKS, body({ subject: "x" }, { ...contactsRel(contact.john), activity_contacts: { data: [] } }), alice.token),
      400,
    );
    expect(both.detail).toBe("Send the task's contacts either as contacts or as activity_contacts, not both");
    // The contacts must belong to the list the task goes to, not only to one of the viewer's lists.
    const otherListTask = errorOf(
      await post(TASKS, body({ subject: "x" }, { ...contactsRel(contact.john), account_list: { data: link("account_lists", aliceSecondList.id) } }), alice.token),
      400,
    );
    expect(otherListTask.source.pointer).toBe("/data/relationships/contacts");
    expect((await db.select().from(schema.tasks)).length).toBe(before);
    expect((await db.select().from(schema.activityContacts)).length).toBe(linksBefore);
  });

  it("checks included activity contacts: missing entry, missing contact, and a client id already taken", async () => {
    const before = (await db.select().from(schema.tasks)).length;
    const orphan = uuid();
    const missing = errorOf(await post(TASKS, body({ subject: "x" }, { activity_contacts: { data: [link("activity_contacts", orphan)] } }), alice.token), 400);
    expect(missing.source.pointer).toBe("/data/relationships/activity_contacts/data/0");
    const noContact = errorOf(
      await post(
        TASKS,
        { ...body({ subject: "x" }, { activity_contacts: { data: [link("activity_contacts", orphan)] } }), included: [{ type: "activity_contacts", id: orphan }] },
        alice.token,
      ),
      400,
    );
    expect(noContact.source.pointer).toBe("/included/0/relationships/contact");
    const twice = errorOf(
      await post(
        TASKS,
        {
          ...body({ subject: "x" }, { activity_contacts: { data: [link("activity_contacts", orphan), link("activity_contacts", orphan)] } }),
          included: [{ type: "activity_contacts", id: orphan, relationships: { contact: { data: link("contacts", contact.john) } } }],
        },
        alice.token,
      ),
      400,
    );
    expect(twice.source.pointer).toBe("/data/relationships/activity_contacts/data/1");
    const existing = await createTask({ subject: "has a link" }, contactsRel(contact.john));
    const takenId = existing.relationships.activity_contacts.data[0].id;
    const taken = errorOf(
      await post(
        TASKS,
        {
          ...body({ subject: "x" }, { activity_contacts: { data: [link("activity_contacts", takenId)] } }),
          included: [{ type: "activity_contacts", id: takenId, relationships: { contact: { data: link("contacts", contact.anna) } } }],
        },
        alice.token,
      ),
      409,
    );
    expect(taken.source.pointer).toBe("/included/0/id");
    expect((await db.select().from(schema.tasks)).length).toBe(before + 1);
    expect(await storedLinks(existing.id)).toEqual([{ id: takenId, contactId: contact.john }]);
  });

  it("assigns only users of the task's list", async () => {
    const error = errorOf(await post(TASKS, body({ subject: "x" }, { user: { data: link("users", bob.user.id) } }), alice.token), 400);
    expect(error.detail).toBe("User must be a user of the task's account list");
    expect(error.source.pointer).toBe("/data/relationships/user");
    const coachError = errorOf(await post(TASKS, body({ subject: "x" }, { user: { data: link("users", coach.id) } }), alice.token), 400);
    expect(coachError.source.pointer).toBe("/data/relationships/user");
    const own = await createTask({ subject: "mine" }, { user: { data: link("users", alice.user.id) } });
    expect(own.relationships.user.data).toEqual(link("users", alice.user.id));
  });

  it("refuses tasks in lists the viewer cannot write, and requests without a token", async () => {
    const foreign = errorOf(await post(TASKS, body({ subject: "x" }, { account_list: { data: link("account_lists", bob.list.id) } }), alice.token), 403);
    expect(foreign.detail).toBe(`Not allowed to perform that action on the resource with ID ${bob.list.id} of type account_lists`);
    errorOf(await post(TASKS, body({ subject: "x" }, { account_list: { data: link("account_lists", alice.list.id) } }), coach.token), 403);
    errorOf(await post(TASKS, body({ subject: "x" }), null), 401);
    errorOf(await get(TASKS, null), 401);
    const wrongType = errorOf(await post(TASKS, { data: { type: "contacts", attributes: { subject: "x" } } }, alice.token), 409);
    expect(wrongType.detail).toBe("'contacts' is not a valid resource type for this endpoint. Expected 'tasks' instead");
    const foreignKey = errorOf(await post(TASKS, body({ subject: "x", account_list_id: alice.list.id }), alice.token), 409);
    expect(foreignKey.source.pointer).toBe("/data/attributes/account_list_id");
    const reused = errorOf(await post(TASKS, body({ subject: "x" }, {}, { id: bobTaskId }), alice.token), 409);
    expect(reused.source.pointer).toBe("/data/id");
    expect(await storedTask(bobTaskId)).toMatchObject({ accountListId: bob.list.id, subject: "Bob's call" });
  });
});

describe("reading tasks", () => {
  it("shows a task with its comments, includes and sparse fields", async () => {
    const task = await createTask({ subject: "Commented" }, contactsRel(contact.john));
    await db.insert(schema.comments).values([
      { id: uuid(), taskId: task.id, personId: person.john, body: "First", ...timestamps(10) },
      { id: uuid(), taskId: task.id, personId: null, body: "Second", ...timestamps(20) },
    ]);
    const response = await get(`${TASKS}/${task.id}?include=comments,activity_contacts`, alice.token);
    expect(response.status).toBe(200);
    expect(response.body.data.attributes.comments_count).toBe(2);
    const comments = response.body.included.filter((entry: { type: string }) => entry.type === "comments");
    const byBody = Object.fromEntries(comments.map((c: { attributes: { body: string } }) => [c.attributes.body, c]));
    expect(Object.keys(byBody).sort()).toEqual(["First", "Second"]);
    expect(byBody.First.relationships.person.data).toEqual(link("people", person.john));
    expect(byBody.Second.relationships.person.data).toBeNull();
    expect(response.body.data.relationships.comments.data).toEqual([link("comments", byBody.First.id), link("comments", byBody.Second.id)]);
    expect(response.body.included.filter((entry: { type: string }) => entry.type === "activity_contacts")).toHaveLength(1);
    const sparse = await get(`${TASKS}/${task.id}?fields[tasks]=subject,contacts`, alice.token);
    expect(sparse.body.data.attributes).toEqual({ subject: "Commented" });
    expect(Object.keys(sparse.body.data.relationships)).toEqual(["contacts"]);
  });

  it("includes the task's contacts, their people and the assigned user", async () => {
    const task = await createTask({ subject: "Included" }, { ...contactsRel(contact.john, contact.anna), user: { data: link("users", carol.id) } });
    const response = await get(`${TASKS}/${task.id}?include=contacts,people,user`, alice.token);
    expect(response.status, response.text).toBe(200);
    const included = response.body.included.map((entry: { type: string; id: string }) => `${entry.type}:${entry.id}`).sort();
    expect(included).toEqual([`contacts:${contact.anna}`, `contacts:${contact.john}`, `people:${person.john}`, `users:${carol.id}`].sort());
    const john = response.body.included.find((entry: { id: string }) => entry.id === contact.john);
    expect(john.attributes.name).toBe("Doe, John");
  });

  it("lets a coach read but never lists, shows or changes another user's tasks", async () => {
    const task = await createTask({ subject: "Coach can see" });
    const coachView = await get(`${TASKS}/${task.id}`, coach.token);
    expect(coachView.status).toBe(200);
    const list = await get(`${TASKS}?per_page=1000`, alice.token);
    expect(list.body.data.map((t: { id: string }) => t.id)).not.toContain(bobTaskId);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.every((t: { relationships: { account_list: { data: { id: string } } } }) => t.relationships.account_list.data.id !== bob.list.id)).toBe(true);
    const shown = errorOf(await get(`${TASKS}/${bobTaskId}`, alice.token), 403);
    expect(shown.detail).toBe(`Not allowed to perform that action on the resource with ID ${bobTaskId} of type tasks`);
    const before = await storedTask(bobTaskId);
    errorOf(await put(`${TASKS}/${bobTaskId}`, body({ subject: "Hijacked", overwrite: true }), alice.token), 403);
    errorOf(await del(`${TASKS}/${bobTaskId}`, alice.token), 403);
    expect(await storedTask(bobTaskId)).toEqual(before);
    errorOf(await put(`${TASKS}/${task.id}`, body({ subject: "Coach edit", overwrite: true }), coach.token), 403);
    errorOf(await del(`${TASKS}/${task.id}`, coach.token), 403);
    expect((await storedTask(task.id)).subject).toBe("Coach can see");
    const unknown = uuid();
    expect(errorOf(await get(`${TASKS}/${unknown}`, alice.token), 404).detail).toBe(`Couldn't find Task with 'id'=${unknown}`);
    errorOf(await put(`${TASKS}/${unknown}`, body({ subject: "x", overwrite: true }), alice.token), 404);
    errorOf(await del(`${TASKS}/${unknown}`, alice.token), 404);
    expect(errorOf(await get(`${TASKS}/not-a-uuid`, alice.token), 404).detail).toBe("Route not found");
  });
});

describe("updating tasks", () => {
  it("answers 200 with the task, changing only what was sent", async () => {
    const task = await createTask({ subject: "Original", location: "Home", tag_list: "one" }, contactsRel(contact.john));
    const response = await put(`${TASKS}/${task.id}`, body({ location: "Office", updated_in_db_at: task.attributes.updated_in_db_at }), alice.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ subject: "Original", location: "Office", tag_list: ["one"] });
    expect(response.body.data.relationships.contacts.data).toEqual([link("contacts", contact.john)]);
    const patched = await patch(`${TASKS}/${task.id}`, body({ tag_list: [], overwrite: true }), alice.token);
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes.tag_list).toEqual([]);
    expect(await storedTags(task.id)).toEqual([]);
  });

  it("refuses a blank subject on update and changes nothing", async () => {
    const task = await createTask({ subject: "Keep me", location: "Here" });
    const before = await storedTask(task.id);
    for (const subject of ["", "   ", null]) {
      const error = errorOf(await put(`${TASKS}/${task.id}`, body({ subject, location: "There", overwrite: true }), alice.token), 400);
      expect(error.detail).toBe("Subject can't be blank");
      expect(error.source.pointer).toBe("/data/attributes/subject");
    }
    expect(await storedTask(task.id)).toEqual(before);
  });

  it("applies the completion rules when completing and un-completing", async () => {
    const task = await createTask({ subject: "Plan", activity_type: "Call", start_at: "2026-05-01T10:00:00Z" });
    const completed = await put(`${TASKS}/${task.id}`, body({ completed: true, overwrite: true }), alice.token);
    const attrs = completed.body.data.attributes;
    expect(attrs.completed).toBe(true);
    expect(attrs.completed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(attrs.start_at).toBe("2026-05-01T10:00:00Z");
    expect(attrs.result).toBe("Done");
    // Completing again keeps the first completion time and the result already there.
    await db.update(schema.tasks).set({ completedAt: "2026-05-02T08:00:00Z", result: "Attempted" }).where(eq(schema.tasks.id, task.id));
    const again = await put(`${TASKS}/${task.id}`, body({ completed: true, overwrite: true }), alice.token);
    expect(again.body.data.attributes).toMatchObject({ completed_at: "2026-05-02T08:00:00Z", result: "Attempted" });
    const reopened = await put(`${TASKS}/${task.id}`, body({ completed: false, overwrite: true }), alice.token);
    expect(reopened.body.data.attributes).toMatchObject({ completed: false, completed_at: null, result: null, start_at: "2026-05-01T10:00:00Z" });
    const withTime = await put(`${TASKS}/${task.id}`, body({ completed: true, completed_at: "2026-05-03 09:15:00 UTC", overwrite: true }), alice.token);
    expect(withTime.body.data.attributes).toMatchObject({ completed_at: "2026-05-03T09:15:00Z", result: "Done" });
  });

  it("validates result and next action against the stored activity", async () => {
    const task = await createTask({ subject: "Letter", activity_type: "Letter" });
    const error = errorOf(await put(`${TASKS}/${task.id}`, body({ result: "Attempted - Left Message", overwrite: true }), alice.token), 400);
    expect(error.detail).toBe("Result is not included in the list");
    const switched = await put(`${TASKS}/${task.id}`, body({ activity_type: "Call", result: "Attempted - Left Message", overwrite: true }), alice.token);
    expect(switched.body.data.attributes).toMatchObject({ activity_type: "Call", result: "Attempted - Left Message" });
  });

  it("checks updated_in_db_at: stale or missing is 409 with nothing changed; overwrite forces", async () => {
    const task = await createTask({ subject: "Synced" });
    const before = await storedTask(task.id);
    const stale = await put(`${TASKS}/${task.id}`, body({ subject: "Offline edit", updated_in_db_at: "2020-01-01T00:00:00Z" }), alice.token);
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toEqual({
      status: "409",
      title: `is not equal to the current value in the database (${before.updatedAt})`,
      detail: `Updated in db at is not equal to the current value in the database (${before.updatedAt})`,
      source: { pointer: "/data/attributes/updated_in_db_at" },
      meta: { updated_in_db_at: before.updatedAt },
    });
    errorOf(await put(`${TASKS}/${task.id}`, body({ subject: "No stamp" }), alice.token), 409);
    expect(await storedTask(task.id)).toEqual(before);
    const fresh = await put(`${TASKS}/${task.id}`, body({ subject: "Matching", updated_in_db_at: before.updatedAt.replace("T", " ").replace("Z", " UTC") }), alice.token);
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.data.attributes.updated_in_db_at > before.updatedAt).toBe(true);
    const reused = await put(`${TASKS}/${task.id}`, body({ subject: "Old copy", updated_in_db_at: before.updatedAt }), alice.token);
    expect(reused.status).toBe(409);
    const forced = await put(`${TASKS}/${task.id}`, body({ subject: "Forced", updated_in_db_at: "2020-01-01T00:00:00Z", overwrite: true }), alice.token);
    expect(forced.body.data.attributes.subject).toBe("Forced");
  });

  it("replaces the contacts given as contacts, keeping the ids of the links that stay", async () => {
    const task = await createTask({ subject: "Swap" }, contactsRel(contact.john, contact.anna));
    const [johnLink] = await storedLinks(task.id);
    const response = await put(`${TASKS}/${task.id}`, body({ overwrite: true }, contactsRel(contact.mark, contact.john)), alice.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.relationships.contacts.data.map((c: { id: string }) => c.id).sort()).toEqual([contact.john, contact.mark].sort());
    const links = await storedLinks(task.id);
    expect(links.find((l) => l.contactId === contact.john)?.id).toBe(johnLink.id);
    expect(links.map((l) => l.contactId).sort()).toEqual([contact.john, contact.mark].sort());
    const cleared = await put(`${TASKS}/${task.id}`, body({ overwrite: true }, { contacts: { data: [] } }), alice.token);
    expect(cleared.body.data.relationships.contacts.data).toEqual([]);
    expect(await storedLinks(task.id)).toEqual([]);
  });

  it("replaces the contacts given as activity_contacts: kept by id, added from included, dropped or destroyed", async () => {
    const task = await createTask({ subject: "Swap again" }, contactsRel(contact.john, contact.anna));
    const [johnLink, annaLink] = await storedLinks(task.id);
    const added = uuid();
    const response = await put(
      `${TASKS}/${task.id}`,
      {
        ...body({ overwrite: true }, {
          activity_contacts: { data: [link("activity_contacts", johnLink.id), link("activity_contacts", annaLink.id), link("activity_contacts", added)] },
        }),
        included: [
          { type: "activity_contacts", id: annaLink.id, attributes: { _destroy: "1" } },
          { type: "activity_contacts", id: added, relationships: { contact: { data: link("contacts", contact.mark) } } },
        ],
      },
      alice.token,
    );
    expect(response.status, response.text).toBe(200);
    expect(await storedLinks(task.id)).toEqual([johnLink, { id: added, contactId: contact.mark }]);
    const wrongList = errorOf(
      await put(
        `${TASKS}/${task.id}`,
        {
          ...body({ overwrite: true }, { activity_contacts: { data: [link("activity_contacts", uuid())] } }),
          included: [],
        },
        alice.token,
      ),
      400,
    );
    expect(wrongList.source.pointer).toBe("/data/relationships/activity_contacts/data/0");
    expect(await storedLinks(task.id)).toEqual([johnLink, { id: added, contactId: contact.mark }]);
  });

  it("refuses contacts of another list on update and keeps the old ones", async () => {
    const task = await createTask({ subject: "Stay" }, contactsRel(contact.john));
    const before = await storedTask(task.id);
    const links = await storedLinks(task.id);
    errorOf(await put(`${TASKS}/${task.id}`, body({ subject: "Moved", overwrite: true }, contactsRel(contact.otherList)), alice.token), 400);
    errorOf(await put(`${TASKS}/${task.id}`, body({ subject: "Moved", overwrite: true }, contactsRel(contact.bobs)), alice.token), 403);
    // Moving the task to another list needs its contacts to be of that list too.
    const moved = errorOf(
      await put(`${TASKS}/${task.id}`, body({ overwrite: true }, { account_list: { data: link("account_lists", aliceSecondList.id) } }), alice.token),
      400,
    );
    expect(moved.source.pointer).toBe("/data/relationships/contacts");
    expect(await storedTask(task.id)).toEqual(before);
    expect(await storedLinks(task.id)).toEqual(links);
    const together = await put(
      `${TASKS}/${task.id}`,
      body({ overwrite: true }, { ...contactsRel(contact.otherList), account_list: { data: link("account_lists", aliceSecondList.id) } }),
      alice.token,
    );
    expect(together.status, together.text).toBe(200);
    expect(together.body.data.relationships.contacts.data).toEqual([link("contacts", contact.otherList)]);
  });

  it("refuses an assigned user outside the list and clears the user with null", async () => {
    const task = await createTask({ subject: "Assign" }, { user: { data: link("users", carol.id) } });
    errorOf(await put(`${TASKS}/${task.id}`, body({ overwrite: true }, { user: { data: link("users", bob.user.id) } }), alice.token), 400);
    expect((await storedTask(task.id)).userId).toBe(carol.id);
    const cleared = await put(`${TASKS}/${task.id}`, body({ overwrite: true }, { user: { data: null } }), alice.token);
    expect(cleared.body.data.relationships.user.data).toBeNull();
  });
});

describe("deleting tasks", () => {
  it("answers 204 and removes the task with its links, tags and comments", async () => {
    const task = await createTask({ subject: "Bye", tag_list: "gone" }, contactsRel(contact.john));
    await db.insert(schema.comments).values({ id: uuid(), taskId: task.id, body: "note", ...timestamps() });
    const response = await del(`${TASKS}/${task.id}`, alice.token);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await storedTask(task.id)).toBeUndefined();
    expect(await storedLinks(task.id)).toEqual([]);
    expect(await storedTags(task.id)).toEqual([]);
    expect(await db.select().from(schema.comments).where(eq(schema.comments.taskId, task.id))).toEqual([]);
    errorOf(await get(`${TASKS}/${task.id}`, alice.token), 404);
  });
});
