import { createExcelWorkbook } from '../../../src/workbook/excel';
import type { ColumnSpec } from '../../../src/workbook/port';
import { FakeExcel, supports } from './fakeExcel';

/** Rows found by their cells at the moment of writing, in the Excel adapter, while a user moves rows. */
const columns: ColumnSpec[] = [
  { name: 'Name', format: 'text' },
  { name: 'Result', format: 'text' },
  { name: 'Row key', format: 'text' },
];

async function setup(minor = 18) {
  const xl = new FakeExcel();
  const wb = createExcelWorkbook(xl.run as unknown as typeof Excel.run, supports(minor, false), { platform: 'PC' });
  await wb.createTable({ name: 'T', sheet: 'Sheet1', anchor: 'B2', columns });
  await wb.writeRows('T', 0, ['c', 'a', 'b', 'a'].map((n) => [n, null, null]));
  return { xl, wb };
}

const byKey = (key: string) => ({ 'Row key': key });
const claim = (name: string, key: string) => ({ where: { Name: name, 'Row key': null }, firstColumn: 2, cells: [key] });

describe('Excel adapter: updateRows', () => {
  it('finds rows by their cells; identical rows each take one, in order', async () => {
    const { xl, wb } = await setup();
    const rows = await wb.updateRows('T', [
      claim('a', 'k1'),
      claim('a', 'k2'),
      { where: byKey('k2'), firstColumn: 1, cells: ['created'] },
      claim('zzz', 'k3'),
    ]);
    expect(rows).toEqual([1, 3, 3, null]);
    expect(xl.body('T')).toEqual([
      ['c', '', ''],
      ['a', '', 'k1'],
      ['b', '', ''],
      ['a', 'created', 'k2'],
    ]);
  });

  it("matches a blank and '' alike, as the memory and file workbooks do (find-row.ts)", async () => {
    const { xl, wb } = await setup();
    const rows = await wb.updateRows('T', [
      { where: { Name: 'b', 'Row key': '' }, firstColumn: 2, cells: ['kb'] },
      { where: { Name: 'c', Result: '' }, firstColumn: 1, cells: [''] },
      { where: { Name: 'c', Result: null }, firstColumn: 1, cells: ['seen'] },
    ]);
    expect(rows).toEqual([2, 0, 0]);
    expect(xl.body('T').map((r) => r.slice(1))).toEqual([['seen', ''], ['', ''], ['', 'kb'], ['', '']]);
  });

  it.each([
    ['sorts', 18, (xl: FakeExcel) => xl.sortTable('T', 2, 'descending')],
    ['inserts a row above', 18, (xl: FakeExcel) => xl.insertTableRows('T', 0, 1)],
    ['deletes a row above', 18, (xl: FakeExcel) => xl.deleteTableRows('T', 0, 1)],
    ['sorts (ExcelApi 1.8, no Range.find: the write batch checks and redoes)', 8, (xl: FakeExcel) => xl.sortTable('T', 2, 'descending')],
  ])('by key: a user who %s between the round trip that looks for the keys and the one that writes moves nothing onto the wrong row', async (_what, minor, act) => {
    const { xl, wb } = await setup(minor);
    await wb.updateRows('T', [claim('c', 'kc'), claim('a', 'ka'), claim('b', 'kb')]);
    const write = () => wb.updateRows('T', [
      { where: byKey('kb'), firstColumn: 1, cells: ['B done'] },
      { where: byKey('ka'), firstColumn: 1, cells: ['A done'] },
    ]);
    // Count the round trips of one call, then act just before its last (the write's) on the next call.
    const before = xl.syncBytes.length;
    await write();
    const perCall = xl.syncBytes.length - before;
    await wb.updateRows('T', [{ where: byKey('ka'), firstColumn: 1, cells: [null] }, { where: byKey('kb'), firstColumn: 1, cells: [null] }]);
    let n = 0;
    xl.beforeSync = () => {
      if (++n === perCall) act(xl);
    };
    await write();
    xl.beforeSync = null;
    // With Range.find the write's batch finds the keys itself; without, the move is seen and redone.
    if (minor >= 9) expect(n).toBe(perCall);
    else expect(n).toBeGreaterThan(perCall + 1);
    // Every written result sits on the row with its key; no other row got one.
    const body = xl.body('T').filter((r) => r[0] !== '');
    for (const r of body) expect(r[1]).toBe(r[2] === 'ka' ? 'A done' : r[2] === 'kb' ? 'B done' : '');
    expect(body.filter((r) => r[1] !== '')).toHaveLength(2);
  });

  it('by cells: a sort between finding and writing is seen in the write batch, undone, and the rows found again', async () => {
    const { xl, wb } = await setup();
    const claims = () => wb.updateRows('T', [claim('b', 'kb'), claim('c', 'kc')]);
    const before = xl.syncBytes.length;
    await claims();
    const perCall = xl.syncBytes.length - before;
    // Clear the keys again, then claim with a sort just before the write's round trip.
    await wb.updateRows('T', [{ where: byKey('kb'), firstColumn: 2, cells: [null] }, { where: byKey('kc'), firstColumn: 2, cells: [null] }]);
    let n = 0;
    xl.beforeSync = () => {
      if (++n === perCall) xl.sortTable('T', 0, 'descending');
    };
    await claims();
    xl.beforeSync = null;
    expect(n).toBeGreaterThan(perCall + 1);
    const keyOf = Object.fromEntries(xl.body('T').filter((r) => r[2] !== '').map((r) => [r[2], r[0]]));
    expect(keyOf).toEqual({ kb: 'b', kc: 'c' });
    expect(xl.body('T').filter((r) => r[2] !== '')).toHaveLength(2);
  });
});
