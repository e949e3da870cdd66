/**
 * A task's own rules, applied after its attributes are parsed: completion fills or clears the completion
 * fields, a blank subject is generated on create, results and next actions must suit the activity, and the
 * assigned user must be a user of the task's account list.
 */
import { sql } from "drizzle-orm";
import { accountListUsers } from "../../../drizzle/schema";
import { NEXT_ACTIONS, RESULTS } from "../../constants";
import type { RequestContext, Row } from "../../engine/define";
import type { FieldError } from "../../jsonapi/errors";
import { ownEntry } from "../../jsonapi/params";

export const isBlankText = (value: unknown) => value === null || value === undefined || (typeof value === "string" && value.trim() === "");

/** The value after the write: the change when one was sent, else the stored one. */
function after(changes: Row, name: string, existing: Row | undefined, key: string): unknown {
  return name in changes ? changes[name] : existing?.[key];
}

/**
 * Completing fills completed_at (now unless sent, or kept when it was already complete), an empty start_at
 * with completed_at and an empty result with "Done"; un-completing clears completed_at and result. Without
 * `completed`, completed_at may change only on a completed task, and not to null: it is the completion time,
 * "null until completed".
 */
export function applyCompletion(changes: Row, existing: Row | undefined, now: string): FieldError[] {
  if (!("completed" in changes)) {
    if (!("completed_at" in changes)) return [];
    const completed = existing?.completed === true;
    if (!completed && changes.completed_at !== null) return [{ attribute: "completed_at", message: "can only be set on a completed task" }];
    if (completed && changes.completed_at === null) return [{ attribute: "completed_at", message: "can't be blank on a completed task" }];
    return [];
  }
  if (changes.completed === true) {
    const completedAt = changes.completed_at ?? (existing?.completed ? existing.completedAt : null) ?? now;
    changes.completed_at = completedAt;
    if (isBlankText(after(changes, "start_at", existing, "startAt"))) changes.start_at = completedAt;
    if (isBlankText(after(changes, "result", existing, "result"))) changes.result = "Done";
  } else if (changes.completed === false) {
    changes.completed_at = null;
    changes.result = null;
  }
  return [];
}

/** Create: a blank subject becomes "<activity_type> <first contact's name>", marked hidden. */
export function defaultSubject(changes: Row, firstContactName: string | undefined): FieldError[] {
  if (!isBlankText(changes.subject)) return [];
  const subject = `${changes.activity_type ?? ""} ${firstContactName ?? ""}`.trim();
  if (subject === "") return [{ attribute: "subject", message: "can't be blank" }];
  changes.subject = subject;
  changes.subject_hidden = true;
  return [];
}

export function blankSubjectOnUpdate(changes: Row): FieldError[] {
  return "subject" in changes && isBlankText(changes.subject) ? [{ attribute: "subject", message: "can't be blank" }] : [];
}

/**
 * A result or next action sent must be one the constants offer for the task's activity, or one of the default
 * list. Activities the constants do not cover (and tasks without an activity) accept any value, so records
 * written by older clients stay editable.
 */
export function checkActivityChoices(changes: Row, existing: Row | undefined): FieldError[] {
  const activity = String(after(changes, "activity_type", existing, "activityType") ?? "").toLowerCase();
  const errors: FieldError[] = [];
  const check = (name: string, table: Record<string, string[]>) => {
    const value = changes[name];
    const choices = ownEntry(table, activity);
    if (isBlankText(value) || !choices) return;
    if (![...choices, ...table.default].includes(String(value))) errors.push({ attribute: name, message: "is not included in the list" });
  };
  check("result", RESULTS);
  check("next_action", NEXT_ACTIONS);
  return errors;
}

/** The assigned user must be a user (not only a coach) of the task's account list. */
export async function checkAssignedUser(userId: unknown, accountListId: string, ctx: RequestContext): Promise<FieldError[]> {
  if (isBlankText(userId)) return [];
  // The directory keeps every list's users; a list database only its own lists' (a task moving to a list kept on
  // another database is checked where it is: src/engine/record-moves.ts).
  const [member] = await (ctx.directory ?? ctx.db)
    .select({ id: accountListUsers.id })
    .from(accountListUsers)
    .where(sql`${accountListUsers.accountListId} = ${accountListId} AND ${accountListUsers.userId} = ${String(userId)}`)
    .limit(1);
  return member ? [] : [{ attribute: "user", message: "must be a user of the task's account list", pointer: "/data/relationships/user" }];
}
