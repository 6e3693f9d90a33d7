import { JsonArraySplitter, MalformedAnswer } from '../../src/client/json-array-splitter';

/** Feeds the pieces in order and returns every element, flattened, or the MalformedAnswer thrown. */
function split(pieces: readonly string[], batchChars?: number): { elements: unknown[]; batches: number } {
  const s = new JsonArraySplitter(batchChars);
  const batches = pieces.flatMap((p) => s.push(p));
  s.end();
  return { elements: batches.flat(), batches: batches.length };
}

function failure(pieces: readonly string[], batchChars?: number): MalformedAnswer {
  try {
    split(pieces, batchChars);
  } catch (e) {
    if (e instanceof MalformedAnswer) return e;
    throw e;
  }
  throw new Error('expected a MalformedAnswer');
}

/** Every way of cutting `text` in two, and in three at a few places, must give the same elements. */
function everyCut(text: string, batchChars = 1): void {
  const expected = JSON.parse(
    text.trim().startsWith('{') ? JSON.stringify(Object.values(JSON.parse(text)).find(Array.isArray)) : text,
  );
  for (let i = 0; i <= text.length; i++) {
    expect(split([text.slice(0, i), text.slice(i)], batchChars).elements).toEqual(expected);
    const j = Math.min(text.length, i + 3);
    expect(split([text.slice(0, i), text.slice(i, j), text.slice(j)], batchChars).elements).toEqual(expected);
  }
}

const TRICKY = [
  { Id: 1, Name: 'quote " and bracket ] and brace } and comma ,' },
  { Id: 2, Name: 'backslashes \\\\ and \\" and a trailing one \\', Nested: { a: [1, [2, { b: '}' }]] } },
  { Id: 3, Name: 'unicode é 日本 😀 \u2028', Empty: '', List: [] },
  'a string element',
  42,
  null,
  [1, 2, '[', ']'],
];

describe('JsonArraySplitter', () => {
  it('gives the elements of a plain array wherever the text is cut, strings with quotes, escapes and brackets included', () => {
    everyCut(JSON.stringify(TRICKY));
    everyCut(` \n ${JSON.stringify(TRICKY, null, 2)} \n`);
  });

  it('keeps a backslash run that spans a cut (escaped backslash before a closing quote, escaped quote)', () => {
    const text = JSON.stringify([{ a: 'x\\', b: '\\"y' }, { c: '\\\\\\' }]);
    everyCut(text);
  });

  it('unwraps a single-array envelope, other properties before and after it skipped', () => {
    everyCut(JSON.stringify({ value: TRICKY }));
    everyCut(
      JSON.stringify({
        '@odata.context': 'x[y',
        count: 7,
        meta: { a: { b: 'c' } },
        items: TRICKY,
        next: null,
      }),
    );
  });

  it('parses in batches of about batchChars, cutting only between elements', () => {
    const records = Array.from({ length: 1000 }, (_, i) => ({ Id: i, Name: `record, "${i}" ]` }));
    const text = JSON.stringify(records);
    const { elements, batches } = split([text.slice(0, 5000), text.slice(5000)], 4096);
    expect(elements).toEqual(records);
    expect(batches).toBeGreaterThan(text.length / 4096 - 2);
    expect(batches).toBeLessThan(text.length / 4096 + 3);
    expect(split([text]).batches).toBe(1);
  });

  it('hands over completed batches before the stream ends', () => {
    const s = new JsonArraySplitter(10);
    expect(s.push('[{"a":1},{"a":2},{"a":')).toEqual([[{ a: 1 }, { a: 2 }]]);
    expect(s.push('3}]')).toEqual([[{ a: 3 }]]);
    s.end();
  });

  it('accepts empty arrays and empty envelopes', () => {
    expect(split(['[', ' ]']).elements).toEqual([]);
    expect(split(['{"value":[]}']).elements).toEqual([]);
  });

  it('refuses what is not a list of records, saying why', () => {
    expect(failure(['']).message).toMatch(/empty/);
    expect(failure(['"text"']).message).toMatch(/not a JSON list/);
    expect(failure(['42']).message).toMatch(/not a JSON list/);
    expect(failure(['{"a":1}']).message).toMatch(/without a list/);
    expect(failure(['{"a":[1],"b":[2]}']).message).toMatch(/more than one list/);
    expect(failure(['[1,2]x']).message).toMatch(/text after the end/);
    expect(failure(['[1,2,]']).message).toMatch(/not valid JSON/);
    expect(failure(['[1,2,]'], 1).message).toMatch(/comma after the last record/);
    expect(failure(['[1,2}']).message).toMatch(/closed with a brace/);
  });

  it('says after how many records a truncated answer stopped', () => {
    const e = failure(['[{"a":1},{"a":2},{"a"']);
    expect(e.message).toMatch(/ended before the list of records was complete/);
    const s = new JsonArraySplitter(1);
    s.push('[{"a":1},{"a":2},{"a"');
    expect(() => s.end()).toThrow(/after 2 records/);
  });

  it('names the record after which invalid JSON was found', () => {
    const s = new JsonArraySplitter(1);
    s.push('[{"a":1},{"a":2},');
    expect(() => s.push('{"a":tru},{"a":4}]')).toThrow(/in or after record 3/);
  });
});
