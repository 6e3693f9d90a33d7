import { DEFAULT_MAX_CHUNK_BYTES, jsonBytes, planChunks, planGroups, rowBytes } from '../../src/workbook/chunks';
import type { Cell } from '../../src/workbook/port';

const row = (i: number): Cell[] => [i, `name ${i}`, 'x'.repeat(200), true, null];

describe('chunk plan', () => {
  it('keeps every chunk under the budget and covers every row once, in order', () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => row(i));
    const chunks = planChunks(rows, 5, { maxBytes: 1_000_000 });
    expect(chunks.length).toBeGreaterThan(5);
    expect(Math.max(...chunks.map((c) => c.bytes))).toBeLessThanOrEqual(1_000_000);
    let next = 0;
    for (const c of chunks) {
      expect(c.rowStart).toBe(next);
      expect([c.colStart, c.colEnd]).toEqual([0, 5]);
      next = c.rowEnd;
    }
    expect(next).toBe(rows.length);
    const total = chunks.reduce((s, c) => s + c.bytes, 0);
    expect(total).toBeGreaterThanOrEqual(rows.reduce((s, r) => s + jsonBytes(r), 0));
  });

  it('counts non-ASCII text by its UTF-8 size', () => {
    expect(jsonBytes(['é'])).toBe(6);
    expect(jsonBytes(['€'])).toBe(7);
    expect(jsonBytes(['😀'])).toBe(8);
  });

  it('splits a single row that is over budget by columns', () => {
    const big: Cell[] = Array.from({ length: 8 }, () => 'y'.repeat(30_000));
    const chunks = planChunks([[1], big, [2]], 8, { maxBytes: 100_000 });
    const middle = chunks.filter((c) => c.rowStart === 1);
    expect(middle.length).toBeGreaterThan(1);
    expect(middle[0]!.colStart).toBe(0);
    expect(middle[middle.length - 1]!.colEnd).toBe(8);
    expect(Math.max(...chunks.map((c) => c.bytes))).toBeLessThanOrEqual(100_000);
  });

  it('refuses a budget above 4 MB and defaults below it', () => {
    expect(() => planChunks([], 1, { maxBytes: 6_000_000 })).toThrow(RangeError);
    expect(DEFAULT_MAX_CHUNK_BYTES).toBeLessThan(4_000_000);
  });

  it('groups items of known sizes in order under the budget, an oversized one alone', () => {
    const groups = planGroups([40_000, 40_000, 40_000, 150_000, 10], { maxBytes: 100_000 });
    expect(groups.map((g) => [g.start, g.end])).toEqual([[0, 2], [2, 3], [3, 4], [4, 5]]);
    expect(groups.filter((g) => g.start !== 3).every((g) => g.bytes <= 100_000)).toBe(true);
    expect(planGroups([])).toEqual([]);
  });
});

test('a row is sized exactly as its JSON, without building it', () => {
  const rows: Cell[][] = [
    [],
    [null],
    ['plain text', 42, -0, 0.1 + 0.2, 1e21, true, false, null],
    ['say "hi"', 'back\\slash', 'tab\there', 'line\nbreak', '\u0001', 'del\u007f', 'é', '日本', '😀', '\ud800 lone'],
    [Number.NaN, Number.POSITIVE_INFINITY, '', ' ', '~'],
  ];
  for (const row of rows) expect(rowBytes(row)).toBe(jsonBytes(row));
  // Holes in a sparse row are written as null.
  expect(rowBytes(new Array<Cell>(3))).toBe(jsonBytes(new Array<Cell>(3)));
});
