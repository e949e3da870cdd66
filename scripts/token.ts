/**
 * Prints an access token for a user of the local database: `npm run token -- alice@example.org [--expires-in 3600]`.
 * The token is signed with JWT_SECRET from .dev.vars, exactly as a deployment's own issuer would sign it.
 */
import { mintToken } from "../src/auth/token";
import { checkSettings } from "../src/settings";
import { localUser, readDevSecret } from "./local";

function parseArgs(argv: string[]): { email: string; expiresIn: number } {
  let email = "";
  let expiresIn = 24 * 3600;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--expires-in") expiresIn = Number(argv[++i]);
    else if (arg.startsWith("--expires-in=")) expiresIn = Number(arg.split("=")[1]);
    else email = arg;
  }
  if (!email || !Number.isInteger(expiresIn) || expiresIn <= 0) {
    console.error("usage: npm run token -- <email> [--expires-in <seconds>]");
    process.exit(2);
  }
  return { email, expiresIn };
}

/** What is wrong, said in a sentence: this is a command people type, not a place for stack traces. */
function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** The secret from .dev.vars, checked by the same rules the service applies to its settings. */
function devSecret(): string {
  let secret: string;
  try {
    secret = readDevSecret();
  } catch (error) {
    fail((error as Error).message);
  }
  const check = checkSettings({ JWT_SECRET: secret });
  if (!check.ok) fail(`.dev.vars: ${check.problems.join("; ")} (delete the line and run npm run dev to get a new one)`);
  return check.settings.signingSecret;
}

const { email, expiresIn } = parseArgs(process.argv.slice(2));
const secret = devSecret();
const user = await localUser(email).catch(() => fail("Could not read the local database: run npm run dev (or npm run db:reset) first."));
if (!user) fail(`No local user with e-mail ${email} (run npm run db:seed, or npm run dev, first).`);
process.stdout.write(`${await mintToken(secret, user.id, expiresIn, user.tokenGeneration)}\n`);
