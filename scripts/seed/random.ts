/**
 * Determinism for the demo data: ids are hashes of names, and every random choice comes from a PRNG seeded
 * by a name, so the same build always produces the same SQL (and the seed can be re-applied idempotently).
 * Its only import has no imports of its own: the module also runs inside workerd.
 */
import { derivedId, hash128, hashHex } from "../../src/db/derived-ids";

export { hashHex };

/** A UUID derived from a kind and a name (version-4 layout, bits from the hash). */
export function seedId(kind: string, ...name: Array<string | number>): string {
  return derivedId("seed-id", kind, ...name);
}

/** A seeded pseudo-random stream (mulberry32) with the helpers the generator uses. */
export class Random {
  private state: number;

  constructor(...seed: Array<string | number>) {
    this.state = hash128(seed.join("\u0000"))[0];
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T {
    const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of choices) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return choices[choices.length - 1][0];
  }

  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, Math.min(count, copy.length));
  }
}
