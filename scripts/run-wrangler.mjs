#!/usr/bin/env node
/**
 * Runs wrangler with the arguments given, offline: no metrics, no banner, no request.cf lookup (without these
 * each of those calls waits for a network that may not be there).
 * Usage: node scripts/run-wrangler.mjs d1 migrations apply DB --local
 */
import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

export const WRANGLER_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_HIDE_BANNER: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};

// wrangler's package "exports" hide its bin script from require.resolve, so it is found by path.
const wranglerBin = fileURLToPath(new URL("../node_modules/wrangler/bin/wrangler.js", import.meta.url));

/**
 * Spawns wrangler with the current Node binary (npm scripts put the project's Node first); resolves to its exit
 * code. With `onOutput`, its standard output is still shown and each chunk is also handed to `onOutput`.
 */
export function runWrangler(args, { env = {}, stdio = "inherit", onOutput } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [wranglerBin, ...args], {
      stdio: onOutput ? ["inherit", "pipe", "inherit"] : stdio,
      // CI=true answers wrangler's confirmation prompts ("apply these migrations?") without a terminal.
      env: { ...process.env, CI: "true", ...WRANGLER_ENV, ...env },
    });
    child.stdout?.on("data", (chunk) => {
      process.stdout.write(chunk);
      onOutput?.(String(chunk));
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });
}

/** Runs wrangler and resolves to its standard output (rejects with its standard error on failure). */
export function runWranglerCapture(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [wranglerBin, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CI: "true", ...WRANGLER_ENV },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(err || out))));
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runWrangler(process.argv.slice(2));
}
