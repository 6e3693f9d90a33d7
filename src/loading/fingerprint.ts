import { z } from 'zod';
import type { DataRecord, Hasher as StreamHasher } from '../client';
import { CanonicalLines } from './canonical-bytes';
import { Sha256 } from './sha256';

/**
 * A fingerprint of what a load or refresh received: how many records, and a SHA-256 an auditor can
 * recompute from the service's answer (docs/workbook.md, "Fingerprints"). The canonical form of a record
 * is its JSON with the keys of every object sorted (RFC 8785 JSON Canonicalization: keys by UTF-16 code
 * units, JSON.stringify's strings and numbers), one record per line, each line ending in "\n", in the
 * order the service sent them; the hash is over those lines in UTF-8.
 */
export const FINGERPRINT_METHOD = 'sha256/jcs-lines/1';

export const fingerprint = z.strictObject({
  method: z.literal(FINGERPRINT_METHOD),
  count: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type Fingerprint = z.infer<typeof fingerprint>;

/** A record's canonical JSON text (RFC 8785 for the JSON a service sends: no -0, no NaN). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  let first = true;
  for (const { key, prefix } of sortedKeys(record)) {
    const v = record[key];
    if (v === undefined) continue;
    out += (first ? prefix : `,${prefix}`) + (typeof v === 'string' ? JSON.stringify(v) : canonicalJson(v));
    first = false;
  }
  return `${out}}`;
}

/**
 * Records of a dataset share their keys: the sorted order, with each key's JSON text, is kept per key
 * list (a few shapes at most), and a record with the keys of the one before it is known without a lookup.
 */
interface Order {
  keys: string[];
  sorted: { key: string; prefix: string }[];
}
const orders = new Map<string, Order['sorted']>();
let lastOrder: Order | null = null;
function sortedKeys(o: Record<string, unknown>): Order['sorted'] {
  const keys = Object.keys(o);
  const last = lastOrder;
  if (last && last.keys.length === keys.length && last.keys.every((k, i) => k === keys[i])) return last.sorted;
  const id = keys.join('\u0000');
  let sorted = orders.get(id);
  if (!sorted) {
    if (orders.size > 1000) orders.clear();
    // UTF-16 code unit order, as RFC 8785 sorts (the default sort of strings).
    sorted = [...keys].sort().map((key) => ({ key, prefix: `${JSON.stringify(key)}:` }));
    orders.set(id, sorted);
  }
  lastOrder = { keys, sorted };
  return sorted;
}

/** A SHA-256 fed piece by piece: Sha256 here, node:crypto's createHash('sha256') in Node (ten times faster). */
export interface Hasher {
  update(bytes: Uint8Array): unknown;
  hex(): string;
}

export interface Fingerprinter {
  /** A promise: wait for it before adding more (the hash runs on a worker that is behind: sha256-thread.ts). */
  add(records: readonly DataRecord[]): Promise<void> | undefined;
  count(): number;
  /** The fingerprint of everything added; call once. */
  done(): Promise<Fingerprint>;
}

/** Fed the records batch by batch as they arrive; `done` gives the fingerprint. */
export function fingerprinter(hasher: () => Hasher | StreamHasher = () => new Sha256()): Fingerprinter {
  const hash = hasher();
  const lines = new CanonicalLines();
  let count = 0;
  let result: Promise<Fingerprint> | null = null;
  return {
    add(records) {
      const paced = hash.update(lines.lines(records));
      count += records.length;
      return paced instanceof Promise ? (paced as Promise<void>) : undefined;
    },
    count: () => count,
    done() {
      const records = count;
      result ??= Promise.resolve(hash.hex()).then((sha256) => ({ method: FINGERPRINT_METHOD, count: records, sha256 }));
      return result;
    },
  };
}
