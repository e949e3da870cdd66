/**
 * npm run admin -- <command> [options] [--url <base>]: the operator's commands, sent to the service's /admin
 * surface. Against the local `npm run dev` by default (its ADMIN_SECRET from .dev.vars); against a deployment with
 * --url and the secret in the ADMIN_SECRET environment variable. Each prints JSON on stdout; a refusal prints
 * one line on stderr and exits 1 (nothing was changed), a usage error exits 2.
 */
import { readDevVar } from "./local";

const USAGE = `usage: npm run admin -- <command> [options] [--url <base>]
  user:add --email E --first-name F --last-name L [--time-zone Z] [--locale L]
  user:disable --user U          user:enable --user U
  user:erase --user U [--confirm]
  list:add --user U --name N --currency C
  list:member --list L --user U [--coach]
  list:remove --list L --user U
  list:export --list L           (NDJSON on stdout)`;

function usage(message?: string): never {
  if (message) console.error(message);
  console.error(USAGE);
  process.exit(2);
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Options that are switches: present or not, never given a value (`--coach yes` is refused, not misread). */
const SWITCHES = new Set(["coach", "confirm"]);

function parse(argv: string[]): { command: string; options: Record<string, string | true> } {
  const [command, ...rest] = argv;
  if (!command || command.startsWith("--")) usage();
  const options: Record<string, string | true> = {};
  for (let i = 0; i < rest.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(rest[i]);
    if (!match) usage(`unexpected argument: ${rest[i]}`);
    const [, name, inline] = match;
    if (SWITCHES.has(name)) {
      if (inline !== undefined) usage(`--${name} takes no value`);
      options[name] = true;
    } else if (inline !== undefined) options[name] = inline;
    else if (rest[i + 1] !== undefined && !rest[i + 1].startsWith("--")) options[name] = rest[++i];
    else usage(`--${name} needs a value`);
  }
  return { command, options };
}

// Output piped into a command that stops reading (`| head`) ends the export quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => process.exit(error.code === "EPIPE" ? 0 : 1));

const { command, options } = parse(process.argv.slice(2));
const base = String(options.url ?? "http://127.0.0.1:8787").replace(/\/$/, "");
const secret = process.env.ADMIN_SECRET ?? (options.url ? undefined : readDevVar("ADMIN_SECRET"));
if (!secret) fail(options.url ? "Set ADMIN_SECRET in the environment to the deployment's secret." : "No ADMIN_SECRET in .dev.vars: run npm run dev once to create it.");

function need(...names: string[]): string[] {
  const missing = names.filter((name) => typeof options[name] !== "string" || options[name] === "");
  if (missing.length) usage(`${command} needs ${missing.map((name) => `--${name}`).join(", ")}`);
  return names.map((name) => String(options[name]));
}

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${base}/admin${path}`, {
      method,
      headers: { Authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    fail(`Could not reach ${base}: is the service running (npm run dev)?`);
  }
  if (!response.ok) {
    const text = await response.text();
    let reason = `${response.status} ${response.statusText}`;
    try {
      const errors = (JSON.parse(text) as { errors?: Array<{ detail?: string; title?: string; source?: { pointer?: string } }> }).errors ?? [];
      if (errors.length) reason = errors.map((error) => `${error.source?.pointer ? `${error.source.pointer.slice(1)}: ` : ""}${error.detail ?? error.title}`).join("; ");
    } catch {
      // Not an error document: the status says it.
    }
    if (response.status === 404 && reason.includes("Route not found")) reason = "The administrative surface is not there: set ADMIN_SECRET on the service.";
    fail(reason);
  }
  return response;
}

/** The answer's JSON, or a one-line failure when it is not JSON. */
async function json<T = unknown>(response: Response): Promise<T> {
  try {
    return (await response.json()) as T;
  } catch {
    fail(`${base} answered ${response.status} without JSON: is --url the service?`);
  }
}

const print = async (response: Response) => console.log(JSON.stringify(await json(response)));

switch (command) {
  case "user:add": {
    const [email, firstName, lastName] = need("email", "first-name", "last-name");
    await print(await call("POST", "/users", { email, first_name: firstName, last_name: lastName, time_zone: options["time-zone"], locale: options.locale }));
    break;
  }
  case "user:disable":
  case "user:enable": {
    const [user] = need("user");
    await print(await call("POST", `/users/${user}/${command.slice(5)}`));
    break;
  }
  case "list:add": {
    const [user, name, currency] = need("user", "name", "currency");
    await print(await call("POST", "/account_lists", { user, name, currency }));
    break;
  }
  case "list:member": {
    const [list, user] = need("list", "user");
    await print(await call("PUT", `/account_lists/${list}/members/${user}`, { coach: options.coach === true }));
    break;
  }
  case "list:remove": {
    const [list, user] = need("list", "user");
    await print(await call("DELETE", `/account_lists/${list}/members/${user}`));
    break;
  }
  case "list:export": {
    const [list] = need("list");
    // Written as it arrives: the export is never held whole.
    const response = await call("GET", `/account_lists/${list}/export`);
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) process.stdout.write(chunk);
    } catch {
      // The service ends a failed export by breaking the transfer: what was written is incomplete.
      fail("The export was cut short: run it again.");
    }
    break;
  }
  case "user:erase": {
    const [user] = need("user");
    const plan = await json<Record<string, unknown>>(await call("GET", `/users/${user}/erasure`));
    if (options.confirm !== true) {
      console.log(JSON.stringify({ ...plan, confirm: "run again with --confirm to erase all of this" }));
      break;
    }
    const deleted: Record<string, number> = {};
    for (let steps = 1; ; steps++) {
      const step = await json<{ done: boolean; deleted: Record<string, number> }>(await call("POST", `/users/${user}/erasure`));
      for (const [table, rows] of Object.entries(step.deleted)) deleted[table] = (deleted[table] ?? 0) + rows;
      console.error(`step ${steps}: ${JSON.stringify(step.deleted)}`);
      if (step.done) break;
      // Every step deletes something until the last: one that did not would never finish.
      if (Object.keys(step.deleted).length === 0) fail(`Step ${steps} deleted nothing and the erasure is not done: run it again, or look at the service's logs.`);
    }
    console.log(JSON.stringify({ ...plan, erased: true, deleted }));
    break;
  }
  default:
    usage(`unknown command: ${command}`);
}
