import * as jsonBytes from './json-bytes';
import { compress } from './sha256-rounds';

// Copied into this module's constants: under the CommonJS the CLI runs as, an imported binding is read
// through a getter on every call, and these are called once a cell.
const { writeInt, writePlainString } = jsonBytes;

/**
 * SHA-256 (FIPS 180-4) in plain TypeScript, for the taskpane: the browser's crypto.subtle.digest is async
 * and takes the whole input at once, so it can neither be fed 200,000 records piece by piece nor hash a
 * table's rows one by one at the speed a load needs. The entry points share one compression function
 * (sha256-rounds.ts): `sha256Hex` hashes a short text in one go, `sha256Cells` a table row's line straight
 * into a digest list's bytes, and `Sha256` is fed bytes piece by piece (the record fingerprint of a load).
 */
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/**
 * Writes the padding after the `filled` bytes at the start of buf that end a message of `length` bytes in
 * all (buf has room for filled + 72); returns where the padded blocks end.
 */
function pad(buf: Uint8Array, at: DataView, filled: number, length: number): number {
  const end = (filled + 72) & ~63;
  buf[filled] = 0x80;
  buf.fill(0, filled + 1, end - 8);
  at.setUint32(end - 8, Math.floor(length / 0x20000000));
  at.setUint32(end - 4, (length << 3) >>> 0);
  return end;
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
 * bytes[at, at + 32) as 64 lowercase hex digits. One fromCharCode over the digits' codes, not 32
 * concatenations: several times faster, and it gives flat strings, which map lookups read faster too.
 */
export function hexOf(bytes: Uint8Array, at = 0): string {
  for (let i = 0; i < 32; i++) {
    const b = 2 * bytes[at + i]!;
    digits[2 * i] = HEX[b]!;
    digits[2 * i + 1] = HEX[b + 1]!;
  }
  return String.fromCharCode.apply(null, digits);
}

/** Writes bytes[at, at + 32) as 64 lowercase hex digits (ASCII) into out at `to`. */
export function hexInto(bytes: Uint8Array, at: number, out: Uint8Array, to: number): void {
  for (let i = 0; i < 32; i++) {
    const b = 2 * bytes[at + i]!;
    out[to + 2 * i] = HEX[b]!;
    out[to + 2 * i + 1] = HEX[b + 1]!;
  }
}

/** The state's 32 bytes (big-endian words) into out at `at`. */
function stateInto(state: Int32Array, out: Uint8Array, at: number): void {
  for (let i = 0; i < 8; i++) {
    const x = state[i]!;
    out[at + 4 * i] = x >>> 24;
    out[at + 4 * i + 1] = x >>> 16;
    out[at + 4 * i + 2] = x >>> 8;
    out[at + 4 * i + 3] = x;
  }
}

const encoder = new TextEncoder();
/** Texts longer than this (in UTF-16 code units) are encoded and hashed in pieces of this many. */
const PIECE = 1 << 14;
/** The shared buffer a one-shot hash writes its input into (grown when a line needs more), and its view. */
let bytes = new Uint8Array(4096);
let view = new DataView(bytes.buffer);
const oneShot = new Int32Array(8);
const digest32 = new Uint8Array(32);

/** The one-shot hash of bytes[0, length) of the shared buffer (which has room for the padding after it), into oneShot. */
function hashShared(length: number): void {
  oneShot.set(IV);
  compress(oneShot, view, 0, pad(bytes, view, length, length));
}

/**
 * SHA-256 of a text in UTF-8 (lone surrogates as U+FFFD, as TextEncoder and Buffer.from write them), as 64
 * lowercase hex digits.
 */
export function sha256Hex(text: string): string {
  sha256Text(text, digest32, 0);
  return hexOf(digest32);
}

/** SHA-256 of a text in UTF-8, written as 32 bytes into out at `to`. */
export function sha256Text(text: string, out: Uint8Array, to: number): void {
  const n = text.length;
  if (n > PIECE) {
    new Sha256().updateText(text).digestInto(out, to);
    return;
  }
  room(n * 3 + 72, 0);
  hashShared(encoder.encodeInto(text, bytes).written);
  stateInto(oneShot, out, to);
}

/** Makes room for `need` bytes in the shared buffer, keeping its first `keep`; returns the buffer. */
function room(need: number, keep: number): Uint8Array {
  if (need <= bytes.length) return bytes;
  const grown = new Uint8Array(Math.max(need, bytes.length * 2));
  grown.set(bytes.subarray(0, keep));
  bytes = grown;
  view = new DataView(bytes.buffer);
  return bytes;
}

/**
 * SHA-256 of `JSON.stringify(cells)` in UTF-8, written as 32 bytes into out at `to`, without making that
 * text: a table row's line (tableprint.ts) is written straight into the shared buffer. Text without
 * characters JSON escapes or UTF-8 widens (most cells) is copied code unit by code unit, and integers are
 * written digit by digit; other text, and other numbers, go through JSON.stringify, so the bytes are
 * JSON.stringify's exactly (the test holds them equal).
 */
export function sha256Cells(cells: readonly (string | number | boolean | null)[], out: Uint8Array, to: number): void {
  hashShared(writeCells(cells));
  stateInto(oneShot, out, to);
}

/** SHA-256 of `data`, written as 32 bytes into out at `to` (a row's line, hashed on the worker: sha256-worker.ts). */
export function sha256Bytes(data: Uint8Array, out: Uint8Array, to: number): void {
  room(data.length + 72, 0);
  bytes.set(data, 0);
  hashShared(data.length);
  stateInto(oneShot, out, to);
}

/**
 * The bytes sha256Cells hashes for these cells (`JSON.stringify(cells)` in UTF-8), for a hash made elsewhere
 * (the taskpane's worker: sha256-thread.ts); a view of a shared buffer, valid until the next call here.
 */
export function cellsLine(cells: readonly (string | number | boolean | null)[]): Uint8Array {
  // Written first: writing may replace the shared buffer.
  const length = writeCells(cells);
  return bytes.subarray(0, length);
}

/** Writes the line of `cells` at the start of the shared buffer (with room for the padding after it); its length. */
function writeCells(cells: readonly (string | number | boolean | null)[]): number {
  // The buffer in a local (V8 keeps it in a register in the loops); only `room` replaces it.
  let buf = room(256, 0);
  let at = 0;
  buf[at++] = 0x5b; // [
  for (let i = 0; i < cells.length; i++) {
    if (i) buf[at++] = 0x2c; // ,
    const c = cells[i];
    if (typeof c === 'string') {
      buf = room(at + c.length + 80, at);
      const end = writePlainString(buf, c, at);
      if (end >= 0) at = end;
      else {
        const json = JSON.stringify(c);
        // At most 3 bytes of UTF-8 per code unit of the JSON text.
        buf = room(at + json.length * 3 + 80, at);
        at += encoder.encodeInto(json, buf.subarray(at)).written;
      }
    } else if (c === null) {
      buf[at++] = 0x6e; // null
      buf[at++] = 0x75;
      buf[at++] = 0x6c;
      buf[at++] = 0x6c;
    } else if (typeof c === 'number' && (c | 0) === c) at = writeInt(buf, c, at);
    else {
      const text = typeof c === 'boolean' ? (c ? 'true' : 'false') : JSON.stringify(c);
      for (let k = 0; k < text.length; k++) buf[at++] = text.charCodeAt(k);
    }
    // Room for the next cell's comma, a number or literal, and the closing bracket with the padding.
    buf = room(at + 80, at);
  }
  buf[at++] = 0x5d; // ]
  return at;
}

/**
 * Where a SHA-256 stands after a whole number of 64-byte blocks: its eight state words and the bytes hashed.
 * Enough to carry on from there elsewhere (a hashing worker hands it back with each batch: sha256-thread.ts).
 */
export interface Midstate {
  state: Int32Array;
  length: number;
}

/** SHA-256 fed piece by piece; `hex` ends it. */
export class Sha256 {
  private readonly state: Int32Array;
  /** A block's worth of input not yet compressed, plus room for the padding. */
  private readonly block = new Uint8Array(128);
  private readonly blockView = new DataView(this.block.buffer);
  private filled = 0;
  private length: number;

  /** From the start, or carrying on from `from` (a copy is taken). */
  constructor(from?: Midstate) {
    this.state = from ? Int32Array.from(from.state) : Int32Array.from(IV);
    this.length = from?.length ?? 0;
  }

  /** Where this hash stands (a copy); only between whole blocks: every update so far a multiple of 64 bytes long. */
  midstate(): Midstate {
    if (this.filled) throw new Error('SHA-256 midstate asked for inside a block');
    return { state: Int32Array.from(this.state), length: this.length };
  }

  update(data: Uint8Array): this {
    this.length += data.length;
    let i = 0;
    if (this.filled) {
      const take = Math.min(64 - this.filled, data.length);
      this.block.set(data.subarray(0, take), this.filled);
      this.filled += take;
      i = take;
      if (this.filled < 64) return this;
      compress(this.state, this.blockView, 0, 64);
      this.filled = 0;
    }
    const full = i + ((data.length - i) & ~63);
    if (full > i) compress(this.state, new DataView(data.buffer, data.byteOffset, data.byteLength), i, full);
    if (full < data.length) {
      this.block.set(data.subarray(full), 0);
      this.filled = data.length - full;
    }
    return this;
  }

  /** Feeds a text in UTF-8 (as sha256Hex encodes it), a piece at a time through the shared buffer. */
  updateText(text: string): this {
    room(PIECE * 3 + 72, 0);
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

  /** The digest's 32 bytes into out at `to`; the object is spent afterwards. */
  digestInto(out: Uint8Array, to: number): void {
    compress(this.state, this.blockView, 0, pad(this.block, this.blockView, this.filled, this.length));
    stateInto(this.state, out, to);
  }

  /** The digest as lowercase hex; the object is spent afterwards. */
  hex(): string {
    this.digestInto(digest32, 0);
    return hexOf(digest32);
  }
}
