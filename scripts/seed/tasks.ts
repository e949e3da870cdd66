/**
 * Tasks of one account list, relative to the reference date: completed ones over the past two years,
 * overdue ones (due in the 45 days before it), upcoming ones (the 60 days after), a few due on the reference
 * day itself and a few without a date. Against the wall clock, "upcoming" tasks become overdue as time passes.
 */
import { ACTIVITIES, NEXT_ACTIONS, RESULTS, TASK_TAGS } from "./catalog";
import { stamps } from "./dataset";
import { Random, seedId } from "./random";
import type { ContactInfo, ListContext } from "./types";

type Timing = "completed" | "overdue" | "upcoming" | "today" | "no_date";

const ACTIVITY_WEIGHTS: ReadonlyArray<readonly [(typeof ACTIVITIES)[number], number]> = [
  ["Call", 10], ["Appointment", 5], ["Email", 8], ["Text Message", 6], ["Social Message", 2], ["Letter", 2],
  ["Newsletter - Physical", 1], ["Newsletter - Email", 1], ["Pre Call Letter", 1], ["Reminder Letter", 1],
  ["Support Letter", 2], ["Thank", 7], ["To Do", 4], ["Talk to In Person", 3], ["Prayer Request", 2],
];

const SUBJECTS: Record<string, (first: string) => string> = {
  Call: (first) => `Call ${first} about the fall update`,
  Appointment: (first) => `Coffee with ${first}`,
  Email: (first) => `E-mail ${first} the ministry report`,
  "Text Message": (first) => `Text ${first} a prayer update`,
  "Social Message": (first) => `Message ${first} photos from the retreat`,
  Letter: (first) => `Write ${first} a personal letter`,
  "Newsletter - Physical": () => "Mail the quarterly newsletter",
  "Newsletter - Email": () => "Send the monthly e-newsletter",
  "Pre Call Letter": (first) => `Pre-call letter to ${first}`,
  "Reminder Letter": (first) => `Reminder letter to ${first}`,
  "Support Letter": (first) => `Support letter to ${first}`,
  Thank: (first) => `Thank ${first} for the gift`,
  "To Do": (first) => `Update ${first}'s address`,
  "Talk to In Person": (first) => `Catch up with ${first} at church`,
  "Prayer Request": (first) => `Pray for ${first}'s family`,
};

const COMMENTS = [
  "Left a voicemail, will try again Thursday.",
  "They asked for the new prayer card.",
  "Great conversation - they want to hear more about the student conference.",
  "Moved this to next week.",
  "Sent a follow-up e-mail with the giving link.",
];

export function generateTasks(ctx: ListContext): void {
  const { spec, clock, data, contacts } = ctx;
  const count = Math.round(spec.contactCount * 0.6) + 10;
  const candidates = contacts.filter((c) => !c.hidden);

  for (let index = 0; index < count; index++) {
    const r = new Random(spec.key, "task", index);
    const id = seedId("task", spec.key, index);
    // The first five tasks cover every timing, whatever the draw.
    const timing: Timing =
      (["completed", "overdue", "upcoming", "today", "no_date"] as const)[index] ??
      r.weighted<Timing>([["completed", 55], ["overdue", 15], ["upcoming", 20], ["today", 3], ["no_date", 7]]);
    const activity = r.weighted(ACTIVITY_WEIGHTS);
    const taskContacts: ContactInfo[] =
      activity.startsWith("Newsletter") || (activity === "To Do" && r.chance(0.3))
        ? []
        : r.sample(candidates, r.chance(0.15) ? 2 : 1);
    const first = taskContacts[0]?.people[0]?.firstName ?? taskContacts[0]?.name ?? "the team";

    let startAt: string | null = null;
    let completedAt: string | null = null;
    let createdAt: string;
    let updatedAt: string;
    switch (timing) {
      case "completed": {
        const day = -r.int(2, 700);
        startAt = clock.time(day, r.int(13, 22), r.pick([0, 15, 30, 45]));
        completedAt = clock.time(Math.min(day + r.int(0, 3), -1), r.int(13, 23), r.int(0, 59));
        createdAt = clock.time(day - r.int(1, 14), r.int(13, 22), r.int(0, 59));
        updatedAt = completedAt;
        break;
      }
      case "overdue":
        startAt = clock.time(-r.int(1, 45), r.int(13, 22), r.pick([0, 30]));
        createdAt = clock.time(-r.int(46, 90), r.int(13, 22), r.int(0, 59));
        updatedAt = createdAt;
        break;
      case "upcoming":
        startAt = clock.time(r.int(1, 60), r.int(13, 22), r.pick([0, 30]));
        createdAt = clock.time(-r.int(1, 30), r.int(13, 22), r.int(0, 59));
        updatedAt = createdAt;
        break;
      case "today":
        startAt = clock.time(0, r.int(15, 21), r.pick([0, 30]));
        createdAt = clock.time(-r.int(1, 14), r.int(13, 22), r.int(0, 59));
        updatedAt = createdAt;
        break;
      case "no_date":
        createdAt = clock.time(-r.int(1, 120), r.int(13, 22), r.int(0, 59));
        updatedAt = createdAt;
        break;
    }

    const completed = timing === "completed";
    const hiddenSubject = taskContacts.length > 0 && r.chance(0.2);
    const reminder = !completed && startAt !== null && r.chance(0.5);
    data.add("tasks", {
      id,
      account_list_id: spec.id,
      user_id: r.chance(0.85) ? spec.ownerId : null,
      activity_type: activity,
      subject: hiddenSubject ? `${activity} ${taskContacts[0].name}` : SUBJECTS[activity](first),
      subject_hidden: hiddenSubject,
      start_at: startAt,
      completed,
      completed_at: completedAt,
      result: completed ? r.pick(RESULTS[activity] ?? ["Done"]) : null,
      next_action: completed && r.chance(0.3) ? r.pick(NEXT_ACTIONS) : null,
      location: activity === "Appointment" ? r.pick(["Corner Coffee", "Their home", "Church office", "Video call"]) : null,
      starred: r.chance(0.1),
      notification_time_before: reminder ? r.pick([15, 30, 1, 2]) : null,
      notification_time_unit: reminder ? r.pick(["minutes", "hours"]) : null,
      notification_type: reminder ? r.pick(["email", "mobile", "both"]) : null,
      ...stamps(createdAt, updatedAt),
    });

    for (const contact of taskContacts) {
      data.add("activity_contacts", {
        id: seedId("activity-contact", id, contact.id),
        task_id: id,
        contact_id: contact.id,
        ...stamps(createdAt),
      });
    }
    if (r.chance(0.3)) {
      for (const tag of r.sample(TASK_TAGS, r.int(1, 2))) data.add("task_tags", { task_id: id, name: tag });
    }
    if (r.chance(0.25)) {
      const comments = r.int(1, 3);
      for (let n = 0; n < comments; n++) {
        data.add("comments", {
          id: seedId("comment", id, n),
          task_id: id,
          person_id: spec.ownerPersonId,
          body: r.pick(COMMENTS),
          ...stamps(updatedAt),
        });
      }
    }
  }
}
