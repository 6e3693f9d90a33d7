import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { once } from 'node:events';
import { constants, crc32, createInflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import { Inflate, inflateSync } from 'fflate';
import { FileProblem } from './problem';

/**
 * The zip container of an .xlsx package, read and written here so that an entry we do not change is
 * copied as its original compressed bytes (same method, same CRC, same content, byte for byte), and an
 * entry we rewrite is deflated as it streams out. Libraries that rebuild the whole zip (and every part
 * in it) are what loses pivot tables and charts.
 */

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  time: number;
  date: number;
  /** Where the entry's local header starts in the source file. */
  localOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const U32 = 0xffffffff;

/** A zip read through a file descriptor: only the central directory is held; entries are read when asked. */
export class ZipReader {
  readonly entries: Map<string, ZipEntry>;
  private constructor(
    private readonly fd: number,
    readonly size: number,
    entries: ZipEntry[],
  ) {
    this.entries = new Map(entries.map((e) => [e.name, e]));
  }

  static open(path: string): ZipReader {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      return new ZipReader(fd, size, readDirectory(fd, size));
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  close(): void {
    closeSync(this.fd);
  }

  private read(position: number, length: number): Buffer {
    const buf = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = readSync(this.fd, buf, done, length - done, position + done);
      if (n === 0) throw new FileProblem('not-a-workbook', 'The file ends in the middle of a zip entry: it is damaged or was cut short.');
      done += n;
    }
    return buf;
  }

  /** Where the entry's compressed data starts (after its local header, whose extra field may differ from the central one). */
  private dataOffset(e: ZipEntry): number {
    const head = this.read(e.localOffset, 30);
    if (head.readUInt32LE(0) !== LOCAL) throw new FileProblem('not-a-workbook', `The zip entry ${e.name} has no valid header: the file is damaged.`);
    return e.localOffset + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
  }

  /** The compressed bytes, in pieces of at most `piece` bytes. */
  *raw(e: ZipEntry, piece = 1 << 20): Generator<Buffer> {
    const start = this.dataOffset(e);
    for (let at = 0; at < e.compressedSize; at += piece) yield this.read(start + at, Math.min(piece, e.compressedSize - at));
  }

  /** The whole entry, decompressed: for the small parts (workbook, tables, styles, relationships). */
  bytes(name: string): Uint8Array {
    const e = this.entries.get(name);
    if (!e) throw new FileProblem('not-a-workbook', `The package has no part ${name}.`);
    if (e.flags & 1) throw new FileProblem('encrypted', 'The workbook is encrypted with a password; open it in Excel, remove the password (File > Info > Protect Workbook), save, and try again.');
    const data = Buffer.concat([...this.raw(e)]);
    if (e.method === 0) return data;
    if (e.method !== 8) throw new FileProblem('not-a-workbook', `The zip entry ${name} uses compression method ${e.method}, which Office never writes.`);
    return inflateSync(data, { out: new Uint8Array(e.size) });
  }

  text(name: string): string {
    return new TextDecoder().decode(this.bytes(name));
  }

  /**
   * The entry's text in pieces as it inflates, for parts too big to hold twice (worksheets). Pieces are at
   * most TEXT_PIECE bytes of UTF-8: a bigger string goes to the engine's large-object space, which only a
   * full collection frees, and a worksheet read in 10 MB strings left hundreds of MB of them waiting.
   */
  *textChunks(name: string): Generator<string> {
    const e = this.entries.get(name);
    if (!e) throw new FileProblem('not-a-workbook', `The package has no part ${name}.`);
    const decoder = new TextDecoder();
    const out: string[] = [];
    const decode = (bytes: Uint8Array) => {
      for (let at = 0; at < bytes.length; at += TEXT_PIECE) out.push(decoder.decode(bytes.subarray(at, at + TEXT_PIECE), { stream: true }));
    };
    if (e.method === 0) {
      for (const piece of this.raw(e)) {
        decode(piece);
        yield* out.splice(0);
      }
      return;
    }
    const whole = e.method === 8 && e.size <= WHOLE_INFLATE ? this.inflateWhole(e) : null;
    if (whole) {
      for (let at = 0; at < whole.length; at += TEXT_PIECE) yield decoder.decode(whole.subarray(at, at + TEXT_PIECE), { stream: true });
      yield decoder.decode();
      return;
    }
    const inflate = new Inflate(decode);
    for (const piece of this.raw(e)) {
      inflate.push(piece);
      yield* out.splice(0);
    }
    inflate.push(new Uint8Array(0), true);
    out.push(decoder.decode());
    yield* out.splice(0);
  }

  /**
   * A part of at most WHOLE_INFLATE bytes inflated by node:zlib at once, several times faster than fflate
   * streams it (a refresh's save reads the Changes sheet it appends to so), held as bytes outside the JS
   * heap while it is read; null when it does not inflate to that size (fflate then says what is wrong).
   */
  private inflateWhole(e: ZipEntry): Buffer | null {
    try {
      return inflateRawSync(Buffer.concat([...this.raw(e)]), { maxOutputLength: WHOLE_INFLATE });
    } catch {
      return null;
    }
  }

  /**
   * textChunks, inflated by node:zlib on its thread pool while the caller works on what came before: the
   * reads of a big worksheet that can wait (a refresh's passes over its table) take half the main
   * thread's time fflate does there. Stopping early (a `break`) stops the inflation.
   */
  async *textChunksAsync(name: string): AsyncGenerator<string> {
    const decoder = new TextDecoder();
    for await (const out of this.bytesAsync(name)) {
      for (let at = 0; at < out.length; at += TEXT_PIECE) yield decoder.decode(out.subarray(at, at + TEXT_PIECE), { stream: true });
    }
    yield decoder.decode();
  }

  /** The entry's bytes as they inflate on node:zlib's thread pool (textChunksAsync without the text). */
  async *bytesAsync(name: string): AsyncGenerator<Uint8Array> {
    const e = this.entries.get(name);
    if (!e) throw new FileProblem('not-a-workbook', `The package has no part ${name}.`);
    if (e.method === 0) {
      yield* this.raw(e);
      return;
    }
    const inflate = createInflateRaw();
    const feed = (async () => {
      for (const piece of this.raw(e)) {
        if (inflate.destroyed) return;
        if (!inflate.write(piece)) await once(inflate, 'drain');
      }
      inflate.end();
    })().catch((err: Error) => inflate.destroy(err));
    try {
      for await (const out of inflate as AsyncIterable<Buffer>) yield out;
      await feed;
    } catch (err) {
      throw new FileProblem('not-a-workbook', `The zip entry ${name} cannot be inflated (${(err as Error).message}): the file is damaged.`);
    } finally {
      inflate.destroy();
    }
  }
}

const TEXT_PIECE = 1 << 16;
/** Parts up to this size are inflated whole by node:zlib when read at once (textChunks); bigger ones stream through fflate. */
const WHOLE_INFLATE = 64 << 20;

function readDirectory(fd: number, size: number): ZipEntry[] {
  const tailSize = Math.min(size, 65_557);
  const tail = Buffer.alloc(tailSize);
  readSync(fd, tail, 0, tailSize, size - tailSize);
  let eocd = -1;
  for (let i = tailSize - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new FileProblem('not-a-zip', 'The file is not a zip package, so it is not an .xlsx workbook (an old .xls, a CSV or another file renamed?). Save it from Excel as "Excel Workbook (*.xlsx)".');
  let count = tail.readUInt16LE(eocd + 10);
  let cdSize = tail.readUInt32LE(eocd + 12);
  let cdOffset = tail.readUInt32LE(eocd + 16);
  if ((count === 0xffff || cdOffset === U32 || cdSize === U32) && eocd >= 20 && tail.readUInt32LE(eocd - 20) === EOCD64_LOCATOR) {
    const at = Number(tail.readBigUInt64LE(eocd - 12));
    const rec = Buffer.alloc(56);
    readSync(fd, rec, 0, 56, at);
    count = Number(rec.readBigUInt64LE(32));
    cdSize = Number(rec.readBigUInt64LE(40));
    cdOffset = Number(rec.readBigUInt64LE(48));
  }
  const cd = Buffer.alloc(cdSize);
  readSync(fd, cd, 0, cdSize, cdOffset);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (cd.readUInt32LE(p) !== CENTRAL) throw new FileProblem('not-a-zip', 'The zip directory of the file is damaged; open and save it again in Excel.');
    const nameLen = cd.readUInt16LE(p + 28);
    const extraLen = cd.readUInt16LE(p + 30);
    const commentLen = cd.readUInt16LE(p + 32);
    const e: ZipEntry = {
      flags: cd.readUInt16LE(p + 8),
      method: cd.readUInt16LE(p + 10),
      time: cd.readUInt16LE(p + 12),
      date: cd.readUInt16LE(p + 14),
      crc: cd.readUInt32LE(p + 16),
      compressedSize: cd.readUInt32LE(p + 20),
      size: cd.readUInt32LE(p + 24),
      localOffset: cd.readUInt32LE(p + 42),
      name: cd.toString('utf8', p + 46, p + 46 + nameLen),
    };
    readZip64Extra(cd.subarray(p + 46 + nameLen, p + 46 + nameLen + extraLen), e);
    entries.push(e);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Sizes and offset that did not fit 32 bits sit, in this order, in the zip64 extra field. */
function readZip64Extra(extra: Buffer, e: ZipEntry): void {
  for (let q = 0; q + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(q);
    const len = extra.readUInt16LE(q + 2);
    if (id === 1) {
      let r = q + 4;
      if (e.size === U32) {
        e.size = Number(extra.readBigUInt64LE(r));
        r += 8;
      }
      if (e.compressedSize === U32) {
        e.compressedSize = Number(extra.readBigUInt64LE(r));
        r += 8;
      }
      if (e.localOffset === U32) e.localOffset = Number(extra.readBigUInt64LE(r));
    }
    q += 4 + len;
  }
}

/** The DOS date and time of now, for entries we write. */
function dosNow(): { time: number; date: number } {
  const d = new Date();
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
    date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

interface Written {
  name: Buffer;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** Writes a zip to a file descriptor: raw copies of source entries and new entries deflated as they stream. */
export class ZipWriter {
  private position = 0;
  private readonly written: Written[] = [];
  constructor(
    private readonly fd: number,
    private readonly level: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 = 6,
  ) {}

  private out(buf: Uint8Array): void {
    let done = 0;
    while (done < buf.length) done += writeSync(this.fd, buf, done, buf.length - done, this.position + done);
    this.position += buf.length;
  }

  private local(w: Written): Buffer {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(LOCAL, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(w.flags, 6);
    h.writeUInt16LE(w.method, 8);
    h.writeUInt16LE(w.time, 10);
    h.writeUInt16LE(w.date, 12);
    h.writeUInt32LE(w.crc >>> 0, 14);
    h.writeUInt32LE(w.compressedSize, 18);
    h.writeUInt32LE(w.size, 22);
    h.writeUInt16LE(w.name.length, 26);
    h.writeUInt16LE(0, 28);
    return Buffer.concat([h, w.name]);
  }

  /** The entry as it was: its compressed bytes copied, never inflated. */
  copy(source: ZipReader, e: ZipEntry): void {
    // Bit 3 (sizes in a trailing descriptor) is cleared: the sizes are known and go in the header.
    const w: Written = { name: Buffer.from(e.name, 'utf8'), flags: e.flags & ~8, method: e.method, time: e.time, date: e.date, crc: e.crc, compressedSize: e.compressedSize, size: e.size, offset: this.position };
    this.guard(w);
    this.out(this.local(w));
    for (const piece of source.raw(e)) this.out(piece);
    this.written.push(w);
  }

  /**
   * A new entry from text pieces, deflated as they come; the header is completed once the sizes are known.
   * Each piece of about 256 KB is deflated on its own and ended with a sync flush, the last one with the
   * final block: together one valid deflate stream (RFC 1951 blocks may follow each other so). Node's zlib
   * does this four to six times faster than fflate, and deflating is most of the time a save takes.
   */
  add(name: string, pieces: Iterable<string | Uint8Array>): void {
    const w: Written = { name: Buffer.from(name, 'utf8'), flags: 0x800, method: 8, crc: 0, compressedSize: 0, size: 0, offset: this.position, ...dosNow() };
    const header = this.local(w);
    this.out(header);
    const deflate = (bytes: Uint8Array, last: boolean) => {
      w.crc = crc32(bytes, w.crc);
      w.size += bytes.length;
      const packed = deflateRawSync(bytes, { level: this.level, finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH });
      w.compressedSize += packed.length;
      this.out(packed);
    };
    // Pieces are encoded as they come (their bytes live outside the JavaScript heap, so a big save does
    // not push the collector into full collections) and gathered so each deflate call has about 1 MB.
    let pending: Uint8Array[] = [];
    let pendingLength = 0;
    let held: Uint8Array | null = null;
    const flush = () => {
      if (!pendingLength) return;
      if (held) deflate(held, false);
      held = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingLength);
      pending = [];
      pendingLength = 0;
    };
    for (const piece of pieces) {
      const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
      pending.push(bytes);
      pendingLength += bytes.length;
      if (pendingLength >= 1 << 20) flush();
    }
    flush();
    deflate(held ?? new Uint8Array(0), true);
    this.guard(w);
    const done = this.local(w);
    writeSync(this.fd, done, 0, done.length, w.offset);
    this.written.push(w);
  }

  private guard(w: Written): void {
    if (w.size >= U32 || w.compressedSize >= U32 || this.position >= U32) {
      throw new FileProblem('too-big', 'The workbook would pass 4 GB, the most a zip without zip64 holds; split the data over several workbooks.');
    }
  }

  /** Writes the central directory; the caller closes the descriptor. */
  finish(): void {
    const start = this.position;
    for (const w of this.written) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(CENTRAL, 0);
      h.writeUInt16LE(20, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(w.flags, 8);
      h.writeUInt16LE(w.method, 10);
      h.writeUInt16LE(w.time, 12);
      h.writeUInt16LE(w.date, 14);
      h.writeUInt32LE(w.crc >>> 0, 16);
      h.writeUInt32LE(w.compressedSize, 20);
      h.writeUInt32LE(w.size, 24);
      h.writeUInt16LE(w.name.length, 28);
      h.writeUInt32LE(w.offset, 42);
      this.out(Buffer.concat([h, w.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(EOCD, 0);
    end.writeUInt16LE(this.written.length, 8);
    end.writeUInt16LE(this.written.length, 10);
    end.writeUInt32LE(this.position - start, 12);
    end.writeUInt32LE(start, 16);
    this.out(end);
  }
}
