/**
 * The user's `preferences` object. Each key is a column of the users row; requests send the object with only the
 * keys that change, and every key is checked on its own so that errors point at `preferences/<key>`.
 */
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { users } from "../../../drizzle/schema";
import { boolean, integer, string } from "../../engine/attributes";
import type { AttributeDef, RequestContext, Row, WriteRule } from "../../engine/define";
import type { FieldError } from "../../jsonapi/errors";
import { ownEntry } from "../../jsonapi/params";
import { isValidTimeZone } from "../../jsonapi/time";

type Check = WriteRule["parse"];

interface Preference {
  /** The users table property written for this key. */
  property: keyof typeof users.$inferInsert;
  column: SQLiteColumn;
  check: Check;
}

const parseOf = (attribute: AttributeDef): Check => attribute.write!.parse;

const preference = (property: Preference["property"], column: SQLiteColumn, check: Check = parseOf(string(column))): Preference => ({
  property,
  column,
  check,
});

const checkTimeZone: Check = (value) => {
  if (value === null || value === undefined || (typeof value === "string" && value.trim() === "")) return { ok: false, message: "can't be blank" };
  if (typeof value !== "string" || !isValidTimeZone(value.trim())) return { ok: false, message: "is not a valid time zone" };
  return { ok: true, value: value.trim() };
};

const checkDefaultAccountList: Check = (value, ctx) => {
  if (value === null || value === undefined || value === "") return { ok: true, value: null };
  const id = typeof value === "string" ? value.trim().toLowerCase() : "";
  // Coached lists count: a coach may open one of them by default.
  if (!ctx.viewer.readableListIds.includes(id)) return { ok: false, message: "must be one of the user's account lists" };
  return { ok: true, value: id };
};

export const PREFERENCES: Record<string, Preference> = {
  contacts_filter: preference("contactsFilter", users.contactsFilter),
  contacts_view_options: preference("contactsViewOptions", users.contactsViewOptions),
  default_account_list: preference("defaultAccountListId", users.defaultAccountListId, checkDefaultAccountList),
  locale: preference("locale", users.locale),
  // Not in the specification's list: the web client's Locale page saves it, and reads it back to format dates.
  locale_display: preference("localeDisplay", users.localeDisplay),
  setup: preference("setup", users.setup, parseOf(boolean(users.setup))),
  tab_orders: preference("tabOrders", users.tabOrders),
  tasks_filter: preference("tasksFilter", users.tasksFilter),
  time_zone: preference("timeZone", users.timeZone, checkTimeZone),
  hour_to_send_notifications: preference(
    "hourToSendNotifications",
    users.hourToSendNotifications,
    parseOf(integer(users.hourToSendNotifications, { min: 0, max: 23 })),
  ),
};

export const preferenceColumns = Object.values(PREFERENCES).map((p) => p.column);

/** The answered object, read from the selected columns. */
/**
 * The viewer's preferences from their row. A list database's copy of a user leaves their default list out (it may
 * be on another database, src/db/mirrors.ts), so on a list database the viewer, read from the directory, supplies it.
 */
export function readPreferences(row: Row, ctx: RequestContext): Record<string, unknown> {
  const preferences: Record<string, unknown> = {};
  for (const [key, { column }] of Object.entries(PREFERENCES)) preferences[key] = row[column.name] ?? null;
  if (ctx.directory && ctx.db !== ctx.directory) preferences.default_account_list = ctx.viewer.defaultAccountListId;
  return preferences;
}

/** Checks the sent keys (unknown keys are ignored) and returns the users properties to write. */
export function parsePreferences(sent: Record<string, unknown>, ctx: RequestContext): { values: Row; errors: FieldError[] } {
  const values: Row = {};
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(sent)) {
    const known = ownEntry(PREFERENCES, key);
    if (!known) continue;
    const result = known.check(value, ctx);
    if (result.ok) values[known.property] = result.value;
    else errors.push({ attribute: key, message: result.message, pointer: `/data/attributes/preferences/${key}` });
  }
  return { values, errors };
}
