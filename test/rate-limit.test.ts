import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { errorOf, get, post, request } from "./helpers/api";
import { eq } from "drizzle-orm";
import * as schema from "../drizzle/schema";
import { createViewer, db } from "./helpers/factories";

// wrangler.toml gives each user 600 requests a minute. The local limiter counts in fixed windows, so the
// budget may renew once mid-test: within two windows' worth of requests the limit must have been hit.
const BUDGET = 600;

describe("rate limiting", () => {
  it("answers 429 with Retry-After once a user spends their budget, without touching other users", async () => {
    const spender = await createViewer();
    const other = await createViewer();
    let sent = 0;
    let limited: Awaited<ReturnType<typeof get>> | undefined;
    while (!limited && sent < BUDGET * 2 + 1) {
      const response = await get("/api/v2/constants?fields[constant_list]=codes", spender.token);
      sent++;
      if (response.status === 429) limited = response;
      else expect(response.status).toBe(200);
    }
    expect(limited, `no 429 after ${sent} requests`).toBeDefined();
    const error = errorOf(limited!, 429);
    expect(error.title).toBe("Too Many Requests");
    expect(limited!.headers.get("retry-after")).toBe("60");
    expect((await get("/api/v2/constants?fields[constant_list]=codes", other.token)).status).toBe(200);
    // Some hundreds of requests one after another: on a busy machine they take longer than the default timeout.
  }, 60_000);
});

interface BatchEntry {
  status: number;
  headers: Record<string, string>;
  body: string;
}

describe("rate limiting of batch items", () => {
  // wrangler.toml: 60 blocks of ten items a minute. A batch of 100 items spends ten blocks.
  const ITEM_BUDGET = 600;
  const items = Array.from({ length: 100 }, () => ({ method: "GET", path: "/api/v2/constants?fields[constant_list]=codes" }));

  it("charges items to their own budget in blocks of ten, answering 429 per item past it", async () => {
    const spender = await createViewer();
    let ran = 0;
    let limited: BatchEntry[] | undefined;
    for (let batches = 0; !limited && batches < (ITEM_BUDGET * 2) / items.length + 1; batches++) {
      const response = await post("/api/v2/batch", { requests: items }, spender.token, { raw: true });
      expect(response.status).toBe(200);
      const entries = response.body as BatchEntry[];
      expect(entries).toHaveLength(items.length);
      const succeeded = entries.filter((entry) => entry.status === 200).length;
      ran += succeeded;
      if (succeeded < entries.length) limited = entries;
    }
    expect(limited, `no item answered 429 after ${ran} items`).toBeDefined();
    // The whole first window's budget ran before any item was refused.
    expect(ran).toBeGreaterThanOrEqual(ITEM_BUDGET);
    // Refused items come after the ones that ran, and whole blocks ran.
    const firstRefused = limited!.findIndex((entry) => entry.status !== 200);
    expect(firstRefused % 10).toBe(0);
    for (const entry of limited!.slice(firstRefused)) {
      expect(entry.status).toBe(429);
      expect(entry.headers["Retry-After"]).toBe("60");
      expect(JSON.parse(entry.body).errors[0].title).toBe("Too Many Requests");
    }
    // Past the budget a write item is refused before it runs: ABORT answers its 429 and nothing is stored.
    const write = { method: "POST", path: "/api/v2/contacts", body: { data: { type: "contacts", attributes: { name: "Budget, Spent" } } } };
    const aborted = await post("/api/v2/batch", { requests: [write], on_error: "ABORT" }, spender.token, { raw: true });
    expect(aborted.status).toBe(429);
    expect((aborted.body as BatchEntry[]).map((entry) => entry.status)).toEqual([429]);
    expect(await db.select().from(schema.contacts).where(eq(schema.contacts.accountListId, spender.list.id))).toEqual([]);
    // The items did not spend the budget of single requests.
    expect((await get("/api/v2/constants?fields[constant_list]=codes", spender.token)).status).toBe(200);
  });
});

describe("rate limiting of sign-in attempts", () => {
  // wrangler.toml: 20 attempts a minute per client. The attempts carry no valid token: each is counted, then refused.
  const attempt = (address: string, bindings?: object) =>
    request("POST", "/api/v2/user/authenticate", { body: { data: { type: "authenticate", attributes: { id_token: "garbage" } } }, headers: { "CF-Connecting-IP": address }, bindings });
  /** A /64 of the documentation prefix no other test uses: its first four groups. */
  const network = () => ["2001", "db8", ...Array.from(crypto.getRandomValues(new Uint16Array(2)), (group) => group.toString(16))];

  it("charges every address of an IPv6 client's /64 to one budget, and the next /64 to its own", async () => {
    const groups = network();
    let limited: Awaited<ReturnType<typeof attempt>> | undefined;
    // Never the same address twice: only a budget shared by the whole /64 runs out.
    for (let n = 1; !limited && n <= 41; n++) {
      const response = await attempt(`${groups.join(":")}:${n.toString(16)}:0:${((n * 7919) % 0x10000).toString(16)}:1`);
      if (response.status === 429) limited = response;
      else expect(response.status).not.toBe(200);
    }
    expect(limited, "no 429 after 41 addresses of one /64").toBeDefined();
    expect(errorOf(limited!, 429).title).toBe("Too Many Requests");
    const next = [...groups.slice(0, 3), (parseInt(groups[3], 16) ^ 1).toString(16)];
    expect((await attempt(`${next.join(":")}::1`)).status).not.toBe(429);
  });

  it("counts an IPv4 client by its address, however it is written, and an IPv6 client by its /64", async () => {
    const keys: string[] = [];
    const bindings = { ...env, SIGN_IN_RATE_LIMIT: { limit: async ({ key }: { key: string }) => (keys.push(key), { success: true }) } };
    const sameBudget = async (first: string, second: string) => {
      keys.length = 0;
      await attempt(first, bindings);
      await attempt(second, bindings);
      expect(keys).toHaveLength(2);
      return keys[0] === keys[1];
    };
    expect(await sameBudget("2001:db8:1:2::1", "2001:DB8:0001:0002:ffff:ffff:ffff:fffe")).toBe(true);
    expect(await sameBudget("2001:db8:1:2::1", "2001:db8:1:3::1")).toBe(false);
    expect(await sameBudget("2001:db8:1:2::1", "2001:db9:1:2::1")).toBe(false);
    expect(await sameBudget("203.0.113.7", "::ffff:203.0.113.7")).toBe(true);
    expect(await sameBudget("203.0.113.7", "203.0.113.8")).toBe(false);
  });
});
