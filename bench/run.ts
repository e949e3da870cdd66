/**
 * npm run bench [-- --contacts 1000|10000|100000 (or a comma list)] [--duration <seconds>] [--only <text>[|<text>...]]
 *                 [--against <git revision>]
 *
 * `--against` builds the service at that revision too and runs it beside this one on the same databases: the task
 * reads' timed reads are loaded on both, for a ratio to the code before a change within one run.
 * Builds the worker, runs it in workerd next to a hand-written baseline, fills D1 with a generated dataset,
 * loads every scenario with autocannon and writes the table to bench/results/<YYYY-MM-DD>.md.
 * The work runs in a child process that leads its own process group; the group (workerd included) is
 * stopped when the run ends or is interrupted, so no server outlives the run.
 */
import { spawn, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mintToken } from "../src/auth/token";
import { benchIds } from "./dataset";
import { databaseBytes, generate, sampleContacts, tableRows, writableContact } from "./generate";
import { load, probe, settleWith } from "./load";
import { renderReport, type Report, type ScenarioResult, type SizeRun } from "./report";
import { compareBatch, roundTripRows, scenarios, timeBackgroundBatch, type Target } from "./scenarios";
import { ROOT, buildRevision, buildWorkers, startServers } from "./server";
import { benchNotifications, RunLog } from "./notifications";
import { measureMemory } from "./memory";
import { benchImports, type ImportBench, type ImportLine } from "./imports";
import { benchPlacement, type PlacementBench } from "./placement";
import { benchWebhooks, type WebhookBench } from "./webhooks";
import { benchExports, ExportLog, type ExportBench } from "./exports";
import { benchMerges, type MergeBench } from "./merges";
import { benchTaskReads, type TaskReadsBench } from "./task-reads";

/** The DevTools port of the service's isolate, for the memory measurements (BENCH_INSPECTOR_PORT when another run holds it). */
const INSPECTOR_PORT = Number(process.env.BENCH_INSPECTOR_PORT ?? 9341);

interface Options {
  sizes: number[];
  duration: number;
  only?: string;
  against?: string;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { sizes: [10_000], duration: 10 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2);
    const value = () => inline ?? argv[++i];
    if (flag === "--contacts") options.sizes = value().split(",").map((s) => Number(s.replace(/_/g, "")));
    else if (flag === "--duration") options.duration = Number(value());
    else if (flag === "--only") options.only = value();
    else if (flag === "--against") options.against = value();
    else throw new Error(`Unknown option ${argv[i]}. Usage: npm run bench -- [--contacts 1000|10000|100000] [--duration <seconds>] [--only <scenario text>] [--against <git revision>]`);
  }
  if (options.sizes.some((n) => !Number.isInteger(n) || n < 200)) throw new Error("--contacts takes whole numbers of at least 200");
  if (!(options.duration > 0)) throw new Error("--duration takes a positive number of seconds");
  return options;
}

function supervise(): void {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
    detached: true,
    env: { ...process.env, BENCH_WORKER: "1" },
  });
  const stopGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group is already gone.
    }
  };
  process.on("SIGINT", () => stopGroup("SIGTERM"));
  process.on("SIGTERM", () => stopGroup("SIGTERM"));
  child.on("exit", (code, signal) => {
    stopGroup("SIGKILL");
    process.exit(code ?? (signal ? 1 : 0));
  });
}

const log = (message: string) => console.log(`[bench] ${message}`);

const isMissingRoute = (body: string) => body.includes("Route not found");

async function runScenarios(target: Target, contactIds: string[], options: Options, restarts: () => number): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios(target, contactIds)) {
    const path = scenario.request.url.replace(/^https?:\/\/[^/]+/, "");
    const result: ScenarioResult = { name: scenario.name, method: scenario.request.method, path: decodeURIComponent(path), items: scenario.items, minRatio: scenario.minRatio, maxRowsRead: scenario.maxRowsRead };
    results.push(result);
    if (!named(options, scenario.name) && !scenario.name.startsWith("baseline")) {
      result.skipped = "not selected";
      continue;
    }
    if (scenario.firstAsked) result.firstAsked = { what: scenario.firstAsked, rowsRead: (await probe(scenario.request)).rowsRead };
    result.probe = await probe(scenario.request);
    if (result.probe.status === 404 && isMissingRoute(result.probe.body)) {
      result.skipped = "route not there yet";
      log(`${scenario.name}: skipped (route not there yet)`);
      continue;
    }
    if (result.probe.status >= 300) {
      log(`${scenario.name}: probe answered ${result.probe.status}: ${result.probe.body.slice(0, 300)}`);
    } else {
      if (scenario.answered) result.answered = { what: scenario.answered.what, rows: scenario.answered.count(result.probe.body) };
      if (scenario.shownTwice) result.shownTwice = { what: scenario.shownTwice.what, rows: scenario.shownTwice.count(result.probe.body) };
      if (scenario.shows) result.shows = { what: scenario.shows.what, count: scenario.shows.count(result.probe.body) };
    }
    const restartsBefore = restarts();
    result.load = await load(scenario.request, options.duration);
    if (restarts() > restartsBefore) result.skipped = "workerd crashed and restarted during this load";
    log(
      `${scenario.name}: ${result.load.requestsPerSecond.toFixed(0)} req/s, p50 ${result.load.p50} ms, p99 ${result.load.p99} ms, ` +
        `errors ${result.load.errors}, D1 ${result.probe.roundTrips ?? "-"} trips / ${result.probe.queries ?? "-"} queries / ${result.probe.rowsRead ?? "-"} rows`,
    );
  }
  return results;
}

/** Whether `--only` names `name`: it is not given, or one of its `|`-separated texts is part of the name. */
function named(options: Options, name: string): boolean {
  return !options.only || options.only.split("|").some((text) => name.includes(text));
}

async function runSize(contacts: number, secret: string, options: Options, revisionScript?: string): Promise<SizeRun> {
  // In memory: persisted, Miniflare's rate limiter writes its counter to disk on every request, a cost the
  // deployed binding does not have, and the dataset is regenerated every run anyway.
  const runLog = new RunLog();
  const importLog = new RunLog<ImportLine>("csv-imports");
  const exportLog = new ExportLog();
  const servers = await startServers({ secret, onLog: (message) => (runLog.take(message), importLog.take(message), exportLog.take(message)), inspectorPort: INSPECTOR_PORT, revisionScript });
  try {
    log(`${contacts} contacts: service on ${servers.api}, baseline on ${servers.baseline}; generating the dataset`);
    const generation = await generate(servers.db, contacts, (step) => log(`dataset: ${step.label}: ${step.rows} rows in ${(step.ms / 1000).toFixed(1)} s`));
    const rows = await tableRows(servers.db);
    const bytes = await databaseBytes(servers.db);
    log(`dataset ready in ${(generation.ms / 1000).toFixed(2)} s (${bytes === undefined ? "size not reported" : `${(bytes / 2 ** 20).toFixed(1)} MiB`}): ${Object.entries(rows).map(([t, n]) => `${t} ${n}`).join(", ")}`);
    const token = await mintToken(secret, benchIds.viewer, 6 * 3600);
    const target: Target = { api: servers.api, baseline: servers.baseline, token };
    settleWith(servers.baseline);
    const contactIds = await sampleContacts(servers.db, contacts);
    const results = await runScenarios(target, contactIds, options, servers.restarts);
    const roundTrips = await roundTripRows(target, await writableContact(servers.db));
    const batchAvailable = results.some((r) => r.name.startsWith("batch") && r.load);
    const batch = batchAvailable ? await compareBatch(target, contactIds) : undefined;
    const background = [];
    const bgProbe = await probe({ url: `${servers.api}/api/v2/background_batches`, headers: { Authorization: `Bearer ${token}` } });
    if (bgProbe.status === 200) {
      for (let i = 0; i < 3; i++) background.push(await timeBackgroundBatch(target, contactIds));
    }
    // Each part runs when `--only` is not given or names it: `--only reports` runs the report scenarios alone (at
    // 100,000 contacts the parts take most of an hour).
    const wanted = (part: string) => named(options, part);
    let memory: Awaited<ReturnType<typeof measureMemory>> = [];
    if (wanted("memory")) {
      log("memory: the isolate's peak JS heap over a 25,000-contact include=* page and over a 100-item batch");
      memory = await measureMemory(servers.api, `ws://127.0.0.1:${INSPECTOR_PORT}/api`, token).catch((error: unknown) => {
        log(`memory: not measured: ${String(error)}`);
        return [];
      });
      for (const run of memory) log(`${run.name}: ${run.status}, ${(run.bytes / 2 ** 20).toFixed(1)} MiB answered (${run.detail}); JS heap ${run.beforeMb.toFixed(1)} MB before, peak ${run.peakMb.toFixed(1)} MB`);
    }
    let exports: ExportBench | undefined;
    if (wanted("exports")) {
      log("exports: every contact of the viewer's own lists, downloaded as CSV and as XLSX");
      exports = await benchExports(servers.api, `ws://127.0.0.1:${INSPECTOR_PORT}/api`, token, exportLog);
      if (exports.error) log(`exports: ${exports.error}`);
      for (const run of exports.runs) log(`export ${run.format}: ${run.status}, ${(run.bytes / 2 ** 20).toFixed(1)} MiB in ${run.ms.toFixed(0)} ms, ${run.contacts ?? "?"} contacts, ${run.rowsRead ?? "?"} rows read; JS heap ${run.beforeMb.toFixed(1)} MB before, peak ${run.peakMb.toFixed(1)} MB`);
    }
    let notifications: Awaited<ReturnType<typeof benchNotifications>> | undefined;
    if (wanted("notification runs")) {
      log("notification runs: one list with every type on, then the daily cron over 1,000 more lists");
      notifications = await benchNotifications(servers.mf, servers.db, runLog);
    }
    let imports: ImportBench | undefined;
    if (wanted("csv imports")) {
      log("CSV imports: 10,000 and 100,000 rows uploaded, mapped and run to the end, then a 50 MB upload");
      imports = await benchImports(servers.api, `ws://127.0.0.1:${INSPECTOR_PORT}/api`, token, servers.db, importLog);
      for (const run of imports.runs) log(`import of ${run.rows} rows: upload ${run.uploadMs.toFixed(0)} ms, run ${run.runMs.toFixed(0)} ms, ${run.messages} messages, ${run.roundTrips} D1 round trips, ${run.stored} stored`);
      if (imports.error) log(`CSV imports: ${imports.error}`);
    }
    let placement: PlacementBench | undefined;
    if (wanted("placement")) {
      log("lists on several databases: the viewer's lists on one database, then on three; then a move under writes");
      placement = await benchPlacement(servers.api, token, secret, servers.db);
      if (placement.error) log(`placement: ${placement.error}`);
      for (const page of placement.pages) log(`${page.name}: rows ${page.one.rowsRead} -> ${page.spread.rowsRead}, trips ${page.one.roundTrips} -> ${page.spread.roundTrips}, p50 ${page.one.p50} -> ${page.spread.p50} ms${page.spread.bound === null ? "" : `, bound ${page.spread.bound}`}`);
      if (placement.move) log(`move: ${JSON.stringify(placement.move)}`);
    }
    let webhooks: WebhookBench | undefined;
    if (wanted("webhooks")) {
      log("webhooks: 100 deliveries to a local receiver, and the rows a contact insert writes with and without an endpoint");
      webhooks = await benchWebhooks(servers.api, token, servers.db);
      log(webhooks.error ? `webhooks: ${webhooks.error}` : `webhooks: ${webhooks.deliveries} in ${webhooks.ms.toFixed(0)} ms; rows written ${webhooks.rowsWritten.without} -> ${webhooks.rowsWritten.with}`);
    }
    let merges: MergeBench | undefined;
    if (wanted("merges")) {
      log("merges: two contacts of 1,000 tasks and 500 gifts each merged; the duplicate finders listed twice");
      merges = await benchMerges(servers.api, token, servers.db);
      for (const cost of merges.costs) log(`${cost.name}: ${cost.status}, trips ${cost.roundTrips}, rows read ${cost.rowsRead}, written ${cost.rowsWritten}`);
      if (merges.error) log(`merges: ${merges.error}`);
    }
    let taskReads: TaskReadsBench | undefined;
    if (wanted("task reads")) {
      log("task reads: select all, a deep page, a filter set and the tasks' filter panel, against their row bounds");
      const against = servers.revision && options.against ? { origin: servers.revision, revision: options.against } : undefined;
      taskReads = await benchTaskReads(servers.api, token, benchIds.lists[0], options.duration, against);
      for (const read of taskReads.results) log(`${read.name}: ${read.status}, rows ${read.rowsRead} (bound ${read.bound ?? "-"}), ${read.rows} of ${read.total}${read.again ? `, asked again ${read.again.rowsRead} rows${read.again.same ? "" : " (another answer)"}` : ""}${read.p50 === undefined ? "" : `, p50 ${read.p50} ms`}${read.against ? ` (at ${options.against}: p50 ${read.against.p50} ms)` : ""}`);
      if (taskReads.error) log(`task reads: ${taskReads.error}`);
    }
    return { contacts, generationMs: generation.ms, generation: generation.steps, writes: generation.writes, tableRows: rows, databaseBytes: bytes, results, roundTrips, batch, background, notifications, memory, exports, imports, placement, webhooks, merges, taskReads };
  } finally {
    await servers.stop();
  }
}


function gitCommit(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT }).toString().trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "src", "drizzle", "migrations"], { cwd: ROOT }).toString().trim();
    return dirty ? `${head} plus uncommitted changes in src/` : head;
  } catch {
    return "unknown";
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  // The code measured is the code built now; others may commit while the run goes on.
  const commit = gitCommit();
  log("building the service and the baseline (wrangler deploy --dry-run)");
  const build = await buildWorkers();
  log(`bundle ${(build.bytes / 1024).toFixed(1)} KiB, ${(build.gzipBytes / 1024).toFixed(1)} KiB gzipped`);
  let revisionScript: string | undefined;
  if (options.against) {
    log(`building the service at ${options.against} beside it (--against)`);
    revisionScript = await buildRevision(options.against);
  }
  const secret = randomBytes(32).toString("hex");
  const runs: SizeRun[] = [];
  for (const contacts of options.sizes) runs.push(await runSize(contacts, secret, options, revisionScript));
  const report: Report = {
    startedAt,
    commit,
    machine: `${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), load average ${loadavg()[0].toFixed(2)} at the end`,
    durationSeconds: options.duration,
    build,
    runs,
  };
  const markdown = renderReport(report);
  const dir = join(ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${startedAt.toISOString().slice(0, 10)}.md`);
  if (existsSync(file)) appendFileSync(file, `\n${markdown}`);
  else writeFileSync(file, `# Benchmark results ${startedAt.toISOString().slice(0, 10)}\n\nWritten by \`npm run bench\` (bench/run.ts); newest run last.\n\n${markdown}`);
  console.log(`\n${markdown}`);
  log(`written to ${file}`);
}

if (process.env.BENCH_WORKER) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  supervise();
}
