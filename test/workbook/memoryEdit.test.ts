import { createMemoryWorkbook } from '../../src/workbook/memory';
import type { ColumnSpec } from '../../src/workbook/port';

const columns: ColumnSpec[] = [
  { name: 'Name', format: 'text' },
  { name: 'Level', format: 'text', list: { sheet: 'Lists', values: ['Low', 'High'] } },
];

async function template() {
  const wb = createMemoryWorkbook();
  await wb.createTable({ name: 'tbl', sheet: 'Sheet1', anchor: 'B2', columns });
  return wb;
}

test('typing in the row right below an empty table grows it, and the write-back reads the row as from Excel', async () => {
  const wb = await template();
  wb.setCells('Sheet1', 'B3', [['Phishing']]);
  expect((await wb.findTable('tbl'))?.rowCount).toBe(1);
  wb.setCells('Sheet1', 'C3', [['High']]);
  wb.setCells('Sheet1', 'C4', [['Low']]);
  expect(await wb.readRows('tbl')).toEqual({
    columns: ['Name', 'Level'],
    rows: [
      ['Phishing', 'High'],
      [null, 'Low'],
    ],
  });
});

test('a pasted block that starts in the body and runs past the end grows the table to hold it', async () => {
  const wb = await template();
  wb.setCells('Sheet1', 'B3', [
    ['a', 'Low'],
    ['b', 'High'],
    ['c', 'Low'],
  ]);
  expect((await wb.readRows('tbl')).rows).toEqual([
    ['a', 'Low'],
    ['b', 'High'],
    ['c', 'Low'],
  ]);
  wb.setCells('Sheet1', 'C4', [['Low'], ['High'], [null], ['Low']]);
  expect((await wb.readRows('tbl')).rows).toEqual([
    ['a', 'Low'],
    ['b', 'Low'],
    ['c', 'High'],
    [null, null],
    [null, 'Low'],
  ]);
  // Clearing a block that reaches below the table (Delete) empties its cells and does not grow it.
  wb.setCells('Sheet1', 'B6', [
    [null, null],
    [null, null],
    [null, null],
    [null, null],
  ]);
  expect((await wb.readRows('tbl')).rows).toEqual([
    ['a', 'Low'],
    ['b', 'Low'],
    ['c', 'High'],
    [null, null],
    [null, null],
  ]);
});

test('cells away from tables sit on the sheet; null clears them; the header row is refused with its row named', async () => {
  const wb = await template();
  wb.setCells('Sheet1', 'F10', [['note', 3]]);
  expect(wb.snapshot().sheets[0]!.cells).toEqual({ F10: 'note', G10: 3 });
  wb.setCells('Sheet1', 'F10', [[null]]);
  expect(wb.snapshot().sheets[0]!.cells).toEqual({ G10: 3 });
  // Two rows below the table is not "right below": the table stays as it was.
  wb.setCells('Sheet1', 'B4', [['loose']]);
  expect((await wb.findTable('tbl'))?.rowCount).toBe(0);
  expect(() =>
    wb.setCells('Sheet1', 'A1', [
      ['x', 'y'],
      ['x', 'y'],
    ]),
  ).toThrow('Row 2 holds the column names of table tbl');
  expect(() => wb.setCells('Nope', 'A1', [['x']])).toThrow('There is no sheet named Nope');
});

test('every edit is one change the preview hears of', async () => {
  const wb = await template();
  let heard = 0;
  wb.subscribe(() => heard++);
  const before = wb.snapshot().version;
  wb.setCells('Sheet1', 'B3', [['a', 'High']]);
  expect(heard).toBe(1);
  expect(wb.snapshot().version).toBe(before + 1);
  expect(wb.snapshot().tables[0]!.rows).toEqual([['a', 'High']]);
});
