/**
 * A local OpenID Connect provider for development and the outside tests: panva's oidc-provider on loopback, knowing
 * the people it is given (the demo users), who sign in by picking their e-mail address (no password: it is a stand-in
 * for the organization's provider, reachable only from this machine). One public client, `local-web`, uses the
 * authorization-code flow with PKCE, as the web apps do; its ID tokens carry the e-mail address, verified. Another
 * client, `local-api`, is the service's own: with a secret made at each start, it introspects access tokens (RFC
 * 7662), as the service does to learn which client an opaque access token was issued to.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

export const LOCAL_CLIENT_ID = "local-web";
/** Where the provider sends the browser back with the code: a loopback address, as for a native app. */
export const LOCAL_REDIRECT_URI = "http://127.0.0.1/signed-in";
export const LOCAL_PROVIDER_PORT = 9000;
/** The service's client: it only introspects tokens (no grant of its own), authenticated with HTTP Basic. */
export const LOCAL_SERVICE_CLIENT_ID = "local-api";

/** A stable subject per person that is not their e-mail address: a changed address keeps the subject. */
const subjectOf = (email) => `local-${createHash("sha256").update(email.toLowerCase()).digest("hex").slice(0, 20)}`;

const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function readForm(request) {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => {
      body += chunk;
      if (body.length > 10_000) request.destroy();
    });
    request.on("end", () => resolve(new URLSearchParams(body)));
    request.on("error", reject);
  });
}

/**
 * Starts the provider at http://127.0.0.1:<port> (0: any free port). `people`: [{ email, firstName, lastName }].
 * Resolves to { issuer, serviceClient: { id, secret }, close() }.
 */
export async function startLocalProvider({ port = LOCAL_PROVIDER_PORT, host = "127.0.0.1", people }) {
  const byEmail = new Map(people.map((person) => [person.email.toLowerCase(), person]));
  const bySubject = new Map(people.map((person) => [subjectOf(person.email), person]));
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: "local-1", use: "sig", alg: "RS256" };
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const issuer = `http://${host}:${server.address().port}`;
  const serviceClient = { id: LOCAL_SERVICE_CLIENT_ID, secret: randomBytes(32).toString("base64url") };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: LOCAL_CLIENT_ID,
        application_type: "native",
        token_endpoint_auth_method: "none",
        redirect_uris: [LOCAL_REDIRECT_URI],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
      {
        client_id: serviceClient.id,
        client_secret: serviceClient.secret,
        token_endpoint_auth_method: "client_secret_basic",
        redirect_uris: [],
        grant_types: [],
        response_types: [],
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    pkce: { required: () => true },
    ttl: { AuthorizationCode: 60, AccessToken: 3600, IdToken: 3600, Interaction: 600, Session: 86_400, Grant: 86_400 },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "given_name", "family_name"] },
    // The ID token carries the scopes' claims (the e-mail address), as the providers organizations use do.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      // Only the service's client learns about tokens, of any client: that is what it asks.
      introspection: { enabled: true, allowedPolicy: async (_ctx, client) => client.clientId === serviceClient.id },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, subject) => {
      const person = bySubject.get(subject);
      if (!person) return undefined;
      return {
        accountId: subject,
        claims: async () => ({
          sub: subject,
          email: person.email,
          email_verified: true,
          name: `${person.firstName} ${person.lastName ?? ""}`.trim(),
          given_name: person.firstName,
          family_name: person.lastName ?? undefined,
        }),
      };
    },
  });
  // Plain HTTP on loopback: nothing here is reachable from elsewhere.
  provider.proxy = false;
  const callback = provider.callback();

  server.on("request", async (request, response) => {
    const url = new URL(request.url, issuer);
    if (!url.pathname.startsWith("/interaction/")) return callback(request, response);
    try {
      const details = await provider.interactionDetails(request, response);
      // A first-party client: the scopes it asks for are granted without a consent page.
      if (details.prompt.name === "consent") {
        const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
        grant.addOIDCScope(String(details.params.scope));
        await provider.interactionFinished(request, response, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
        return;
      }
      if (request.method === "POST") {
        const person = byEmail.get((await readForm(request)).get("login")?.trim().toLowerCase() ?? "");
        if (!person) {
          response.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" }).end("No such person at this provider: pick one of the list.");
          return;
        }
        await provider.interactionFinished(request, response, { login: { accountId: subjectOf(person.email) } }, { mergeWithLastSubmission: false });
        return;
      }
      const options = people.map((person) => `<option>${escapeHtml(person.email)}</option>`).join("");
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(
        `<!doctype html><title>Local sign-in</title><h1>Sign in (local provider)</h1>` +
          `<form method="post" action="/interaction/${escapeHtml(details.uid)}"><select name="login">${options}</select> <button>Sign in</button></form>`,
      );
    } catch (error) {
      response.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" }).end(`The sign-in could not go on: ${error instanceof Error ? error.message : String(error)}`);
    }
  });

  return { issuer, serviceClient, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
