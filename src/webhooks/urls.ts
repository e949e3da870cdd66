/**
 * Which URLs an endpoint may have. A deployment sends to public `https` URLs only (and the runtime's
 * `global_fetch_strictly_public` flag keeps fetch off private addresses a name resolves to); the local run
 * (`WEBHOOKS_ALLOW_LOOPBACK`) also sends to `http` on the machine itself, for a receiver started beside it.
 */
export const MAX_URL_LENGTH = 2000;

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A part of an IPv4 literal as the URL standard reads it: decimal, hex (0x) or octal (leading 0). */
function ipv4Number(part: string): number | undefined {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part, 8);
  if (/^\d+$/.test(part)) return Number(part);
  return undefined;
}

/**
 * The four bytes of an IPv4 literal, in any of the forms the URL standard reads as one (127.1, 0x7f.0.0.1,
 * 2130706433), or undefined: a host that some parser might take for an address is judged as that address.
 */
function ipv4(host: string): number[] | undefined {
  const parts = host.replace(/\.$/, "").split(".");
  if (parts.length > 4) return undefined;
  const numbers = parts.map(ipv4Number);
  if (numbers.some((n) => n === undefined)) return undefined;
  const values = numbers as number[];
  const last = values.pop()!;
  if (values.some((n) => n > 255) || last >= 256 ** (4 - values.length)) return undefined;
  let address = last;
  values.forEach((n, index) => (address += n * 256 ** (3 - index)));
  return [address >>> 24, (address >>> 16) & 0xff, (address >>> 8) & 0xff, address & 0xff];
}

function isPrivateV4([a, b]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

/** The eight 16-bit groups of an IPv6 literal as the URL parser writes it (compressed, lower case), or undefined. */
function ipv6Groups(host: string): number[] | undefined {
  if (!host.startsWith("[") || !host.endsWith("]")) return undefined;
  const text = host.slice(1, -1);
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  const groups = tail === undefined ? first : [...first, ...new Array(8 - first.length - last.length).fill(0), ...last];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}

function isPrivateV6(groups: number[]): boolean {
  const [first] = groups;
  if (groups.every((group) => group === 0)) return true; // ::
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return true; // ::1
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10
  // ::ffff:a.b.c.d, an IPv4 address mapped into IPv6.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return isPrivateV4([groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff]);
  }
  return false;
}

/** Whether the local run's loopback receivers are allowed (`WEBHOOKS_ALLOW_LOOPBACK`). */
export function allowsLoopback(env: { WEBHOOKS_ALLOW_LOOPBACK?: string }): boolean {
  return env.WEBHOOKS_ALLOW_LOOPBACK === "true";
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
  const loopback = LOOPBACK_NAMES.has(host);
  if (loopback && loopbackAllowed) return undefined;
  if (url.protocol !== "https:") return "must be an https URL";
  if (!loopbackAllowed && (host === "localhost" || host.endsWith(".localhost") || host === "internal" || host.endsWith(".internal"))) return "must be a public address";
  const v4 = ipv4(host);
  if (v4 && isPrivateV4(v4)) return "must be a public address";
  const v6 = ipv6Groups(host);
  if (v6 && isPrivateV6(v6)) return "must be a public address";
  return undefined;
}
