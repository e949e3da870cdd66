/**
 * The contacts an export holds, read for its file. The selection is the contact list's own filters
 * (`contactFilterCondition`, hidden statuses left out unless a status is named) over the export user's own lists
 * (not the lists they coach), in name order as the original wrote it. Lists may be on several databases: each names
 * its contacts (id and name only), the names are merged in SQLite's order, and the contacts are then read a chunk at
 * a time from the database holding them, each with its people, their e-mail addresses and phone numbers, its
 * mailing address and tags in one statement. Memory grows with the chunk, not the export.
 */
import { sql, type SQL } from "drizzle-orm";
import { accountLists, addresses, contacts, contactTags, emailAddresses, people, phoneNumbers } from "../../../drizzle/schema";
import { and, inList, q } from "../../db/sql";
import { rowsOf } from "../../db/statements";
import { compareValues } from "../../db/sqlite-order";
import { databaseOfList } from "../../db/placement";
import type { RequestContext } from "../../engine/define";
import type { Viewer } from "../../env";
import type { ParamValue } from "../../jsonapi/params";
import { contactFilterCondition, effectivePledgeCurrency } from "./filters";

/** Contacts read and encoded per step of a download. */
export const EXPORT_CHUNK_CONTACTS = 200;

export interface ExportDetail {
  value: string;
  primary: boolean;
  historic: boolean;
}

export interface ExportPerson {
  firstName: string;
  lastName: string | null;
  deceased: boolean;
  primary: boolean;
  emails: ExportDetail[];
  phones: ExportDetail[];
}

export interface ExportAddress {
  street: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  country: string | null;
}

export interface ExportContact {
  name: string;
  greeting: string | null;
  envelopeGreeting: string | null;
  status: string | null;
  /** Units of 1/10,000 (src/decimal.ts). */
  pledgeAmount: number | null;
  pledgeCurrency: string | null;
  pledgeFrequency: string | null;
  sendNewsletter: string | null;
  pledgeReceived: boolean;
  homeCountry: string | null;
  tags: string[];
  /** In the contact's order of people (position, then creation). */
  people: ExportPerson[];
  /** The primary mailing address, else the first current one. */
  address: ExportAddress | null;
}

/** Exports cover the lists the user keeps, as the original's `current_user.contacts`: a coached list is not theirs to export. */
export function exportingViewer(viewer: Viewer): Viewer {
  const own = viewer.allWritableListIds ?? viewer.writableListIds;
  return { ...viewer, readableListIds: viewer.writableListIds, allReadableListIds: own };
}

/** The export's filters as one condition; a malformed value is the filter's 400, a list not the user's own 404. */
export function exportCondition(filter: Record<string, ParamValue>, ctx: RequestContext): Promise<SQL | undefined> {
  return contactFilterCondition(filter, { ...ctx, viewer: exportingViewer(ctx.viewer) });
}

interface Selected {
  id: string;
  name: string;
  database: string;
}

/** Every contact of the export, in name order (ties by id), with the database holding it. */
export async function selectedContacts(filter: Record<string, ParamValue>, ctx: RequestContext): Promise<Selected[]> {
  const viewer = exportingViewer(ctx.viewer);
  const condition = await exportCondition(filter, ctx);
  const byDatabase = new Map<string, string[]>();
  for (const listId of viewer.writableListIds) {
    const database = databaseOfList(viewer, listId);
    byDatabase.set(database, [...(byDatabase.get(database) ?? []), listId]);
  }
  const parts = await Promise.all(
    [...byDatabase].map(async ([database, lists]) => {
      const where = and([inList(q(contacts.accountListId), lists), condition]);
      const [rows] = await rowsOf(ctx.databaseOn!(database), [
        sql`SELECT ${q(contacts.id)} AS id, ${q(contacts.name)} AS name FROM ${contacts} WHERE ${where} ORDER BY ${q(contacts.name)}, ${q(contacts.id)}`,
      ]);
      return rows.map((row) => ({ id: String(row.id), name: String(row.name ?? ""), database }));
    }),
  );
  const all = parts.flat();
  return byDatabase.size > 1 ? all.sort((a, b) => compareValues(a.name, b.name) || compareValues(a.id, b.id)) : all;
}

function detailsOf(table: typeof emailAddresses | typeof phoneNumbers, value: SQL): SQL {
  return sql`json((SELECT json_group_array(json_array(value, is_primary, historic)) FROM (SELECT ${value} AS value, ${q(table.primary)} AS is_primary,
    ${q(table.historic)} AS historic FROM ${table} WHERE ${q(table.personId)} = ${q(people.id)} ORDER BY ${q(table.createdAt)}, ${q(table.id)})))`;
}

const PEOPLE = sql`(SELECT json_group_array(json(person)) FROM (SELECT json_object('first_name', ${q(people.firstName)}, 'last_name', ${q(people.lastName)},
  'deceased', ${q(people.deceased)}, 'primary', ${q(people.isPrimary)}, 'emails', ${detailsOf(emailAddresses, q(emailAddresses.email))},
  'phones', ${detailsOf(phoneNumbers, q(phoneNumbers.number))}) AS person
  FROM ${people} WHERE ${q(people.contactId)} = ${q(contacts.id)} ORDER BY ${q(people.position)}, ${q(people.createdAt)}, ${q(people.id)}))`;

const ADDRESS = sql`(SELECT json_object('street', ${q(addresses.street)}, 'city', ${q(addresses.city)}, 'state', ${q(addresses.state)},
  'postal_code', ${q(addresses.postalCode)}, 'country', ${q(addresses.country)}) FROM ${addresses}
  WHERE ${q(addresses.contactId)} = ${q(contacts.id)} AND ${q(addresses.historic)} = 0
  ORDER BY ${q(addresses.primaryMailingAddress)} DESC, ${q(addresses.createdAt)}, ${q(addresses.id)} LIMIT 1)`;

const TAGS = sql`(SELECT json_group_array(name) FROM (SELECT ${q(contactTags.name)} AS name FROM ${contactTags} WHERE ${q(contactTags.contactId)} = ${q(contacts.id)} ORDER BY 1))`;

const HOME_COUNTRY = sql`(SELECT ${q(accountLists.homeCountry)} FROM ${accountLists} WHERE ${q(accountLists.id)} = ${q(contacts.accountListId)})`;

function chunkStatement(ids: string[]): SQL {
  return sql`SELECT ${q(contacts.id)} AS id, ${q(contacts.name)} AS name, ${q(contacts.greeting)} AS greeting,
    ${q(contacts.envelopeGreeting)} AS envelope_greeting, ${q(contacts.status)} AS status, ${q(contacts.pledgeAmount)} AS pledge_amount,
    ${effectivePledgeCurrency} AS pledge_currency, ${q(contacts.pledgeFrequency)} AS pledge_frequency,
    ${q(contacts.sendNewsletter)} AS send_newsletter, ${q(contacts.pledgeReceived)} AS pledge_received, ${HOME_COUNTRY} AS home_country,
    ${TAGS} AS tags, ${PEOPLE} AS people, ${ADDRESS} AS address
    FROM ${contacts} WHERE ${inList(q(contacts.id), ids)}`;
}

type Details = Array<[string, number, number]>;

const details = (entries: Details | null): ExportDetail[] =>
  (entries ?? []).map(([value, primary, historic]) => ({ value, primary: primary === 1, historic: historic === 1 }));

function contactOf(row: Record<string, unknown>): ExportContact {
  const persons = JSON.parse(String(row.people ?? "[]")) as Array<Record<string, unknown>>;
  const address = row.address ? (JSON.parse(String(row.address)) as Record<string, string | null>) : null;
  return {
    name: String(row.name ?? ""),
    greeting: (row.greeting as string | null) ?? null,
    envelopeGreeting: (row.envelope_greeting as string | null) ?? null,
    status: (row.status as string | null) ?? null,
    pledgeAmount: row.pledge_amount === null || row.pledge_amount === undefined ? null : Number(row.pledge_amount),
    pledgeCurrency: (row.pledge_currency as string | null) ?? null,
    pledgeFrequency: (row.pledge_frequency as string | null) ?? null,
    sendNewsletter: (row.send_newsletter as string | null) ?? null,
    pledgeReceived: Number(row.pledge_received) === 1,
    homeCountry: (row.home_country as string | null) ?? null,
    tags: JSON.parse(String(row.tags ?? "[]")) as string[],
    people: persons.map((person) => ({
      firstName: String(person.first_name ?? ""),
      lastName: (person.last_name as string | null) ?? null,
      deceased: person.deceased === 1,
      primary: person.primary === 1,
      emails: details(person.emails as Details | null),
      phones: details(person.phones as Details | null),
    })),
    address: address && {
      street: address.street,
      city: address.city,
      state: address.state,
      postalCode: address.postal_code,
      country: address.country,
    },
  };
}

/** The export's contacts, a chunk at a time, in order; each chunk's contacts are read from their databases at once. */
export async function* exportedContacts(selected: Selected[], ctx: RequestContext): AsyncGenerator<ExportContact[]> {
  for (let start = 0; start < selected.length; start += EXPORT_CHUNK_CONTACTS) {
    const chunk = selected.slice(start, start + EXPORT_CHUNK_CONTACTS);
    const byDatabase = new Map<string, string[]>();
    for (const { id, database } of chunk) byDatabase.set(database, [...(byDatabase.get(database) ?? []), id]);
    const read = new Map<string, ExportContact>();
    await Promise.all(
      [...byDatabase].map(async ([database, ids]) => {
        const [rows] = await rowsOf(ctx.databaseOn!(database), [chunkStatement(ids)]);
        for (const row of rows) read.set(String(row.id), contactOf(row));
      }),
    );
    // A contact removed since the selection is left out.
    yield chunk.flatMap(({ id }) => (read.has(id) ? [read.get(id)!] : []));
  }
}
