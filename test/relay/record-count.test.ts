import { RecordCounter } from '../../src/relay/record-count';

/** Answers with every trap for a scanner: escaped quotes and backslashes, brackets and commas in strings, nesting, envelopes. */
const ANSWERS: [string, number][] = [
  [JSON.stringify([{ a: 'x\\"]', b: [1, 2, { c: '}' }] }, { s: '\\\\' }, 3, 'q', [], {}]), 6],
  [JSON.stringify({ count: 3, items: [{ a: 1 }, { b: '[,' }, { c: [1, 2] }] }), 3],
  [JSON.stringify({ meta: { x: [1, 2] }, data: [1, 2, 3] }), 3],
  [JSON.stringify({ items: [] }), 0],
  ['[]', 0],
  ['  [ 1 , 2 ]  ', 2],
  [' [\n {"a":"\\\\\\""},\r\n\t{"b":"\\u005d"} ]', 2],
];

describe('RecordCounter', () => {
  it.each(ANSWERS)('counts the records of %s however the bytes are cut', (text, records) => {
    const bytes = Buffer.from(text);
    for (let size = 1; size <= bytes.length; size++) {
      const counter = new RecordCounter();
      for (let i = 0; i < bytes.length; i += size) counter.push(bytes.subarray(i, i + size));
      expect([size, counter.records]).toEqual([size, records]);
    }
  });
});
