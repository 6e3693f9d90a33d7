import { hexInto, hexOf } from './sha256';

/** Rows per chunk: 2,048 digests of 32 bytes, 64 KiB. */
const CHUNK_SHIFT = 11;
const CHUNK_ROWS = 1 << CHUNK_SHIFT;
const LOW = CHUNK_ROWS - 1;

/**
 * A table's row digests (SHA-256, 32 bytes each) and the FNV-1a of each row's record key, kept as bytes in
 * chunks that are added as rows come: a load of 1,000,000 rows holds 36 MB here, where the digests as hex
 * strings held 80 MB and their sorted copy joined another 65 MB, and a growing table copies nothing.
 */
export class DigestList {
  private readonly chunks: Uint8Array[] = [];
  private readonly hashChunks: Uint32Array[] = [];
  count = 0;

  /** Adds a row with its key's hash; its digest is then written at `at(row)` of `chunk(row)`. */
  add(keyHash: number): number {
    const r = this.count++;
    if ((r & LOW) === 0) {
      this.chunks.push(new Uint8Array(CHUNK_ROWS * 32));
      this.hashChunks.push(new Uint32Array(CHUNK_ROWS));
    }
    this.hashChunks[r >>> CHUNK_SHIFT]![r & LOW] = keyHash;
    return r;
  }

  chunk(r: number): Uint8Array {
    return this.chunks[r >>> CHUNK_SHIFT]!;
  }

  at(r: number): number {
    return (r & LOW) << 5;
  }

  keyHash(r: number): number {
    return this.hashChunks[r >>> CHUNK_SHIFT]![r & LOW]!;
  }

  hex(r: number): string {
    return hexOf(this.chunk(r), this.at(r));
  }

  /** Row r's digest as lowercase hex into out at `to` (64 bytes). */
  hexInto(r: number, out: Uint8Array, to: number): void {
    hexInto(this.chunk(r), this.at(r), out, to);
  }

  /** Whether row r's digest equals row s's of `other`. */
  same(r: number, other: DigestList, s: number): boolean {
    return equal(this.chunk(r), this.at(r), other.chunk(s), other.at(s));
  }

  /** Row s's digest of `other` as row r's: the same cells over the same fields have the same digest. */
  copy(r: number, other: DigestList, s: number): void {
    const to = this.chunk(r);
    const from = other.chunk(s);
    const i = this.at(r);
    const j = other.at(s);
    for (let k = 0; k < 32; k++) to[i + k] = from[j + k]!;
  }

  /** Whether row r's digest equals the 32 bytes of `digest`. */
  is(r: number, digest: Uint8Array): boolean {
    return equal(this.chunk(r), this.at(r), digest, 0);
  }

  /** Byte order of two rows' digests, which is the order of their hex texts. */
  compare(r: number, s: number): number {
    const a = this.chunk(r);
    const b = this.chunk(s);
    const i = this.at(r);
    const j = this.at(s);
    for (let k = 0; k < 32; k++) if (a[i + k] !== b[j + k]) return a[i + k]! - b[j + k]!;
    return 0;
  }

  /** The digest's first 4 bytes as an unsigned number: its order, unless two rows share them. */
  private prefix(r: number): number {
    const a = this.chunk(r);
    const i = this.at(r);
    return ((a[i]! << 24) | (a[i + 1]! << 16) | (a[i + 2]! << 8) | a[i + 3]!) >>> 0;
  }

  /**
   * The rows in the order of their digests. Each row's prefix and number go into one double (32 + 21 bits,
   * exact), so the sort is a typed array's own, without a comparison function called per pair; rows
   * whose prefixes are equal (identical rows, and a few by chance) are then put in order by all 32 bytes.
   */
  order(): Uint32Array {
    const n = this.count;
    const order = new Uint32Array(n);
    if (n >= 2 ** 21) {
      for (let r = 0; r < n; r++) order[r] = r;
      return order.sort((r, s) => this.compare(r, s));
    }
    const keys = new Float64Array(n);
    for (let r = 0; r < n; r++) keys[r] = this.prefix(r) * 2 ** 21 + r;
    keys.sort();
    for (let i = 0; i < n; i++) order[i] = keys[i]! % 2 ** 21;
    for (let i = 0; i < n; ) {
      const p = this.prefix(order[i]!);
      let j = i + 1;
      while (j < n && this.prefix(order[j]!) === p) j++;
      if (j - i > 1) order.subarray(i, j).sort((r, s) => this.compare(r, s));
      i = j;
    }
    return order;
  }
}

function equal(a: Uint8Array, i: number, b: Uint8Array, j: number): boolean {
  for (let k = 0; k < 32; k++) if (a[i + k] !== b[j + k]) return false;
  return true;
}
