/**
 * The D1 bindings wrangler.toml declares for an environment (the default one, or `[env.<name>]`): the directory
 * (DB) first, then the list databases. Migrations and deploys go to every one of them.
 */
import { readFileSync } from "node:fs";

export function d1Bindings(environment) {
  const header = environment ? `[[env.${environment}.d1_databases]]` : "[[d1_databases]]";
  const lines = readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8").split("\n");
  const bindings = [];
  let inSection = false;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith("[")) inSection = trimmed === header;
    const binding = inSection ? /^binding\s*=\s*"([A-Z0-9_]+)"/.exec(trimmed) : null;
    if (binding) bindings.push(binding[1]);
  }
  return bindings;
}

/** `--env <name>` or `--env=<name>` among the arguments. */
export function environmentOf(args) {
  const index = args.findIndex((arg) => arg === "--env" || arg.startsWith("--env="));
  if (index < 0) return undefined;
  return args[index].includes("=") ? args[index].split("=")[1] : args[index + 1];
}
