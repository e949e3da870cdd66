/**
 * An OpenID Connect provider (and a CAS server) played by the test: its discovery document, key set, userinfo and
 * token introspection answers are served to the Worker's outbound fetch, which runs in the test's isolate; the keys are made here with
 * jose. Each provider has an issuer of its own, so what one test's Worker keeps of a provider never serves another.
 */
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload, type CryptoKey } from "jose";
import { vi } from "vitest";

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

let providers = 0;

export async function signingKey(kid = crypto.randomUUID()): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

export type Answer = (request: Request) => Response | Promise<Response>;

/** Routes the Worker's outbound requests by origin to what the test answers; anything else is refused loudly. */
const origins = new Map<string, Answer>();
let intercepting = false;

export function answerAt(origin: string, answer: Answer): void {
  origins.set(origin, answer);
  if (intercepting) return;
  intercepting = true;
  const original = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const handler = origins.get(new URL(request.url).origin);
    if (!handler) return original(input, init);
    return handler(request);
  });
}

/** Call after each test (vi.restoreAllMocks takes the spy away). */
export function stopAnswering(): void {
  origins.clear();
  intercepting = false;
}

export class TestProvider {
  readonly issuer: string;
  /** The keys the key set publishes. */
  published: SigningKey[];
  /** Paths asked for, in order. */
  readonly asked: string[] = [];
  /** When set, every request fails as an unreachable host would. */
  down = false;
  /** Opaque access tokens and whom they stand for. */
  readonly accessTokens = new Map<string, JWTPayload>();
  /** What introspection says of each opaque access token besides its subject: the client it was issued to. */
  readonly introspections = new Map<string, Record<string, unknown>>();
  /** Whether the discovery document names an introspection endpoint. */
  introspection = true;
  /** Where the discovery document says the introspection endpoint is (at the issuer by default). */
  introspectionEndpoint?: string;
  /** When set, introspection answers this in place of what it knows (a broken or failing provider). */
  introspectionAnswer?: () => Response;
  /** The client credentials introspection answers to (RFC 7662: the resource server's own client). */
  serviceClient = { id: "", secret: "" };
  /** The Authorization header and form of each introspection request. */
  readonly introspectionRequests: Array<{ authorization: string | null; contentType: string | null; form: Record<string, string> }> = [];

  private constructor(readonly key: SigningKey) {
    this.issuer = `https://id-${++providers}-${crypto.randomUUID().slice(0, 8)}.example.org`;
    this.published = [key];
  }

  static async start(): Promise<TestProvider> {
    const provider = new TestProvider(await signingKey());
    answerAt(provider.issuer, (request) => provider.answer(request));
    return provider;
  }

  times(path: string): number {
    return this.asked.filter((asked) => asked === path).length;
  }

  private async answer(request: Request): Promise<Response> {
    const url = new URL(request.url);
    this.asked.push(url.pathname);
    if (this.down) throw new TypeError("Network connection lost.");
    if (url.pathname === "/.well-known/openid-configuration") {
      return Response.json({
        issuer: this.issuer,
        jwks_uri: `${this.issuer}/jwks`,
        userinfo_endpoint: `${this.issuer}/me`,
        ...(this.introspection ? { introspection_endpoint: this.introspectionEndpoint ?? `${this.issuer}/token/introspection` } : {}),
        id_token_signing_alg_values_supported: ["RS256"],
      });
    }
    if (url.pathname === "/token/introspection" && request.method === "POST") {
      const authorization = request.headers.get("authorization");
      const form = Object.fromEntries(new URLSearchParams(await request.text()));
      this.introspectionRequests.push({ authorization, contentType: request.headers.get("content-type"), form });
      // RFC 6749 section 2.3.1: each part form-encoded, then joined with ":".
      const formEncoded = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
      const expected = `Basic ${btoa(`${formEncoded(this.serviceClient.id)}:${formEncoded(this.serviceClient.secret)}`)}`;
      if (authorization !== expected) return Response.json({ error: "invalid_client" }, { status: 401 });
      if (this.introspectionAnswer) return this.introspectionAnswer();
      const claims = this.accessTokens.get(form.token ?? "");
      const about = this.introspections.get(form.token ?? "");
      if (!claims || !about) return Response.json({ active: false });
      return Response.json({ active: true, sub: claims.sub, iss: this.issuer, token_type: "Bearer", exp: Math.floor(Date.now() / 1000) + 600, ...about });
    }
    if (url.pathname === "/jwks") return Response.json({ keys: this.published.map((key) => key.publicJwk) });
    if (url.pathname === "/me") {
      const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
      const claims = token ? this.accessTokens.get(token) : undefined;
      return claims ? Response.json(claims) : new Response(null, { status: 401, headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' } });
    }
    return new Response("not found", { status: 404 });
  }

  /** A token signed with `key` (the published key by default), valid for ten minutes from the clock's now. */
  async sign(claims: JWTPayload, { key = this.key, audience = "web-app", type = "JWT" }: { key?: SigningKey; audience?: string | string[]; type?: string } = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: this.issuer, aud: audience, iat: now, exp: now + 600, ...claims })
      .setProtectedHeader({ alg: "RS256", kid: key.kid, typ: type })
      .sign(key.privateKey);
  }

  /**
   * An opaque access token the userinfo endpoint answers for with these claims, issued to the client `clientId`
   * (null: introspection names no client); `introspected` is what introspection answers besides (`{ active: false }`
   * for a revoked one). `token` is the token's text, made up when not given.
   */
  opaqueAccessToken(
    claims: JWTPayload,
    { clientId = "web-app", introspected = {}, token = crypto.randomUUID().replace(/-/g, "") + crypto.randomUUID().replace(/-/g, "") }: { clientId?: string | null; introspected?: Record<string, unknown>; token?: string } = {},
  ): string {
    this.accessTokens.set(token, claims);
    this.introspections.set(token, { ...(clientId === null ? {} : { client_id: clientId }), ...introspected });
    return token;
  }
}
