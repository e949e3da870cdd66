/**
 * npm run signin -- <email> [--access-token] [--api <url>]: signs in as a user will, through the OpenID Connect
 * provider the local service trusts (the local one `npm run dev` starts, or OIDC_ISSUER with the web app's client,
 * OIDC_WEB_CLIENT_ID and OIDC_REDIRECT_URI): the authorization-code flow with PKCE, then the ID token (or with
 * --access-token the access token, which the service introspects) exchanged at POST /api/v2/user/authenticate.
 * Prints the service's token.
 * The local provider is the one the `npm run dev` of this checkout started for the service at --api (on port 9000,
 * or on a free port when another checkout's held it).
 */
import { parseArgs } from "node:util";
// @ts-expect-error: a plain ES module without type declarations.
import { LOCAL_CLIENT_ID, LOCAL_PROVIDER_PORT, LOCAL_REDIRECT_URI } from "./local-oidc-provider.mjs";
import { providerTokens, serviceToken } from "./signin-flow";
// @ts-expect-error: a plain ES module without type declarations.
import { runningDevServer } from "./dev-lock.mjs";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values, positionals } = parseArgs({
  options: { api: { type: "string", default: "http://127.0.0.1:8787" }, "access-token": { type: "boolean", default: false } },
  allowPositionals: true,
});
const api = values.api;
const [email] = positionals;
if (!email || !email.includes("@")) fail("Usage: npm run signin -- <email> [--access-token] [--api http://127.0.0.1:8787]");

/** The issuer of the local provider the service at `api` trusts. */
function localIssuer(api: string): string {
  const server = runningDevServer() as { address: string; issuer?: string } | undefined;
  const origin = (url: string) => URL.canParse(url) && new URL(url).origin;
  if (server?.issuer && origin(server.address) === origin(api)) return server.issuer;
  return `http://127.0.0.1:${LOCAL_PROVIDER_PORT}`;
}

const issuer = process.env.OIDC_ISSUER || localIssuer(api);
// Not OIDC_CLIENT_ID: that is the service's own client at the provider, which introspects tokens.
const clientId = process.env.OIDC_WEB_CLIENT_ID || LOCAL_CLIENT_ID;
const redirectUri = process.env.OIDC_REDIRECT_URI || LOCAL_REDIRECT_URI;

try {
  const { idToken, accessToken } = await providerTokens({ issuer, clientId, redirectUri, email });
  const credential = values["access-token"] ? { access_token: accessToken } : { id_token: idToken };
  process.stdout.write(`${await serviceToken(api, credential)}\n`);
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  fail(/ECONNREFUSED|fetch failed/.test(reason + String((error as { cause?: unknown }).cause ?? "")) ? `Nothing answers at ${issuer} or ${api}: start the service with npm run dev.\n(${reason})` : reason);
}
