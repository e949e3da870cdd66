/**
 * Task contacts and comments as the MPDX clients write them: contacts are added and removed, never replaced,
 * and a new task's first comment comes inside the create.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { errorOf, get, post, put } from "./helpers/api";
import { db, uuid } from "./helpers/factories";
import { buildWorld, link, storedLinks, storedTask, TASKS, type TaskWorld } from "./helpers/task-fixtures";

let w: TaskWorld;
beforeAll(async () => {
  w = await buildWorld();
});

const commentsOf = (taskId: string) => db.select().from(schema.comments).where(eq(schema.comments.taskId, taskId));

describe("task contacts as the clients write them", () => {
  it("Android: a create with contacts and an empty activity_contacts is 201 with the contact", async () => {
    const id = uuid();
    const response = await post(
      TASKS,
      {
        data: {
          type: "tasks",
          id,
          attributes: { subject: "Call about the trip", activity_type: "Call", start_at: "2026-03-01T10:00:00Z", completed: false },
          relationships: {
            account_list: { data: { type: "account_lists", id: w.alice.list.id } },
            contacts: { data: [{ type: "contacts", id: w.contact.john }] },
            activity_contacts: { data: [] },
          },
        },
      },
      w.alice.token,
    );
    expect(response.status, response.text).toBe(201);
    expect(response.body.data.relationships.contacts.data).toEqual([link("contacts", w.contact.john)]);
    expect((await storedLinks(id)).map((l) => l.contactId)).toEqual([w.contact.john]);
  });

  it("web edit-task modal: removes the contact marked _destroy, sent with an empty contacts list", async () => {
    const task = await w.createTask({ subject: "Visit" }, { contacts: { data: [link("contacts", w.contact.john), link("contacts", w.contact.anna)] } });
    const [johnLink, annaLink] = await storedLinks(task.id);
    const response = await put(
      `${TASKS}/${task.id}`,
      {
        data: {
          type: "tasks",
          id: task.id,
          attributes: { subject: "Visit", updated_in_db_at: task.attributes.updated_in_db_at },
          relationships: {
            activity_contacts: { data: [{ type: "activity_contacts", id: johnLink.id }] },
            contacts: { data: [] },
          },
        },
        included: [{ type: "activity_contacts", id: johnLink.id, attributes: { _destroy: "1" } }],
      },
      w.alice.token,
    );
    expect(response.status, response.text).toBe(200);
    expect(await storedLinks(task.id)).toEqual([annaLink]);
    expect(response.body.data.relationships.contacts.data).toEqual([link("contacts", w.contact.anna)]);
  });

  it("adding a contact: a task with [A] sent contacts [B] has [A, B]", async () => {
    const task = await w.createTask({ subject: "Add one" }, { contacts: { data: [link("contacts", w.contact.john)] } });
    const response = await put(
      `${TASKS}/${task.id}`,
      { data: { type: "tasks", id: task.id, attributes: { overwrite: true }, relationships: { contacts: { data: [{ type: "contacts", id: w.contact.mark }] } } } },
      w.alice.token,
    );
    expect(response.status, response.text).toBe(200);
    expect((await storedLinks(task.id)).map((l) => l.contactId)).toEqual([w.contact.john, w.contact.mark]);
  });

  it("Android: removes one of two contacts by its activity contact marked _destroy", async () => {
    const task = await w.createTask({ subject: "Two" }, { contacts: { data: [link("contacts", w.contact.john), link("contacts", w.contact.anna)] } });
    const [johnLink, annaLink] = await storedLinks(task.id);
    const response = await put(
      `${TASKS}/${task.id}?include=activity_contacts`,
      {
        data: {
          type: "tasks",
          id: task.id,
          attributes: { overwrite: true },
          relationships: { activity_contacts: { data: [{ type: "activity_contacts", id: johnLink.id }] } },
        },
        included: [{ type: "activity_contacts", id: johnLink.id, attributes: { _destroy: true } }],
      },
      w.alice.token,
    );
    expect(response.status, response.text).toBe(200);
    expect(await storedLinks(task.id)).toEqual([annaLink]);
    const included = response.body.included.filter((entry: { type: string }) => entry.type === "activity_contacts");
    expect(included.map((entry: { id: string }) => entry.id)).toEqual([annaLink.id]);
    // Included activity contacts name their task `activity`, as the original and the Android model do.
    expect(included[0].relationships.activity.data).toEqual(link("tasks", task.id));
    expect(included[0].relationships.task).toBeUndefined();
  });

  it("an included activity contact linking a contact of another list is refused and nothing is written", async () => {
    const task = await w.createTask({ subject: "Guarded" }, { contacts: { data: [link("contacts", w.contact.john)] } });
    const before = await storedTask(task.id);
    const added = uuid();
    const response = await put(
      `${TASKS}/${task.id}`,
      {
        data: { type: "tasks", id: task.id, attributes: { subject: "Changed", overwrite: true }, relationships: { activity_contacts: { data: [link("activity_contacts", added)] } } },
        included: [{ type: "activity_contacts", id: added, relationships: { contact: { data: link("contacts", w.contact.bobs) } } }],
      },
      w.alice.token,
    );
    errorOf(response, 403);
    expect(await storedTask(task.id)).toEqual(before);
    expect((await storedLinks(task.id)).map((l) => l.contactId)).toEqual([w.contact.john]);
  });
});

describe("comments written with their task", () => {
  it("stores the first comment sent inside the task create and counts it", async () => {
    const id = uuid();
    const comment = uuid();
    const response = await post(
      TASKS,
      {
        data: {
          type: "tasks",
          id,
          attributes: { subject: "With a note", activity_type: "Call" },
          relationships: {
            account_list: { data: { type: "account_lists", id: w.alice.list.id } },
            contacts: { data: [{ type: "contacts", id: w.contact.john }] },
            comments: { data: [{ type: "comments", id: comment }] },
          },
        },
        included: [{ type: "comments", id: comment, attributes: { body: "Ask about the summer trip" } }],
      },
      w.alice.token,
    );
    expect(response.status, response.text).toBe(201);
    expect(response.body.data.attributes.comments_count).toBe(1);
    expect((await commentsOf(id)).map((c) => [c.id, c.body])).toEqual([[comment, "Ask about the summer trip"]]);
    const included = response.body.included.find((entry: { type: string }) => entry.type === "comments");
    expect(included.attributes.body).toBe("Ask about the summer trip");
    const shown = await get(`${TASKS}/${id}`, w.alice.token);
    expect(shown.body.data.attributes.comments_count).toBe(1);
  });

  it("AngularJS: the first comment's person is the signed-in user, accepted and answered back the same way", async () => {
    // As the web app's tasks service sends it: the comment's person is the current user's id.
    const id = uuid();
    const comment = uuid();
    const created = await post(
      TASKS,
      {
        data: {
          type: "tasks",
          id,
          attributes: { subject: "Call about the trip", activity_type: "Call", start_at: "2026-03-01T10:00:00Z", completed: false },
          relationships: {
            account_list: { data: { type: "account_lists", id: w.alice.list.id } },
            comments: { data: [{ type: "comments", id: comment }] },
            contacts: { data: [{ type: "contacts", id: w.contact.john }] },
          },
        },
        included: [{ type: "comments", id: comment, attributes: { body: "Left a message" }, relationships: { person: { data: { type: "people", id: w.alice.user.id } } } }],
      },
      w.alice.token,
    );
    expect(created.status, created.text).toBe(201);
    const [stored] = await commentsOf(id);
    expect(stored).toMatchObject({ id: comment, body: "Left a message", personId: null, userId: w.alice.user.id });
    const shown = await get(`${TASKS}/${id}/comments/${comment}`, w.alice.token);
    expect(shown.body.data.relationships.person.data).toEqual({ type: "people", id: w.alice.user.id });

    // Another user of the list may be named too, and a person of the list's contacts still is.
    const byCarol = await post(`${TASKS}/${id}/comments`, { data: { type: "comments", attributes: { body: "Carol called back" }, relationships: { person: { data: { type: "people", id: w.carol.id } } } } }, w.alice.token);
    expect(byCarol.status, byCarol.text).toBe(201);
    expect(byCarol.body.data.relationships.person.data).toEqual({ type: "people", id: w.carol.id });
    const byJohn = await post(`${TASKS}/${id}/comments`, { data: { type: "comments", attributes: { body: "John wrote" }, relationships: { person: { data: { type: "people", id: w.person.john } } } } }, w.alice.token);
    expect(byJohn.body.data.relationships.person.data).toEqual({ type: "people", id: w.person.john });
    const johns = (await commentsOf(id)).find((row) => row.id === byJohn.body.data.id);
    expect(johns).toMatchObject({ personId: w.person.john, userId: null });

    // A user who shares no list with the viewer is not found, and the task is not created.
    const stranger = uuid();
    const strangerComment = uuid();
    const refused = await post(
      TASKS,
      {
        data: { type: "tasks", id: stranger, attributes: { subject: "Nope" }, relationships: { account_list: { data: { type: "account_lists", id: w.alice.list.id } }, comments: { data: [{ type: "comments", id: strangerComment }] } } },
        included: [{ type: "comments", id: strangerComment, attributes: { body: "x" }, relationships: { person: { data: { type: "people", id: w.bob.user.id } } } }],
      },
      w.alice.token,
    );
    expect(refused.status).toBe(404);
    expect(await storedTask(stranger)).toBeUndefined();
  });

  it("updates and destroys comments through the task; a blank body is 400 pointing at it", async () => {
    const id = uuid();
    const [first, second] = [uuid(), uuid()];
    const created = await post(
      TASKS,
      {
        data: { type: "tasks", id, attributes: { subject: "Notes" }, relationships: { comments: { data: [link("comments", first), link("comments", second)] } } },
        included: [
          { type: "comments", id: first, attributes: { body: "one" } },
          { type: "comments", id: second, attributes: { body: "two" } },
        ],
      },
      w.alice.token,
    );
    expect(created.status, created.text).toBe(201);
    const blank = await put(
      `${TASKS}/${id}`,
      {
        data: { type: "tasks", id, attributes: { overwrite: true }, relationships: { comments: { data: [link("comments", first)] } } },
        included: [{ type: "comments", id: first, attributes: { body: "" } }],
      },
      w.alice.token,
    );
    expect(errorOf(blank, 400).source.pointer).toBe("/included/0/attributes/body");
    const response = await put(
      `${TASKS}/${id}`,
      {
        data: { type: "tasks", id, attributes: { overwrite: true }, relationships: { comments: { data: [link("comments", first), link("comments", second)] } } },
        included: [
          { type: "comments", id: first, attributes: { body: "one, edited" } },
          { type: "comments", id: second, attributes: { _destroy: true } },
        ],
      },
      w.alice.token,
    );
    expect(response.status, response.text).toBe(200);
    expect((await commentsOf(id)).map((c) => [c.id, c.body])).toEqual([[first, "one, edited"]]);
    expect(response.body.data.attributes.comments_count).toBe(1);
  });

  it("a comment of someone else's task named by id is 403 and nothing is written", async () => {
    const bobsComment = uuid();
    await db.insert(schema.comments).values({ id: bobsComment, taskId: w.bobTaskId, body: "private", createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" });
    const task = await w.createTask({ subject: "Mine" });
    const response = await put(
      `${TASKS}/${task.id}`,
      {
        data: { type: "tasks", id: task.id, attributes: { overwrite: true }, relationships: { comments: { data: [link("comments", bobsComment)] } } },
        included: [{ type: "comments", id: bobsComment, attributes: { body: "taken over" } }],
      },
      w.alice.token,
    );
    errorOf(response, 403);
    expect((await db.select().from(schema.comments).where(eq(schema.comments.id, bobsComment)))[0].body).toBe("private");
  });
});
