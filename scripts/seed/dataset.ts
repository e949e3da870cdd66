/** Rows collected per table, written out in an order that satisfies every foreign key. */
import { type Row, SqlWriter, sqlLiteral } from "./sql";

/**
 * Insert order. `user_people` are the people rows that stand for users: they are inserted before `users`
 * (which point at them), while the contacts' people come after `contacts`.
 */
const TABLE_ORDER = [
  "organizations",
  "currency_rates",
  "currency_rate_history",
  "account_lists",
  "user_people",
  "master_people",
  "users",
  "account_list_users",
  "account_list_coaches",
  "organization_accounts",
  "designation_accounts",
  "balances",
  "donor_accounts",
  "contacts",
  "people",
  "addresses",
  "email_addresses",
  "phone_numbers",
  "facebook_accounts",
  "linkedin_accounts",
  "twitter_accounts",
  "websites",
  "family_relationships",
  "contact_donor_accounts",
  "contact_referrals",
  "contact_tags",
  "partner_status_logs",
  "appeals",
  "donations",
  "pledges",
  "pledge_donations",
  "appeal_contacts",
  "appeal_excluded_contacts",
  "tasks",
  "activity_contacts",
  "comments",
  "task_tags",
  "notification_preferences",
  "notifications",
  "account_list_invites",
  "announcements",
  "announcement_actions",
] as const;

export type Bucket = (typeof TABLE_ORDER)[number];

const TABLE_OF: Partial<Record<Bucket, string>> = { user_people: "people" };

export class Dataset {
  private readonly rows = new Map<Bucket, Row[]>();
  private readonly primaryAppeals: Array<{ accountListId: string; appealId: string }> = [];

  add(bucket: Bucket, row: Row): void {
    let list = this.rows.get(bucket);
    if (!list) this.rows.set(bucket, (list = []));
    list.push(row);
  }

  /** account_lists and appeals point at each other: the list is inserted first and pointed at its appeal afterwards. */
  setPrimaryAppeal(accountListId: string, appealId: string): void {
    this.primaryAppeals.push({ accountListId, appealId });
  }

  count(bucket: Bucket): number {
    return this.rows.get(bucket)?.length ?? 0;
  }

  toSql(header: string[]): string {
    const writer = new SqlWriter();
    for (const line of header) writer.comment(line);
    for (const bucket of TABLE_ORDER) {
      writer.insert(TABLE_OF[bucket] ?? bucket, this.rows.get(bucket) ?? []);
      if (bucket === "appeals") {
        // Only while unset, so that re-seeding never overrides a choice made through the API.
        for (const { accountListId, appealId } of this.primaryAppeals) {
          writer.raw(
            `UPDATE account_lists SET primary_appeal_id = ${sqlLiteral(appealId)} ` +
              `WHERE id = ${sqlLiteral(accountListId)} AND primary_appeal_id IS NULL`,
          );
        }
      }
    }
    return writer.toString();
  }
}

/** created_at / updated_at columns. */
export function stamps(createdAt: string, updatedAt: string = createdAt): { created_at: string; updated_at: string } {
  return { created_at: createdAt, updated_at: updatedAt < createdAt ? createdAt : updatedAt };
}

/** Money in cents to stored units (1/10,000). */
export function cents(amountInCents: number): number {
  return Math.round(amountInCents) * 100;
}
