import { describe, expect, it, vi } from "vitest";
import { exports } from "cloudflare:workers";
import { sign } from "hono/jwt";
import { env } from "cloudflare:workers";
import { errorOf, get, post, request } from "./helpers/api";
import { createViewer, tokenFor, uuid } from "./helpers/factories";
import { createApp } from "../src/app";

describe("authentication", () => {
  it("refuses a request without a token with a JSON:API 401", async () => {
    const response = await get("/api/v2/constants");
    const error = errorOf(response, 401);
    expect(error.title).toBe("Unauthorized");
    expect(error.detail).toBeTruthy();
  });

  it("accepts a bearer token and an access_token query parameter", async () => {
    const { token } = await createViewer();
    expect((await get("/api/v2/constants", token)).status).toBe(200);
    expect((await get(`/api/v2/constants?access_token=${token}`)).status).toBe(200);
  });

  it("refuses expired tokens, tokens without exp, other algorithms, bad signatures and unknown users", async () => {
    const { user } = await createViewer();
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign({ user_id: user.id, exp: now - 10 }, env.JWT_SECRET, "HS256");
    const noExp = await sign({ user_id: user.id }, env.JWT_SECRET, "HS256");
    const otherAlg = await sign({ user_id: user.id, exp: now + 60 }, env.JWT_SECRET, "HS512");
    const badSignature = await sign({ user_id: user.id, exp: now + 60 }, "another-secret", "HS256");
    const unknownUser = await tokenFor(uuid());
    const noUser = await sign({ exp: now + 60 }, env.JWT_SECRET, "HS256");
    const unsigned = `${btoa(JSON.stringify({ alg: "none", typ: "JWT" }))}.${btoa(JSON.stringify({ user_id: user.id, exp: now + 60 }))}.`;
    for (const token of [expired, noExp, otherAlg, badSignature, unknownUser, noUser, unsigned, "garbage"]) {
      errorOf(await get("/api/v2/constants", token), 401);
    }
  });

  it("refuses, with 401, correctly signed tokens whose header or payload is not a JSON object", async () => {
    const { user } = await createViewer();
    const claims = JSON.stringify({ user_id: user.id, exp: Math.floor(Date.now() / 1000) + 60 });
    const tokens = [
      await signedParts("null", claims),
      await signedParts("42", claims),
      await signedParts('"HS256"', claims),
      await signedParts(JSON.stringify({ alg: "HS256", typ: "JWT" }), "null"),
      await signedParts(JSON.stringify({ alg: "HS256", typ: "JWT" }), "[1]"),
    ];
    for (const token of tokens) {
      const error = errorOf(await get("/api/v2/constants", token), 401);
      expect(error.title).toBe("Unauthorized");
    }
  });
});

describe("token spelling", () => {
  it("accepts only the canonical base64url form of a valid token: no padding, no standard-base64 letters, no other trailing bits", async () => {
    const { user, token } = await createViewer();
    expect((await get("/api/v2/user", token)).status).toBe(200);
    const [header, payload, signature] = token.split(".");
    const standard = (segment: string) => segment.replace(/-/g, "+").replace(/_/g, "/");
    // A signature of 32 bytes takes 43 characters; its last one carries 4 unused bits, which a decoder ignores.
    const last = signature.at(-1)!;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sameBytes = alphabet[alphabet.indexOf(last) ^ 1];
    const spellings = [
      `${header}.${payload}.${signature}=`,
      `${header}.${payload}.${signature}==`,
      `${header}=.${payload}.${signature}`,
      `${header}.${payload}.${standard(signature)}`,
      `${standard(header)}.${standard(payload)}.${standard(signature)}`,
      `${header}.${payload}.${signature.slice(0, -1)}${sameBytes}`,
      `${header}.${payload}.${signature} `,
      `${header}.${payload}.${signature}.`,
      `.${header}.${payload}.${signature}`,
    ].filter((spelling) => spelling !== token);
    for (const spelling of spellings) {
      const error = errorOf(await get(`/api/v2/user?access_token=${encodeURIComponent(spelling)}`), 401);
      expect(error.detail, spelling).toBe("The access token is malformed");
    }
    // Some of these differ from the token only where standard base64 would; the real token still works.
    expect(spellings.some((spelling) => spelling.includes("+") || spelling.includes("/") || spelling.includes("="))).toBe(true);
    expect((await get("/api/v2/user", token)).body.data.id).toBe(user.id);
  });
});

/** A token over any header and payload text, signed with the service's secret, as a forger holding it could. */
async function signedParts(header: string, payload: string): Promise<string> {
  const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const text = (value: string) => base64url(new TextEncoder().encode(value));
  const signingInput = `${text(header)}.${text(payload)}`;
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(env.JWT_SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(signingInput)));
  return `${signingInput}.${base64url(signature)}`;
}

describe("transport", () => {
  it("answers anything unexpected with a bare 500 document, the security headers and no details", async () => {
    const app = createApp();
    app.get("/unexpected", () => {
      throw new Error("secret detail of a failure");
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const requests = vi.spyOn(console, "log").mockImplementation(() => {});
    const response = await app.request("/unexpected", {}, env);
    const errors = logged.mock.calls.map((call) => call[0]);
    const lines = requests.mock.calls.map((call) => JSON.parse(String(call[0])));
    logged.mockRestore();
    requests.mockRestore();
    // The Error itself goes to the log (its stack maps to src/), and the request's line names the request id the client sees.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(Error);
    expect((errors[0] as Error).message).toBe("secret detail of a failure");
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toBe("application/vnd.api+json; charset=utf-8");
    expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual({ errors: [{ status: "500", title: "Internal Server Error", meta: { request_id: requestId } }] });
    expect(lines).toEqual([expect.objectContaining({ level: "error", request_id: requestId, route: "/unexpected", status: 500 })]);
  });

  it("sets the security headers, a request id, an ETag and answers If-None-Match with 304", async () => {
    const { token } = await createViewer();
    const first = await get("/api/v2/constants", token);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("x-xss-protection")).toBe("0");
    expect(first.headers.get("x-download-options")).toBe("noopen");
    expect(first.headers.get("x-permitted-cross-domain-policies")).toBe("none");
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(first.headers.get("x-request-id")).toBeTruthy();
    expect(first.headers.get("cache-control")).toBe("max-age=0, private, must-revalidate");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const second = await get("/api/v2/constants", token, { headers: { "If-None-Match": etag! } });
    expect(second.status).toBe(304);
    expect(second.text).toBe("");
  });

  it("sets the security headers and a request id on error answers too", async () => {
    const { token } = await createViewer();
    const answers = [await get("/api/v2/constants", null), await get("/api/v2/nothing-here", token), await request("DELETE", "/api/v2/constants", { token })];
    expect(answers.map((answer) => answer.status)).toEqual([401, 404, 405]);
    for (const answer of answers) {
      expect(Object.fromEntries(answer.headers)).toMatchObject({
        "x-frame-options": "SAMEORIGIN",
        "x-content-type-options": "nosniff",
        "x-xss-protection": "0",
        "x-download-options": "noopen",
        "x-permitted-cross-domain-policies": "none",
        "referrer-policy": "strict-origin-when-cross-origin",
        "strict-transport-security": "max-age=15552000; includeSubDomains",
      });
      expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("answers 415 to a body sent with another media type, 406 to an unacceptable Accept", async () => {
    const { token } = await createViewer();
    const wrongType = await post("/api/v2/announcements", { data: {} }, token, { headers: { "Content-Type": "application/json" } });
    errorOf(wrongType, 415);
    const withParam = await get("/api/v2/constants", token, { headers: { Accept: "application/vnd.api+json; version=2" } });
    errorOf(withParam, 406);
    const ok = await get("/api/v2/constants", token, { headers: { Accept: "application/vnd.api+json; version=2, application/json" } });
    expect(ok.status).toBe(200);
    const ext = await get("/api/v2/constants", token, { headers: { Accept: 'application/vnd.api+json; ext="https://example.org/ext"' } });
    expect(ext.status).toBe(200);
    // The original's base request test: a malformed glob is answered, text/plain alone is not.
    for (const accept of ["*/*q=1.2", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "application/*", "application/json", "text/plain, application/vnd.api+json"]) {
      const answered = await get("/api/v2/constants", token, { headers: { Accept: accept } });
      expect(answered.status, accept).toBe(200);
      expect(answered.headers.get("content-type")).toBe("application/vnd.api+json; charset=utf-8");
    }
    for (const accept of ["text/plain", "text/html", "image/png, text/plain;q=0.5", "text/*", "application/json;q=0, text/plain"]) {
      expect(errorOf(await get("/api/v2/constants", token, { headers: { Accept: accept } }), 406).title, accept).toBe("Not Acceptable");
    }
    errorOf(await get("/api/v2/constants", token, { headers: { Accept: "application/vnd.api+json; version=2, text/html" } }), 406);
    // A monitor's own media type still gets the health answer.
    expect((await get("/api/v2/health", null, { headers: { Accept: "application/health+json" }, raw: true })).status).toBe(200);
  });

  it("answers unknown paths and non-UUID ids with 404 Route not found, wrong methods with 405 and Allow", async () => {
    const { token } = await createViewer();
    expect(errorOf(await get("/api/v2/nothing-here", token), 404).detail).toBe("Route not found");
    expect(errorOf(await get("/api/v2/announcements/not-a-uuid", token), 404).detail).toBe("Route not found");
    const wrongMethod = await request("DELETE", "/api/v2/constants", { token });
    errorOf(wrongMethod, 405);
    expect(wrongMethod.headers.get("allow")).toContain("GET");
  });

  it("answers CORS preflight for configured origins only", async () => {
    const preflight = (origin: string) =>
      exports.default.fetch(
        new Request("https://api.example.org/api/v2/contacts", {
          method: "OPTIONS",
          headers: { Origin: origin, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
        }),
      );
    const allowed = await preflight("https://app.example.org");
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example.org");
    const refused = await preflight("https://evil.example.com");
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("allows every header the web app sends, as its browser preflights them", async () => {
    // Chromium's preflights of the web app's reads (GET, and POST with X-HTTP-Method-Override) and writes: the
    // headers it asks for are lower-cased and sorted; `Accept-Language: en_us` is not a safelisted value.
    const preflights: Array<[string, string, string]> = [
      ["GET", "/api/v2/user/options?per_page=10000", "accept-language,authorization"],
      ["POST", "/api/v2/tasks", "accept-language,authorization,content-type,x-http-method-override"],
      ["PUT", "/api/v2/user/options/setup_position", "accept-language,authorization,content-type"],
      ["DELETE", "/api/v2/user/options/setup_position", "accept-language,authorization"],
      ["GET", "/api/v2/contacts", "authorization,if-modified-since,if-none-match,x-d1-bookmark"],
      ["POST", "/api/v2/account_lists/00000000-0000-4000-8000-000000000000/imports/csv", "accept-language,authorization,x-requested-with"],
    ];
    for (const [method, path, asked] of preflights) {
      const answer = await exports.default.fetch(
        new Request(`https://api.example.org${path}`, {
          method: "OPTIONS",
          headers: { Origin: "https://app.example.org", "Access-Control-Request-Method": method, "Access-Control-Request-Headers": asked },
        }),
      );
      expect(answer.status, `${method} ${path}`).toBe(204);
      expect(answer.headers.get("access-control-allow-origin")).toBe("https://app.example.org");
      const allowed = (answer.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(",").map((name) => name.trim());
      for (const header of asked.split(",")) expect(allowed, `${method} ${path}: ${header}`).toContain(header);
      expect(answer.headers.get("access-control-allow-methods")).toContain(method);
    }
  });
});
