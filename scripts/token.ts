/**
 * Prints an access token for a user of the local database: `npm run token -- alice@example.org [--expires-in 3600]`.
 * The token is signed with JWT_SECRET from .dev.vars, exactly as a deployment's own issuer would sign it.
 */
import { mintToken } from "../src/auth/token";
import { localUserId, readDevSecret } from "./local";

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

const { email, expiresIn } = parseArgs(process.argv.slice(2));
const secret = readDevSecret();
const userId = await localUserId(email);
if (!userId) {
  console.error(`No local user with e-mail ${email} (run npm run db:seed, or npm run dev, first).`);
  process.exit(1);
}
process.stdout.write(`${await mintToken(secret, userId, expiresIn)}\n`);
