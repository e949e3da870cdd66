import { sql } from "drizzle-orm";
import { announcementActions, announcements } from "../../../drizzle/schema";
import { stored, string } from "../../engine/attributes";
import { defineResource } from "../../engine/define";
import { hasMany, belongsTo } from "../../engine/relationships";
import { textValue } from "../../jsonapi/filter-values";

/** Announcements are global (not owned by an account list) and read-only through the API. */
export const announcementResource = defineResource({
  type: "announcements",
  model: "Announcement",
  table: announcements,
  attributes: {
    body: string(announcements.body, { readOnly: true }),
    display_method: string(announcements.displayMethod, { readOnly: true }),
    image_url: string(announcements.imageUrl, { readOnly: true }),
    style: string(announcements.style, { readOnly: true }),
    title: string(announcements.title, { readOnly: true }),
  },
  relationships: {
    actions: hasMany("announcement_actions", announcementActions.id, announcementActions.announcementId, announcements.id, {
      orderBy: announcementActions.position,
    }),
  },
  // Shown only inside their display window; outside it, an announcement is not there yet or any more.
  scope: (ctx) => sql`(${announcements.startsAt} IS NULL OR ${announcements.startsAt} <= ${ctx.now}) AND (${announcements.endsAt} IS NULL OR ${announcements.endsAt} > ${ctx.now})`,
  scopeHidesRows: true,
  filters: {
    // Downcased, underscored language code; announcements without a language are shown in every language.
    language_code: (value) => {
      const code = textValue(value).toLowerCase().replace(/-/g, "_");
      return code ? sql`(${announcements.languageCode} = ${code} OR ${announcements.languageCode} IS NULL)` : undefined;
    },
  },
});

export const announcementActionResource = defineResource({
  type: "announcement_actions",
  model: "AnnouncementAction",
  table: announcementActions,
  attributes: {
    label: string(announcementActions.label, { readOnly: true }),
    action: string(announcementActions.action, { readOnly: true }),
    style: string(announcementActions.style, { readOnly: true }),
    args: stored(announcementActions.args),
  },
  relationships: {
    announcement: belongsTo("announcements", announcementActions.announcementId),
  },
});
