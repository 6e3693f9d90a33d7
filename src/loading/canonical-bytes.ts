/**
 * Records' canonical lines (fingerprint.ts: canonicalJson's text, each followed by "\n") written straight
 * as UTF-8 bytes into one reused buffer, for the record fingerprint of a load: building each record's text
 * and then encoding the batch's text cost as much CPU as hashing it (strings made and collected per value,
 * a second copy as bytes). canonicalJson stays the reference; the test holds the bytes equal to it.
 */
import * as jsonBytes from '../client/json-bytes';

// Copied into this module's constants: under the CommonJS the CLI runs as, an imported binding is read
// through a getter on every call, and these are called once a value.
const { writeInt, writePlainString } = jsonBytes;
const encoder = new TextEncoder();

/** A key's JSON text and colon (`"Name":`) as bytes, in the order RFC 8785 sorts keys. */
interface SortedKey {
  key: string;
  bytes: Uint8Array;
}
interface Order {
  keys: string[];
  sorted: SortedKey[];
}

export class CanonicalLines {
  private buf = new Uint8Array(1 << 16);
  private at = 0;
  /** Sorted key lists by their keys joined (a dataset's records share a few shapes), and the last one used. */
  private readonly orders = new Map<string, SortedKey[]>();
  private last: Order | null = null;

  /** The lines of `records`, as bytes valid until the next call. */
  lines(records: readonly unknown[]): Uint8Array {
    this.at = 0;
    for (const r of records) {
      this.value(r);
      this.room(1);
      this.buf[this.at++] = 0x0a;
    }
    return this.buf.subarray(0, this.at);
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.at + n, this.buf.length * 2));
    grown.set(this.buf.subarray(0, this.at));
    this.buf = grown;
  }

  private value(v: unknown): void {
    if (typeof v === 'string') this.string(v);
    else if (typeof v === 'number' && (v | 0) === v) this.int(v);
    else if (v === null) this.ascii('null');
    else if (typeof v !== 'object') this.ascii(JSON.stringify(v) ?? 'null');
    else if (Array.isArray(v)) {
      this.room(1);
      this.buf[this.at++] = 0x5b; // [
      for (let i = 0; i < v.length; i++) {
        this.room(1);
        if (i) this.buf[this.at++] = 0x2c; // ,
        this.value(v[i]);
      }
      this.room(1);
      this.buf[this.at++] = 0x5d; // ]
    } else {
      const record = v as Record<string, unknown>;
      this.room(1);
      this.buf[this.at++] = 0x7b; // {
      let first = true;
      for (const { key, bytes } of this.sortedKeys(record)) {
        const x = record[key];
        if (x === undefined) continue;
        this.room(bytes.length + 1);
        if (!first) this.buf[this.at++] = 0x2c;
        this.buf.set(bytes, this.at);
        this.at += bytes.length;
        this.value(x);
        first = false;
      }
      this.room(1);
      this.buf[this.at++] = 0x7d; // }
    }
  }

  /** JSON.stringify's text of a string in UTF-8. */
  private string(s: string): void {
    this.room(s.length + 2);
    const end = writePlainString(this.buf, s, this.at);
    if (end >= 0) {
      this.at = end;
      return;
    }
    const json = JSON.stringify(s);
    // At most 3 bytes of UTF-8 per code unit of the JSON text.
    this.room(json.length * 3);
    this.at += encoder.encodeInto(json, this.buf.subarray(this.at)).written;
  }

  /** Text of ASCII characters only (numbers' and literals' JSON). */
  private ascii(text: string): void {
    this.room(text.length);
    for (let k = 0; k < text.length; k++) this.buf[this.at++] = text.charCodeAt(k);
  }

  /** An integer's decimal digits, as JSON.stringify writes it (-0 as 0). */
  private int(x: number): void {
    this.room(12);
    this.at = writeInt(this.buf, x, this.at);
  }

  private sortedKeys(o: Record<string, unknown>): SortedKey[] {
    const keys = Object.keys(o);
    const last = this.last;
    if (last && last.keys.length === keys.length && last.keys.every((k, i) => k === keys[i])) return last.sorted;
    const id = keys.join('\u0000');
    let sorted = this.orders.get(id);
    if (!sorted) {
      if (this.orders.size > 1000) this.orders.clear();
      // UTF-16 code unit order, as RFC 8785 sorts (the default sort of strings).
      sorted = [...keys].sort().map((key) => ({ key, bytes: encoder.encode(`${JSON.stringify(key)}:`) }));
      this.orders.set(id, sorted);
    }
    this.last = { keys, sorted };
    return sorted;
  }
}
