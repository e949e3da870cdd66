/** Tasks, the contacts they concern (activity contacts), their comments and tags. */
import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { notifications } from "./notifications";
import { accountLists } from "./account-lists";
import { bool, id, timestamps } from "./columns";
import { contacts } from "./contacts";
import { people } from "./people";
import { users } from "./users";

/** Open tasks that carry a completion time (walked by name: the planner would take the overdue tasks' index). */
export const OPEN_COMPLETED_INDEX = "tasks_account_list_id_open_completed_idx";

export const tasks = sqliteTable(
  "tasks",
  {
    id: id(),
    accountListId: text("account_list_id")
      .notNull()
      .references(() => accountLists.id, { onDelete: "cascade" }),
    // The assigned user.
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    activityType: text("activity_type"),
    subject: text("subject"),
    subjectHidden: bool("subject_hidden").notNull().default(false),
    startAt: text("start_at"),
    completed: bool("completed").notNull().default(false),
    completedAt: text("completed_at"),
    result: text("result"),
    nextAction: text("next_action"),
    location: text("location"),
    starred: bool("starred").notNull().default(false),
    notificationTimeBefore: integer("notification_time_before"),
    notificationTimeUnit: text("notification_time_unit"),
    notificationType: text("notification_type"),
    // The notification this task was made for (src/events); one task per notification.
    notificationId: text("notification_id").references((): AnySQLiteColumn => notifications.id, { onDelete: "set null" }),
    // When the task's reminder is due: start_at less notification_time_before in its unit (minutes by default).
    remindAt: text("remind_at").generatedAlwaysAs(
      sql`CASE WHEN notification_type IS NOT NULL AND notification_time_before IS NOT NULL AND start_at IS NOT NULL THEN strftime('%Y-%m-%dT%H:%M:%SZ', start_at, '-' || notification_time_before || ' ' || COALESCE(notification_time_unit, 'minutes')) END`,
      { mode: "virtual" },
    ),
    ...timestamps(),
  },
  (t) => [
    index("tasks_account_list_id_start_at_idx").on(t.accountListId, t.startAt),
    // Open tasks by date (overdue, today, upcoming) without reading each task's row for `completed`; with
    // completed_at and id it also holds every key of the default order (overdue first, completed_at, start_at,
    // id), so a page in that order is found from the index alone.
    index("tasks_account_list_id_completed_start_at_idx").on(t.accountListId, t.completed, t.startAt, t.completedAt, t.id),
    index("tasks_account_list_id_completed_at_idx").on(t.accountListId, t.completedAt),
    // The default order after the overdue tasks, each NULL placement a key of its own (src/resources/tasks/filters.ts,
    // `afterOverdue`): a list's tasks are walked in the order, never sorted. With `completed`, the walk passes over
    // the overdue ones without reading their rows.
    index("tasks_account_list_id_default_order_idx").on(
      t.accountListId,
      sql`(${t.completedAt} IS NOT NULL)`,
      sql`${t.completedAt} DESC`,
      sql`(${t.startAt} IS NULL)`,
      t.startAt,
      t.id,
      t.completed,
    ),
    // Open tasks that carry a completion time, in the default order's second part: few, and found without passing
    // over every overdue task.
    index(OPEN_COMPLETED_INDEX).on(t.accountListId, sql`${t.completedAt} DESC`, t.startAt, t.id).where(sql`completed = 0 AND completed_at IS NOT NULL`),
    index("tasks_account_list_id_created_at_idx").on(t.accountListId, t.createdAt, t.id),
    index("tasks_account_list_id_updated_at_idx").on(t.accountListId, t.updatedAt, t.id),
    // With completion: a list's last completed task of a type (the home page's last newsletters) is one step in.
    index("tasks_account_list_id_activity_type_completed_idx").on(t.accountListId, t.activityType, t.completed, t.completedAt),
    // The task page's common filter set (a type, open, a date range, starred or not) counted from the index alone:
    // its total reads the tasks it matches, not every task of the type.
    index("tasks_account_list_id_activity_type_start_at_idx").on(t.accountListId, t.activityType, t.completed, t.startAt, t.starred),
    index("tasks_account_list_id_result_idx").on(t.accountListId, t.result),
    index("tasks_account_list_id_next_action_idx").on(t.accountListId, t.nextAction),
    index("tasks_user_id_idx").on(t.userId),
    uniqueIndex("tasks_notification_id_unique").on(t.notificationId),
    // Reminders come due by remind_at, across lists, for open tasks only.
    index("tasks_remind_at_idx").on(t.remindAt).where(sql`remind_at IS NOT NULL AND completed = 0`),
  ],
);

export const activityContacts = sqliteTable(
  "activity_contacts",
  {
    id: id(),
    taskId: text("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    contactId: text("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    ...timestamps(),
    // Copies of the task's completion and type, kept by triggers (drizzle/task-link-copies.ts), so that a contact's
    // task summary (last call, last thank-you, open tasks...) is read from the index below without reading each task.
    taskCompleted: bool("task_completed").notNull().default(false),
    taskActivityType: text("task_activity_type"),
    taskCompletedAt: text("task_completed_at"),
  },
  (t) => [
    uniqueIndex("activity_contacts_task_id_contact_id_unique").on(t.taskId, t.contactId),
    // A contact's tasks, and the state of each, without reading each link's row or task.
    index("activity_contacts_contact_id_task_state_idx").on(t.contactId, t.taskId, t.taskCompleted, t.taskActivityType, t.taskCompletedAt),
  ],
);

export const comments = sqliteTable(
  "comments",
  {
    id: id(),
    taskId: text("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    // The author: a person, or a user (whom clients name as a person, since the original's users are people).
    personId: text("person_id").references(() => people.id, { onDelete: "set null" }),
    userId: text("user_id").references((): AnySQLiteColumn => users.id, { onDelete: "set null" }),
    body: text("body"),
    ...timestamps(),
  },
  (t) => [index("comments_task_id_idx").on(t.taskId), index("comments_person_id_idx").on(t.personId), index("comments_user_id_idx").on(t.userId)],
);

/** Tag names are stored lower-case. */
export const taskTags = sqliteTable(
  "task_tags",
  {
    taskId: text("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.name] }), index("task_tags_name_idx").on(t.name, t.taskId)],
);
