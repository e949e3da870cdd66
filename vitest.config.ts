import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Offline: no metrics, no banner, no request.cf lookup (each would wait on a network that is not there).
process.env.WRANGLER_SEND_METRICS ??= "false";
process.env.WRANGLER_HIDE_BANNER ??= "true";
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";

export const TEST_JWT_SECRET = "test-secret-not-for-production-0123456789abcdef";
export const TEST_ADMIN_SECRET = "test-admin-secret-not-for-production-0123456789";
// wrangler.toml lists JWT_SECRET as required and warns, per test file, when it finds it nowhere.
process.env.JWT_SECRET ??= TEST_JWT_SECRET;
process.env.ADMIN_SECRET ??= TEST_ADMIN_SECRET;

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    test: {
      // Every request logs a line (src/request-log.ts); tests that care spy on the console. Other output is kept.
      onConsoleLog: (log: string) => !log.includes('"message":"request"'),
      projects: [
        {
          // Everything that runs inside the Worker: HTTP requests, scheduled events and queue messages in workerd.
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                // Tests change memberships between requests; the viewer cache has its own test (test/viewer-cache.test.ts).
                bindings: { TEST_MIGRATIONS: migrations, JWT_SECRET: TEST_JWT_SECRET, ADMIN_SECRET: TEST_ADMIN_SECRET, CORS_ORIGINS: "https://app.example.org", VIEWER_CACHE_SECONDS: "0" },
                queueConsumers: {
                  "background-batch-requests": { maxBatchTimeout: 0.05 },
                  "background-batch-requests-dlq": { maxBatchTimeout: 0.05 },
                  "notification-runs": { maxBatchTimeout: 0.05 },
                  "notification-runs-dlq": { maxBatchTimeout: 0.05 },
                  "csv-imports": { maxBatchTimeout: 0.05 },
                  "csv-imports-dlq": { maxBatchTimeout: 0.05 },
                  "list-moves": { maxBatchTimeout: 0.05 },
                },
              },
            }),
          ],
          test: {
            name: "worker",
            setupFiles: ["./test/setup.ts"],
            include: ["test/**/*.test.ts"],
            exclude: ["test/node/**"],
            testTimeout: 20_000,
            hookTimeout: 30_000,
          },
        },
        {
          // From outside: the service under wrangler, its description validated in Node, its docs page in Chromium.
          test: { name: "outside", include: ["test/node/**/*.test.ts"], environment: "node", testTimeout: 60_000, hookTimeout: 120_000 },
        },
      ],
    },
  };
});
