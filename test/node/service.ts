/** The service under wrangler for the outside tests, on a free loopback port. */
import { unstable_startWorker } from "wrangler";

export type Service = Awaited<ReturnType<typeof unstable_startWorker>>;

/** Starts the Worker of wrangler.toml with these vars added; `persist`: a directory for its local storage (none: in memory). */
export async function startService({ vars = {}, persist = false }: { vars?: Record<string, string>; persist?: string | false } = {}): Promise<{ service: Service; origin: string }> {
  const service = await unstable_startWorker({
    config: "wrangler.toml",
    bindings: Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, { type: "plain_text", value }])),
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, watch: false, persist, logLevel: "warn" },
  } as Parameters<typeof unstable_startWorker>[0]);
  await service.ready;
  return { service, origin: (await service.url).origin };
}
