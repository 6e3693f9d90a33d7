/**
 * Deterministic randomness for generated data. Every record is derived from (seed, kind, index) alone, so
 * any record can be produced on demand, in any order, without keeping the dataset in memory.
 */

/** 32-bit integer hash (murmur3 finaliser) of a few numbers. */
export function hash32(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    h = Math.imul(h ^ (p | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  /** `count` distinct integers below n (fewer when n is small). */
  distinct(n: number, count: number): number[];
}

/** mulberry32: small, fast and good enough for test data. */
export function rng(...seedParts: number[]): Rng {
  let a = hash32(...seedParts);
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: (items) => items[int(items.length)]!,
    distinct(n, count) {
      const out = new Set<number>();
      const want = Math.min(n, count);
      while (out.size < want) out.add(int(n));
      return [...out];
    },
  };
}

/** Parses a --seed value: a number, or any text hashed to one. */
export function seedOf(value: string | number): number {
  if (typeof value === 'number') return value >>> 0;
  if (/^\d+$/.test(value)) return Number(value) >>> 0;
  let h = 0;
  for (const ch of value) h = hash32(h, ch.codePointAt(0)!);
  return h;
}
