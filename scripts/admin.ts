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
  identity:list --user U
  identity:link --user U --issuer I --subject S [--replace]   (--replace: swaps the user's subject there, signing them out)
  identity:unlink --user U --issuer I
  list:add --user U --name N --currency C [--database D]
  rate:set --code C --on YYYY-MM-DD --rate R   (R: units of C per 1 USD; the reports convert on dates with it)
  list:member --list L --user U [--coach]
  list:remove --list L --user U
  list:export --list L           (NDJSON on stdout)
  list:placement [--json]        (npm run lists:placement: each list's database and state)
  list:move <list> <database>    (npm run lists:move: moves the list, prints progress, exits 0 once placed)`;

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
const SWITCHES = new Set(["coach", "confirm", "json", "replace"]);
/** Commands that also take their values in order (`lists:move -- <list> <database>`). */
const POSITIONAL: Record<string, string[]> = { "list:move": ["list", "database"] };

function parse(argv: string[]): { command: string; options: Record<string, string | true> } {
  const [command, ...rest] = argv;
  if (!command || command.startsWith("--")) usage();
  const options: Record<string, string | true> = {};
  const positional = [...(POSITIONAL[command] ?? [])];
  for (let i = 0; i < rest.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(rest[i]);
    if (!match && positional.length > 0) {
      options[positional.shift()!] = rest[i];
      continue;
    }
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
  case "identity:list": {
    const [user] = need("user");
    await print(await call("GET", `/users/${user}/identities`));
    break;
  }
  case "identity:link": {
    const [user, issuer, subject] = need("user", "issuer", "subject");
    await print(await call("POST", `/users/${user}/identities`, { issuer, subject, ...(options.replace ? { replace: true } : {}) }));
    break;
  }
  case "identity:unlink": {
    const [user, issuer] = need("user", "issuer");
    await print(await call("DELETE", `/users/${user}/identities?${new URLSearchParams({ issuer })}`));
    break;
  }
  case "list:add": {
    const [user, name, currency] = need("user", "name", "currency");
    await print(await call("POST", "/account_lists", { user, name, currency, database: options.database }));
    break;
  }
  case "rate:set": {
    const [code, on, rate] = need("code", "on", "rate");
    await print(await call("POST", "/currency_rates", { code, exchanged_on: on, rate }));
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
  case "list:placement": {
    const answer = await json<{ databases: Array<{ database: string; bytes: number | null; lists: number }>; placements: Array<Record<string, unknown>> }>(await call("GET", "/placements"));
    if (options.json === true) {
      console.log(JSON.stringify(answer));
      break;
    }
    for (const { database, bytes, lists } of answer.databases) console.log(`${database.padEnd(12)} ${String(lists).padStart(6)} lists  ${bytes === null ? "size unknown" : `${(bytes / 1024 / 1024).toFixed(1)} MiB`}`);
    console.log("");
    for (const placement of answer.placements) {
      const moving = placement.state === "placed" ? "" : `  ${placement.state} (${placement.state === "cleaning" ? "from" : "to"} ${placement.other}, ${placement.rows_copied} rows copied)`;
      console.log(`${placement.account_list_id}  ${String(placement.database).padEnd(12)}${moving}`);
    }
    break;
  }
  case "list:move": {
    const [list, database] = need("list", "database");
    const started = await json<{ database: string }>(await call("POST", `/account_lists/${list}/move`, { database }));
    console.error(`moving ${list} from ${started.database} to ${database}`);
    let shown = "";
    for (;;) {
      const placement = await json<{ state: string; database: string; rows_copied: number; cursor_table: string | null; switch_ms: number | null; failure: string | null }>(
        await call("GET", `/account_lists/${list}/placement`),
      );
      const line = `${placement.state}${placement.state === "copying" ? ` ${placement.cursor_table ?? ""} (${placement.rows_copied} rows copied)` : ""}`;
      if (line !== shown) console.error((shown = line));
      if (placement.state === "placed") {
        console.log(JSON.stringify(placement));
        if (placement.database !== database) fail(`The move failed and the list stayed on ${placement.database}: ${placement.failure ?? "see the service's logs"}`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    break;
  }
  default:
    usage(`unknown command: ${command}`);
}
