/**
 * The D1 databases of a deployment. `DB` is the directory: every user, membership, invite, background batch and
 * account list is there, and it may hold lists' own rows as well (a deployment of one database holds them all).
 * Further list databases are bindings named `LIST_DB_<name>`; each account list is placed on one of them
 * (drizzle/placements.ts), and its contacts, tasks, gifts and the rest live there alone.
 */
export const DIRECTORY = "DB";

/** A D1 binding that answers the bookmark of the session it runs in (src/db/session.ts). */
export type SessionBinding = D1Database & { getBookmark(): string | null };

const LIST_BINDING = /^LIST_DB_[A-Z0-9_]+$/;

function isD1(value: unknown): value is D1Database {
  return typeof value === "object" && value !== null && typeof (value as D1Database).prepare === "function" && typeof (value as D1Database).batch === "function";
}

/** The databases that may hold lists: the directory, then each `LIST_DB_*` binding in name order. */
export function listDatabaseNames(env: object): string[] {
  const bound = env as Record<string, unknown>;
  return [DIRECTORY, ...Object.keys(bound).filter((name) => LIST_BINDING.test(name) && isD1(bound[name])).sort()];
}

export function isListDatabase(env: object, name: string): boolean {
  return listDatabaseNames(env).includes(name);
}

/** The binding of a list database by name; a name this Worker is not bound to is a programming error. */
export function databaseBinding(env: object, name: string): D1Database {
  const binding = (env as Record<string, unknown>)[name];
  if (name === DIRECTORY) return binding as D1Database;
  if ((name !== DIRECTORY && !LIST_BINDING.test(name)) || !isD1(binding)) throw new Error(`no list database is bound as ${name}`);
  return binding;
}
