/** The reporting currency shared by donations, pledges and appeals. */
import { sql } from "drizzle-orm";
import { accountLists } from "../../../drizzle/schema";
import type { RequestContext } from "../../engine/define";

/** The currency an account list reports in. */
export async function listCurrency(listId: string, ctx: RequestContext): Promise<string> {
  const [list] = await ctx.db.select({ currency: accountLists.currency }).from(accountLists).where(sql`${accountLists.id} = ${listId}`).limit(1);
  return list?.currency ?? "USD";
}
