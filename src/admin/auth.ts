/**
 * The administrative surface is for the operator, never for users: it answers only to the ADMIN_SECRET (a
 * `wrangler secret`), sent as `Authorization: Bearer <secret>`. Without the secret configured it is not there at
 * all (404, as any unknown path); a wrong or missing secret is 401. The comparison takes the same time whatever
 * the guess: both sides are hashed to one length and compared with the runtime's constant-time check.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { routeNotFound, unauthorized } from "../jsonapi/errors";
import { MIN_SECRET_LENGTH } from "../settings";

const encoder = new TextEncoder();

async function digest(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", encoder.encode(text));
}

async function sameSecret(sent: string, secret: string): Promise<boolean> {
  const [a, b] = await Promise.all([digest(sent), digest(secret)]);
  return crypto.subtle.timingSafeEqual(a, b);
}

export const adminOnly = createMiddleware<AppEnv>(async (c, next) => {
  const secret = c.env.ADMIN_SECRET;
  // A short secret counts as none: the surface stays closed rather than guessable.
  if (!secret || secret.length < MIN_SECRET_LENGTH) throw routeNotFound();
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
  if (!sent || !(await sameSecret(sent, secret))) throw unauthorized("The administrative secret is required: send Authorization: Bearer <ADMIN_SECRET>");
  await next();
});
