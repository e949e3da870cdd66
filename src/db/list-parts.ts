/** What one database's part of a list or a summary over several reports besides its answer (src/read/spread-list.ts, src/routing.ts). */

/** Each row's order key, by resource id, and how each key term sorts. */
export interface PartKeys {
  terms: Array<{ descending: boolean; nulls?: "first" | "last" }>;
  rows: Map<string, unknown[]>;
  /**
   * The rows an ids-only part named are already as the list renders them: nothing of them is shown but their
   * identity (an empty sparse fieldset, no include), so the page needs no second step.
   */
  rendered?: boolean;
}

/**
 * One database's part of a summary over several (the home pages' analytics, the filter panels) answers over the
 * viewer's lists placed there and reports the order of what it lists, so that the lists put together are in the
 * order one database would give them: by relationship (a summary's to-many linkage) or panel item (its options read
 * from the data), each listed id's order key. Options not named (the panel's own, `-- Any --` first) come before
 * the rest, in their order.
 */
export type SummaryOrders = Record<string, Map<string, unknown[]>>;
