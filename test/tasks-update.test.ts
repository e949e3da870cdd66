import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { errorOf, patch, post, put } from "./helpers/api";
import { db, uuid } from "./helpers/factories";
import { body, buildWorld, contactsRel, link, storedLinks, storedTags, storedTask, TASKS, type TaskWorld } from "./helpers/task-fixtures";

let w: TaskWorld;
beforeAll(async () => {
  w = await buildWorld();
});

describe("updating tasks", () => {
  it("answers 200 with the task, changing only what was sent", async () => {
    const task = await w.createTask({ subject: "Original", location: "Home", tag_list: "one" }, contactsRel(w.contact.john));
    const response = await put(`${TASKS}/${task.id}`, body({ location: "Office", updated_in_db_at: task.attributes.updated_in_db_at }), w.alice.token);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ subject: "Original", location: "Office", tag_list: ["one"] });
    expect(response.body.data.relationships.contacts.data).toEqual([link("contacts", w.contact.john)]);
    const patched = await patch(`${TASKS}/${task.id}`, body({ tag_list: [], overwrite: true }), w.alice.token);
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes.tag_list).toEqual([]);
    expect(await storedTags(task.id)).toEqual([]);
  });

  it("refuses a blank subject on update and changes nothing", async () => {
    const task = await w.createTask({ subject: "Keep me", location: "Here" });
    const before = await storedTask(task.id);
    for (const subject of ["", "   ", null]) {
      const error = errorOf(await put(`${TASKS}/${task.id}`, body({ subject, location: "There", overwrite: true }), w.alice.token), 400);
      expect(error.detail).toBe("Subject can't be blank");
      expect(error.source.pointer).toBe("/data/attributes/subject");
    }
    expect(await storedTask(task.id)).toEqual(before);
  });

  it("applies the completion rules when completing and un-completing", async () => {
    const task = await w.createTask({ subject: "Plan", activity_type: "Call", start_at: "2026-05-01T10:00:00Z" });
    const completed = await put(`${TASKS}/${task.id}`, body({ completed: true, overwrite: true }), w.alice.token);
    const attrs = completed.body.data.attributes;
    expect(attrs.completed).toBe(true);
    expect(attrs.completed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(attrs.start_at).toBe("2026-05-01T10:00:00Z");
    expect(attrs.result).toBe("Done");
    // Completing again keeps the first completion time and the result already there.
    await db.update(schema.tasks).set({ completedAt: "2026-05-02T08:00:00Z", result: "Attempted" }).where(eq(schema.tasks.id, task.id));
    const again = await put(`${TASKS}/${task.id}`, body({ completed: true, overwrite: true }), w.alice.token);
    expect(again.body.data.attributes).toMatchObject({ completed_at: "2026-05-02T08:00:00Z", result: "Attempted" });
    const reopened = await put(`${TASKS}/${task.id}`, body({ completed: false, overwrite: true }), w.alice.token);
    expect(reopened.body.data.attributes).toMatchObject({ completed: false, completed_at: null, result: null, start_at: "2026-05-01T10:00:00Z" });
    const withTime = await put(`${TASKS}/${task.id}`, body({ completed: true, completed_at: "2026-05-03 09:15:00 UTC", overwrite: true }), w.alice.token);
    expect(withTime.body.data.attributes).toMatchObject({ completed_at: "2026-05-03T09:15:00Z", result: "Done" });
  });

  it("takes completed_at alone only as a completed task's new completion time", async () => {
    const open = await w.createTask({ subject: "Still open", activity_type: "Call" });
    const openBefore = await storedTask(open.id);
    const onOpen = errorOf(await put(`${TASKS}/${open.id}`, body({ completed_at: "2026-03-01 08:00:00 UTC", overwrite: true }), w.alice.token), 400);
    expect(onOpen).toMatchObject({ detail: "Completed at can only be set on a completed task", source: { pointer: "/data/attributes/completed_at" } });
    expect(await storedTask(open.id)).toEqual(openBefore);
    // null on an open task changes nothing and is fine.
    expect((await put(`${TASKS}/${open.id}`, body({ completed_at: null, overwrite: true }), w.alice.token)).status).toBe(200);
    const created = await post(TASKS, body({ subject: "Born open", completed_at: "2026-03-01T08:00:00Z" }), w.alice.token);
    expect(errorOf(created, 400).source.pointer).toBe("/data/attributes/completed_at");

    const done = await w.createTask({ subject: "Done", activity_type: "Call", completed: true });
    const moved = await put(`${TASKS}/${done.id}`, body({ completed_at: "2026-03-02T09:00:00Z", overwrite: true }), w.alice.token);
    expect(moved.body.data.attributes).toMatchObject({ completed: true, completed_at: "2026-03-02T09:00:00Z" });
    const doneBefore = await storedTask(done.id);
    const blank = errorOf(await put(`${TASKS}/${done.id}`, body({ completed_at: null, overwrite: true }), w.alice.token), 400);
    expect(blank.detail).toBe("Completed at can't be blank on a completed task");
    expect(await storedTask(done.id)).toEqual(doneBefore);
    // Sent with completed, the completion rules decide as before.
    const reopened = await put(`${TASKS}/${done.id}`, body({ completed: false, completed_at: "2026-03-03T00:00:00Z", overwrite: true }), w.alice.token);
    expect(reopened.body.data.attributes).toMatchObject({ completed: false, completed_at: null });
  });

  it("refuses null or an empty string for completed and leaves a completed task completed", async () => {
    const task = await w.createTask({ subject: "Done already", activity_type: "Call", completed: true });
    const before = await storedTask(task.id);
    expect(before.completed).toBe(true);
    for (const completed of [null, ""]) {
      const error = errorOf(await put(`${TASKS}/${task.id}`, body({ completed, overwrite: true }), w.alice.token), 400);
      expect(error).toEqual({
        status: "400",
        title: "must be true or false",
        detail: "Completed must be true or false",
        source: { pointer: "/data/attributes/completed" },
      });
    }
    expect(await storedTask(task.id)).toEqual(before);
  });

  it("validates result and next action against the stored activity", async () => {
    const task = await w.createTask({ subject: "Letter", activity_type: "Letter" });
    const error = errorOf(await put(`${TASKS}/${task.id}`, body({ result: "Attempted - Left Message", overwrite: true }), w.alice.token), 400);
    expect(error.detail).toBe("Result is not included in the list");
    const switched = await put(`${TASKS}/${task.id}`, body({ activity_type: "Call", result: "Attempted - Left Message", overwrite: true }), w.alice.token);
    expect(switched.body.data.attributes).toMatchObject({ activity_type: "Call", result: "Attempted - Left Message" });
  });

  it("checks updated_in_db_at: stale or missing is 409 with nothing changed; overwrite forces", async () => {
    const task = await w.createTask({ subject: "Synced" });
    const before = await storedTask(task.id);
    const stale = await put(`${TASKS}/${task.id}`, body({ subject: "Offline edit", updated_in_db_at: "2020-01-01T00:00:00Z" }), w.alice.token);
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toEqual({
      status: "409",
      title: `is not equal to the current value in the database (${before.updatedAt})`,
      detail: `Updated in db at is not equal to the current value in the database (${before.updatedAt})`,
      source: { pointer: "/data/attributes/updated_in_db_at" },
      meta: { updated_in_db_at: before.updatedAt },
    });
    errorOf(await put(`${TASKS}/${task.id}`, body({ subject: "No stamp" }), w.alice.token), 409);
    expect(await storedTask(task.id)).toEqual(before);
    const fresh = await put(`${TASKS}/${task.id}`, body({ subject: "Matching", updated_in_db_at: before.updatedAt.replace("T", " ").replace("Z", " UTC") }), w.alice.token);
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.data.attributes.updated_in_db_at > before.updatedAt).toBe(true);
    const reused = await put(`${TASKS}/${task.id}`, body({ subject: "Old copy", updated_in_db_at: before.updatedAt }), w.alice.token);
    expect(reused.status).toBe(409);
    const forced = await put(`${TASKS}/${task.id}`, body({ subject: "Forced", updated_in_db_at: "2020-01-01T00:00:00Z", overwrite: true }), w.alice.token);
    expect(forced.body.data.attributes.subject).toBe("Forced");
  });

  it("takes only the boolean true as overwrite: any other value keeps the updated_in_db_at check", async () => {
    const task = await w.createTask({ subject: "Guarded" });
    const before = await storedTask(task.id);
    for (const overwrite of ["true", "1", 1, "t", false, null]) {
      const stale = await put(`${TASKS}/${task.id}`, body({ subject: "Forced?", updated_in_db_at: "2020-01-01T00:00:00Z", overwrite }), w.alice.token);
      expect(errorOf(stale, 409).source.pointer).toBe("/data/attributes/updated_in_db_at");
      errorOf(await put(`${TASKS}/${task.id}`, body({ subject: "Forced?", overwrite }), w.alice.token), 409);
    }
    expect(await storedTask(task.id)).toEqual(before);
  });

  it("adds the contacts given as contacts and keeps the others; an empty list changes nothing", async () => {
    const task = await w.createTask({ subject: "Swap" }, contactsRel(w.contact.john, w.contact.anna));
    const before = await storedLinks(task.id);
    const response = await put(`${TASKS}/${task.id}`, body({ overwrite: true }, contactsRel(w.contact.mark, w.contact.john)), w.alice.token);
    expect(response.status, response.text).toBe(200);
    const links = await storedLinks(task.id);
    expect(links.slice(0, 2)).toEqual(before);
    expect(links.map((l) => l.contactId)).toEqual([w.contact.john, w.contact.anna, w.contact.mark]);
    expect(response.body.data.relationships.contacts.data).toEqual([w.contact.john, w.contact.anna, w.contact.mark].map((id) => link("contacts", id)));
    const unchanged = await put(`${TASKS}/${task.id}`, body({ overwrite: true }, { contacts: { data: [] } }), w.alice.token);
    expect(unchanged.status, unchanged.text).toBe(200);
    expect(await storedLinks(task.id)).toEqual(links);
  });

  it("changes the contacts given as activity_contacts: kept by id, added from included, removed when destroyed", async () => {
    const task = await w.createTask({ subject: "Swap again" }, contactsRel(w.contact.john, w.contact.anna));
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
          { type: "activity_contacts", id: added, relationships: { contact: { data: link("contacts", w.contact.mark) } } },
        ],
      },
      w.alice.token,
    );
    expect(response.status, response.text).toBe(200);
    expect(await storedLinks(task.id)).toEqual([johnLink, { id: added, contactId: w.contact.mark }]);
    const wrongList = errorOf(
      await put(
        `${TASKS}/${task.id}`,
        {
          ...body({ overwrite: true }, { activity_contacts: { data: [link("activity_contacts", uuid())] } }),
          included: [],
        },
        w.alice.token,
      ),
      400,
    );
    expect(wrongList.source.pointer).toBe("/data/relationships/activity_contacts/data/0");
    expect(await storedLinks(task.id)).toEqual([johnLink, { id: added, contactId: w.contact.mark }]);
  });

  it("refuses contacts of another list on update and keeps the old ones", async () => {
    const task = await w.createTask({ subject: "Stay" }, contactsRel(w.contact.john));
    const before = await storedTask(task.id);
    const links = await storedLinks(task.id);
    errorOf(await put(`${TASKS}/${task.id}`, body({ subject: "Moved", overwrite: true }, contactsRel(w.contact.otherList)), w.alice.token), 400);
    errorOf(await put(`${TASKS}/${task.id}`, body({ subject: "Moved", overwrite: true }, contactsRel(w.contact.bobs)), w.alice.token), 403);
    // Moving the task to another list needs its contacts to be of that list too, wherever the two lists are kept.
    const moved = errorOf(
      await put(`${TASKS}/${task.id}`, body({ overwrite: true }, { account_list: { data: link("account_lists", w.aliceSecondList.id) } }), w.alice.token),
      400,
    );
    expect(moved.source.pointer).toBe("/data/relationships/contacts");
    expect(await storedTask(task.id)).toEqual(before);
    expect(await storedLinks(task.id)).toEqual(links);
    // Moving along with the contacts: the old one's link destroyed, the new list's contact added, in one body.
    const together = await put(
      `${TASKS}/${task.id}`,
      {
        ...body({ overwrite: true }, {
          ...contactsRel(w.contact.otherList),
          activity_contacts: { data: [link("activity_contacts", links[0].id)] },
          account_list: { data: link("account_lists", w.aliceSecondList.id) },
        }),
        included: [{ type: "activity_contacts", id: links[0].id, attributes: { _destroy: true } }],
      },
      w.alice.token,
    );
    expect(together.status, together.text).toBe(200);
    expect(together.body.data.relationships.contacts.data).toEqual([link("contacts", w.contact.otherList)]);
    expect((await storedTask(task.id)).accountListId).toBe(w.aliceSecondList.id);
    expect((await storedLinks(task.id)).map((row) => row.contactId)).toEqual([w.contact.otherList]);
  });

  it("refuses an assigned user outside the list and clears the user with null", async () => {
    const task = await w.createTask({ subject: "Assign" }, { user: { data: link("users", w.carol.id) } });
    // Bob shares no list with alice: he cannot be named at all. The coach shares one, but is not a user of it.
    errorOf(await put(`${TASKS}/${task.id}`, body({ overwrite: true }, { user: { data: link("users", w.bob.user.id) } }), w.alice.token), 404);
    errorOf(await put(`${TASKS}/${task.id}`, body({ overwrite: true }, { user: { data: link("users", w.coach.id) } }), w.alice.token), 400);
    expect((await storedTask(task.id)).userId).toBe(w.carol.id);
    const cleared = await put(`${TASKS}/${task.id}`, body({ overwrite: true }, { user: { data: null } }), w.alice.token);
    expect(cleared.body.data.relationships.user.data).toBeNull();
  });
});
