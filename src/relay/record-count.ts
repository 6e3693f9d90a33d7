/**
 * Counts a dataset answer's records as its bytes stream through the relay, without parsing it: only nesting
 * depth and strings are tracked. The records are the elements of the top-level array, or, in an envelope
 * (`{"data": [...]}`, `{"count": 3, "items": [...]}`), of the first array that is a value of the top-level
 * object: the same answers the client's JsonArraySplitter reads.
 *
 * Strings are most of a dataset's bytes, so inside one the scan jumps to the next quote with indexOf (native
 * code) and only looks back for backslashes there; outside strings it goes byte by byte.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;

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
    let i = 0;
    let depth = this.depth;
    while (i < n) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          i++;
          continue;
        }
        const q = buf.indexOf(QUOTE, i);
        if (q < 0) {
          // The string goes on in the next chunk: does it end on an escaping backslash?
          let k = n - 1;
          while (k >= i && buf[k] === BACKSLASH) k--;
          this.escaped = (n - 1 - k) % 2 === 1;
          break;
        }
        let k = q - 1;
        while (k >= i && buf[k] === BACKSLASH) k--;
        i = q + 1;
        // An even run of backslashes before the quote escapes nothing: the string ends here.
        if ((q - 1 - k) % 2 === 0) this.inString = false;
        continue;
      }
      const b = buf[i++]!;
      if (b === SPACE || b === LF || b === CR || b === TAB) continue;
      if (this.expect && depth === this.recordDepth) {
        this.expect = false;
        if (b !== CLOSE_BRACKET) this.records++;
      }
      if (b === QUOTE) this.inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        if (b === OPEN_BRACKET && !this.inRecords && !this.closed && (depth === 0 || (depth === 1 && this.recordDepth === 2))) {
          this.inRecords = true;
          this.expect = true;
          this.recordDepth = depth + 1;
        } else if (depth === 0 && b === OPEN_BRACE) this.recordDepth = 2;
        depth++;
      } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        depth--;
        if (this.inRecords && depth === this.recordDepth - 1) {
          this.inRecords = false;
          this.closed = true;
        }
      } else if (b === COMMA && this.inRecords && depth === this.recordDepth) this.expect = true;
    }
    this.depth = depth;
  }
}
