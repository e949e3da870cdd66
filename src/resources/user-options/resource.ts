/**
 * The signed-in user's options (`/api/v2/user/options`): values the web app keeps for itself by key, such as the
 * step of its first-run setup (`setup_position`) and saved filters. Each user has their own; one option per key.
 */
import { sql } from "drizzle-orm";
import { userOptions } from "../../../drizzle/schema";
import { q } from "../../db/sql";
import { string, withWrite } from "../../engine/attributes";
import { defineResource, type RequestContext } from "../../engine/define";
import type { FieldError } from "../../jsonapi/errors";

const KEY_FORMAT = /^[A-Za-z0-9_]+$/;
const KEY_LENGTH = 255;
// Saved filters are JSON texts; far below D1's row limit.
const VALUE_LENGTH = 100_000;

const keyAttribute = string(userOptions.key, { required: true, maxLength: KEY_LENGTH });
const parseKeyText = keyAttribute.write!.parse;
const valueAttribute = string(userOptions.value, { maxLength: VALUE_LENGTH });
const parseValueText = valueAttribute.write!.parse;

/** The id of the viewer's option under `key`, if they have one. */
export async function optionIdByKey(ctx: RequestContext, key: string): Promise<string | undefined> {
  const [row] = await ctx.db
    .select({ id: userOptions.id })
    .from(userOptions)
    .where(sql`${userOptions.userId} = ${ctx.viewer.id} AND ${userOptions.key} = ${key}`)
    .limit(1);
  return row?.id;
}

/** One option per key and user: a key the viewer's other option holds is refused as taken. */
async function keyTaken(ctx: RequestContext, key: unknown, ownId?: string): Promise<FieldError[] | undefined> {
  if (typeof key !== "string") return undefined;
  const holder = await optionIdByKey(ctx, key);
  return holder && holder !== ownId ? [{ attribute: "key", message: "has already been taken" }] : undefined;
}

export const userOptionResource = defineResource({
  type: "user_options",
  model: "User::Option",
  table: userOptions,
  scope: (ctx) => sql`${q(userOptions.userId)} = ${ctx.viewer.id}`,
  attributes: {
    // Letters, digits and underscores: the key is the option's name in the path.
    key: withWrite(keyAttribute, (value, ctx) => {
      const parsed = parseKeyText(value, ctx);
      if (!parsed.ok) return parsed;
      return KEY_FORMAT.test(String(parsed.value)) ? parsed : { ok: false, message: "is invalid" };
    }, { required: true }),
    // The web app saves its panels' open state as true or false: kept as the original's text column kept them.
    value: withWrite(valueAttribute, (value, ctx) => (typeof value === "boolean" ? { ok: true, value: value ? "t" : "f" } : parseValueText(value, ctx))),
  },
  relationships: {
    // The owner, fixed by the route to the signed-in user; not answered unless asked for.
    user: { type: "users", kind: "one", column: userOptions.userId, default: false },
  },
  hooks: {
    beforeCreate: (changes, _input, ctx) => keyTaken(ctx, changes.key),
    beforeUpdate: (changes, existing, _input, ctx) => (changes.key !== undefined && changes.key !== existing.key ? keyTaken(ctx, changes.key, String(existing.id)) : undefined),
  },
});
