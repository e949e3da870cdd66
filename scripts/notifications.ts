/**
 * npm run notifications [-- --at <YYYY-MM-DD or ISO time>]: with `npm run dev` running, fires the daily
 * notification cron on it, exactly as Cloudflare would (wrangler's local scheduled endpoint), then shows what the
 * run made for the demo user: notifications, new tasks, and where the simulated e-mails are printed.
 * The run's day defaults to the demo data's reference date, so the demo partners raise their notifications
 * whatever today is; `--at now` runs on the real date.
 */
import { mintToken } from "../src/auth/token";
import { REFERENCE_DATE } from "./seed-data";
import { localUser, readDevSecret } from "./local";
// @ts-expect-error: a plain ES module without type declarations.
import { runningDevServer } from "./dev-lock.mjs";

const DAILY_CRON = "0 5 * * *";
const DEMO_USER = "alice@example.org";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function runTime(argv: string[]): number {
  const index = argv.findIndex((arg) => arg === "--at" || arg.startsWith("--at="));
  const value = index < 0 ? `${REFERENCE_DATE}T05:00:00Z` : argv[index].includes("=") ? argv[index].split("=")[1] : argv[index + 1];
  if (value === "now") return Date.now();
  const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value ?? "") ? `${value}T05:00:00Z` : (value ?? ""));
  if (Number.isNaN(time)) fail(`--at takes a date (2026-11-01), a time (2026-11-01T05:00:00Z) or "now", not "${value}"`);
  return time;
}

const server = runningDevServer() as { address: string } | undefined;
if (!server) fail("npm run dev is not running: start it first (in another terminal), then run this again.");
const time = runTime(process.argv.slice(2));
const scheduled = `${server.address}/cdn-cgi/local/scheduled?cron=${encodeURIComponent(DAILY_CRON)}&time=${time}`;
const demoUser = await localUser(DEMO_USER);
if (!demoUser) fail(`No ${DEMO_USER} in the local database: npm run db:reset loads the demo data.`);
const token = await mintToken(readDevSecret(), demoUser.id, 3600, demoUser.tokenGeneration);
const api = async (path: string) => {
  const response = await fetch(`${server.address}/api/v2${path}`, { headers: { Authorization: `Bearer ${token}`, Accept: "application/vnd.api+json" } });
  return (await response.json()) as { data: Array<{ id: string; attributes: Record<string, unknown> }>; meta?: { pagination?: { total_count?: number } } };
};
const user = (await api("/user")).data as unknown as { attributes: { preferences?: { default_account_list?: string } } };
const accountListId = user.attributes.preferences?.default_account_list;
if (!accountListId) fail(`${DEMO_USER} has no default account list.`);

const totalOf = async () => (await api(`/account_lists/${accountListId}/notifications?per_page=1`)).meta?.pagination?.total_count ?? 0;
const before = await totalOf();
const fired = await fetch(scheduled).catch((error: unknown) => fail(`Could not reach ${server.address}: ${String(error)}`));
if (!fired.ok) fail(`The scheduled handler answered ${fired.status}: ${await fired.text()}`);
console.log(`Fired the daily notification cron for ${new Date(time).toISOString()} (the same as: curl "${scheduled}").`);

// The queue consumer runs each list's message a moment after the cron: wait until the list's count moves and settles.
let count = before;
for (let attempt = 0, settled = 0; attempt < 60 && settled < 3; attempt++) {
  await new Promise((resolve) => setTimeout(resolve, 500));
  const total = await totalOf();
  settled = total === count && total !== before ? settled + 1 : 0;
  count = total;
}
const day = new Date(time).toISOString().slice(0, 10);
const tasks = await api(`/tasks?filter[account_list_id]=${accountListId}&filter[start_at]=${day}..${day}&per_page=500`);
const made = tasks.data.filter((task) => task.attributes.start_at === new Date(time).toISOString().slice(0, 19) + "Z");
const raised = (await api(`/account_lists/${accountListId}/notifications?filter[event_date]=${day}..${day}&include=notification_type&per_page=1000`)) as unknown as {
  data: Array<{ relationships: { notification_type: { data: { id: string } } } }>;
  included?: Array<{ id: string; attributes: { description: string } }>;
};
const byType = new Map<string, number>();
for (const notification of raised.data) {
  const type = raised.included?.find((included) => included.id === notification.relationships.notification_type.data.id)?.attributes.description ?? "?";
  byType.set(type, (byType.get(type) ?? 0) + 1);
}
console.log(`\n${DEMO_USER}'s list: ${count - before} new notifications (${count} in all) and ${made.length} new tasks.`);
for (const [type, n] of [...byType].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(4)}  ${type}`);
const examples = new Map<unknown, string>();
for (const task of made) if (!examples.has(task.attributes.activity_type)) examples.set(task.attributes.activity_type, String(task.attributes.subject));
console.log("Tasks, for example:");
for (const [activity, subject] of examples) console.log(`  - [${String(activity)}] ${subject}`);
console.log(`\nThe e-mail digests are in npm run dev's output ("send_email binding called").`);
console.log(`Read them through the API:\n  curl -g -H "Authorization: Bearer ${token}" "${server.address}/api/v2/account_lists/${accountListId}/notifications?include=notification_type,contact"`);
