import { cloudflareTest, readD1Migrations, type D1Migration } from "@cloudflare/vitest-plugin";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Offline: no metrics, no banner, no request.cf lookup (each would wait on a network that is not there).
process.env.WRANGLER_SEND_METRICS ??= "false";
process.env.WRANGLER_HIDE_BANNER ??= "true";
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";

export const TEST_JWT_SECRET = "test-secret-not-for-production-0123456789abcdef";
export const TEST_ADMIN_SECRET = "test-admin-secret-not-for-production-0123456789";
export const TEST_WEBHOOK_SECRETS_KEY = "test-webhook-secrets-key-not-for-production-0123";
// wrangler.toml lists JWT_SECRET as required and warns, per test file, when it finds it nowhere.
process.env.JWT_SECRET ??= TEST_JWT_SECRET;
process.env.ADMIN_SECRET ??= TEST_ADMIN_SECRET;
process.env.WEBHOOK_SECRETS_KEY ??= TEST_WEBHOOK_SECRETS_KEY;

/** Everything that runs inside the Worker: HTTP requests, scheduled events and queue messages in workerd. */
function workerProject(name: string, migrations: { directory: D1Migration[]; lists: D1Migration[] }, layout: Record<string, string> = {}, excluded: string[] = []) {
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // Tests change memberships between requests; the viewer cache has its own test (test/viewer-cache.test.ts).
          bindings: { ...layout, TEST_MIGRATIONS: migrations.directory, TEST_LIST_MIGRATIONS: migrations.lists, JWT_SECRET: TEST_JWT_SECRET, ADMIN_SECRET: TEST_ADMIN_SECRET, WEBHOOK_SECRETS_KEY: TEST_WEBHOOK_SECRETS_KEY, WEBHOOKS_ALLOW_LOOPBACK: "true", WEBHOOK_RETRY_SECONDS: "1,1,1", CORS_ORIGINS: "https://app.example.org", VIEWER_CACHE_SECONDS: "0" },
          queueConsumers: {
            "background-batch-requests": { maxBatchTimeout: 0.05 },
            "background-batch-requests-dlq": { maxBatchTimeout: 0.05 },
            "notification-runs": { maxBatchTimeout: 0.05 },
            "notification-runs-dlq": { maxBatchTimeout: 0.05 },
            "csv-imports": { maxBatchTimeout: 0.05 },
            "csv-imports-dlq": { maxBatchTimeout: 0.05 },
            "list-moves": { maxBatchTimeout: 0.05 },
            "webhook-deliveries": { maxBatchTimeout: 0.05 },
          },
        },
      }),
    ],
    test: {
      name,
      setupFiles: ["./test/setup.ts"],
      include: ["test/**/*.test.ts"],
      exclude: ["test/node/**", ...excluded],
      testTimeout: 20_000,
      hookTimeout: 30_000,
    },
  };
}

/** The tests of placement and moves: they place their lists themselves, and run in the first project only. */
const SELF_PLACING = ["test/placement.test.ts", "test/placement-background.test.ts", "test/moves.test.ts", "test/record-moves.test.ts", "test/pages-in-shares.test.ts", "test/one-and-several-databases.test.ts"];

export default defineConfig(async () => {
  const migrations = { directory: await readD1Migrations("./migrations"), lists: await readD1Migrations("./migrations-lists") };
  return {
    test: {
      // Every core: each test file runs in its own workerd, mostly waiting on it; the default (one core less) leaves
      // one of two idle.
      maxWorkers: Math.max(2, availableParallelism()),
      // Every request logs a line (src/request-log.ts); tests that care spy on the console. Other output is kept.
      onConsoleLog: (log: string) => !log.includes('"message":"request"'),
      projects: [
        workerProject("worker", migrations),
        // The same suite with every account list on a list database, apart from the directory: the layout of a
        // deployment past one database. The tests' own rows go where that layout keeps them (test/helpers/storage.ts).
        workerProject("worker-lists-placed", migrations, { TEST_LAYOUT: "lists-placed", CLOSED_LIST_DATABASES: "LIST_DB_2" }, SELF_PLACING),
        // Again with each user's lists on two list databases, and other users' lists beside them: a viewer's lists
        // are apart, and each list database holds copies of users who are not theirs (as `npm run dev` places them).
        workerProject("worker-lists-split", migrations, { TEST_LAYOUT: "lists-split" }, SELF_PLACING),
        {
          // From outside: the service under wrangler, its description validated in Node, its docs page in Chromium.
          test: { name: "outside", include: ["test/node/**/*.test.ts"], environment: "node", testTimeout: 60_000, hookTimeout: 120_000 },
        },
      ],
    },
  };
});
