/**
 * Who a request acts for, as every layer sees them: the services below the app (placement, the engine) take it
 * from here; the app's context carries it (src/env.ts).
 */

/** The signed-in user and the account lists they may read (users and coaches) and write (users only). */
export interface Viewer {
  id: string;
  timeZone: string;
  defaultAccountListId: string | null;
  /** The user's sign-out generation: tokens minted in an earlier one are refused (src/auth/token.ts). */
  tokenGeneration?: number;
  readableListIds: string[];
  writableListIds: string[];
  /**
   * The database of each readable list that is not on the directory (drizzle/placements.ts); a list missing here
   * is on the directory database.
   */
  listDatabases: Record<string, string>;
  /**
   * For each user of one of the viewer's readable lists, those of the viewer's lists they are a user of, in the
   * order they joined: a user's `account_lists` as the viewer may see them. Read from the directory with the
   * viewer, so that it is whole on every database (a list database keeps only its own lists' memberships).
   */
  listsOfMembers: Record<string, string[]>;
  /**
   * The list a create that names none goes to, when decided for a part of the viewer's lists (one database's
   * part of a request; see listForCreate in src/db/placement.ts): null when it is none of them.
   */
  createsIn?: string | null;
  /** Every list the viewer reads, when `readableListIds` is one database's part of them (src/db/placement.ts). */
  allReadableListIds?: string[];
  /** Likewise the lists they may write, wherever placed. */
  allWritableListIds?: string[];
}
