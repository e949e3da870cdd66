import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { del, errorOf, get, post, put } from "./helpers/api";
import { db, timestamps, uuid } from "./helpers/factories";
import { insertContact, insertEmail, insertPerson, insertPhone, insertTask } from "./helpers/contact-fixtures";
import { body, buildWorld, contactsRel, link, storedLinks, storedTags, storedTask, TASKS, type TaskWorld } from "./helpers/task-fixtures";

let w: TaskWorld;
beforeAll(async () => {
  w = await buildWorld();
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
        { ...contactsRel(w.contact.john, w.contact.anna), account_list: { data: link("account_lists", w.alice.list.id) }, user: { data: link("users", w.carol.id) } },
        { id },
      ),
      w.alice.token,
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
    expect(data.relationships.account_list.data).toEqual(link("account_lists", w.alice.list.id));
    expect(data.relationships.user.data).toEqual(link("users", w.carol.id));
    expect(data.relationships.contacts.data).toEqual([link("contacts", w.contact.john), link("contacts", w.contact.anna)]);
    expect(data.relationships.people.data).toEqual([link("people", w.person.john)]);
    expect(data.relationships.email_addresses.data).toEqual([link("email_addresses", w.person.johnEmail)]);
    expect(data.relationships.phone_numbers.data).toEqual([link("phone_numbers", w.person.johnPhone)]);
    const links = await storedLinks(id);
    expect(links.map((l) => l.contactId)).toEqual([w.contact.john, w.contact.anna]);
    expect(data.relationships.activity_contacts.data).toEqual(links.map((l) => link("activity_contacts", l.id)));
    expect(await storedTags(id)).toEqual(["follow-up", "visit"]);
    expect(await storedTask(id)).toMatchObject({ accountListId: w.alice.list.id, userId: w.carol.id, startAt: "2026-12-01T15:30:00Z" });
  });

  it("takes contacts from activity_contacts with included entries, keeping the client's activity contact ids", async () => {
    const first = uuid();
    const second = uuid();
    const response = await post(
      `${TASKS}?include=activity_contacts`,
      {
        ...body({ subject: "Thank them", activity_type: "Thank" }, { activity_contacts: { data: [link("activity_contacts", first), link("activity_contacts", second)] } }),
        included: [
          { type: "activity_contacts", id: first, relationships: { contact: { data: link("contacts", w.contact.anna) } } },
          { type: "activity_contacts", id: second, relationships: { contact: { data: link("contacts", w.contact.mark) } } },
        ],
      },
      w.alice.token,
    );
    expect(response.status, response.text).toBe(201);
    const id = response.body.data.id;
    expect(await storedLinks(id)).toEqual([
      { id: first, contactId: w.contact.anna },
      { id: second, contactId: w.contact.mark },
    ]);
    expect(response.body.data.relationships.contacts.data).toEqual([link("contacts", w.contact.anna), link("contacts", w.contact.mark)]);
    const included = response.body.included.find((entry: { id: string }) => entry.id === first);
    expect(included.relationships.contact.data).toEqual(link("contacts", w.contact.anna));
    expect(included.relationships.activity.data).toEqual(link("tasks", id));
  });

  it("goes to the viewer's default list when no account list is sent", async () => {
    const data = await w.createTask({ subject: "Defaulted" });
    expect(data.relationships.account_list.data.id).toBe(w.alice.list.id);
  });

  it("generates a blank subject from the activity and the first contact, marked hidden", async () => {
    const data = await w.createTask({ activity_type: "Call", subject: "  " }, contactsRel(w.contact.anna, w.contact.john));
    expect(data.attributes.subject).toBe("Call Smith, Anna");
    expect(data.attributes.subject_hidden).toBe(true);
    const noActivity = await w.createTask({}, contactsRel(w.contact.john));
    expect(noActivity.attributes.subject).toBe("Doe, John");
    expect(noActivity.attributes.subject_hidden).toBe(true);
    const noContact = await w.createTask({ activity_type: "To Do" });
    expect(noContact.attributes.subject).toBe("To Do");
  });

  it("refuses a task whose subject would stay blank", async () => {
    const before = (await db.select().from(schema.tasks)).length;
    const error = errorOf(await post(TASKS, body({ subject: "" }), w.alice.token), 400);
    expect(error.detail).toBe("Subject can't be blank");
    expect(error.source.pointer).toBe("/data/attributes/subject");
    expect((await db.select().from(schema.tasks)).length).toBe(before);
  });

  it("completes on create: completed_at now, empty start_at and result filled", async () => {
    const before = new Date().toISOString().slice(0, 19) + "Z";
    const data = await w.createTask({ subject: "Done already", activity_type: "Call", completed: true });
    const after = new Date(Date.now() + 1000).toISOString().slice(0, 19) + "Z";
    expect(data.attributes.completed).toBe(true);
    expect(data.attributes.completed_at >= before && data.attributes.completed_at <= after).toBe(true);
    expect(data.attributes.start_at).toBe(data.attributes.completed_at);
    expect(data.attributes.result).toBe("Done");
    const sent = await w.createTask({
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
      const error = errorOf(await post(TASKS, body(attributes), w.alice.token), 400);
      expect(error.source.pointer).toBe(`/data/attributes/${name}`);
      expect(error.detail).toBe(detail);
    }
    expect((await db.select().from(schema.tasks)).length).toBe(before);
  });

  it("accepts the default results and next actions, and any value for activities the constants do not cover", async () => {
    const call = await w.createTask({ subject: "a", activity_type: "Call", result: "Done", next_action: "None" });
    expect(call.attributes).toMatchObject({ result: "Done", next_action: "None" });
    const letter = await w.createTask({ subject: "b", activity_type: "Letter", result: "Received", next_action: "Email" });
    expect(letter.attributes).toMatchObject({ result: "Received", next_action: "Email" });
    const todo = await w.createTask({ subject: "c", activity_type: "To Do", result: "Whatever happened", next_action: "Anything" });
    expect(todo.attributes).toMatchObject({ result: "Whatever happened", next_action: "Anything" });
    const newsletter = await w.createTask({ subject: "d", activity_type: "Newsletter - Email", tag_list: ["News", "news", " "] });
    expect(newsletter.attributes.tag_list).toEqual(["news"]);
  });

  it("checks the contacts: another of the viewer's lists 400, someone else's 403, unknown 404; nothing written", async () => {
    const before = (await db.select().from(schema.tasks)).length;
    const linksBefore = (await db.select().from(schema.activityContacts)).length;
    const elsewhere = errorOf(await post(TASKS, body({ subject: "x" }, contactsRel(w.contact.john, w.contact.otherList)), w.alice.token), 400);
    expect(elsewhere.detail).toBe("Contacts must belong to the same account list");
    expect(elsewhere.source.pointer).toBe("/data/relationships/contacts");
    const foreign = errorOf(await post(TASKS, body({ subject: "x" }, contactsRel(w.contact.bobs)), w.alice.token), 403);
    expect(foreign.detail).toBe(`Not allowed to perform that action on the resource with ID ${w.contact.bobs} of type contacts`);
    const unknown = uuid();
    const missing = errorOf(await post(TASKS, body({ subject: "x" }, contactsRel(unknown)), w.alice.token), 404);
    expect(missing.detail).toBe(`Couldn't find Contact with 'id'=${unknown}`);
    const wrongType = errorOf(await post(TASKS, body({ subject: "x" }, { contacts: { data: [link("people", w.contact.john)] } }), w.alice.token), 409);
    expect(wrongType.source.pointer).toBe("/data/relationships/contacts/data/0/type");
    const notArray = errorOf(await post(TASKS, body({ subject: "x" }, { contacts: { data: link("contacts", w.contact.john) } }), w.alice.token), 400);
    expect(notArray.source.pointer).toBe("/data/relationships/contacts");
    // The contacts must belong to the list the task goes to, not only to one of the viewer's lists.
    const otherListTask = errorOf(
      await post(TASKS, body({ subject: "x" }, { ...contactsRel(w.contact.john), account_list: { data: link("account_lists", w.aliceSecondList.id) } }), w.alice.token),
      400,
    );
    expect(otherListTask.source.pointer).toBe("/data/relationships/contacts");
    expect((await db.select().from(schema.tasks)).length).toBe(before);
    expect((await db.select().from(schema.activityContacts)).length).toBe(linksBefore);
  });

  it("checks included activity contacts: missing entry, missing contact, and another task's activity contact", async () => {
    const before = (await db.select().from(schema.tasks)).length;
    const orphan = uuid();
    const missing = errorOf(await post(TASKS, body({ subject: "x" }, { activity_contacts: { data: [link("activity_contacts", orphan)] } }), w.alice.token), 400);
    expect(missing.source.pointer).toBe("/data/relationships/activity_contacts/data/0");
    const noContact = errorOf(
      await post(
        TASKS,
        { ...body({ subject: "x" }, { activity_contacts: { data: [link("activity_contacts", orphan)] } }), included: [{ type: "activity_contacts", id: orphan }] },
        w.alice.token,
      ),
      400,
    );
    expect(noContact.source.pointer).toBe("/included/0/relationships/contact");
    const twice = errorOf(
      await post(
        TASKS,
        {
          ...body({ subject: "x" }, { activity_contacts: { data: [link("activity_contacts", orphan), link("activity_contacts", orphan)] } }),
          included: [{ type: "activity_contacts", id: orphan, relationships: { contact: { data: link("contacts", w.contact.john) } } }],
        },
        w.alice.token,
      ),
      400,
    );
    expect(twice.source.pointer).toBe("/data/relationships/activity_contacts/data/1");
    const existing = await w.createTask({ subject: "has a link" }, contactsRel(w.contact.john));
    const takenId = existing.relationships.activity_contacts.data[0].id;
    const taken = errorOf(
      await post(
        TASKS,
        {
          ...body({ subject: "x" }, { activity_contacts: { data: [link("activity_contacts", takenId)] } }),
          included: [{ type: "activity_contacts", id: takenId, relationships: { contact: { data: link("contacts", w.contact.anna) } } }],
        },
        w.alice.token,
      ),
      404,
    );
    expect(taken.detail).toBe(`Couldn't find ActivityContact with 'id'=${takenId}`);
    expect((await db.select().from(schema.tasks)).length).toBe(before + 1);
    expect(await storedLinks(existing.id)).toEqual([{ id: takenId, contactId: w.contact.john }]);
  });

  it("assigns only users of the task's list", async () => {
    // A user who shares no list with the viewer cannot even be named.
    const stranger = errorOf(await post(TASKS, body({ subject: "x" }, { user: { data: link("users", w.bob.user.id) } }), w.alice.token), 404);
    expect(stranger.detail).toBe(`Couldn't find User with 'id'=${w.bob.user.id}`);
    const error = errorOf(await post(TASKS, body({ subject: "x" }, { user: { data: link("users", w.coach.id) } }), w.alice.token), 400);
    expect(error.detail).toBe("User must be a user of the task's account list");
    expect(error.source.pointer).toBe("/data/relationships/user");
    const coachError = errorOf(await post(TASKS, body({ subject: "x" }, { user: { data: link("users", w.coach.id) } }), w.alice.token), 400);
    expect(coachError.source.pointer).toBe("/data/relationships/user");
    const own = await w.createTask({ subject: "mine" }, { user: { data: link("users", w.alice.user.id) } });
    expect(own.relationships.user.data).toEqual(link("users", w.alice.user.id));
  });

  it("refuses tasks in lists the viewer cannot write, and requests without a token", async () => {
    const foreign = errorOf(await post(TASKS, body({ subject: "x" }, { account_list: { data: link("account_lists", w.bob.list.id) } }), w.alice.token), 403);
    expect(foreign.detail).toBe(`Not allowed to perform that action on the resource with ID ${w.bob.list.id} of type account_lists`);
    errorOf(await post(TASKS, body({ subject: "x" }, { account_list: { data: link("account_lists", w.alice.list.id) } }), w.coach.token), 403);
    errorOf(await post(TASKS, body({ subject: "x" }), null), 401);
    errorOf(await get(TASKS, null), 401);
    const wrongType = errorOf(await post(TASKS, { data: { type: "contacts", attributes: { subject: "x" } } }, w.alice.token), 409);
    expect(wrongType.detail).toBe("'contacts' is not a valid resource type for this endpoint. Expected 'tasks' instead");
    const foreignKey = errorOf(await post(TASKS, body({ subject: "x", account_list_id: w.alice.list.id }), w.alice.token), 409);
    expect(foreignKey.source.pointer).toBe("/data/attributes/account_list_id");
    const reused = errorOf(await post(TASKS, body({ subject: "x" }, {}, { id: w.bobTaskId }), w.alice.token), 409);
    expect(reused.source.pointer).toBe("/data/id");
    expect(await storedTask(w.bobTaskId)).toMatchObject({ accountListId: w.bob.list.id, subject: "Bob's call" });
  });
});

describe("reading tasks", () => {
  it("shows a task with its comments, includes and sparse fields", async () => {
    const task = await w.createTask({ subject: "Commented" }, contactsRel(w.contact.john));
    await db.insert(schema.comments).values([
      { id: uuid(), taskId: task.id, personId: w.person.john, body: "First", ...timestamps(10) },
      { id: uuid(), taskId: task.id, personId: null, body: "Second", ...timestamps(20) },
    ]);
    const response = await get(`${TASKS}/${task.id}?include=comments,activity_contacts`, w.alice.token);
    expect(response.status).toBe(200);
    expect(response.body.data.attributes.comments_count).toBe(2);
    const comments = response.body.included.filter((entry: { type: string }) => entry.type === "comments");
    const byBody = Object.fromEntries(comments.map((c: { attributes: { body: string } }) => [c.attributes.body, c]));
    expect(Object.keys(byBody).sort()).toEqual(["First", "Second"]);
    expect(byBody.First.relationships.person.data).toEqual(link("people", w.person.john));
    expect(byBody.Second.relationships.person.data).toBeNull();
    expect(response.body.data.relationships.comments.data).toEqual([link("comments", byBody.First.id), link("comments", byBody.Second.id)]);
    expect(response.body.included.filter((entry: { type: string }) => entry.type === "activity_contacts")).toHaveLength(1);
    const sparse = await get(`${TASKS}/${task.id}?fields[tasks]=subject,contacts`, w.alice.token);
    expect(sparse.body.data.attributes).toEqual({ subject: "Commented" });
    expect(Object.keys(sparse.body.data.relationships)).toEqual(["contacts"]);
  });

  it("includes the task's contacts, their people and the assigned user", async () => {
    const task = await w.createTask({ subject: "Included" }, { ...contactsRel(w.contact.john, w.contact.anna), user: { data: link("users", w.carol.id) } });
    const response = await get(`${TASKS}/${task.id}?include=contacts,people,user`, w.alice.token);
    expect(response.status, response.text).toBe(200);
    const included = response.body.included.map((entry: { type: string; id: string }) => `${entry.type}:${entry.id}`).sort();
    expect(included).toEqual([`contacts:${w.contact.anna}`, `contacts:${w.contact.john}`, `people:${w.person.john}`, `users:${w.carol.id}`].sort());
    const john = response.body.included.find((entry: { id: string }) => entry.id === w.contact.john);
    expect(john.attributes.name).toBe("Doe, John");
  });

  it("lets a coach read but never lists, shows or changes another user's tasks", async () => {
    const task = await w.createTask({ subject: "Coach can see" });
    const coachView = await get(`${TASKS}/${task.id}`, w.coach.token);
    expect(coachView.status).toBe(200);
    const list = await get(`${TASKS}?per_page=1000`, w.alice.token);
    expect(list.body.data.map((t: { id: string }) => t.id)).not.toContain(w.bobTaskId);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.every((t: { relationships: { account_list: { data: { id: string } } } }) => t.relationships.account_list.data.id !== w.bob.list.id)).toBe(true);
    const shown = errorOf(await get(`${TASKS}/${w.bobTaskId}`, w.alice.token), 403);
    expect(shown.detail).toBe(`Not allowed to perform that action on the resource with ID ${w.bobTaskId} of type tasks`);
    const before = await storedTask(w.bobTaskId);
    errorOf(await put(`${TASKS}/${w.bobTaskId}`, body({ subject: "Hijacked", overwrite: true }), w.alice.token), 403);
    errorOf(await del(`${TASKS}/${w.bobTaskId}`, w.alice.token), 403);
    expect(await storedTask(w.bobTaskId)).toEqual(before);
    errorOf(await put(`${TASKS}/${task.id}`, body({ subject: "Coach edit", overwrite: true }), w.coach.token), 403);
    errorOf(await del(`${TASKS}/${task.id}`, w.coach.token), 403);
    expect((await storedTask(task.id)).subject).toBe("Coach can see");
    const unknown = uuid();
    expect(errorOf(await get(`${TASKS}/${unknown}`, w.alice.token), 404).detail).toBe(`Couldn't find Task with 'id'=${unknown}`);
    errorOf(await put(`${TASKS}/${unknown}`, body({ subject: "x", overwrite: true }), w.alice.token), 404);
    errorOf(await del(`${TASKS}/${unknown}`, w.alice.token), 404);
    expect(errorOf(await get(`${TASKS}/not-a-uuid`, w.alice.token), 404).detail).toBe("Route not found");
  });
});

describe("a task's people and their details", () => {
  it("are those of the task's contacts: people by contact and position, e-mail addresses and phone numbers by id", async () => {
    const [first, second] = [await insertContact(w.alice.list.id, "Linked, First"), await insertContact(w.alice.list.id, "Linked, Second")];
    // People out of order on purpose: the second contact's spouse is written before its primary person.
    const spouse = await insertPerson(second.id, "Spouse", { position: 1 });
    const primary = await insertPerson(second.id, "Primary", { position: 0 });
    const only = await insertPerson(first.id, "Only");
    const emails = [await insertEmail(primary.id, "p1@example.org"), await insertEmail(primary.id, "p2@example.org"), await insertEmail(only.id, "o@example.org")];
    const phones = [await insertPhone(primary.id, "555 0101", "home"), await insertPhone(spouse.id, "555 0102", "mobile"), await insertPhone(spouse.id, "555 0103", "work")];
    const task = await insertTask(w.alice.list.id, [second.id, first.id], { subject: "Everyone" });
    const person = (id: string) => link("people", id);
    const byId = (type: string, ids: string[]) => [...ids].sort().map((id) => link(type, id));
    const people = [...[[second.id, 0, primary.id], [second.id, 1, spouse.id], [first.id, 0, only.id]]].sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1]));
    const shown = await get(`${TASKS}/${task.id}?include=people.email_addresses,people.phone_numbers`, w.alice.token);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.data.relationships.people.data).toEqual(people.map(([, , id]) => person(String(id))));
    expect(shown.body.data.relationships.email_addresses.data).toEqual(byId("email_addresses", emails.map((e) => e.id)));
    expect(shown.body.data.relationships.phone_numbers.data).toEqual(byId("phone_numbers", phones.map((p) => p.id)));
    const included = shown.body.included.map((entry: { type: string; id: string }) => `${entry.type}:${entry.id}`).sort();
    expect(included).toEqual([...[primary, spouse, only].map((p) => `people:${p.id}`), ...emails.map((e) => `email_addresses:${e.id}`), ...phones.map((p) => `phone_numbers:${p.id}`)].sort());
    // In a list page alike, and a task without contacts has none.
    const bare = await insertTask(w.alice.list.id, [], { subject: "Nobody" });
    const page = await get(`${TASKS}?filter[account_list_id]=${w.alice.list.id}&per_page=500`, w.alice.token);
    const listed = (id: string) => page.body.data.find((entry: { id: string }) => entry.id === id);
    expect(listed(task.id).relationships).toMatchObject({ people: shown.body.data.relationships.people, phone_numbers: shown.body.data.relationships.phone_numbers });
    expect(listed(bare.id).relationships).toMatchObject({ people: { data: [] }, email_addresses: { data: [] }, phone_numbers: { data: [] } });
  });
});

describe("deleting tasks", () => {
  it("answers 204 and removes the task with its links, tags and comments", async () => {
    const task = await w.createTask({ subject: "Bye", tag_list: "gone" }, contactsRel(w.contact.john));
    await db.insert(schema.comments).values({ id: uuid(), taskId: task.id, body: "note", ...timestamps() });
    const response = await del(`${TASKS}/${task.id}`, w.alice.token);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await storedTask(task.id)).toBeUndefined();
    expect(await storedLinks(task.id)).toEqual([]);
    expect(await storedTags(task.id)).toEqual([]);
    expect(await db.select().from(schema.comments).where(eq(schema.comments.taskId, task.id))).toEqual([]);
    errorOf(await get(`${TASKS}/${task.id}`, w.alice.token), 404);
  });
});
