import { UUID_PARAM } from "../routes/resource-routes";

export const API = "/api/v2";
/** Prefix of routes nested under one account list; `accountListParent` guards everything below it. */
export const LIST = `${API}/account_lists/:account_list_id${UUID_PARAM}`;
/** An id segment that only matches UUIDs, so other ids answer 404 Route not found. */
export const ID = `:id${UUID_PARAM}`;
