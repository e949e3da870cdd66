/**
 * npm run dev [-- --port <n>] [-- --ip <address>]: the local service. Checks the port is free, applies the
 * migrations to the local D1 (printing one line, not wrangler's tables), loads the demo data (idempotent), creates
 * .dev.vars with a random JWT_SECRET when missing, then serves (local queues drain background batches) and, once
 * the server is ready, prints a token for Alice with an example request. Other arguments go to `wrangler dev`.
 *
 * Every [vars] key of wrangler.toml set in this command's environment is passed to the Worker
 * (`OIDC_ISSUER=https://id.example.org OIDC_AUDIENCE=web npm run dev`). Without OIDC_ISSUER, a local OpenID provider
 * is started on loopback knowing the demo users (scripts/local-oidc-provider.mjs), and the Worker trusts it:
 * `npm run signin -- alice@example.org` signs in through it.
 */
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { experimental_readRawConfig } from "wrangler";
import { mintToken } from "../src/auth/token";
import { ensureDevVars, localUserId, readDevSecret, readDevVar } from "./local";
import { ALICE_MAIN_LIST_ID, ALICE_SECOND_LIST_ID, BOB_LIST_ID, DEMO_PEOPLE } from "./seed-data";
// @ts-expect-error: a plain ES module without type declarations.
import { LOCAL_CLIENT_ID, LOCAL_PROVIDER_PORT, startLocalProvider } from "./local-oidc-provider.mjs";
// @ts-expect-error: a plain ES module without type declarations.
import { holdDevLock, runningDevServer } from "./dev-lock.mjs";
// @ts-expect-error: a plain ES module without type declarations.
import { runWrangler } from "./run-wrangler.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const DEMO_USER = "alice@example.org";

/** --port and --ip (as `--port 8788` or `--port=8788`) are ours to check; the rest passes through. */
function parseArgs(argv: string[]): { ip: string; port: string; rest: string[] } {
  const options: Record<string, string> = { ip: "127.0.0.1", port: "8787" };
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const match = /^--(ip|port)(?:=(.*))?$/.exec(argv[i]);
    if (match) options[match[1]] = match[2] ?? argv[++i] ?? "";
    else rest.push(argv[i]);
  }
  if (!/^\d+$/.test(options.port) || Number(options.port) < 1 || Number(options.port) > 65535) fail(`--port must be a port number, not "${options.port}"`);
  return { ip: options.ip, port: options.port, rest };
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function portIsFree(ip: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, ip, () => probe.close(() => resolve(true)));
  });
}

function step(script: string): void {
  const result = spawnSync("npm", ["run", "--silent", script], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** wrangler prints a table per migration; on success one line says enough, on failure everything is shown. */
function migrate(): void {
  const result = spawnSync("npm", ["run", "--silent", "db:migrate"], { cwd: root, encoding: "utf8" });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status !== 0) {
    process.stderr.write(output);
    // A list database made before list databases had their own migrations holds their tables already.
    if (/already exists/.test(output)) console.error("\nThe local databases predate their migrations: stop here, run npm run db:reset, then npm run dev.");
    process.exit(result.status ?? 1);
  }
  const applied = output.match(/^\s*│\s*\d{4}_\S+\.sql\s*│\s*✅/gm)?.length ?? 0;
  console.log(applied ? `Applied ${applied} migration(s) to the local database.` : "The local database is up to date.");
}

const { ip, port, rest } = parseArgs(process.argv.slice(2));
const address = `http://${ip}:${port}`;
const running = runningDevServer();
if (running) fail(`npm run dev is already running (process ${running.pid}, ${running.address}).`);
if (!(await portIsFree(ip, Number(port)))) fail(`Port ${port} on ${ip} is in use. Stop what holds it, or choose another: npm run dev -- --port 8788`);

if (ensureDevVars()) console.log("Wrote random secrets (JWT_SECRET, ADMIN_SECRET, WEBHOOK_SECRETS_KEY) into .dev.vars.");
migrate();
step("db:seed");

/** The token and the example, printed once the server is ready, so they are the last thing on the screen. */
const userId = await localUserId(DEMO_USER);
const token = userId ? await mintToken(readDevSecret(), userId, 7 * 24 * 3600) : undefined;
const welcome = token
  ? [
      `\nToken for ${DEMO_USER} (valid 7 days; more with: npm run token -- <email>):\n\n${token}\n`,
      `Try:\n  curl -H "Authorization: Bearer ${token}" ${address}/api/v2/account_lists\n`,
    ].join("\n")
  : `\nNo ${DEMO_USER} in the local database: npm run db:reset loads the demo data.\n`;
let welcomed = false;

/**
 * The demo lists' places in the many-database layout: Alice's two lists on two list databases, Bob's beside Alice's
 * main one. The demo data loads onto the directory; on a first run each list is moved to its place, as an operator
 * moves a list (npm run lists:move), while the service is already serving it.
 */
const DEMO_PLACEMENT: Array<[string, string]> = [
  [ALICE_MAIN_LIST_ID, "LIST_DB_1"],
  [ALICE_SECOND_LIST_ID, "LIST_DB_2"],
  [BOB_LIST_ID, "LIST_DB_1"],
];

async function placeDemoLists(): Promise<void> {
  const secret = readDevVar("ADMIN_SECRET");
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${address}/admin${path}`, { method, headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const moving: string[] = [];
  for (const [list, database] of DEMO_PLACEMENT) {
    const placement = await call("GET", `/account_lists/${list}/placement`);
    if (!placement.ok) continue;
    const { database: current, state } = (await placement.json()) as { database: string; state: string };
    if (current === database || state !== "placed") continue;
    if ((await call("POST", `/account_lists/${list}/move`, { database })).ok) moving.push(`${list} to ${database}`);
  }
  if (moving.length) console.log(`Placing the demo lists on the list databases (npm run lists:placement shows where each is):\n  ${moving.join("\n  ")}\n`);
}

/** The [vars] of wrangler.toml that this command's environment sets, as the Worker is to see them. */
function varsFromEnvironment(): Record<string, string> {
  const { rawConfig } = experimental_readRawConfig({ config: `${root}/wrangler.toml` });
  return Object.fromEntries(Object.keys(rawConfig.vars ?? {}).flatMap((key) => (process.env[key] !== undefined ? [[key, process.env[key]!]] : [])));
}

const vars = varsFromEnvironment();
// The local run sends webhooks to receivers on this machine (http://127.0.0.1:<port>/...), never a deployment.
vars.WEBHOOKS_ALLOW_LOOPBACK ??= "true";
// The service's client secret at the provider is a secret, not a [vars] key: passed the same way when set.
if (process.env.OIDC_CLIENT_SECRET) vars.OIDC_CLIENT_SECRET = process.env.OIDC_CLIENT_SECRET;
let localProvider: { issuer: string; serviceClient: { id: string; secret: string }; close(): Promise<void> } | undefined;
if (!vars.OIDC_ISSUER) {
  // Another checkout's `npm run dev` may hold the usual port: then any free one (0), which the dev lock records for
  // `npm run signin`, and the Worker trusts the provider actually started.
  const providerPort = (await portIsFree("127.0.0.1", LOCAL_PROVIDER_PORT)) ? LOCAL_PROVIDER_PORT : 0;
  const started = await startLocalProvider({ port: providerPort, people: DEMO_PEOPLE }).catch((error: unknown) =>
    fail(`The local OpenID provider cannot listen on port ${providerPort} (${String(error)}). Stop what holds it, or trust another provider: OIDC_ISSUER=<url> OIDC_AUDIENCE=<client id> npm run dev`),
  );
  localProvider = started;
  vars.OIDC_ISSUER = started.issuer;
  vars.OIDC_AUDIENCE ??= LOCAL_CLIENT_ID;
  // Its access tokens are opaque: the service introspects them as the provider's client `local-api`.
  vars.OIDC_CLIENT_ID = started.serviceClient.id;
  vars.OIDC_CLIENT_SECRET = started.serviceClient.secret;
  console.log(`A local OpenID provider serves ${started.issuer} for the demo users: npm run signin -- alice@example.org`);
}
const varArgs = Object.entries(vars).flatMap(([key, value]) => ["--var", `${key}:${value}`]);

holdDevLock(address, localProvider?.issuer);
process.exitCode = await runWrangler(["dev", "--ip", ip, "--port", port, ...varArgs, ...rest], {
  onOutput: (text: string) => {
    if (welcomed || !text.includes("Ready on")) return;
    welcomed = true;
    console.log(welcome);
    placeDemoLists().catch((error: unknown) => console.error(`Could not place the demo lists: ${String(error)}`));
  },
});
await localProvider?.close();
