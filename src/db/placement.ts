/**
 * Which database a request runs on. The viewer's lists come from the directory with their placements
 * (`Viewer.listDatabases`); what the directory alone holds (the user, memberships, invites, background batches,
 * announcements) is answered from it, and everything a list owns from the database the list is placed on.
 */
import type { Viewer } from "../viewer";
import { DIRECTORY } from "./databases";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/**
 * Paths whose rows are the directory's: the user, the batches of stored requests, announcements, constants; contact
 * exports (a user's log; its download reads the lists where they are); and the Tools menu's counts, which read each
 * list on its own database (src/resources/tools/analytics.ts).
 */
const DIRECTORY_PATH = /^\/api\/v2\/(?:user|background_batches|announcements|constants|batch|contacts\/exports|tools)(?:\/|$)/;
/** A path under one list: its id, and whether what follows is the directory's (memberships and invites). */
const LIST_PATH = new RegExp(`^/api/v2/account_lists/(${UUID})(?:/(users|coaches|invites)(?:/|$)|/|$)`);

/**
 * Paths whose handler reaches each database of the viewer's lists itself (src/resources/merges/): a merge's two
 * records are of one list, and each database runs the request's merges in one batch, merging the pairs it holds.
 */
const EACH_BY_ITSELF_PATH = /^\/api\/v2\/contacts\/(?:people\/)?merges(?:\/bulk)?\/?$/;

/** A report's path: `/api/v2/reports/<name>`, or `/api/v2/reports/<name>/<list id>`. */
const REPORT_PATH = new RegExp(`^/api/v2/reports/[a-z_]+(?:/(${UUID}))?/?$`);

/**
 * The list a report covers when it names none: the first list the user joined (the original took the user's oldest
 * list; the directory knows the order of joining with the viewer, and not the lists' own creation times).
 */
export function firstOwnList(viewer: Viewer): string | undefined {
  return (viewer.listsOfMembers[viewer.id] ?? []).find((id) => viewer.writableListIds.includes(id)) ?? viewer.writableListIds[0];
}

/**
 * The database of a report, which covers one list: the path's list, else the user's first (a list named by
 * `filter[account_list_id]` was routed by it already). A list not the viewer's is refused on any database alike.
 */
export function reportDatabase(path: string, viewer: Viewer): string | undefined {
  const match = REPORT_PATH.exec(path);
  if (!match) return undefined;
  const id = match[1]?.toLowerCase() ?? firstOwnList(viewer);
  return id && viewer.readableListIds.includes(id) ? databaseOfList(viewer, id) : DIRECTORY;
}

/** The database a list is placed on. */
export function databaseOfList(viewer: Viewer, listId: string): string {
  return viewer.listDatabases[listId] ?? DIRECTORY;
}

/** The databases holding the viewer's lists, each with its lists, the directory first. */
export function viewerDatabases(viewer: Viewer): Map<string, string[]> {
  const databases = new Map<string, string[]>();
  for (const listId of viewer.readableListIds) {
    const name = databaseOfList(viewer, listId);
    databases.set(name, [...(databases.get(name) ?? []), listId]);
  }
  return new Map([...databases].sort(([a], [b]) => (a === DIRECTORY ? -1 : b === DIRECTORY ? 1 : a.localeCompare(b))));
}

/**
 * The list a create that names none goes to: the viewer's default list, or their only list (clients that predate
 * several lists send none).
 */
export function listForCreate(viewer: Viewer): string | undefined {
  const { defaultAccountListId, writableListIds } = viewer;
  if (defaultAccountListId && writableListIds.includes(defaultAccountListId)) return defaultAccountListId;
  return writableListIds.length === 1 ? writableListIds[0] : undefined;
}

/**
 * The viewer as one database sees them: only their lists placed there. A request run on a database with it can
 * neither read nor write a list of another database, whatever it names.
 */
export function viewerOn(viewer: Viewer, name: string): Viewer {
  const here = (listId: string) => databaseOfList(viewer, listId) === name;
  const createsIn = listForCreate(viewer);
  return {
    ...viewer,
    readableListIds: viewer.readableListIds.filter(here),
    writableListIds: viewer.writableListIds.filter(here),
    defaultAccountListId: viewer.defaultAccountListId && here(viewer.defaultAccountListId) ? viewer.defaultAccountListId : null,
    // Decided over all the viewer's lists: a database holding one of them must not take it for their only list.
    createsIn: createsIn && here(createsIn) ? createsIn : null,
    // A filter naming the viewer's lists on other databases is the viewer's all the same: it finds nothing here.
    allReadableListIds: viewer.allReadableListIds ?? viewer.readableListIds,
    allWritableListIds: viewer.allWritableListIds ?? viewer.writableListIds,
  };
}

/**
 * Where a request runs: one database, or `"each"` when it names no list and the viewer's lists are on several
 * databases (its answer is put together from each of them).
 */
/**
 * Whether a path's records may be on any database: one that is neither the directory's nor under a list it names
 * (a contact, a task, what hangs off them).
 */
export function isPlacedRecordPath(path: string): boolean {
  return !DIRECTORY_PATH.test(path) && !LIST_PATH.test(path);
}

export function requestDatabase(path: string, viewer: Viewer): string | "each" {
  if (DIRECTORY_PATH.test(path) || EACH_BY_ITSELF_PATH.test(path)) return DIRECTORY;
  const list = LIST_PATH.exec(path);
  if (list) return list[2] ? DIRECTORY : viewer.readableListIds.includes(list[1].toLowerCase()) ? databaseOfList(viewer, list[1].toLowerCase()) : DIRECTORY;
  const databases = viewerDatabases(viewer);
  if (databases.size === 0) return DIRECTORY;
  return databases.size === 1 ? [...databases.keys()][0] : "each";
}
