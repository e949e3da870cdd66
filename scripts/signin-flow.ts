/**
 * Signing in as a browser and a web app do: the authorization-code flow with PKCE at an OpenID Connect provider
 * (its login form filled in with the person's e-mail address, as the local provider asks), the code exchanged for
 * the provider's tokens, and one of those exchanged at the service's POST /api/v2/user/authenticate.
 * Used by `npm run signin` and by the outside test (test/node/sign-in.test.ts).
 */
import { createHash, randomBytes } from "node:crypto";

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/** The cookies a browser would keep for the provider's origin. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

export interface ProviderTokens {
  idToken: string;
  accessToken: string;
}

/** The provider's ID token and access token for the person with this e-mail address. */
export async function providerTokens(options: { issuer: string; clientId: string; redirectUri: string; email: string }): Promise<ProviderTokens> {
  const discovery = (await (await fetch(`${options.issuer}/.well-known/openid-configuration`)).json()) as { authorization_endpoint: string; token_endpoint: string };
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const authorize = new URL(discovery.authorization_endpoint);
  authorize.search = new URLSearchParams({
    client_id: options.clientId,
    response_type: "code",
    scope: "openid email profile",
    redirect_uri: options.redirectUri,
    code_challenge: base64url(createHash("sha256").update(verifier).digest()),
    code_challenge_method: "S256",
    state,
    nonce: base64url(randomBytes(16)),
  }).toString();

  const jar = new CookieJar();
  let url = authorize;
  let form: URLSearchParams | undefined;
  for (let hops = 0; hops < 20; hops++) {
    const response = await fetch(url, {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: { Cookie: jar.header(), ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
      body: form?.toString(),
    });
    jar.keep(response);
    form = undefined;
    const location = response.headers.get("location");
    if (location?.startsWith(options.redirectUri)) {
      const back = new URL(location);
      if (back.searchParams.get("state") !== state) throw new Error("The provider answered another sign-in's state");
      const code = back.searchParams.get("code");
      if (!code) throw new Error(`The provider refused the sign-in: ${back.searchParams.get("error")} ${back.searchParams.get("error_description") ?? ""}`);
      return exchangeCode(discovery.token_endpoint, { ...options, code, verifier });
    }
    if (location) {
      url = new URL(location, url);
      continue;
    }
    // The login page: the person picks their e-mail address.
    if (response.status === 200 && url.pathname.startsWith("/interaction/")) {
      await response.text();
      form = new URLSearchParams({ login: options.email });
      continue;
    }
    throw new Error(`The provider answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }
  throw new Error("The provider redirected too many times");
}

async function exchangeCode(tokenEndpoint: string, options: { clientId: string; redirectUri: string; code: string; verifier: string }): Promise<ProviderTokens> {
  const response = await fetch(tokenEndpoint, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: new URLSearchParams({ grant_type: "authorization_code", code: options.code, redirect_uri: options.redirectUri, client_id: options.clientId, code_verifier: options.verifier }),
  });
  const body = (await response.json()) as { id_token?: string; access_token?: string; error?: string; error_description?: string };
  if (!response.ok || !body.id_token || !body.access_token) throw new Error(`The provider's token endpoint answered ${response.status}: ${body.error ?? ""} ${body.error_description ?? ""}`);
  return { idToken: body.id_token, accessToken: body.access_token };
}

/** The service's token for one of the provider's tokens; an Error with the service's answer when it refuses. */
export async function serviceToken(api: string, attributes: { id_token: string } | { access_token: string }): Promise<string> {
  const response = await fetch(`${api}/api/v2/user/authenticate`, {
    method: "POST",
    headers: { "Content-Type": "application/vnd.api+json", Accept: "application/vnd.api+json" },
    body: JSON.stringify({ data: { type: "authenticate", attributes } }),
  });
  const body = (await response.json()) as { data?: { attributes?: { json_web_token?: string } }; errors?: Array<{ detail?: string }> };
  const token = body.data?.attributes?.json_web_token;
  if (response.status !== 200 || !token) throw new Error(`The service answered ${response.status}: ${body.errors?.map((error) => error.detail).join("; ") ?? ""}`);
  return token;
}
