/**
 * Which URLs an endpoint may have. A deployment sends to public `https` URLs only (and the runtime's
 * `global_fetch_strictly_public` flag keeps fetch off private addresses a name resolves to); the local run
 * (`WEBHOOKS_ALLOW_LOOPBACK`) also sends to `http` on the machine itself, for a receiver started beside it.
 *
 * An address literal is classified by ipaddr.js, which names every special range: only its `unicast` range is an
 * endpoint's. The IPv6 ranges that carry an IPv4 address (mapped, translated, NAT64, 6to4, Teredo) are ranges of
 * their own, so refused whatever they carry; the one ipaddr.js calls unicast, IPv4-compatible (::a.b.c.d, deprecated
 * but still routed by some stacks), is judged by the IPv4 address too. The URL parser has already written the short,
 * hex and octal IPv4 forms (127.1, 0x7f.0.0.1, 2130706433) as dotted decimals, and full-width or ideographic
 * characters as their ASCII forms, so they are judged as what they name. Only the default port (443) is taken, but
 * by the local run. The same check runs at create, update and before every attempt.
 */
import ipaddr from "ipaddr.js";

export const MAX_URL_LENGTH = 2000;

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether an address literal (a URL's hostname, IPv6 in brackets) is one an endpoint may have. */
function isPublicAddress(literal: string): boolean {
  const address = ipaddr.parse(literal.replace(/^\[(.*)\]$/, "$1"));
  if (address.range() !== "unicast") return false;
  if (address.kind() === "ipv4") return true;
  const parts = (address as ipaddr.IPv6).parts;
  if (!parts.slice(0, 6).every((part) => part === 0)) return true;
  const carried = new ipaddr.IPv4([parts[6] >> 8, parts[6] & 0xff, parts[7] >> 8, parts[7] & 0xff]);
  return carried.range() === "unicast";
}

function isAddressLiteral(host: string): boolean {
  return host.startsWith("[") || ipaddr.IPv4.isValidFourPartDecimal(host);
}

/** Whether the local run's loopback receivers are allowed (`WEBHOOKS_ALLOW_LOOPBACK`). */
export function allowsLoopback(env: { WEBHOOKS_ALLOW_LOOPBACK?: string }): boolean {
  return env.WEBHOOKS_ALLOW_LOOPBACK === "true";
}

/** Why a host name cannot be an endpoint's, or undefined when it can. */
function refusedName(host: string, loopbackAllowed: boolean): string | undefined {
  // A trailing dot names the same host as without it, past any check written for the usual spelling.
  if (host.endsWith(".")) return "must not end its host name with a dot";
  // A single label is resolved against the network's own search domains.
  if (!host.includes(".")) return "must name a host with a domain (a single-label name is not public)";
  if (host.endsWith(".localhost")) return "must be a public address";
  if (!loopbackAllowed && host.endsWith(".internal")) return "must be a public address";
  return undefined;
}

/** Why the URL cannot be an endpoint's, or undefined when it can. */
export function refusedUrl(value: string, loopbackAllowed: boolean): string | undefined {
  if (value.length > MAX_URL_LENGTH) return `is longer than ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not a valid URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an https URL";
  if (url.username !== "" || url.password !== "") return "must not hold credentials";
  const host = url.hostname.toLowerCase();
  if (LOOPBACK_NAMES.has(host) && loopbackAllowed) return undefined;
  if (url.protocol !== "https:") return "must be an https URL";
  // The parser drops a port that is the scheme's default.
  if (url.port !== "" && !loopbackAllowed) return "must use the default port (443)";
  if (isAddressLiteral(host)) return isPublicAddress(host) ? undefined : "must be a public address";
  return refusedName(host, loopbackAllowed);
}
