/**
 * Background batches in tests: store one with the given requests, and wait until the queue has run them all.
 */
import { expect, vi } from "vitest";
import { get, post } from "./api";

/** Creates a background batch of `requests` (their attributes) as the token's user; answers its id once none is pending. */
export async function runInBackground(token: string, requests: Array<Record<string, unknown>>): Promise<string> {
  const created = await post(
    "/api/v2/background_batches",
    {
      data: {
        type: "background_batches",
        attributes: {},
        relationships: { requests: { data: requests.map((attributes) => ({ type: "background_batch_requests", attributes })) } },
      },
    },
    token,
  );
  expect(created.status, created.text).toBe(201);
  const id = created.body.data.id as string;
  await vi.waitUntil(async () => (await get(`/api/v2/background_batches/${id}`, token)).body.data.attributes.pending === 0, { timeout: 15_000, interval: 50 });
  return id;
}
