/**
 * One D1 round trip for the reads of several requests that run side by side: the GET items of a batch run
 * together, and each would otherwise make its own call to D1. Statements sent in the same turn of the event
 * loop go to D1 as one batch, and each caller gets its own results back.
 *
 * D1 runs a batch as one transaction, so one failing statement fails them all: when the shared call fails,
 * every caller's statements are sent again on their own, and an error reaches only the request that caused it.
 * A D1 batch answers rows as objects, which keep one of several columns of the same name, so `raw()` is shared
 * only when asked for column names (the read side's statements, which name every column differently); the
 * positional `raw()` a query builder relies on goes to D1 directly.
 */

import { DIRECTORY, type SessionBinding } from "./databases";
import type { DatabaseSessions } from "./session";
import { firstOf } from "./rows";

interface Waiting {
  statements: D1PreparedStatement[];
  resolve(results: D1Result[]): void;
  reject(error: unknown): void;
}

class SharedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly trips: SharedRoundTrips,
  ) {}

  bind(...values: unknown[]): SharedStatement {
    return new SharedStatement(this.inner.bind(...values), this.trips);
  }

  async all<T>(): Promise<D1Result<T>> {
    return (await this.trips.send([this.inner]))[0] as D1Result<T>;
  }

  async run<T>(): Promise<D1Result<T>> {
    return this.all<T>();
  }

  async first<T>(column?: string): Promise<T | null> {
    return firstOf<T>((await this.all<Record<string, unknown>>()).results, column);
  }

  async raw(options?: { columnNames?: boolean }): Promise<unknown[]> {
    if (!options?.columnNames) return this.inner.raw();
    const rows = (await this.all<Record<string, unknown>>()).results;
    return [Object.keys(rows[0] ?? {}), ...rows.map((row) => Object.values(row))];
  }
}

class SharedRoundTrips {
  private waiting: Waiting[] = [];

  constructor(readonly inner: D1Database) {}

  send(statements: D1PreparedStatement[]): Promise<D1Result[]> {
    return new Promise((resolve, reject) => {
      // The first caller of a turn schedules the call; the others of the same turn join it.
      if (this.waiting.length === 0) setTimeout(() => void this.flush(), 0);
      this.waiting.push({ statements, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const callers = this.waiting;
    this.waiting = [];
    if (callers.length === 1) return this.sendAlone(callers[0]);
    let results: D1Result[];
    try {
      results = await this.inner.batch(callers.flatMap((caller) => caller.statements));
    } catch {
      await Promise.all(callers.map((caller) => this.sendAlone(caller)));
      return;
    }
    let offset = 0;
    for (const caller of callers) {
      caller.resolve(results.slice(offset, offset + caller.statements.length));
      offset += caller.statements.length;
    }
  }

  private async sendAlone(caller: Waiting): Promise<void> {
    try {
      caller.resolve(caller.statements.length === 1 ? [await caller.statements[0].all()] : await this.inner.batch(caller.statements));
    } catch (error) {
      caller.reject(error);
    }
  }
}

/** A D1 session whose calls made in the same turn share one round trip (see the top of this file). */
export function sharedRoundTrips(binding: SessionBinding): SessionBinding {
  const trips = new SharedRoundTrips(binding);
  const shared = {
    prepare: (query: string) => new SharedStatement(binding.prepare(query), trips),
    batch: (statements: Array<D1PreparedStatement | SharedStatement>) =>
      trips.send(statements.map((statement) => (statement instanceof SharedStatement ? statement.inner : statement))),
    getBookmark: () => binding.getBookmark(),
  };
  return shared as unknown as SessionBinding;
}

/** The same sessions, whose calls made in the same turn share round trips (reads of a batch run together). */
export function sharingRoundTrips(sessions: DatabaseSessions): DatabaseSessions {
  const shared = new Map<string, SessionBinding>();
  return {
    session(database = DIRECTORY) {
      let session = shared.get(database);
      if (!session) {
        session = sharedRoundTrips(sessions.session(database));
        shared.set(database, session);
      }
      return session;
    },
    callerSession: () => sessions.callerSession(),
    bookmarks: () => sessions.bookmarks(),
    written: sessions.written,
  };
}
