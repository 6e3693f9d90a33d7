import { JsonArraySplitter } from '../../src/client/json-array-splitter';
import { RecordCounter } from '../../src/relay/record-count';

/**
 * Answers with every trap for a scanner: escaped quotes and backslashes, brackets and commas in strings,
 * nesting, arrays inside records, envelopes (with an array nested in a property before the records),
 * characters of several UTF-8 bytes.
 */
const ANSWERS: [string, number][] = [
  [JSON.stringify([{ a: 'x\\"]', b: [1, 2, { c: '}' }] }, { s: '\\\\' }, 3, 'q', [], {}]), 6],
  [JSON.stringify({ count: 3, items: [{ a: 1 }, { b: '[,' }, { c: [1, 2] }] }), 3],
  [JSON.stringify({ meta: { x: [1, 2] }, data: [1, 2, 3] }), 3],
  [JSON.stringify({ '[': '{"a": [1,', data: [[1, [2]], ['"'], { '"]': '\\' }], after: { n: 1 } }), 3],
  [JSON.stringify({ items: [] }), 0],
  ['[]', 0],
  ['  [ 1 , 2 ]  ', 2],
  [' [\n {"a":"\\\\\\""},\r\n\t{"b":"\\u005d"} ]', 2],
  [JSON.stringify([{ name: 'Zoë "ç" ]', emoji: '😀,[' }, 'é', null, true, -1.5e3]), 5],
  // Strings long enough to be skipped four bytes at a time, a quote or a backslash at each place in a word.
  [JSON.stringify(Array.from({ length: 12 }, (_, i) => `${'x'.repeat(i)}"${'y'.repeat(11 - i)}\\${'abcdefgh'.slice(i % 8)}],{`)), 12],
];

describe('RecordCounter', () => {
  it.each(ANSWERS)('counts the records of %s however the bytes are cut', (text, records) => {
    // At each offset from a 4-byte boundary, the last chunk ending where its ArrayBuffer ends.
    for (let pad = 0; pad < 4; pad++) {
      const whole = new Uint8Array(pad + Buffer.byteLength(text));
      whole.set(Buffer.from(text), pad);
      const bytes = whole.subarray(pad);
      for (let size = 1; size <= bytes.length; size++) {
        const counter = new RecordCounter();
        for (let i = 0; i < bytes.length; i += size) counter.push(bytes.subarray(i, i + size));
        expect([pad, size, counter.records]).toEqual([pad, size, records]);
      }
    }
  });

  // The relay signs the count and the client checks it against the records it read: one grammar
  // (src/contracts/record-array.ts), so both must find the same records in the same bytes.
  it.each(ANSWERS)("finds as many records in %s as the client's splitter, cut in two at every byte", (text, records) => {
    const bytes = Buffer.from(text);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const pieces = [bytes.subarray(0, cut), bytes.subarray(cut)];
      const counter = new RecordCounter();
      const splitter = new JsonArraySplitter(1);
      // As the client reads a download: bytes decoded as they come (a character may span the cut).
      const decoder = new TextDecoder();
      let read = 0;
      for (const piece of pieces) {
        counter.push(piece);
        for (const batch of splitter.push(decoder.decode(piece, { stream: true }))) read += batch.length;
      }
      for (const batch of splitter.push(decoder.decode())) read += batch.length;
      splitter.end();
      expect([cut, counter.records, read]).toEqual([cut, records, records]);
    }
  });
});
