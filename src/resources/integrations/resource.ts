/**
 * A list's connections to newsletter services, each answered with the original's attributes: a MailChimp account
 * (`mail_chimp_accounts`) and a Prayer Letters account (`prayer_letters_accounts`). The key or token a connection
 * is made with is stored as sent and never answered. The service does not reach MailChimp or Prayer Letters, so
 * what the original learned from them (the key works, the account's lists) is answered as not known: no lists,
 * not validated (docs/decisions.md, "Integrations").
 */
import * as v from "valibot";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { mailChimpAccounts, prayerLettersAccounts } from "../../../drizzle/schema";
import { accountListRelationship } from "../../engine/account-list-scope";
import { boolean, derived, string } from "../../engine/attributes";
import { defineResource, type AttributeDef, type ParseResult, type RelationshipDef } from "../../engine/define";

const SECRET_LENGTH = 255;

/**
 * Taken on create and stored as sent, never answered: asked for by name in a sparse fieldset it is null. Required:
 * a connection is made with it.
 */
function secret(column: SQLiteColumn, schema: v.GenericSchema<unknown, string>): AttributeDef {
  const parse = (value: unknown): ParseResult => {
    if (typeof value !== "string" || value.trim() === "") return { ok: false, message: value === undefined || value === null || value === "" ? "can't be blank" : "is invalid" };
    const parsed = v.safeParse(schema, value.trim());
    return parsed.success ? { ok: true, value: parsed.output } : { ok: false, message: parsed.issues[0].message };
  };
  return { column, read: () => null, default: false, schema: { type: ["string", "null"] }, write: { parse, required: true } };
}

/** A value the original read from the service, which this one cannot reach: always the same. */
const unknownToService = (value: unknown, schema: Record<string, unknown>): AttributeDef => ({ ...derived([], () => value), schema });

/** The list the connection is the list's: fixed by the path, not answered unless asked for (the original answered none). */
const owningList = (column: SQLiteColumn): RelationshipDef => ({ ...accountListRelationship(column), default: false });

/** A MailChimp API key: `<key>-us<n>`, the datacenter after the dash (as the original checked it). */
const MAIL_CHIMP_KEY = v.pipe(v.string(), v.maxLength(SECRET_LENGTH, `is too long (maximum is ${SECRET_LENGTH} characters)`), v.regex(/^\w+-us\d+$/, "is invalid"));

/** Where the account's lists are managed, on the key's datacenter (`us4` of `…-us4`). */
function listsLink(row: Record<string, unknown>): string {
  const datacenter = String(row[mailChimpAccounts.apiKey.name] ?? "").split("-").pop();
  return `https://${datacenter}.admin.mailchimp.com/lists/`;
}

export const mailChimpAccountResource = defineResource({
  type: "mail_chimp_accounts",
  model: "MailChimpAccount",
  table: mailChimpAccounts,
  accountListColumn: mailChimpAccounts.accountListId,
  attributes: {
    api_key: secret(mailChimpAccounts.apiKey, MAIL_CHIMP_KEY),
    primary_list_id: string(mailChimpAccounts.primaryListId, { maxLength: 255 }),
    auto_log_campaigns: boolean(mailChimpAccounts.autoLogCampaigns),
    // Learned from MailChimp by the original: the key's lists, whether the key works and the primary list is one of them.
    active: unknownToService(false, { type: "boolean" }),
    valid: unknownToService(false, { type: "boolean" }),
    validate_key: unknownToService(false, { type: "boolean" }),
    validation_error: unknownToService("The key is not checked with MailChimp by this service", { type: "string" }),
    lists_present: unknownToService(false, { type: "boolean" }),
    lists_available_for_newsletters: unknownToService([], { type: "array", items: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } } }),
    primary_list_name: unknownToService(null, { type: "null" }),
    lists_link: { ...derived([mailChimpAccounts.apiKey], listsLink), schema: { type: "string" } },
  },
  relationships: { account_list: owningList(mailChimpAccounts.accountListId) },
});

const PRAYER_LETTERS_TOKEN = v.pipe(v.string(), v.maxLength(SECRET_LENGTH, `is too long (maximum is ${SECRET_LENGTH} characters)`));

export const prayerLettersAccountResource = defineResource({
  type: "prayer_letters_accounts",
  model: "PrayerLettersAccount",
  table: prayerLettersAccounts,
  accountListColumn: prayerLettersAccounts.accountListId,
  attributes: {
    oauth2_token: secret(prayerLettersAccounts.oauth2Token, PRAYER_LETTERS_TOKEN),
    // Taken as the original took it; not among what it answered.
    valid_token: { ...boolean(prayerLettersAccounts.validToken), default: false },
  },
  relationships: { account_list: owningList(prayerLettersAccounts.accountListId) },
});
