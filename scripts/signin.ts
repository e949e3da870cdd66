/**
 * npm run signin -- <email> [--api <url>]: signs in as a user will, through the OpenID Connect provider the local
 * service trusts (the local one `npm run dev` starts, or OIDC_ISSUER with OIDC_CLIENT_ID and OIDC_REDIRECT_URI):
 * the authorization-code flow with PKCE, then the ID token exchanged at POST /api/v2/user/authenticate. Prints the
 * service's token.
 */
import { parseArgs } from "node:util";
// @ts-expect-error: a plain ES module without type declarations.
import { LOCAL_CLIENT_ID, LOCAL_PROVIDER_PORT, LOCAL_REDIRECT_URI } from "./local-oidc-provider.mjs";
import { providerTokens, serviceToken } from "./signin-flow";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values, positionals } = parseArgs({ options: { api: { type: "string", default: "http://127.0.0.1:8787" } }, allowPositionals: true });
const api = values.api;
const [email] = positionals;
if (!email || !email.includes("@")) fail("Usage: npm run signin -- <email> [--api http://127.0.0.1:8787]");

const issuer = process.env.OIDC_ISSUER || `http://127.0.0.1:${LOCAL_PROVIDER_PORT}`;
const clientId = process.env.OIDC_CLIENT_ID || LOCAL_CLIENT_ID;
const redirectUri = process.env.OIDC_REDIRECT_URI || LOCAL_REDIRECT_URI;

try {
  const { idToken } = await providerTokens({ issuer, clientId, redirectUri, email });
  process.stdout.write(`${await serviceToken(api, { id_token: idToken })}\n`);
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  fail(/ECONNREFUSED|fetch failed/.test(reason + String((error as { cause?: unknown }).cause ?? "")) ? `Nothing answers at ${issuer} or ${api}: start the service with npm run dev.\n(${reason})` : reason);
}
