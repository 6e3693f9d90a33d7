/**
 * SHA-256 (FIPS 180-4) in plain TypeScript, for the taskpane: the browser's crypto.subtle.digest is async
 * and takes the whole input at once, so it can neither be fed 200,000 records piece by piece nor hash a
 * table's rows one by one at the speed a refresh needs. Two entry points share one compression function:
 * `sha256Hex` hashes a short text in one go (a table row's line), allocating nothing but the result;
 * `Sha256` is fed bytes piece by piece and keeps 64 bytes (the record fingerprint of a whole load).
 */
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
  0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
  0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** The message schedule, shared: compression is synchronous, so no two calls ever use it at once. */
const W = new Int32Array(64);

/** Compresses the 64-byte blocks of data[from, to) into state; to - from is a multiple of 64. */
function compress(state: Int32Array, data: Uint8Array, from: number, to: number): void {
  let h0 = state[0]!;
  let h1 = state[1]!;
  let h2 = state[2]!;
  let h3 = state[3]!;
  let h4 = state[4]!;
  let h5 = state[5]!;
  let h6 = state[6]!;
  let h7 = state[7]!;
  for (let at = from; at < to; at += 64) {
    for (let t = 0, p = at; t < 16; t++, p += 4) W[t] = (data[p]! << 24) | (data[p + 1]! << 16) | (data[p + 2]! << 8) | data[p + 3]!;
    for (let t = 16; t < 64; t++) {
      const x = W[t - 15]!;
      const y = W[t - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      W[t] = (W[t - 16]! + s0 + W[t - 7]! + s1) | 0;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + (g ^ (e & (f ^ g))) + K[t]! + W[t]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  state[0] = h0;
  state[1] = h1;
  state[2] = h2;
  state[3] = h3;
  state[4] = h4;
  state[5] = h5;
  state[6] = h6;
  state[7] = h7;
}

/**
 * Pads the message whose last `filled` bytes (of `length` in all) are at buf[0, filled) in place and
 * compresses the rest of it; buf has room for filled + 72 bytes.
 */
function finish(state: Int32Array, buf: Uint8Array, filled: number, length: number): void {
  const total = (filled + 8 + 64) & ~63;
  buf[filled] = 0x80;
  buf.fill(0, filled + 1, total - 8);
  const high = Math.floor(length / 0x20000000);
  const low = (length << 3) >>> 0;
  buf[total - 8] = high >>> 24;
  buf[total - 7] = high >>> 16;
  buf[total - 6] = high >>> 8;
  buf[total - 5] = high;
  buf[total - 4] = low >>> 24;
  buf[total - 3] = low >>> 16;
  buf[total - 2] = low >>> 8;
  buf[total - 1] = low;
  compress(state, buf, 0, total);
}

/** Byte -> its two lowercase hex digits' char codes, at 2b and 2b + 1. */
const HEX = new Uint16Array(512);
for (let b = 0; b < 256; b++) {
  const digits = b.toString(16).padStart(2, '0');
  HEX[2 * b] = digits.charCodeAt(0);
  HEX[2 * b + 1] = digits.charCodeAt(1);
}
const digits = new Array<number>(64).fill(0);

/**
 * The state as 64 hex digits. One fromCharCode over the digits' codes, not 32 concatenations: about five times
 * faster for 200,000 digests, and it gives flat strings, which the sorting and map lookups that follow
 * (tableprint.ts) read faster too.
 */
function hexOf(state: Int32Array): string {
  for (let i = 0, at = 0; i < 8; i++) {
    const x = state[i]!;
    for (let shift = 24; shift >= 0; shift -= 8, at += 2) {
      const b = 2 * ((x >>> shift) & 0xff);
      digits[at] = HEX[b]!;
      digits[at + 1] = HEX[b + 1]!;
    }
  }
  return String.fromCharCode.apply(null, digits);
}

const encoder = new TextEncoder();
/** Texts longer than this (in UTF-16 code units) are encoded and hashed in pieces of this many. */
const PIECE = 1 << 14;
/** Room for a piece in UTF-8 (at most 3 bytes per code unit: a lone surrogate becomes EF BF BD) and padding. */
let bytes = new Uint8Array(4096);
const oneShot = new Int32Array(8);

/**
 * SHA-256 of a text in UTF-8 (lone surrogates as U+FFFD, as TextEncoder and Buffer.from write them), as 64
 * lowercase hex digits.
 */
export function sha256Hex(text: string): string {
  const n = text.length;
  if (n > PIECE) return new Sha256().updateText(text).hex();
  if (n * 3 + 72 > bytes.length) bytes = new Uint8Array(n * 3 + 72);
  const length = encoder.encodeInto(text, bytes).written;
  const full = length & ~63;
  oneShot.set(IV);
  compress(oneShot, bytes, 0, full);
  if (full) bytes.copyWithin(0, full, length);
  finish(oneShot, bytes, length - full, length);
  return hexOf(oneShot);
}

/** Makes room for `need` bytes in the shared buffer, keeping its first `keep`. */
function room(need: number, keep: number): void {
  if (need <= bytes.length) return;
  const grown = new Uint8Array(Math.max(need, bytes.length * 2));
  grown.set(bytes.subarray(0, keep));
  bytes = grown;
}

/**
 * SHA-256 of `JSON.stringify(cells)` in UTF-8, as 64 lowercase hex digits, without making that text: a
 * table row's line (tableprint.ts) is written straight into the shared buffer. Text without characters
 * JSON escapes or UTF-8 widens (most cells) is copied code unit by code unit; other text, and numbers,
 * go through JSON.stringify, so the bytes are JSON.stringify's exactly (the test holds them equal).
 */
export function sha256Cells(cells: readonly (string | number | boolean | null)[]): string {
  room(256, 0);
  let at = 0;
  bytes[at++] = 0x5b; // [
  for (let i = 0; i < cells.length; i++) {
    if (i) bytes[at++] = 0x2c; // ,
    const c = cells[i];
    if (typeof c === 'string') {
      const n = c.length;
      room(at + n + 3, at);
      const start = at;
      bytes[at++] = 0x22; // "
      let plain = true;
      for (let k = 0; k < n; k++) {
        const u = c.charCodeAt(k);
        if (u < 0x20 || u > 0x7e || u === 0x22 || u === 0x5c) {
          plain = false;
          break;
        }
        bytes[at++] = u;
      }
      if (plain) bytes[at++] = 0x22;
      else {
        const json = JSON.stringify(c);
        // At most 3 bytes of UTF-8 per code unit of the JSON text.
        room(start + json.length * 3 + 8, start);
        at = start + encoder.encodeInto(json, bytes.subarray(start)).written;
      }
    } else {
      const text = c === null ? 'null' : typeof c === 'boolean' ? (c ? 'true' : 'false') : JSON.stringify(c);
      room(at + text.length + 8, at);
      for (let k = 0; k < text.length; k++) bytes[at++] = text.charCodeAt(k);
    }
    room(at + 80, at);
  }
  bytes[at++] = 0x5d; // ]
  const full = at & ~63;
  oneShot.set(IV);
  compress(oneShot, bytes, 0, full);
  if (full) bytes.copyWithin(0, full, at);
  finish(oneShot, bytes, at - full, at);
  return hexOf(oneShot);
}

/** SHA-256 fed piece by piece; `hex` ends it. */
export class Sha256 {
  private readonly state = Int32Array.from(IV);
  /** A block's worth of input not yet compressed, plus room for the padding. */
  private readonly block = new Uint8Array(128);
  private filled = 0;
  private length = 0;

  update(data: Uint8Array): this {
    this.length += data.length;
    let i = 0;
    if (this.filled) {
      const take = Math.min(64 - this.filled, data.length);
      this.block.set(data.subarray(0, take), this.filled);
      this.filled += take;
      i = take;
      if (this.filled < 64) return this;
      compress(this.state, this.block, 0, 64);
      this.filled = 0;
    }
    const full = i + ((data.length - i) & ~63);
    compress(this.state, data, i, full);
    if (full < data.length) {
      this.block.set(data.subarray(full), 0);
      this.filled = data.length - full;
    }
    return this;
  }

  /** Feeds a text in UTF-8 (as sha256Hex encodes it), a piece at a time through a shared buffer. */
  updateText(text: string): this {
    if (PIECE * 3 > bytes.length) bytes = new Uint8Array(PIECE * 3 + 72);
    for (let at = 0; at < text.length; ) {
      let end = Math.min(at + PIECE, text.length);
      // Never split a surrogate pair: its halves apart would each become U+FFFD.
      if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
      const written = encoder.encodeInto(text.slice(at, end), bytes).written;
      this.update(bytes.subarray(0, written));
      at = end;
    }
    return this;
  }

  /** The digest as lowercase hex; the object is spent afterwards. */
  hex(): string {
    finish(this.state, this.block, this.filled, this.length);
    return hexOf(this.state);
  }
}
