/**
 * Lists on several databases. The bench viewer's three lists, first all on the directory database, then moved (as
 * an operator moves them, through /admin and the list-moves queue) one to each of three databases: the default
 * contacts and tasks pages' rows read, D1 round trips and p50 in both layouts, as ratios of the same run. Then the
 * largest list moves again while a writer keeps creating contacts in it: how long until it switched, rows copied
 * per second, how long its writes were refused, and how many were.
 *
 * In both layouts, a contact with a person (an e-mail address, a phone number) and an address is updated in place
 * and moved to another of the viewer's lists: on one database the move is an update; on two it copies the contact
 * and removes it (src/engine/record-moves.ts). Rows read and written and round trips, held against the update in place.
 */
import { benchIds } from "./dataset";
import { load, median, probe, type Request } from "./load";
import type { D1Handle } from "./server";
import { answered, TASK_READ_BOUNDS } from "./task-reads";

interface LayoutMeasure {
  rowsRead: string | null;
  roundTrips: number | null;
  criticalPath: number | null;
  p50: number;
  /** The most D1 rows the read may read, from its answer (bench/task-reads.ts), where it has a bound. */
  bound: number | null;
}

export interface LayoutPage {
  name: string;
  path: string;
  one: LayoutMeasure;
  spread: LayoutMeasure;
}

export interface MoveRun {
  contacts: number;
  rowsCopied: number;
  /** From the operator's request until writes went to the new database. */
  toSwitchMs: number;
  /** Until the old rows were removed and the list placed. */
  toPlacedMs: number;
  switchMs: number;
  writes: number;
  refused: number;
  failed: number;
}

/** One write's cost, from its answer's D1 headers; ms the median of three. */
export interface WriteCost {
  rowsRead: string | null;
  rowsWritten: string | null;
  roundTrips: number | null;
  criticalPath: number | null;
  ms: number;
}

export interface RecordMoveCost {
  update: WriteCost;
  move: WriteCost;
}

export interface PlacementBench {
  pages: LayoutPage[];
  /** A contact updated in place and moved to another list: with both lists on one database, and on two. */
  recordMoves?: { one: RecordMoveCost; apart: RecordMoveCost };
  move?: MoveRun;
  error?: string;
}

const PAGES: Array<{ name: string; path: string; bound?: (answer: { rows: number; total: number }) => number }> = [
  { name: "default contacts page", path: "/api/v2/contacts" },
  { name: "default task page", path: "/api/v2/tasks", bound: TASK_READ_BOUNDS.pageFrom(0, 25) },
  // The web app's "select all": 25,000 ids on one page (its own request is the same read, sent as a POST).
  { name: "25,000 task ids (select all)", path: "/api/v2/tasks?per_page=25000&fields[tasks]=", bound: TASK_READ_BOUNDS.sparse },
  // A deep page: each database names its share of the rows before it (the dataset has five tasks per contact).
  { name: "tasks from row 20,000", path: "/api/v2/tasks?per_page=25&page=801", bound: TASK_READ_BOUNDS.pageFrom(20_000, 25) },
  // A filter set, counted and paged on each database.
  { name: "tasks of three filters", path: "/api/v2/tasks?filter[date_range]=overdue&filter[activity_type]=Call,Email&filter[starred]=false", bound: TASK_READ_BOUNDS.filterSet },
];

const LOAD_SECONDS = 5;

export async function benchPlacement(api: string, token: string, adminSecret: string, db: D1Handle): Promise<PlacementBench> {
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${api}/admin${path}`, { method, headers: { Authorization: `Bearer ${adminSecret}`, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} /admin${path}: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const placed = async (list: string, until: (placement: Record<string, unknown>) => boolean) => {
    for (;;) {
      const placement = await admin("GET", `/account_lists/${list}/placement`);
      if (until(placement)) return placement;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const request = (path: string): Request => ({ url: `${api}${path}`, headers: { Authorization: `Bearer ${token}`, Accept: "application/vnd.api+json" } });
  const measure = async ({ path, bound }: (typeof PAGES)[number]): Promise<LayoutMeasure> => {
    // A first request loads the viewer (its lists and where they are) into the viewer cache; the second is measured.
    await probe(request(path));
    const probed = await probe(request(path));
    if (probed.status !== 200) throw new Error(`${path} answered ${probed.status}: ${probed.body.slice(0, 300)}`);
    const p50 = (await load(request(path), LOAD_SECONDS)).p50;
    return { rowsRead: probed.rowsRead, roundTrips: probed.roundTrips, criticalPath: probed.criticalPath ?? null, p50, bound: bound ? bound(answered(probed.body)) : null };
  };
  const writeHeaders = { Authorization: `Bearer ${token}`, Accept: "application/vnd.api+json", "Content-Type": "application/vnd.api+json" };
  const write = async (method: "POST" | "PUT", path: string, body: unknown) => {
    const probed = await probe({ method, url: `${api}${path}`, headers: writeHeaders, body: JSON.stringify(body) });
    if (probed.status >= 300) throw new Error(`${method} ${path} answered ${probed.status}: ${probed.body.slice(0, 300)}`);
    return probed;
  };
  const cost = (probes: Array<Awaited<ReturnType<typeof probe>>>): WriteCost => ({
    rowsRead: probes[0].rowsRead,
    rowsWritten: probes[0].rowsWritten ?? null,
    roundTrips: probes[0].roundTrips,
    criticalPath: probes[0].criticalPath ?? null,
    ms: median(probes.map((probed) => probed.ms)),
  });
  /** A contact of list `from` with a person, two details and an address, renamed three times, then moved to `to`, back and again. */
  const recordMoveCost = async (from: string, to: string): Promise<RecordMoveCost> => {
    const [contact, person, mail, phone, address] = Array.from({ length: 5 }, () => crypto.randomUUID());
    await write("POST", "/api/v2/contacts", { data: { type: "contacts", id: contact, attributes: { name: "Moving, Mo" }, relationships: { account_list: { data: { type: "account_lists", id: from } } } } });
    await write("PUT", `/api/v2/contacts/${contact}`, {
      data: { type: "contacts", id: contact, attributes: { overwrite: true }, relationships: { people: { data: [{ type: "people", id: person }] }, addresses: { data: [{ type: "addresses", id: address }] } } },
      included: [
        { type: "people", id: person, attributes: { first_name: "Mo", last_name: "Moving" }, relationships: { email_addresses: { data: [{ type: "email_addresses", id: mail }] }, phone_numbers: { data: [{ type: "phone_numbers", id: phone }] } } },
        { type: "email_addresses", id: mail, attributes: { email: "mo@example.org" } },
        { type: "phone_numbers", id: phone, attributes: { number: "+1 555 010 2030" } },
        { type: "addresses", id: address, attributes: { street: "1 Moving Way", city: "Orlando" } },
      ],
    });
    const renames = [];
    for (let n = 0; n < 3; n++) renames.push(await write("PUT", `/api/v2/contacts/${contact}`, { data: { type: "contacts", id: contact, attributes: { name: `Moving, Mo ${n}`, overwrite: true } } }));
    const moves = [];
    for (const list of [to, from, to]) {
      moves.push(await write("PUT", `/api/v2/contacts/${contact}`, { data: { type: "contacts", id: contact, attributes: { overwrite: true }, relationships: { account_list: { data: { type: "account_lists", id: list } } } } }));
    }
    return { update: cost(renames), move: cost(moves) };
  };
  try {
    const [first, second, third] = benchIds.viewerLists;
    const one = [];
    for (const page of PAGES) one.push(await measure(page));
    const movesOnOne = await recordMoveCost(first, second);
    for (const [list, database] of [[second, "LIST_DB_1"], [third, "LIST_DB_2"]]) {
      await admin("POST", `/account_lists/${list}/move`, { database });
      await placed(list, (placement) => placement.state === "placed");
    }
    const pages: LayoutPage[] = [];
    for (const [index, page] of PAGES.entries()) pages.push({ name: page.name, path: page.path, one: one[index], spread: await measure(page) });
    const recordMoves = { one: movesOnOne, apart: await recordMoveCost(first, second) };

    // The largest list moves while a writer creates contacts in it, one after another.
    const [counted] = (await db.prepare(`SELECT count(*) AS n FROM contacts WHERE account_list_id = '${first}'`).all<{ n: number }>()).results;
    const contacts = Number(counted.n);
    const started = performance.now();
    await admin("POST", `/account_lists/${first}/move`, { database: "LIST_DB_1" });
    let switched = 0;
    let writing = true;
    const tally = { writes: 0, refused: 0, failed: 0 };
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const response = await fetch(`${api}/api/v2/contacts`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/vnd.api+json", Accept: "application/vnd.api+json" },
          body: JSON.stringify({ data: { type: "contacts", attributes: { name: `Written, While Moving ${n}` }, relationships: { account_list: { data: { type: "account_lists", id: first } } } } }),
        });
        await response.arrayBuffer();
        tally.writes++;
        if (response.status === 503) tally.refused++;
        else if (response.status !== 201) tally.failed++;
      }
    })();
    const cleaning = await placed(first, (placement) => placement.state === "cleaning" || placement.state === "placed");
    switched = performance.now() - started;
    writing = false;
    await writer;
    const done = await placed(first, (placement) => placement.state === "placed");
    return {
      pages,
      recordMoves,
      move: {
        contacts,
        rowsCopied: Number(done.rows_copied ?? cleaning.rows_copied),
        toSwitchMs: switched,
        toPlacedMs: performance.now() - started,
        switchMs: Number(done.switch_ms ?? cleaning.switch_ms),
        ...tally,
      },
    };
  } catch (error) {
    return { pages: [], error: String(error) };
  }
}

const ratio = (a: string | number | null, b: string | number | null) => (a === null || b === null || Number(b) === 0 ? "-" : `${(Number(String(a).replace("+", "")) / Number(String(b).replace("+", ""))).toFixed(2)}x`);

/** A page's bound and whether each layout read within it. */
function boundMet(page: LayoutPage): string {
  if (page.one.bound === null || page.spread.bound === null) return "-";
  const met = (measured: LayoutMeasure) => (measured.rowsRead === null ? "?" : Number(measured.rowsRead.replace("+", "")) <= measured.bound! ? "yes" : "**NO**");
  return `${page.spread.bound.toLocaleString("en-US")}: ${met(page.one)} / ${met(page.spread)}`;
}

export function renderPlacement(bench: PlacementBench | undefined): string {
  if (!bench) return "Lists on several databases: not measured.";
  if (bench.error) return `Lists on several databases: failed: ${bench.error}`;
  const lines = [
    "Lists on several databases: the viewer's three lists on the directory alone, then one on each of three databases (moved there by the list-moves job). The databases are asked at once: the round trips on the critical path count those made together once (X-D1-Critical-Path), the others count every one.",
    "",
    "| page | rows read, one database | rows read, three | ratio | bound (bench/task-reads.ts), met one / three | D1 round trips on the critical path, one / three | all D1 round trips, one / three | p50 ms, one / three | p50 ratio |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...bench.pages.map(
      (page) =>
        `| ${page.name} | ${page.one.rowsRead ?? "-"} | ${page.spread.rowsRead ?? "-"} | ${ratio(page.spread.rowsRead, page.one.rowsRead)} | ${boundMet(page)} | ${page.one.criticalPath ?? "-"} / ${page.spread.criticalPath ?? "-"} | ${page.one.roundTrips ?? "-"} / ${page.spread.roundTrips ?? "-"} | ${page.one.p50} / ${page.spread.p50} | ${ratio(page.spread.p50, page.one.p50)} |`,
    ),
  ];
  const moves = bench.recordMoves;
  if (moves) {
    const row = (name: string, one: WriteCost, apart: WriteCost) =>
      `| ${name} | ${one.rowsRead ?? "-"} / ${apart.rowsRead ?? "-"} | ${one.rowsWritten ?? "-"} / ${apart.rowsWritten ?? "-"} | ${one.roundTrips ?? "-"} / ${apart.roundTrips ?? "-"} | ${one.criticalPath ?? "-"} / ${apart.criticalPath ?? "-"} | ${one.ms.toFixed(0)} / ${apart.ms.toFixed(0)} |`;
    lines.push(
      "",
      "A contact with a person, an e-mail address, a phone number and an address, renamed in place and moved to another of the viewer's lists: the two lists on one database, then on two (the move copies the contact there and removes it here).",
      "",
      "| write | rows read, one / two databases | rows written | all D1 round trips | on the critical path | ms (median of 3) |",
      "| --- | --- | --- | --- | --- | --- |",
      row("renamed in place", moves.one.update, moves.apart.update),
      row("moved to the other list", moves.one.move, moves.apart.move),
      "",
      `Moved between databases against renamed in place (two databases): rows read ${ratio(moves.apart.move.rowsRead, moves.apart.update.rowsRead)}, round trips ${ratio(moves.apart.move.roundTrips, moves.apart.update.roundTrips)}, ms ${ratio(moves.apart.move.ms, moves.apart.update.ms)}; a move on one database against its rename: rows read ${ratio(moves.one.move.rowsRead, moves.one.update.rowsRead)}.`,
    );
  }
  const move = bench.move;
  if (move) {
    lines.push(
      "",
      `A move of the largest list (${move.contacts} contacts, ${move.rowsCopied} rows copied) while a writer created contacts in it: switched after ${(move.toSwitchMs / 1000).toFixed(1)} s ` +
        `(${Math.round(move.rowsCopied / (move.toSwitchMs / 1000))} rows copied per second), writes refused for ${move.switchMs} ms, placed after ${(move.toPlacedMs / 1000).toFixed(1)} s ` +
        `(the old rows go once no request can hold the old placement). Writes: ${move.writes}, refused with 503: ${move.refused}, failed otherwise: ${move.failed}.`,
    );
  }
  return lines.join("\n");
}
