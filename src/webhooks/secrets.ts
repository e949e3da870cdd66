/**
 * Endpoint secrets (Standard Webhooks): `whsec_` and the base64 of 32 random bytes. Stored encrypted with AES-GCM
 * under a key derived from the Worker secret WEBHOOK_SECRETS_KEY; answered once, when made. Deliveries are signed
 * with HMAC-SHA256 over `${id}.${timestamp}.${body}`, keyed by the secret's bytes.
 */
import { ApiError } from "../jsonapi/errors";
import { MIN_SECRET_LENGTH } from "../settings";

const PREFIX = "whsec_";
const STORED_VERSION = "v1.";

function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

export function newSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

async function storageKey(env: { WEBHOOK_SECRETS_KEY?: string }): Promise<CryptoKey> {
  const material = env.WEBHOOK_SECRETS_KEY;
  // Webhooks alone depend on it: the rest of the service answers without it.
  if (!material || material.length < MIN_SECRET_LENGTH) {
    throw new ApiError(503, [{ detail: `Webhooks are not configured: WEBHOOK_SECRETS_KEY must be set, at least ${MIN_SECRET_LENGTH} characters long` }]);
  }
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`webhook secrets:${material}`));
  return crypto.subtle.importKey("raw", digest, "AES-GCM", false, ["encrypt", "decrypt"]);
}

export async function encryptSecret(env: { WEBHOOK_SECRETS_KEY?: string }, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await storageKey(env), new TextEncoder().encode(secret)));
  const joined = new Uint8Array(iv.length + sealed.length);
  joined.set(iv);
  joined.set(sealed, iv.length);
  return STORED_VERSION + toBase64(joined);
}

export async function decryptSecret(env: { WEBHOOK_SECRETS_KEY?: string }, stored: string): Promise<string> {
  if (!stored.startsWith(STORED_VERSION)) throw new Error("not a stored webhook secret");
  const joined = fromBase64(stored.slice(STORED_VERSION.length));
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: joined.slice(0, 12) }, await storageKey(env), joined.slice(12));
  return new TextDecoder().decode(plain);
}

/** `v1,<base64 HMAC>` of one message under one secret. */
export async function signature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", fromBase64(secret.slice(PREFIX.length)), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** The `webhook-signature` header: one signature per secret in use, space-separated. */
export async function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): Promise<string> {
  return (await Promise.all(secrets.map((secret) => signature(secret, id, timestamp, body)))).join(" ");
}
