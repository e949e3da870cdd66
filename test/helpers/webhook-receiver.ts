/**
 * A webhook receiver for tests: the Worker's outbound requests to its origin (the delivery consumer runs in the
 * test's isolate) are answered here, each one recorded and verified with the `standardwebhooks` library.
 */
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { expect, vi } from "vitest";
import * as schema from "../../drizzle/schema";
import { post } from "./api";
import { db } from "./factories";
import { answerAt } from "./identity-provider";

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  payload: any;
}

let receivers = 0;

export class Receiver {
  readonly origin = `https://receiver-${++receivers}-${crypto.randomUUID().slice(0, 8)}.example.org`;
  readonly url = `${this.origin}/hook`;
  readonly received: Received[] = [];
  /** Answers to give, in turn; once spent, `otherwise`. */
  readonly answers: Array<() => Response | Promise<Response>> = [];
  otherwise: () => Response | Promise<Response> = () => new Response("ok", { status: 200 });

  constructor() {
    answerAt(this.origin, async (request) => {
      const body = await request.text();
      this.received.push({
        id: request.headers.get("webhook-id") ?? "",
        timestamp: request.headers.get("webhook-timestamp") ?? "",
        signature: request.headers.get("webhook-signature") ?? "",
        body,
        payload: JSON.parse(body),
      });
      return (this.answers.shift() ?? this.otherwise)();
    });
  }

  /** Every delivery received verifies with one of the secrets (as the library checks a header of several). */
  verifyAll(secret: string): void {
    const webhook = new Webhook(secret);
    for (const delivery of this.received) {
      expect(() =>
        webhook.verify(delivery.body, { "webhook-id": delivery.id, "webhook-timestamp": delivery.timestamp, "webhook-signature": delivery.signature }),
      ).not.toThrow();
    }
  }
}

/** An endpoint of the list at the receiver, subscribing to `eventTypes`; answers its id and secret. */
export async function endpointAt(receiver: Receiver, viewer: { list: { id: string }; token: string }, eventTypes: string[] = ["*"]) {
  const created = await post(`/api/v2/account_lists/${viewer.list.id}/webhooks`, { data: { type: "webhooks", attributes: { url: receiver.url, event_types: eventTypes } } }, viewer.token);
  expect(created.status, created.text).toBe(201);
  return { id: created.body.data.id as string, secret: created.body.data.attributes.secret as string };
}

export async function deliveriesOf(webhookId: string) {
  return db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.webhookId, webhookId));
}

export async function eventsOf(listId: string) {
  return db.select().from(schema.webhookEvents).where(eq(schema.webhookEvents.accountListId, listId));
}

/** Waits until the endpoint has `count` deliveries, none of them pending. */
export async function settled(webhookId: string, count: number, timeout = 15_000) {
  await vi.waitUntil(
    async () => {
      const rows = await deliveriesOf(webhookId);
      return rows.length === count && rows.every((row) => row.status !== "pending");
    },
    { timeout, interval: 50 },
  );
  return deliveriesOf(webhookId);
}
