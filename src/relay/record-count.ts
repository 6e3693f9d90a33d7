import * as grammar from '../contracts/record-array';

/**
 * Counts a dataset answer's records as its bytes stream through the relay, without parsing it: only nesting
 * depth and strings are tracked. The records are those of src/contracts/record-array.ts, the same rule the
 * client's JsonArraySplitter reads them by (test/relay/record-count.test.ts runs both over the same answers).
 *
 * One plain loop over the bytes: a dataset's strings are short (an id, a status), so jumping to the next
 * quote with Buffer's indexOf cost more in calls into native code (about 24 a record) than it saved. Inside
 * a string, though, it reads four bytes at a time while none of them is a quote or a backslash (most of an
 * answer's bytes are in strings): about twice as fast, and its speed is what bounds the relay's hashing
 * thread (answer-hasher.ts).
 */

// Copied into this module's own constants once: under the CommonJS the relay runs as, an imported binding
// is read through a getter, a call once a byte (about ten times slower).
const { QUOTE, BACKSLASH, COMMA, OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE, SPACE } = grammar;
const { recordDepthOf, opensRecords } = grammar;
/** A word of four quotes, of four backslashes. */
const QUOTES = QUOTE * 0x01010101;
const BACKSLASHES = BACKSLASH * 0x01010101;

export class RecordCounter {
  private depth = 0;
  private inString = false;
  /** The bytes so far ended inside a string on an odd run of backslashes: the next byte is escaped. */
  private escaped = false;
  /** Depth of the records (inside their array): 1 for a plain array, 2 in an envelope; 0 until known. */
  private recordDepth = 0;
  /** The records array is open. */
  private inRecords = false;
  /** The records array has been closed (later arrays are not records). */
  private closed = false;
  /** The next value at record depth starts a record (after the array's `[` or a `,`). */
  private expect = false;
  records = 0;

  push(buf: Uint8Array): void {
    const n = buf.length;
    // The state in locals: the loop runs once a byte, and V8 keeps locals in registers.
    let i = 0;
    let depth = this.depth;
    let inString = this.inString;
    let expect = this.expect;
    let records = this.records;
    // The bytes read four at a time (unaligned: a DataView, which V8 compiles to one load).
    const view = new DataView(buf.buffer, buf.byteOffset, n);
    if (this.escaped) {
      this.escaped = false;
      i = 1;
    }
    while (i < n) {
      if (inString) {
        // Most bytes are inside strings: four at a time while none is a quote or a backslash (a word has a
        // zero byte where x ^ c does, and then only is ((x ^ c) - 0x01010101) & ~(x ^ c) & 0x80808080 not
        // zero), then a byte at a time to the one found.
        while (i + 4 <= n) {
          const x = view.getInt32(i, true);
          const q = x ^ QUOTES;
          const s = x ^ BACKSLASHES;
          if ((((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s)) & 0x80808080) break;
          i += 4;
        }
        if (i === n) break;
        let b = buf[i]!;
        while (b !== QUOTE && b !== BACKSLASH) {
          if (++i === n) break;
          b = buf[i]!;
        }
        if (i === n) break;
        if (b === BACKSLASH) {
          // The escaped byte is skipped; when the chunk ends first, it is the next chunk's first.
          i += 2;
          if (i > n) this.escaped = true;
        } else {
          inString = false;
          i++;
        }
        continue;
      }
      const b = buf[i++]!;
      if (b <= SPACE) continue;
      if (expect && depth === this.recordDepth) {
        expect = false;
        if (b !== CLOSE_BRACKET) records++;
      }
      if (b === QUOTE) inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        if (this.recordDepth === 0) this.recordDepth = recordDepthOf(b);
        if (b === OPEN_BRACKET && !this.inRecords && !this.closed && opensRecords(depth, this.recordDepth)) {
          this.inRecords = true;
          expect = true;
        }
        depth++;
      } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        depth--;
        if (this.inRecords && depth === this.recordDepth - 1) {
          this.inRecords = false;
          this.closed = true;
        }
      } else if (b === COMMA && this.inRecords && depth === this.recordDepth) expect = true;
    }
    this.depth = depth;
    this.inString = inString;
    this.expect = expect;
    this.records = records;
  }
}
