import { describe, expect, it } from "vitest";
import { errorOf, get } from "./helpers/api";
import { createViewer } from "./helpers/factories";

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
  });
});
