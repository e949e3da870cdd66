/**
 * Builds the service and the baseline with wrangler, and runs both in one workerd (Miniflare, in process) with
 * the bindings of wrangler.toml, on their own loopback sockets, sharing one D1 database.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { Log, LogLevel, Miniflare, convertV4MiniflareOptions, type V4WorkerOptionsShape } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
// @ts-expect-error: a plain ES module without type declarations.
import { runWrangler } from "../scripts/run-wrangler.mjs";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DATA_DIR = join(ROOT, "bench", ".data");
const SERVICE_OUT = join(ROOT, "dist");
const BASELINE_OUT = join(DATA_DIR, "baseline-dist");

export interface BuildReport {
  bytes: number;
  gzipBytes: number;
  seconds: number;
}

async function wrangler(args: string[]): Promise<void> {
  const code: number = await runWrangler(args, { stdio: ["ignore", "ignore", "inherit"] });
  if (code !== 0) throw new Error(`wrangler ${args.join(" ")} exited with ${code}`);
}

/** `wrangler deploy --dry-run` for the service (dist/) and the baseline; reports the service bundle size. */
export async function buildWorkers(): Promise<BuildReport> {
  const started = performance.now();
  await wrangler(["deploy", "--dry-run", "--outdir", SERVICE_OUT]);
  const seconds = (performance.now() - started) / 1000;
  await wrangler(["deploy", "--dry-run", "--outdir", BASELINE_OUT, "--config", join(ROOT, "bench", "baseline", "wrangler.toml")]);
  // Everything wrangler would upload except source maps.
  const modules = readdirSync(SERVICE_OUT).filter((f) => /\.(m?js|wasm)$/.test(f));
  const contents = modules.map((f) => readFileSync(join(SERVICE_OUT, f)));
  return {
    bytes: contents.reduce((sum, c) => sum + c.length, 0),
    gzipBytes: contents.reduce((sum, c) => sum + gzipSync(c, { level: 9 }).length, 0),
    seconds,
  };
}

/**
 * The service as it was at a git revision (`--against <revision>`), built from a worktree of it under
 * bench/.data: a read measured on both in one run compares with the code before a change on the same data and
 * load. Answers the built script's path.
 */
export async function buildRevision(revision: string): Promise<string> {
  const commit = execFileSync("git", ["rev-parse", "--short", `${revision}^{commit}`], { cwd: ROOT }).toString().trim();
  const tree = join(DATA_DIR, `revision-${commit}`);
  if (!existsSync(join(tree, "wrangler.toml"))) {
    rmSync(tree, { recursive: true, force: true });
    execFileSync("git", ["worktree", "prune"], { cwd: ROOT });
    execFileSync("git", ["worktree", "add", "--detach", "--force", tree, commit], { cwd: ROOT, stdio: "ignore" });
  }
  // The worktree lies inside this one: its imports resolve to this checkout's node_modules.
  const out = join(DATA_DIR, `revision-${commit}-dist`);
  await wrangler(["deploy", "--dry-run", "--outdir", out, "--config", join(tree, "wrangler.toml")]);
  return join(out, "index.js");
}

export interface Servers {
  mf: Miniflare;
  /** How many times workerd crashed and Miniflare restarted it since the start. */
  restarts(): number;
  api: string;
  baseline: string;
  /** The service at `--against`'s revision, on the same databases. */
  revision?: string;
  db: D1Handle;
  stop(): Promise<void>;
}

/** What the dataset loader needs from Miniflare's D1 proxy. */
export interface D1Handle {
  prepare(sql: string): { run(): Promise<{ meta: { rows_written?: number; changes?: number; size_after?: number } }>; all<T>(): Promise<{ results: T[] }> };
  batch(statements: unknown[]): Promise<unknown[]>;
}

const LOOPBACK = "127.0.0.1";

/**
 * Starts workerd with the service (bindings from wrangler.toml, plus JWT_SECRET and BENCH_METRICS) and the
 * baseline. The rate limit binding is kept (its cost is part of every request) with a limit no load test reaches.
 */
/**
 * `persistDir` keeps D1 (and the other storage) on disk there; without it everything is in memory.
 * `metrics: false` leaves BENCH_METRICS unset (no X-D1-* headers); `inspectorPort` opens the DevTools protocol
 * for the service (ws://127.0.0.1:<port>/api), e.g. to take a CPU profile under load.
 */
export async function startServers(options: {
  persistDir?: string;
  secret: string;
  metrics?: boolean;
  inspectorPort?: number;
  /** Receives every line the workers log (warnings and errors are still printed). */
  onLog?: (message: string) => void;
  /** A build of the service at another revision (`buildRevision`), run beside it on the same bindings. */
  revisionScript?: string;
}): Promise<Servers> {
  // The bundle is one ES module, so wrangler's module rules (for importing .sql, .wasm, ...) do not apply.
  const { modulesRules: _rules, ...workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, "wrangler.toml")).workerOptions as V4WorkerOptionsShape;
  type RateLimit = { namespace_id: string; simple: { limit: number; period?: 10 | 60 } };
  const ratelimits = Object.fromEntries(
    Object.entries((workerOptions.ratelimits ?? {}) as Record<string, RateLimit>).map(([name, limiter]) => [
      name,
      { ...limiter, simple: { ...limiter.simple, limit: 1_000_000_000 } },
    ]),
  );
  const serviceBindings = {
    ...(workerOptions.bindings as Record<string, string>),
    JWT_SECRET: options.secret,
    // The operator's surface moves lists between the databases (bench/placement.ts).
    ADMIN_SECRET: options.secret,
    // Webhook deliveries to a receiver on this machine (bench/webhooks.ts).
    WEBHOOK_SECRETS_KEY: options.secret,
    WEBHOOKS_ALLOW_LOOPBACK: "true",
    ...(options.metrics === false ? {} : { BENCH_METRICS: "1" }),
  };
  let restarts = 0;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      unsafeHandleRuntimeRestart: () => {
        restarts += 1;
      },
      host: LOOPBACK,
      port: 0,
      // No network here: the default Request.cf placeholder instead of a download.
      cf: false,
      // BENCH_LOG=debug shows workerd's own output (e.g. when it crashes).
      log: new Log(process.env.BENCH_LOG === "debug" ? LogLevel.DEBUG : LogLevel.WARN),
      logRequests: false,
      handleStructuredLogs: ({ level, message }: { level: string; message: string }) => {
        options.onLog?.(message);
        if (level === "error" || level === "warn" || process.env.BENCH_LOG === "debug") console.error(message);
      },
      resourcePersistencePath: options.persistDir,
      inspectorPort: options.inspectorPort,
      workers: [
        {
          ...workerOptions,
          name: "api",
          modules: true,
          scriptPath: join(SERVICE_OUT, "index.js"),
          bindings: serviceBindings,
          ratelimits,
          unsafeInspectorProxy: options.inspectorPort !== undefined,
          unsafeDirectSockets: [{ host: LOOPBACK, port: 0 }],
        },
        // The service at another revision: the same bindings, but it consumes no queue (the service does).
        ...(options.revisionScript
          ? [{ ...workerOptions, queueConsumers: undefined, name: "revision", modules: true, scriptPath: options.revisionScript, bindings: serviceBindings, ratelimits, unsafeDirectSockets: [{ host: LOOPBACK, port: 0 }] }]
          : []),
        {
          name: "baseline",
          modules: true,
          scriptPath: join(BASELINE_OUT, "worker.js"),
          compatibilityDate: workerOptions.compatibilityDate,
          compatibilityFlags: workerOptions.compatibilityFlags,
          d1Databases: workerOptions.d1Databases,
          unsafeDirectSockets: [{ host: LOOPBACK, port: 0 }],
        },
      ],
    }),
  );
  await mf.ready;
  const api = (await mf.unsafeGetDirectURL("api")).origin;
  const baseline = (await mf.unsafeGetDirectURL("baseline")).origin;
  const revision = options.revisionScript ? (await mf.unsafeGetDirectURL("revision")).origin : undefined;
  const db = (await mf.getD1Database("DB", "api")) as unknown as D1Handle;
  // The list databases start migrated and empty; the dataset goes onto the directory (bench/generate.ts).
  for (const name of Object.keys(workerOptions.d1Databases ?? {}).filter((binding) => binding.startsWith("LIST_DB_"))) {
    const listDb = (await mf.getD1Database(name, "api")) as unknown as D1Handle;
    await listDb.batch(migrationStatements("migrations-lists").map((statement) => listDb.prepare(statement)));
  }
  return {
    mf,
    restarts: () => restarts,
    api,
    baseline,
    revision,
    db,
    stop: () => mf.dispose(),
  };
}

/**
 * Statements of every migration of a set (the directory's, or `migrations-lists` for list databases), in order
 * (drizzle-kit separates statements with `--> statement-breakpoint`).
 */
export function migrationStatements(set = "migrations"): string[] {
  const dir = join(ROOT, set);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("--> statement-breakpoint"))
    // A statement's leading comment lines say why; what the statement is starts after them.
    .map((s) => s.replace(/^(\s*--[^\n]*\n)+/, "").trim())
    .filter(Boolean);
}

