import { compareTables } from '../../src/loading/changes';
import { readBeforeRefresh } from '../../src/loading/refreshread';
import { makeCellPrint, rowPrints } from '../../src/loading/tableprint';
import type { Cell } from '../../src/workbook/port';
import { createMemoryWorkbook } from '../../src/workbook/memory';

/**
 * What a refresh reads before it writes, streamed (refreshread.ts), must say exactly what comparing the
 * two tables in memory says (compareTables), in the same order and with the same cap, whichever pass
 * finds the changed rows; the hand-edit check must name the same cells.
 */
const columns = ['Id', 'Name', 'Score', 'Note'];

async function tableOf(rows: Cell[][]) {
  const workbook = createMemoryWorkbook();
  const sheet = await workbook.addSheet('S');
  const shape = await workbook.createTable({ name: 't', sheet, anchor: 'A1', columns: columns.map((name) => ({ name, format: 'general' as const })) });
  await workbook.writeRows('t', 0, rows);
  return { workbook, table: { ...shape, rowCount: rows.length } };
}

// Old: ids 0..39 (id7 twice, id8 missing); new: the first 25 reversed (so the two id7 rows swap: both changed),
// 25..31 removed, one added, every 4th renamed and every 5th rescored.
const old: Cell[][] = Array.from({ length: 40 }, (_, i) => [`id${i === 8 ? 7 : i}`, `name ${i}`, i, i % 3 ? null : 'n']);
const incoming = {
  columns: ['Id', 'Name', 'Score', 'Extra'],
  rows: [...old.slice(0, 25).reverse(), ...old.slice(32)].map((r, k): Cell[] => [r[0]!, k % 4 === 0 ? `renamed ${k}` : r[1]!, k % 5 === 0 ? Number(r[2]) + 0.5 : r[2]!, 'x']).concat([['id99', 'new', 1, 'x']]),
};

describe('readBeforeRefresh', () => {
  it.each([
    ['kept from the first pass', undefined],
    ['read in a second pass (too many to keep)', 2],
  ])('lists the changes compareTables lists, %s', async (_, keep) => {
    const { workbook, table } = await tableOf(old);
    for (const limit of [Infinity, 7]) {
      const expected = compareTables({ columns, rows: old }, incoming, ['Id'], limit);
      const got = await readBeforeRefresh({ workbook, table, incoming, incomingPrints: rowPrints(incoming, incoming.columns, ['Id']), keyColumns: ['Id'], limit, ...(keep ? { keep } : {}) });
      expect(got.edits).toBeNull();
      expect(got.compared).toEqual(expected);
    }
    expect(compareTables({ columns, rows: old }, incoming, ['Id']).summary).toEqual({ added: 1, removed: 7, changed: 15, fields: 19 });
  });

  it('names a hand-edited cell with its loaded value, and a table that matches its print has none', async () => {
    const names = incoming.columns.filter((c) => columns.includes(c));
    const loaded: Cell[][] = old.map((r) => [...r]);
    const print = makeCellPrint(rowPrints({ columns, rows: loaded }, names, ['Id']), ['Id']);
    const edited = loaded.map((r) => [...r]);
    edited[11]![1] = 'typed over';
    const clean = await tableOf(loaded);
    const stored = { print, fields: names };
    const prints = rowPrints(incoming, incoming.columns, ['Id']);
    expect((await readBeforeRefresh({ ...clean, incoming, incomingPrints: prints, keyColumns: ['Id'], stored, limit: Infinity })).edits).toBeNull();
    const { workbook, table } = await tableOf(edited);
    const got = await readBeforeRefresh({ workbook, table, incoming, incomingPrints: prints, keyColumns: ['Id'], stored, limit: Infinity });
    expect(got.edits?.cells).toEqual([{ row: 11, key: 'id11', field: 'Name', old: 'name 11', now: 'typed over', certain: true }]);
  });
});
