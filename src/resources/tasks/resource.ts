import { sql } from "drizzle-orm";
import { activityContacts, comments, emailAddresses, people, phoneNumbers, TASK_DELETION, tasks } from "../../../drizzle/schema";
import { ACTIVITIES, NOTIFICATION_TIME_UNITS, NOTIFICATION_TYPES_FOR_TASKS } from "../../constants";
import { q, idArray } from "../../db/sql";
import { accountListRelationship } from "../../engine/account-list-scope";
import { boolean, computed, integer, string, timestamp } from "../../engine/attributes";
import { defineResource, type RequestContext, type Row, type SharedSelect, type WriteInput } from "../../engine/define";
import { belongsTo, hasMany, manyBy, sharedLinkage, sideposted } from "../../engine/relationships";
import { listOwner, ownedScopes, ownerRelationship } from "../../engine/owned";
import { contactOwner } from "../people/owners";
import { checkVisiblePerson } from "../people/resource";
import { tagListAttribute, tagWrites } from "../../engine/tags";
import type { FieldError } from "../../jsonapi/errors";
import { afterOverdue, completionBuckets, overdueFirst, overdueTotal, TASK_TAGS, taskFilters } from "./filters";
import { applyCompletion, blankSubjectOnUpdate, checkActivityChoices, checkAssignedUser, defaultSubject, isBlankText } from "./rules";
import { contactName, contactsAdded, keptContactIds, linkWrites } from "./task-contacts";

export const taskOwner = listOwner("tasks", "Task", tasks.id, tasks.accountListId);

const activityContactsRowOrder = sql`${activityContacts}.rowid`;

/** The task's contact ids in the order they were linked. */
const taskContactIds = () => sql`SELECT ${q(activityContacts.contactId)} AS id FROM ${activityContacts} WHERE ${q(activityContacts.taskId)} = ${q(tasks.id)}`;

/**
 * The people of the task's contacts with their e-mail addresses and phone numbers, in one walk (each of the three
 * linkages walking the task's contacts and their people again read three times the rows). Each person is keyed by
 * what orders them (contact, position, id); the details by id.
 */
const taskPeopleAndDetails: SharedSelect = {
  key: "task_people",
  select: () =>
    sql`(SELECT json_object(
        'people', json_group_array(DISTINCT ${q(people.contactId)} || ' ' || printf('%010d', ${q(people.position)}) || ' ' || ${q(people.id)}),
        'email_addresses', json_group_array(DISTINCT ${q(emailAddresses.id)}),
        'phone_numbers', json_group_array(DISTINCT ${q(phoneNumbers.id)}))
      FROM ${activityContacts}
      JOIN ${people} ON ${q(people.contactId)} = ${q(activityContacts.contactId)}
      LEFT JOIN ${emailAddresses} ON ${q(emailAddresses.personId)} = ${q(people.id)}
      LEFT JOIN ${phoneNumbers} ON ${q(phoneNumbers.personId)} = ${q(people.id)}
      WHERE ${q(activityContacts.taskId)} = ${q(tasks.id)})`,
};

/** One linkage of the walk: its ids in order, blanks (a person without a phone) left out. */
const pickFromTaskPeople = (part: "people" | "email_addresses" | "phone_numbers") => (selected: unknown) => {
  const values = ((selected as Record<string, Array<string | null>> | null)?.[part] ?? []).filter((value): value is string => value !== null).sort();
  return part === "people" ? values.map((key) => key.slice(key.lastIndexOf(" ") + 1)) : values;
};


export const activityContactResource = defineResource({
  type: "activity_contacts",
  model: "ActivityContact",
  table: activityContacts,
  ...ownedScopes(taskOwner, activityContacts.taskId),
  attributes: {},
  hooks: {
    beforeCreate: (values) => (values.contact ? [] : [{ attribute: "contact", message: "can't be blank", pointer: "/data/relationships/contact" }]),
  },
  relationships: {
    // Named `activity` as the original's model and the clients name it.
    activity: ownerRelationship(taskOwner, activityContacts.taskId),
    contact: ownerRelationship(contactOwner, activityContacts.contactId),
  },
});

export const commentResource = defineResource({
  type: "comments",
  model: "Comment",
  table: comments,
  storedAs: "activity_comments",
  ...ownedScopes(taskOwner, comments.taskId),
  attributes: { body: string(comments.body, { required: true }) },
  relationships: {
    // The author, answered as a person whether a person or a user (the web app names the signed-in user).
    person: {
      ...belongsTo("people", comments.personId, { nullable: true, check: (id, ctx) => checkVisiblePerson(id, ctx), orLinks: { resource: "users", column: comments.userId } }),
      select: () => sql`coalesce(${q(comments.personId)}, ${q(comments.userId)})`,
    },
    // The parent, fixed by the route or the task a comment is sideposted with; listed only when asked for.
    task: ownerRelationship(taskOwner, comments.taskId, { default: false }),
  },
});

export const taskResource = defineResource({
  type: "tasks",
  model: "Task",
  table: tasks,
  storedAs: "activities",
  accountListColumn: tasks.accountListId,
  recordsDeletion: TASK_DELETION,
  attributes: {
    activity_type: string(tasks.activityType, { oneOf: ACTIVITIES }),
    comments_count: computed(() => sql`(SELECT count(*) FROM ${comments} WHERE ${q(comments.taskId)} = ${q(tasks.id)})`),
    completed: boolean(tasks.completed),
    completed_at: timestamp(tasks.completedAt),
    location: string(tasks.location),
    next_action: string(tasks.nextAction),
    notification_time_before: integer(tasks.notificationTimeBefore, { min: 0 }),
    notification_time_unit: string(tasks.notificationTimeUnit, { oneOf: NOTIFICATION_TIME_UNITS }),
    notification_type: string(tasks.notificationType, { oneOf: NOTIFICATION_TYPES_FOR_TASKS }),
    result: string(tasks.result),
    starred: boolean(tasks.starred),
    start_at: timestamp(tasks.startAt),
    subject: string(tasks.subject),
    subject_hidden: boolean(tasks.subjectHidden),
    tag_list: tagListAttribute(TASK_TAGS, tasks.id),
  },
  relationships: {
    account_list: accountListRelationship(tasks.accountListId),
    activity_contacts: sideposted(hasMany("activity_contacts", activityContacts.id, activityContacts.taskId, tasks.id, { orderBy: activityContactsRowOrder }), {
      parent: "activity",
    }),
    user: belongsTo("users", tasks.userId, { nullable: true }),
    comments: sideposted(hasMany("comments", comments.id, comments.taskId, tasks.id, { orderBy: [comments.createdAt, comments.id] }), {
      parent: "task",
    }),
    contacts: manyBy("contacts", () => idArray(sql`${taskContactIds()} ORDER BY ${activityContactsRowOrder}`)),
    people: sharedLinkage("people", "many", taskPeopleAndDetails, pickFromTaskPeople("people")),
    email_addresses: sharedLinkage("email_addresses", "many", taskPeopleAndDetails, pickFromTaskPeople("email_addresses")),
    phone_numbers: sharedLinkage("phone_numbers", "many", taskPeopleAndDetails, pickFromTaskPeople("phone_numbers")),
  },
  sorts: { start_at: tasks.startAt, completed_at: tasks.completedAt },
  multipleSorts: true,
  defaultOrderParts: overdueFirst,
  defaultOrderRest: afterOverdue,
  defaultOrder: () => [
    { expression: tasks.completedAt, descending: true, nulls: "first" },
    { expression: tasks.startAt, descending: false, nulls: "last" },
    { expression: tasks.id, descending: false },
  ],
  filters: taskFilters,
  reversibleFilters: true,
  maintainedCounts: { column: tasks.completed, filter: { name: "completed", buckets: completionBuckets }, keptTotals: { date_range: overdueTotal } },
  hooks: {
    beforeCreate: async (changes, input, ctx) => {
      const accountListId = String(changes.account_list);
      const added = await contactsAdded(input, [], accountListId, ctx);
      changes.contacts_added = added.viaContacts;
      const firstName = added.firstContact && isBlankText(changes.subject) ? await contactName(added.firstContact, ctx) : undefined;
      return [...defaultSubject(changes, firstName), ...(await ruleErrors(changes, undefined, accountListId, ctx))];
    },
    beforeUpdate: async (changes, existing, input, ctx) => {
      const accountListId = String(changes.account_list ?? existing.accountListId);
      const movesList = accountListId !== existing.accountListId;
      const errors = blankSubjectOnUpdate(changes);
      if (sendsContacts(input) || movesList) {
        changes.contacts_added = (await contactsAdded(input, await keptContactIds(input.id, input, ctx), accountListId, ctx)).viaContacts;
      }
      errors.push(...(await ruleErrors(changes, existing, accountListId, ctx, movesList)));
      return errors;
    },
    sideWrites: (id, changes, _input, ctx) => [
      ...tagWrites(ctx.db, TASK_TAGS, id, changes.tag_list),
      ...linkWrites(ctx, id, (changes.contacts_added as string[] | undefined) ?? []),
    ],
  },
});

const sendsContacts = (input: WriteInput) => "contacts" in input.relationships || "activity_contacts" in input.relationships;

async function ruleErrors(changes: Row, existing: Row | undefined, accountListId: string, ctx: RequestContext, movesList = false): Promise<FieldError[]> {
  const errors = [...checkActivityChoices(changes, existing), ...applyCompletion(changes, existing, ctx.now)];
  if ("user" in changes || movesList) errors.push(...(await checkAssignedUser("user" in changes ? changes.user : existing?.userId, accountListId, ctx)));
  return errors;
}
