/**
 * JSON text written straight into a byte buffer, the bytes JSON.stringify's text has in UTF-8, without making
 * that text: a table row's line for its cell digest (sha256.ts `sha256Cells`) and the record fingerprint's
 * lines (loading/canonical-bytes.ts) are written so, a few hundred thousand a load.
 */

/** Writes an integer's decimal digits (JSON.stringify's text; -0 as 0) at `at`, where buf has room for 12 bytes; returns the end. */
export function writeInt(buf: Uint8Array, x: number, at: number): number {
  if (x < 0) {
    buf[at++] = 0x2d; // -
    x = -x;
  }
  let end = at;
  for (let rest = x; rest >= 10; rest = Math.floor(rest / 10)) end++;
  for (let p = end; p >= at; p--, x = Math.floor(x / 10)) buf[p] = 0x30 + (x % 10);
  return end + 1;
}

/**
 * Writes a string's JSON text at `at`, where buf has room for its length + 2 bytes, when none of its code
 * units is one JSON escapes or UTF-8 widens (most cells, ids, names), copying them as they are; returns the
 * end, or -1 for any other string, whose JSON.stringify text the caller encodes instead.
 */
export function writePlainString(buf: Uint8Array, s: string, at: number): number {
  const n = s.length;
  buf[at++] = 0x22; // "
  for (let k = 0; k < n; k++) {
    const u = s.charCodeAt(k);
    if (u < 0x20 || u > 0x7e || u === 0x22 || u === 0x5c) return -1;
    buf[at++] = u;
  }
  buf[at++] = 0x22;
  return at;
}
