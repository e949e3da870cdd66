/** Records of an account list that donations, pledges and appeal contacts link to, and filtering by their ids. */
import { appeals, contacts, designationAccounts, donations } from "../../../drizzle/schema";
import type { ListOwnedTarget } from "../../engine/account-list-scope";

export const appealTarget: ListOwnedTarget = { type: "appeals", model: "Appeal", idColumn: appeals.id, accountListColumn: appeals.accountListId };
export const contactTarget: ListOwnedTarget = { type: "contacts", model: "Contact", idColumn: contacts.id, accountListColumn: contacts.accountListId };
export const donationTarget: ListOwnedTarget = { type: "donations", model: "Donation", idColumn: donations.id, accountListColumn: donations.accountListId };
export const designationAccountTarget: ListOwnedTarget = {
  type: "designation_accounts",
  model: "DesignationAccount",
  idColumn: designationAccounts.id,
  accountListColumn: designationAccounts.accountListId,
};

/** Donations and pledges live under /account_lists/<id>: their list is the one in the path. */
export const pathList = (ctx: { pathParams: Record<string, string> }) => ctx.pathParams.account_list_id;

export { idsFilter } from "../../engine/filters";
