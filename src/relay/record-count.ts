/**
 * Counts a dataset answer's records as its bytes stream through the relay, without parsing it: only nesting
 * depth and strings are tracked. The records are the elements of the top-level array, or, in an envelope
 * (`{"data": [...]}`, `{"count": 3, "items": [...]}`), of the first array that is a value of the top-level
 * object: the same answers the client's JsonArraySplitter reads.
 *
 * One plain loop over the bytes: a dataset's strings are short (an id, a status), so jumping to the next
 * quote with Buffer's indexOf cost more in calls into native code (about 24 a record) than it saved.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const SPACE = 32;

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
    if (this.escaped) {
      this.escaped = false;
      i = 1;
    }
    while (i < n) {
      if (inString) {
        // Most bytes are inside strings: a tight loop to the next quote or backslash.
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
      // Outside strings, JSON has no control character but whitespace.
      if (b <= SPACE) continue;
      if (expect && depth === this.recordDepth) {
        expect = false;
        if (b !== CLOSE_BRACKET) records++;
      }
      if (b === QUOTE) inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        if (b === OPEN_BRACKET && !this.inRecords && !this.closed && (depth === 0 || (depth === 1 && this.recordDepth === 2))) {
          this.inRecords = true;
          expect = true;
          this.recordDepth = depth + 1;
        } else if (depth === 0 && b === OPEN_BRACE) this.recordDepth = 2;
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
