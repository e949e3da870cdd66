/**
 * The Hono app: transport rules (negotiation, security headers, request id, CORS, ETag), authentication,
 * the resource routers, and the single place where errors become JSON:API error documents.
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { etag } from "hono/etag";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import { authenticate } from "./auth/middleware";
import { rateLimit } from "./auth/rate-limit";
import { registerSignIn, registerSignOut } from "./auth/sign-in";
import { routeToDatabase } from "./routing";
import { dispatchAfterWrites } from "./webhooks/dispatch";
import { database } from "./db/client";
import { d1Metrics } from "./db/metrics";
import { databaseBinding, DIRECTORY } from "./db/databases";
import { BOOKMARK_HEADER, requestSessions } from "./db/session";
import type { AppEnv, Database } from "./env";
import { ApiError, internalError, routeNotFound } from "./jsonapi/errors";
import { negotiation } from "./jsonapi/negotiation";
import { isFileUpload } from "./jsonapi/uploads";
import { sentBodyOf, servedRequest } from "./jsonapi/method-override";
import { JSONAPI_CONTENT_TYPE, newRequestId, REQUEST_ID_HEADER, SECURITY_HEADERS } from "./jsonapi/respond";
import { registerRoutes } from "./resources";
import { builtContext, isBatchItem, isInsideBatch, markBatchItem } from "./auth/batch-items";
import { health, HEALTH_PATH } from "./health";
import { OPENAPI_PATH, openApiRoute } from "./openapi/route";
import { logRequest } from "./request-log";
import { adminRoutes } from "./admin/routes";
import { configured } from "./settings";
import { LIST_MOVING_ERROR } from "./db/list-tables";

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

const bodyTooLarge = () => new ApiError(413, [{ detail: `The request body is larger than ${MAX_BODY_BYTES} bytes` }]);
/**
 * The request headers a browser may send across origins (each preflight lists those it asks for). The web app
 * sends its user's language as `Accept-Language: en_us`, a value outside the safelisted ones, so the browser asks
 * for it too; uploads add `X-Requested-With`, and caches revalidate with `If-None-Match` / `If-Modified-Since`.
 */
export const CORS_REQUEST_HEADERS = [
  "Authorization",
  "Content-Type",
  "Accept",
  "Accept-Language",
  "X-HTTP-Method-Override",
  "X-Requested-With",
  "If-None-Match",
  "If-Modified-Since",
  BOOKMARK_HEADER,
];

function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  return c.body(JSON.stringify(error.toDocument(c.get("requestId"))), error.status as 400, {
    "Content-Type": JSONAPI_CONTENT_TYPE,
    ...error.headers,
  });
}

export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  // Set from their one definition, which the answers a batch records without the app (refused items) share.
  app.use(async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
  });
  app.use(requestId({ headerName: REQUEST_ID_HEADER, generator: newRequestId }));
  app.use(
    "/api/*",
    cors({
      origin: (origin, c) => {
        const allowed = (c.env.CORS_ORIGINS ?? "").split(",").map((o: string) => o.trim()).filter(Boolean);
        return allowed.includes("*") || allowed.includes(origin) ? origin : null;
      },
      allowHeaders: CORS_REQUEST_HEADERS,
      exposeHeaders: ["ETag", "Location", "X-Request-Id", BOOKMARK_HEADER],
      maxAge: 86400,
    }),
  );
  app.use(async (c, next) => {
    const startedAt = Date.now();
    // One D1 session per database per request (src/db/session.ts); a /batch item runs in its batch's.
    // A request the service made itself (a background batch's) starts at the primary: it must see what ran before it.
    const item = builtContext(c.req.raw);
    c.set("item", item);
    c.set("sentBody", sentBodyOf(c.req.raw));
    const sessions = item?.sessions ?? requestSessions(c.env, c.req.raw, { atPrimary: isBatchItem(item) });
    // Every request counts its D1 calls for its log line; load tests also get them as X-D1-* headers.
    // A database's part of a request counts into the request's: its answer carries them, and its log line.
    const metrics = item?.part?.metrics ?? d1Metrics(c.env, sessions.session(DIRECTORY));
    c.set("metrics", metrics);
    const directory = database(metrics.db);
    const opened = new Map<string, Database>([[DIRECTORY, directory]]);
    c.set("sessions", sessions);
    c.set("databaseOn", (name) => {
      let db = opened.get(name);
      if (!db) {
        db = database(metrics.counting(sessions.session(name), databaseBinding(c.env, name)));
        opened.set(name, db);
      }
      return db;
    });
    c.set("createdId", item?.createdId);
    c.set("directory", directory);
    c.set("db", directory);
    c.set("databaseName", DIRECTORY);
    await next();
    if (item?.part) return;
    const bookmarks = sessions.bookmarks();
    if (bookmarks) c.res.headers.set(BOOKMARK_HEADER, bookmarks);
    metrics.report(c.res.headers);
    logRequest(c, startedAt, metrics.totals());
  });
  // The body of a read sent as POST was read before the app (src/jsonapi/method-override.ts), on any path: what went
  // wrong reading it is answered here, as the app answers errors.
  app.use((c, next) => {
    const sent = c.get("sentBody");
    if (sent?.failure !== undefined) throw sent.failure;
    if (sent?.tooLarge) throw bodyTooLarge();
    return next();
  });
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw bodyTooLarge();
    },
  });
  // A file upload is streamed, and its handler limits the file's size (the body limit would read it whole first).
  // A read sent as POST had its body read within the limit as it arrived.
  app.use("/api/*", (c, next) => (isFileUpload(c.req.raw) ? next() : limitBody(c, next)));
  // Monitors ask for health with Accept headers of their own: it is answered whatever they accept.
  const negotiate = negotiation<AppEnv>((c) => c.get("sentBody")?.text);
  app.use("/api/*", (c, next) => (c.req.path === HEALTH_PATH ? next() : negotiate(c, next)));
  app.use("/api/*", async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    await next();
    // A streamed answer is not read whole to hash it: that would hold the large page in memory after all.
    if (c.get("streamed")) return;
    await etag()(c, async () => {});
    if (c.res.status === 200 || c.res.status === 304) c.header("Cache-Control", "max-age=0, private, must-revalidate");
    else c.res.headers.delete("ETag");
  });
  // Before the settings and the token: a broken deployment's health check says what is broken.
  app.get(HEALTH_PATH, health);
  app.get(OPENAPI_PATH, openApiRoute(app));
  // Signing in is how a client gets a token: before the token is required.
  registerSignIn(app);
  app.use("/api/v2/*", async (c, next) => {
    configured(c.env);
    await next();
  });
  // A write's webhook deliveries (recorded by the outbox's triggers) are sent once it is answered: around the
  // routing, so that a request answered by each database's part sends what every part wrote.
  app.use("/api/v2/*", authenticate, rateLimit, dispatchAfterWrites, routeToDatabase(app));
  // Requests the batch endpoint or the queue consumer build are marked by identity, never by a header.
  app.use("/api/v2/*", async (c, next) => {
    if (isInsideBatch(c.get("item"))) c.set("insideBatch", true);
    await next();
  });
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        errorResponse(c, new ApiError(405, [{ detail: `${c.req.method} is not allowed here` }], { Allow: methods.join(", ") })),
    }),
  );

  // The operator's surface, apart from the public API: its own secret, no user token (src/admin).
  app.route("/admin", adminRoutes());
  registerRoutes(app);
  registerSignOut(app);

  app.notFound((c) => errorResponse(c, routeNotFound()));
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    // A write to a list that is switching to another database, or that a request with an old placement reached.
    if (String(error).includes(LIST_MOVING_ERROR)) {
      return errorResponse(c, new ApiError(503, [{ detail: "The account list is moving to another database: retry in a moment" }], { "Retry-After": "1" }));
    }
    // The Error itself, so Workers Logs maps its stack to src/ through the uploaded source maps.
    console.error(error);
    return errorResponse(c, internalError());
  });
  // Every request enters here, those the service builds too (a /batch item, a background request, a database's
  // part): a read sent as POST is routed as the GET it stands for, as the service built it (its item context).
  const dispatch = app.fetch;
  app.fetch = async (request, env, executionCtx) => {
    const served = await servedRequest(request, MAX_BODY_BYTES);
    const item = served === request ? undefined : builtContext(request);
    return dispatch(item ? markBatchItem(served, item) : served, env, executionCtx);
  };
  return app;
}
