import { createHash } from "node:crypto";

/** A 32-bit seed from any text: the first four bytes of its SHA-256. */
function seedOf(text: string): number {
  return createHash("sha256").update(text).digest().readUInt32BE(0);
}

/** mulberry32: a small, well-mixed 32-bit PRNG; the same seed gives the same sequence everywhere. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `n` of `items` drawn without replacement by a PRNG seeded with `seed`, kept in the items' own
 * order: the same items (in the same order) and the same seed give the same sample on every run
 * and machine. All of them when there are `n` or fewer.
 *
 * @example seededSample(rows, 5, "1") // the same 5 rows every time
 */
export function seededSample<T>(items: readonly T[], n: number, seed: string): T[] {
  if (n >= items.length) return [...items];
  const next = mulberry32(seedOf(seed));
  const index = items.map((_, i) => i);
  // A partial Fisher–Yates shuffle: the first n places end up a uniform draw.
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(next() * (index.length - i));
    [index[i], index[j]] = [index[j] as number, index[i] as number];
  }
  return index
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((i) => items[i] as T);
}
