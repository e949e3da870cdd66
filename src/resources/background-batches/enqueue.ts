/** Sends background-batch requests to the queue, one message each. */
import type { Bindings } from "../../env";

// Cloudflare Queues accept at most 100 messages per sendBatch call.
const MESSAGES_PER_SEND = 100;

export async function enqueueRequests(env: Pick<Bindings, "BATCH_QUEUE">, requestIds: string[]): Promise<void> {
  for (let start = 0; start < requestIds.length; start += MESSAGES_PER_SEND) {
    const chunk = requestIds.slice(start, start + MESSAGES_PER_SEND);
    await env.BATCH_QUEUE.sendBatch(chunk.map((requestId) => ({ body: { requestId } })));
  }
}
