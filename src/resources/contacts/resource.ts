/**
 * Contacts: the supporters of an account list. Filters live in filters.ts, the people made from a new
 * contact's name in names.ts; this file declares the fields, relationships and write rules.
 */
import { sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  accountLists,
  activityContacts,
  addresses,
  appealContacts,
  appealExcludedContacts,
  contactDonorAccounts,
  contactReferrals,
  contacts,
  contactTags,
  donations,
  people,
  pledges,
} from "../../../drizzle/schema";
import { LIKELY_TO_GIVE, SEND_NEWSLETTER, STATUSES, currencySymbol } from "../../constants";
import { convertedSumsJson, formatMoney } from "../../decimal";
import { and, inList, oneOf, q, sumsByCurrency } from "../../db/sql";
import { accountListRelationship } from "../../engine/account-list-scope";
import { boolean, computed, currencyCode, date, derived, fromShared, money, stored, string, timestamp } from "../../engine/attributes";
import { defineResource, type AttributeDef, type BatchStatement, type RequestContext, type Row, type SharedSelect, type WriteInput } from "../../engine/define";
import { belongsTo, hasMany, manyBy, sharedLinkage, sideposted } from "../../engine/relationships";
import { tagListAttribute, tagWrites } from "../../engine/tags";
import "../people/linked";
import "../people/resource";
import { contactDonationsWhere, lastDonationDate, latestGiftIds } from "./contact-sql";
import { contactFilters, effectivePledgeCurrency, hiddenStatusDefault, statusBuckets } from "./filters";
import { defaultPeopleWrites } from "./names";
import { pledgeFrequencyKey } from "./pledge-frequency";

export const contactTagTable = { table: contactTags, owner: contactTags.contactId, name: contactTags.name };

/**
 * What the contact's tasks say, from one pass over them: the latest completion date of completed tasks of each
 * group of activity types (last_appointment = Appointment; last_letter = Letter, Support Letter, Reminder Letter;
 * last_phone_call = Call; last_pre_call = Pre Call Letter; last_thank = Thank; last_activity = any type), then
 * the number of open tasks.
 */
const TASK_DATE_GROUPS: Record<string, string[]> = {
  last_activity: [],
  last_appointment: ["Appointment"],
  last_letter: ["Letter", "Support Letter", "Reminder Letter"],
  last_phone_call: ["Call"],
  last_pre_call: ["Pre Call Letter"],
  last_thank: ["Thank"],
};

/** Read from the task state each link carries (drizzle/task-link-copies.ts): one index entry per task. */
const taskSummary: SharedSelect = {
  key: "task_summary",
  select: () => {
    const latest = Object.values(TASK_DATE_GROUPS).map((types) => {
      const ofType = types.length > 0 ? sql` AND ${oneOf(q(activityContacts.taskActivityType), types)}` : sql``;
      return sql`substr(MAX(CASE WHEN ${q(activityContacts.taskCompleted)} = 1${ofType} THEN ${q(activityContacts.taskCompletedAt)} END), 1, 10)`;
    });
    // The task ids last: the `tasks` linkage is read in the same walk of the contact's links.
    const parts = sql`json_array(${sql.join(latest, sql`, `)}, SUM(CASE WHEN ${q(activityContacts.taskCompleted)} = 0 THEN 1 ELSE 0 END), json_group_array(${q(activityContacts.taskId)}))`;
    return sql`(SELECT ${parts} FROM ${activityContacts} WHERE ${q(activityContacts.contactId)} = ${q(contacts.id)})`;
  },
};

/** The contact's task ids (the task summary's last part), in id order. */
const taskIdsOf = (selected: unknown) => {
  const ids = (Array.isArray(selected) ? selected.at(-1) : undefined) as string[] | undefined;
  return Array.isArray(ids) ? ids.filter((id) => id !== null).sort() : [];
};

const TASK_SUMMARY_PARTS = [...Object.keys(TASK_DATE_GROUPS), "uncompleted_tasks_count"];

function fromTaskSummary(part: string): AttributeDef {
  const index = TASK_SUMMARY_PARTS.indexOf(part);
  return fromShared(taskSummary, (value) => {
    const picked = (JSON.parse(String(value ?? "[]")) as unknown[])[index] ?? null;
    return part === "uncompleted_tasks_count" ? Number(picked ?? 0) : picked;
  });
}


/**
 * The contact's people in order, each with whether it is the primary person: one walk of the people index for the
 * four linkages that read them (each walking it again read four times the rows).
 */
const contactPeople: SharedSelect = {
  key: "contact_people",
  select: () =>
    sql`(SELECT json_group_array(json_array(id, is_primary)) FROM (SELECT ${q(people.id)} AS id, ${q(people.isPrimary)} AS is_primary FROM ${people}
      WHERE ${q(people.contactId)} = ${q(contacts.id)} ORDER BY ${q(people.position)}, ${q(people.createdAt)}, ${q(people.id)}))`,
};

type PersonEntry = [id: string, isPrimary: number];

/**
 * Pairs of a child table's rows that hang off the contact by `owner`: each row's id and its `other` column, in one
 * walk, for the two linkages that read them (the rows themselves, and what they point at).
 */
function pairsOf(key: string, owner: SQLiteColumn, id: SQLiteColumn, other: SQLiteColumn): SharedSelect {
  return { key, select: () => sql`(SELECT json_group_array(json_array(${q(id)}, ${q(other)})) FROM ${owner.table} WHERE ${q(owner)} = ${q(contacts.id)})` };
}

/** One side of the pairs, in id order (as the linkages read on their own were). */
const pairLinkage = (type: string, pairs: SharedSelect, side: 0 | 1) =>
  sharedLinkage(type, "many", pairs, (selected) => (Array.isArray(selected) ? (selected as Array<[string, string]>).map((pair) => pair[side]).sort() : []));

const appealPairs = pairsOf("appeal_pairs", appealContacts.contactId, appealContacts.id, appealContacts.appealId);
const referralsByMe = pairsOf("referrals_by_me", contactReferrals.referredById, contactReferrals.id, contactReferrals.referredToId);
const referralsToMe = pairsOf("referrals_to_me", contactReferrals.referredToId, contactReferrals.id, contactReferrals.referredById);

const peopleOf = (selected: unknown) => (Array.isArray(selected) ? (selected as PersonEntry[]) : []);
const primaryOf = (entries: PersonEntry[]) => entries.find(([, isPrimary]) => isPrimary === 1)?.[0] ?? null;
/** The primary person, or else the first: who the contact is addressed as. */
const primaryOrFirstOf = (entries: PersonEntry[]) => primaryOf(entries) ?? entries[0]?.[0] ?? null;

const pledgeFrequency: AttributeDef = {
  column: contacts.pledgeFrequency,
  write: {
    parse: (value) => {
      if (value === null || value === undefined || value === "") return { ok: true, value: null };
      const key = pledgeFrequencyKey(value);
      return key ? { ok: true, value: key } : { ok: false, message: "is not included in the list" };
    },
  },
};

/** The effective currency, selected once for the two attributes that show it. */
const effectiveCurrency: SharedSelect = { key: "effective_pledge_currency", select: () => effectivePledgeCurrency };

/** Answered as the effective currency: the contact's own, or its list's when it has none. */
const pledgeCurrency: AttributeDef = {
  ...currencyCode(contacts.pledgeCurrency),
  shared: effectiveCurrency,
  read: (_row, _ctx, _extras, selected) => selected ?? null,
};

/** Every gift of the contact, converted into the list's currency (gifts may come in several currencies). */
const lifetimeDonations: AttributeDef = {
  ...computed(
    () =>
      sumsByCurrency(
        sql`(SELECT ${q(accountLists.currency)} FROM ${accountLists} WHERE ${q(accountLists.id)} = ${q(contacts.accountListId)})`,
        sql`upper(${q(donations.currency)})`,
        q(donations.amount),
        sql`FROM ${donations} WHERE ${contactDonationsWhere()}`,
      ),
    (value, _row, _ctx, extras) => formatMoney(convertedSumsJson(value, extras.rates)),
    { usesRates: true },
  ),
  default: false,
  defaultOnShow: true,
};

/** A donor account is the donor's, shared with gifts and other lists: a contact only lets go of its link. */
const unlinkDonorAccounts = (ctx: RequestContext, contactId: string, donorAccountIds: string[]) =>
  ctx.db
    .delete(contactDonorAccounts)
    .where(and([sql`${contactDonorAccounts.contactId} = ${contactId}`, inList(contactDonorAccounts.donorAccountId, donorAccountIds)])!) as unknown as BatchStatement;

const sendsPeople = (input: WriteInput) => ((input.relationships.people as { data?: unknown[] } | undefined)?.data?.length ?? 0) > 0;

/** notes_saved_at follows every change of the notes. */
function stampNotes(values: Row, existing: Row | undefined, now: string): void {
  if ("notes" in values && (existing === undefined || values.notes !== existing.notes)) values.notes_saved_at = now;
}

export const contactResource = defineResource({
  type: "contacts",
  model: "Contact",
  table: contacts,
  accountListColumn: contacts.accountListId,
  recordsDeletion: { deletableType: "Contact" },
  attributes: {
    name: string(contacts.name, { required: true, maxLength: 255 }),
    status: string(contacts.status, { oneOf: STATUSES }),
    likely_to_give: string(contacts.likelyToGive, { oneOf: LIKELY_TO_GIVE }),
    send_newsletter: string(contacts.sendNewsletter, { oneOf: SEND_NEWSLETTER }),
    church_name: string(contacts.churchName),
    deceased: boolean(contacts.deceased),
    direct_deposit: boolean(contacts.directDeposit),
    magazine: boolean(contacts.magazine),
    missionary_pages_banner: boolean(contacts.missionaryPagesBanner),
    no_appeals: boolean(contacts.noAppeals),
    no_gift_aid: boolean(contacts.noGiftAid),
    pledge_received: boolean(contacts.pledgeReceived),
    status_valid: boolean(contacts.statusValid),
    envelope_greeting: string(contacts.envelopeGreeting),
    greeting: string(contacts.greeting),
    late_at: date(contacts.lateAt),
    locale: string(contacts.locale),
    next_ask: date(contacts.nextAsk),
    notes: string(contacts.notes, { maxLength: 100_000 }),
    notes_saved_at: stored(contacts.notesSavedAt),
    pledge_amount: money(contacts.pledgeAmount),
    pledge_currency: pledgeCurrency,
    pledge_currency_symbol: fromShared(effectiveCurrency, (code) => (typeof code === "string" ? currencySymbol(code) : null)),
    pledge_frequency: pledgeFrequency,
    pledge_start_date: date(contacts.pledgeStartDate),
    preferred_contact_method: string(contacts.preferredContactMethod),
    relationship_code: string(contacts.relationshipCode),
    source: string(contacts.source),
    starred_at: timestamp(contacts.starredAt),
    timezone: string(contacts.timezone),
    website: string(contacts.website),
    // An image URL the client gives; nothing fetches or checks the picture.
    avatar: string(contacts.avatar),
    // No image service resizes avatars: the square one is the same picture, so it follows every write of avatar.
    square_avatar: derived([contacts.avatar], (row) => row.avatar ?? null),
    suggested_changes: derived([contacts.suggestedChanges], (row) => row.suggested_changes ?? {}),
    tag_list: tagListAttribute(contactTagTable, contacts.id),
    last_donation: computed(() => lastDonationDate),
    last_activity: fromTaskSummary("last_activity"),
    last_appointment: fromTaskSummary("last_appointment"),
    last_letter: fromTaskSummary("last_letter"),
    last_phone_call: fromTaskSummary("last_phone_call"),
    last_pre_call: fromTaskSummary("last_pre_call"),
    last_thank: fromTaskSummary("last_thank"),
    uncompleted_tasks_count: fromTaskSummary("uncompleted_tasks_count"),
    lifetime_donations: lifetimeDonations,
  },
  relationships: {
    account_list: accountListRelationship(contacts.accountListId),
    user: belongsTo("users", contacts.userId),
    people: sideposted(
      sharedLinkage("people", "many", contactPeople, (selected) => peopleOf(selected).map(([id]) => id)),
      { parent: "contact" },
    ),
    primary_person: sharedLinkage("people", "one", contactPeople, (selected) => primaryOf(peopleOf(selected))),
    primary_or_first_person: sharedLinkage("people", "one", contactPeople, (selected) => primaryOrFirstOf(peopleOf(selected))),
    // The spouse: the first other person of the contact.
    spouse: sharedLinkage("people", "one", contactPeople, (selected) => {
      const entries = peopleOf(selected);
      const addressed = primaryOrFirstOf(entries);
      return entries.find(([id]) => id !== addressed)?.[0] ?? null;
    }),
    addresses: sideposted(hasMany("addresses", addresses.id, addresses.contactId, contacts.id, { orderBy: [addresses.createdAt, addresses.id] }), {
      parent: "contact",
    }),
    donor_accounts: sideposted(hasMany("donor_accounts", contactDonorAccounts.donorAccountId, contactDonorAccounts.contactId, contacts.id), {
      unlink: unlinkDonorAccounts,
    }),
    appeal_contacts: pairLinkage("appeal_contacts", appealPairs, 0),
    appeals: pairLinkage("appeals", appealPairs, 1),
    excluded_appeal_contacts: hasMany("excluded_appeal_contacts", appealExcludedContacts.id, appealExcludedContacts.contactId, contacts.id),
    pledges: hasMany("pledges", pledges.id, pledges.contactId, contacts.id),
    tasks: sharedLinkage("tasks", "many", taskSummary, taskIdsOf),
    last_six_donations: manyBy("donations", () => latestGiftIds(6)),
    contact_referrals_by_me: pairLinkage("contact_referrals", referralsByMe, 0),
    contact_referrals_to_me: sideposted(pairLinkage("contact_referrals", referralsToMe, 0), { parent: "referred_to" }),
    contacts_referred_by_me: pairLinkage("contacts", referralsByMe, 1),
    contacts_that_referred_me: pairLinkage("contacts", referralsToMe, 1),
  },
  sorts: { name: contacts.name },
  filters: contactFilters,
  reversibleFilters: true,
  defaultExclusion: hiddenStatusDefault,
  maintainedCounts: { column: contacts.status, filter: { name: "status", buckets: statusBuckets } },
  hooks: {
    beforeCreate: (values, _input, ctx) => stampNotes(values, undefined, ctx.now),
    beforeUpdate: (values, existing, _input, ctx) => stampNotes(values, existing, ctx.now),
    sideWrites: (id, values, input, ctx, existing) => [
      ...tagWrites(ctx.db, contactTagTable, id, values.tag_list),
      // People sent with the new contact stand for it: none are made up from its name beside them.
      ...(existing || sendsPeople(input) ? [] : defaultPeopleWrites(ctx, id, String(values.name), input.attributes.create_default_person)),
    ],
  },
});
