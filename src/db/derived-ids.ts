/**
 * Ids derived from names: the same parts always give the same UUID. For records that are built again on every
 * read (an import's sample contacts) and for demo data that must come out the same on every build. No imports:
 * the module also runs in the seed scripts.
 */

/** 128-bit string hash (cyrb128) as four unsigned 32-bit words. */
export function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** 128 hash bits as 32 hex characters. */
export function hashHex(...parts: Array<string | number>): string {
  return hash128(parts.join("\u0000"))
    .map((word) => word.toString(16).padStart(8, "0"))
    .join("");
}

/**
 * A UUID derived from its parts. It has the version-4 layout (version nibble 4, RFC variant) so that any UUID
 * validator accepts it, although its bits come from the hash rather than from randomness.
 */
export function derivedId(...parts: Array<string | number>): string {
  const hex = hashHex(...parts).split("");
  hex[12] = "4";
  hex[16] = "89ab"[parseInt(hex[16], 16) & 3];
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
