/**
 * Task reads at scale: the reads that cannot take the task page's order from one index walk (the web app's
 * "select all", a deep page, a filter set) and the tasks' filter panel. Each read's D1 rows against the bound it is
 * held to, where N is the rows it answers and K the row its page starts at:
 * - an ids-only or sparse page of N tasks: 2 × N + 1,000;
 * - a page from row K: 2 × (K + per_page) + 1,000;
 * - a filter set: twice the tasks it matches (its exact total) + 1,000.
 */
import { createHash } from "node:crypto";
import { load, probe, type Request } from "./load";

export interface TaskRead {
  name: string;
  request: Request;
  /** The most D1 rows it may read, from its answer. */
  bound: (answer: { rows: number; total: number }) => number;
  /** A p50 is measured under load (the panel): its rows are not bounded by its answer. */
  timed?: boolean;
}

export interface TaskReadResult {
  name: string;
  status: number;
  rowsRead: number | null;
  bound: number | null;
  roundTrips: number | null;
  rows: number;
  total: number;
  /** A digest of the records answered, in order, and the total: the same before and after a change of plan. */
  digest: string;
  p50?: number;
  /** A timed read asked again at once (what it reads once anything kept from the first is kept), and whether it answered the same. */
  again?: { rowsRead: number | null; same: boolean };
  /** Requests answered under load, and those not answered 2xx. */
  loaded?: { total: number; errors: number };
  /** The same request's p50 on the service at `--against`'s revision, measured just before, with its digest. */
  against?: { p50: number; loaded: { total: number; errors: number }; digest: string; rowsRead: number | null };
}

const JSONAPI = "application/vnd.api+json";
const PAGE_FROM = 20_000;

/** The issue's bounds on the task reads' D1 rows, from their answers (also held over several databases: bench/placement.ts). */
export const TASK_READ_BOUNDS = {
  /** An ids-only or sparse page of N tasks. */
  sparse: ({ rows }: { rows: number }) => 2 * rows + 1_000,
  /** A page starting at row K. */
  pageFrom: (offset: number, perPage: number) => () => 2 * (offset + perPage) + 1_000,
  /** A filter set: twice the tasks it matches. */
  filterSet: ({ total }: { total: number }) => 2 * total + 1_000,
};

export function taskReads(api: string, token: string, list: string): TaskRead[] {
  const headers = { Authorization: `Bearer ${token}`, Accept: JSONAPI };
  const get = (path: string): Request => ({ url: `${api}${path}`, headers });
  const { sparse } = TASK_READ_BOUNDS;
  return [
    {
      // The web app's request, verbatim: the page's filter and a fieldset in the body, sent as a POST read.
      name: "select all: POST tasks, override GET, fields[tasks]=subject, per_page=25000",
      request: {
        method: "POST",
        url: `${api}/api/v2/tasks`,
        headers: { ...headers, "Content-Type": JSONAPI, "X-HTTP-Method-Override": "GET" },
        body: JSON.stringify({ filter: {}, fields: { tasks: "subject" }, per_page: 25_000 }),
      },
      bound: sparse,
    },
    { name: "ids only: per_page=25000, fields[tasks]=", request: get("/api/v2/tasks?per_page=25000&fields[tasks]="), bound: sparse },
    { name: `the page from row ${PAGE_FROM.toLocaleString("en-US")} (per_page=25)`, request: get(`/api/v2/tasks?per_page=25&page=${PAGE_FROM / 25 + 1}`), bound: TASK_READ_BOUNDS.pageFrom(PAGE_FROM, 25) },
    {
      name: "three filters: overdue, Call or Email, not starred",
      request: get("/api/v2/tasks?filter[date_range]=overdue&filter[activity_type]=Call,Email&filter[starred]=false"),
      bound: TASK_READ_BOUNDS.filterSet,
    },
    { name: "the tasks filter panel", request: get(`/api/v2/tasks/filters?filter[account_list_id]=${list}`), bound: () => Number.POSITIVE_INFINITY, timed: true },
  ];
}

/** A digest of a panel's or a page's answer: its records, in order, and its total. */
export function answered(body: string): { rows: number; total: number; digest: string } {
  let rows = 0;
  let total = 0;
  let named = "";
  try {
    const document = JSON.parse(body) as { data?: Array<{ id?: string }>; meta?: { pagination?: { total_count?: number } } };
    rows = Array.isArray(document.data) ? document.data.length : 0;
    total = document.meta?.pagination?.total_count ?? rows;
    named = Array.isArray(document.data) ? document.data.map((record) => record.id ?? JSON.stringify(record)).join(",") : "";
  } catch {
    // Not a document: its status says why.
  }
  return { rows, total, digest: createHash("sha256").update(`${named}|${total}`).digest("hex").slice(0, 16) };
}

/**
 * Probes each read once (its rows and answer), and loads the timed ones for their p50. With `against` (the origin
 * of the service at another revision, on the same data), each timed read is first loaded there too.
 */
export async function measureTaskReads(reads: TaskRead[], seconds: number, against?: { api: string; origin: string }): Promise<TaskReadResult[]> {
  const results: TaskReadResult[] = [];
  for (const read of reads) {
    const answer = await probe(read.request);
    const { rows, total, digest } = answered(answer.body);
    const bound = read.bound({ rows, total });
    const result: TaskReadResult = {
      name: read.name,
      status: answer.status,
      rowsRead: answer.rowsRead === null ? null : Number(answer.rowsRead),
      bound: Number.isFinite(bound) ? bound : null,
      roundTrips: answer.roundTrips,
      rows,
      total,
      digest,
    };
    if (read.timed && against) {
      const request = { ...read.request, url: read.request.url.replace(against.api, against.origin) };
      const theirs = await probe(request);
      const loaded = await load(request, seconds);
      result.against = { p50: loaded.p50, loaded: { total: loaded.total, errors: loaded.errors }, digest: answered(theirs.body).digest, rowsRead: theirs.rowsRead === null ? null : Number(theirs.rowsRead) };
    }
    if (read.timed) {
      const again = await probe(read.request);
      result.again = { rowsRead: again.rowsRead === null ? null : Number(again.rowsRead), same: answered(again.body).digest === digest };
      const loaded = await load(read.request, seconds);
      result.p50 = loaded.p50;
      result.loaded = { total: loaded.total, errors: loaded.errors };
    }
    results.push(result);
  }
  return results;
}

export interface TaskReadsBench {
  results: TaskReadResult[];
  /** The revision the timed reads were also measured on (`--against`). */
  against?: string;
  error?: string;
}

export async function benchTaskReads(api: string, token: string, list: string, seconds: number, against?: { origin: string; revision: string }): Promise<TaskReadsBench> {
  try {
    return { results: await measureTaskReads(taskReads(api, token, list), seconds, against && { api, origin: against.origin }), against: against?.revision };
  } catch (error) {
    return { results: [], error: String(error) };
  }
}

/** The p50 under load, or why there is none: no request answered within the window. */
function timing(p50: number | undefined, loaded: { total: number; errors: number } | undefined): string {
  if (!loaded) return "";
  if (loaded.total === 0) return "none answered in the window (longer --duration)";
  return `${p50} ms (${loaded.total} answered, ${loaded.errors} errors)`;
}

/** This revision's p50 against the other's, with whether both answered the same records. */
function versus(result: TaskReadResult): string {
  if (!result.against) return "";
  const ratio = result.p50 !== undefined && result.against.p50 > 0 ? ` = ${(result.p50 / result.against.p50).toFixed(2)}x` : "";
  const same = result.against.digest === result.digest ? "same answer" : "**different answer**";
  return `${timing(result.against.p50, result.against.loaded)}; rows ${result.against.rowsRead?.toLocaleString("en-US") ?? "-"}${ratio}, ${same}`;
}

export function renderTaskReads(bench: TaskReadsBench | undefined): string {
  if (!bench) return "Task reads: not measured.";
  const met = (result: TaskReadResult) => (result.bound === null || result.rowsRead === null ? "n/a" : result.rowsRead <= result.bound ? "yes" : "**NO**");
  const rows = bench.results.map(
    (result) =>
      `| ${result.name} | ${result.status} | ${result.rows.toLocaleString("en-US")} of ${result.total.toLocaleString("en-US")} | ${result.rowsRead?.toLocaleString("en-US") ?? "-"} | ${result.bound?.toLocaleString("en-US") ?? "-"} | ${met(result)} | ${result.roundTrips ?? "-"} | ${timing(result.p50, result.loaded)}${result.again ? `; asked again: ${result.again.rowsRead?.toLocaleString("en-US") ?? "-"} rows, ${result.again.same ? "same answer" : "**another answer**"}` : ""} |${bench.against ? ` ${versus(result)} |` : ""}`,
  );
  return [
    "Task reads (the viewer's lists; bounds in bench/task-reads.ts):",
    "",
    `| read | status | answered | rows read | bound | met | D1 round trips | p50 |${bench.against ? ` at ${bench.against}: p50; rows; ratio |` : ""}`,
    `| --- | --- | --- | --- | --- | --- | --- | --- |${bench.against ? " --- |" : ""}`,
    ...rows,
    ...(bench.error ? ["", `Failed: ${bench.error}`] : []),
  ].join("\n");
}
