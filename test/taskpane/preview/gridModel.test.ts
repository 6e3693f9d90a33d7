import { createMemoryWorkbook } from '../../../src/workbook/memory';
import { displayOf, gridOf } from '../../../src/taskpane/preview/gridModel';

test('a date cell keeps its serial number and shows the date its format gives', () => {
  expect(displayOf(45658, 'date')).toBe('2025-01-01');
  expect(displayOf(45658.5, 'datetime')).toBe('2025-01-01 12:00');
  expect(displayOf(45658, 'number')).toBe('45658');
  expect(displayOf(true, 'boolean')).toBe('TRUE');
  expect(displayOf(null, 'text')).toBe('');
});

test('the grid places a table at its anchor with its header, formats and marks', async () => {
  const wb = createMemoryWorkbook();
  await wb.createTable({
    name: 'tbl_x',
    sheet: 'Sheet1',
    anchor: 'B2',
    columns: [
      { name: 'Name', format: 'text' },
      { name: 'When', format: 'date' },
    ],
  });
  await wb.writeRows('tbl_x', 0, [
    ['=cmd', 45658],
    ['b', null],
  ]);
  await wb.markCells('tbl_x', [{ row: 1, column: 'Name', kind: 'error', note: 'bad' }]);
  const view = gridOf(wb.snapshot(), 'Sheet1');
  expect(view.cells.get('1,1')).toMatchObject({ raw: 'Name', header: true, table: 'tbl_x' });
  expect(view.cells.get('2,1')).toMatchObject({ raw: '=cmd', display: '=cmd', format: 'text' });
  expect(view.cells.get('2,2')).toMatchObject({ raw: 45658, display: '2025-01-01', format: 'date' });
  expect(view.cells.get('3,1')).toMatchObject({ mark: 'error', note: 'bad' });
  expect(view.rows).toBe(4);
  expect(view.columns).toBe(3);
});

test('a big table is drawn up to the row cap and the rest is counted', async () => {
  const wb = createMemoryWorkbook();
  await wb.createTable({ name: 'tbl_big', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'N', format: 'number' }] });
  await wb.writeRows('tbl_big', 0, Array.from({ length: 1000 }, (_, i) => [i]));
  const view = gridOf(wb.snapshot(), 'Sheet1', 100);
  expect(view.rows).toBe(100);
  expect(view.hiddenRows).toBe(1000 - 99);
  expect(view.cells.has('99,0')).toBe(true);
  expect(view.cells.has('100,0')).toBe(false);
});
