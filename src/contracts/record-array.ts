/**
 * The records of a dataset answer: the elements of its top-level JSON array or, when the answer is an
 * object (an envelope: `{"data": [...]}`, `{"count": 3, "items": [...]}`), of the first array that is a
 * value of that object. The client's splitter reads them (src/client/json-array-splitter.ts) and the
 * relay's counter counts them (src/relay/record-count.ts), the relay's signed record count being checked
 * against what the client read: both scan without parsing, tracking only nesting depth and strings, by
 * this one rule.
 *
 * The characters the scans look at: all ASCII, so each code is both the UTF-16 code unit the splitter
 * reads and the UTF-8 byte the counter reads.
 */
export const QUOTE = 34;
export const BACKSLASH = 92;
export const COMMA = 44;
export const OPEN_BRACKET = 91;
export const CLOSE_BRACKET = 93;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;
/** Outside strings, JSON has no character at or below the space but whitespace. */
export const SPACE = 32;

/** The nesting depth of the records (inside their array), from the answer's first character: `[` 1, `{` 2. */
export function recordDepthOf(first: number): 1 | 2 {
  return first === OPEN_BRACKET ? 1 : 2;
}

/**
 * Whether a `[` found at nesting `depth` (before it opens) opens the array of records, in an answer whose
 * records are at `recordDepth` and whose records array has not been opened yet: the top-level array, or in
 * an envelope the first array that is a value of the object. Its matching `]` closes the records at depth
 * `recordDepth - 1` again.
 */
export function opensRecords(depth: number, recordDepth: number): boolean {
  return depth === recordDepth - 1;
}
