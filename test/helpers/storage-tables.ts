/** How the tests' storage sorts tables in the layouts with list databases (test/helpers/storage.ts). */
import { env } from "cloudflare:workers";

/** The directory's own tables: no list database has them. */
export const DIRECTORY_ONLY = new Set(["account_list_invites", "announcements", "announcement_actions", "background_batches", "background_batch_requests", "client_ids", "currency_rate_history", "identity_links", "list_placements", "export_logs", "user_options"]);
/** Rows the directory is the authority for, of which list databases keep copies. */
export const DIRECTORY_COPIED = new Set(["users", "account_list_users", "account_list_coaches", "organizations", "organization_accounts", "currency_rates", "master_people", "notification_types"]);
/** A user's own person and its details are the directory's; a contact's people and theirs are the list's. */
export const PERSON_TABLES = new Set(["people", "email_addresses", "phone_numbers", "facebook_accounts", "linkedin_accounts", "twitter_accounts", "websites", "family_relationships"]);

export const refusedForeignKey = (error: unknown) => String(error).includes("FOREIGN KEY constraint failed");

/** Lists without a placement are placed on `database`, as a move would leave them. */
export async function placeNewLists(database: string): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO list_placements (account_list_id, database, state, updated_at)
       SELECT id, ?1, 'placed', strftime('%Y-%m-%dT%H:%M:%SZ', 'now') FROM account_lists WHERE id NOT IN (SELECT account_list_id FROM list_placements)`,
  )
    .bind(database)
    .run();
}
