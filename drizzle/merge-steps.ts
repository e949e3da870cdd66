/**
 * What a merge request's atomic batch works from (src/resources/merges/): written and read by its statements, and
 * emptied by its last one, so no other request ever sees a row. Each pair of the request is judged here before its
 * statements run, and they run only on a pair judged mergeable (`kind = 'pair'`, `state = 7`); the people a
 * contact merge merges by name, and the details those merges move, are set down here first, so that every step is
 * one set-based statement over them.
 *
 * - `pair`: the request's pair at `position`: `id` the loser, `target` the winner; `state` 1 when the winner is
 *   found among the viewer's lists, 2 the loser, 4 both and mergeable (7: merged).
 * - `name`: a person of a named contact (`id`), with the name compared (`target`), read before any pair merges.
 * - `person`: a person (`id`) merged into another (`target`) by the pair at `position`, the `rank`-th into it.
 * - a detail table's name: its row `id` moved to person `target`, `state` its `primary` before, `rank` and `ord`
 *   the order the moves happen in.
 */
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const mergeSteps = sqliteTable(
  "merge_steps",
  {
    kind: text("kind").notNull(),
    position: integer("position").notNull(),
    id: text("id").notNull(),
    target: text("target"),
    rank: integer("rank"),
    ord: integer("ord"),
    state: integer("state"),
  },
  (t) => [primaryKey({ columns: [t.kind, t.position, t.id] })],
);
