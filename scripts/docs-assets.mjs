/**
 * Copies Swagger UI's script and stylesheet from node_modules into public/api/v2/docs/vendor/, where Workers
 * Static Assets serves them to the API reference page. Runs after every install (npm's postinstall), so a fresh
 * clone and CI have them; the files are not committed.
 */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const target = join(root, "public", "api", "v2", "docs", "vendor");
let source;
try {
  source = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
} catch {
  // Installed without devDependencies (a production install): the page is not served from here.
  process.exit(0);
}
mkdirSync(target, { recursive: true });
for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "LICENSE"]) {
  if (existsSync(join(source, file))) copyFileSync(join(source, file), join(target, file));
}
