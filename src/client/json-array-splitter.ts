import * as grammar from '../contracts/record-array';

/**
 * Splits a streamed JSON array into its elements without parsing the text twice: a scanner that only
 * tracks nesting depth and strings finds the commas between top-level elements, and each run of about
 * `batchChars` of complete elements goes to one JSON.parse. The records are those of
 * src/contracts/record-array.ts, the rule the relay counts them by for its signed statement: a plain array
 * or an object with exactly one array property (`{"value": [...]}`, `{"@odata.count": 3, "items": [...]}`);
 * which one is decided from the first character.
 */

// Copied into this module's own constants once: under CommonJS (the CLI, jest) an imported binding is read
// through a getter, a call once a character.
const { QUOTE, BACKSLASH, COMMA, OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE } = grammar;
const { recordDepthOf, opensRecords } = grammar;

/** The answer is not a JSON array (or envelope of one); `recordIndex` is how many records came before. */
export class MalformedAnswer extends Error {
  override readonly name = 'MalformedAnswer';
  constructor(
    message: string,
    readonly recordIndex: number,
  ) {
    super(message);
  }
}

type Mode = 'start' | 'envelope' | 'array' | 'tail' | 'done';

export class JsonArraySplitter {
  private depth = 0;
  private inString = false;
  /** The text so far ended inside a string on an odd run of backslashes: the next character is escaped. */
  private escaped = false;
  private mode: Mode = 'start';
  /** Depth of the array's elements: 1 for a plain array, 2 inside an envelope (set by the first character). */
  private recordDepth = 1;
  /** Text of the batch being gathered that came in earlier pushes (kept as pieces: no re-copying). */
  private pieces: string[] = [];
  /** The batch being gathered follows a comma, so it must not be empty. */
  private afterComma = false;
  private records = 0;

  /**
   * `firstBatchChars`: the first batch is cut sooner, so a loader shows the first rows while a big answer
   * is still arriving; the later ones are large, to keep JSON.parse calls few.
   */
  constructor(
    private readonly batchChars = 1 << 20,
    private readonly firstBatchChars = Math.min(batchChars, 1 << 16),
  ) {}

  /** Feeds decoded text; returns the batches of elements completed by it, in order. */
  push(text: string): unknown[][] {
    const out: unknown[][] = [];
    const n = text.length;
    // Where the batch being gathered starts in `text` (0: it began in an earlier push).
    let from = 0;
    let gathered = this.pieces.reduce((sum, p) => sum + p.length, 0);
    let i = 0;
    if (this.inString) {
      i = this.stringEnd(text, 0);
      if (i < 0) return this.keep(text, from, out);
      this.inString = false;
      i++;
    }
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        if (this.mode === 'start' || this.mode === 'done') this.unexpected();
        const end = this.stringEnd(text, i + 1);
        if (end < 0) {
          this.inString = true;
          return this.keep(text, from, out);
        }
        i = end;
      } else if (c === COMMA) {
        if (
          this.mode === 'array' &&
          this.depth === this.recordDepth &&
          gathered + i - from >= (this.records ? this.batchChars : this.firstBatchChars)
        ) {
          this.flush(out, text.slice(from, i));
          from = i + 1;
          gathered = 0;
          this.afterComma = true;
        }
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (this.open(c)) {
          from = i + 1;
          gathered = 0;
        }
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        this.close(c, out, text, from, i);
      } else if ((this.mode === 'start' || this.mode === 'done') && !isSpace(c)) {
        this.unexpected();
      }
    }
    return this.keep(text, from, out);
  }

  /** Call when the stream has ended; throws when the array was not complete. */
  end(): void {
    if (this.mode === 'done') return;
    if (this.mode === 'start')
      throw new MalformedAnswer('The answer was empty where a JSON list of records was expected.', 0);
    if (this.mode === 'envelope')
      throw new MalformedAnswer('The answer is a JSON object without a list of records in it.', 0);
    throw new MalformedAnswer(
      `The answer ended before the list of records was complete (after ${this.records} records).`,
      this.records,
    );
  }

  private keep(text: string, from: number, out: unknown[][]): unknown[][] {
    if (this.mode === 'array' && from < text.length) this.pieces.push(from === 0 ? text : text.slice(from));
    if (this.inString) this.escaped = trailingBackslashesOdd(text, this.escaped);
    return out;
  }

  private unexpected(): never {
    throw new MalformedAnswer(
      this.mode === 'start'
        ? 'The answer is not a JSON list of records.'
        : 'The answer has text after the end of the list of records.',
      this.records,
    );
  }

  /** Returns true when this bracket opens the array of records. */
  private open(c: number): boolean {
    if (this.mode === 'start') {
      this.depth++;
      this.recordDepth = recordDepthOf(c);
      this.mode = this.recordDepth === 1 ? 'array' : 'envelope';
      return this.mode === 'array';
    }
    // In an envelope, before its records (or after them: a second list, refused below).
    const opens =
      c === OPEN_BRACKET && (this.mode === 'envelope' || this.mode === 'tail') && opensRecords(this.depth, this.recordDepth);
    this.depth++;
    if (opens) {
      if (this.mode === 'tail')
        throw new MalformedAnswer(
          'The answer is an object with more than one list in it; expected exactly one.',
          this.records,
        );
      this.mode = 'array';
      this.pieces = [];
      return true;
    }
    return false;
  }

  private close(c: number, out: unknown[][], text: string, from: number, i: number): void {
    this.depth--;
    if (this.depth < 0)
      throw new MalformedAnswer(
        'The answer is not valid JSON (a closing bracket without an opening one).',
        this.records,
      );
    if (this.mode === 'array' && this.depth === this.recordDepth - 1) {
      if (c !== CLOSE_BRACKET)
        throw new MalformedAnswer(
          'The answer is not valid JSON (the list is closed with a brace).',
          this.records,
        );
      this.flush(out, text.slice(from, i));
      this.mode = this.recordDepth === 1 ? 'done' : 'tail';
    } else if (this.mode === 'tail' && this.depth === 0) {
      this.mode = 'done';
    }
  }

  private flush(out: unknown[][], last: string): void {
    const text = this.pieces.length ? this.pieces.join('') + last : last;
    this.pieces = [];
    if (!text.trim()) {
      if (this.afterComma)
        throw new MalformedAnswer(
          'The answer is not valid JSON (a comma after the last record).',
          this.records,
        );
      return;
    }
    let batch: unknown[];
    try {
      batch = JSON.parse(`[${text}]`) as unknown[];
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new MalformedAnswer(
        `The answer is not valid JSON in or after record ${this.records + 1}: ${why}`,
        this.records,
      );
    }
    this.records += batch.length;
    out.push(batch);
  }

  /**
   * Index of the quote that closes the string whose text continues at `from`, or -1 if it is not in
   * `text`. A quote is escaped when an odd run of backslashes precedes it; a run that reaches the start of
   * `text` continues the one the previous push ended on.
   */
  private stringEnd(text: string, from: number): number {
    let q = text.indexOf('"', from);
    while (q >= 0) {
      let k = q - 1;
      while (k >= from && text.charCodeAt(k) === BACKSLASH) k--;
      const odd = ((q - 1 - k) % 2 === 1) !== (k < 0 && this.escaped);
      if (!odd) {
        this.escaped = false;
        return q;
      }
      q = text.indexOf('"', q + 1);
    }
    return -1;
  }
}

/** Whether `text` ends on an odd run of backslashes, counting a run that spans all of it onto `before`. */
function trailingBackslashesOdd(text: string, before: boolean): boolean {
  let k = text.length - 1;
  while (k >= 0 && text.charCodeAt(k) === BACKSLASH) k--;
  const odd = (text.length - 1 - k) % 2 === 1;
  return k < 0 ? odd !== before : odd;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}
