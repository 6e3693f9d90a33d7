import { createMemoryWorkbook } from '../../../src/workbook/memory';
import { nextCell } from '../../../src/taskpane/preview/gridKeys';
import { displayOf, gridOf, pageCaption } from '../../../src/taskpane/preview/gridModel';

test('a date cell keeps its serial number and shows the date its format gives', () => {
  expect(displayOf(45658, 'date')).toBe('2025-01-01');
  expect(displayOf(45658.5, 'datetime')).toBe('2025-01-01 12:00');
  expect(displayOf(45658, 'number')).toBe('45658');
  expect(displayOf(true, 'boolean')).toBe('TRUE');
  expect(displayOf(null, 'text')).toBe('');
});

test('a cell shows what its number format gives and nothing else, as Excel draws it', () => {
  // A Result time: the date-time alone, not its serial beside it.
  expect(displayOf(46350.3457, 'datetime')).toBe('2026-11-24 08:17');
  expect(displayOf(44442, 'date')).toBe('2021-09-03');
  expect(displayOf(-1, 'date')).toBe('#####');
  expect(displayOf('not a date', 'date')).toBe('not a date');
  expect(displayOf(0.1 + 0.2, 'general')).toBe('0.3');
  expect(displayOf(1e21, 'number')).toBe('1E+21');
  expect(displayOf(2.5, 'integer')).toBe('3');
  expect(displayOf(-2.5, 'integer')).toBe('-3');
  expect(displayOf(-0.2, 'integer')).toBe('0');
  expect(displayOf(42, 'text')).toBe('42');
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
  expect(view.usedRows).toBe(4);
  expect(view.columns).toBe(3);
});

test('a big table is drawn one page at a time, says which rows it shows, and names the columns once the header is above the page', async () => {
  const wb = createMemoryWorkbook();
  await wb.createTable({ name: 'tbl_big', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'N', format: 'number' }] });
  await wb.writeRows('tbl_big', 0, Array.from({ length: 1000 }, (_, i) => [i]));
  const first = gridOf(wb.snapshot(), 'Sheet1', { rows: 100 });
  expect(first.usedRows).toBe(1001);
  expect(first.cells.get('99,0')).toMatchObject({ raw: 98 });
  expect(first.cells.has('100,0')).toBe(false);
  expect(first.columnNames.size).toBe(0); // the header row itself is on the page
  expect(pageCaption(first, 100)).toBe('Showing rows 1–100 of 1,001');

  const third = gridOf(wb.snapshot(), 'Sheet1', { top: 250, rows: 100 }); // rounded down to the page start
  expect(third.top).toBe(200);
  expect(third.cells.has('199,0')).toBe(false);
  expect(third.cells.get('200,0')).toMatchObject({ raw: 199 });
  expect(third.cells.get('299,0')).toMatchObject({ raw: 298 });
  expect(third.columnNames.get(0)).toBe('N');
  expect(pageCaption(third, 100)).toBe('Showing rows 201–300 of 1,001');

  // A page past the end (the table shrank on a refresh) shows the last page instead of nothing.
  const past = gridOf(wb.snapshot(), 'Sheet1', { top: 5000, rows: 100 });
  expect(past.top).toBe(1000);
  expect(past.cells.get('1000,0')).toMatchObject({ raw: 999 });
  expect(pageCaption(past, 100)).toBe('Showing rows 1,001–1,001 of 1,001');
});

test('the last page of a 200,000-row table is computed without visiting the rows before it', async () => {
  const wb = createMemoryWorkbook();
  await wb.createTable({ name: 'tbl_huge', sheet: 'Sheet1', anchor: 'A1', columns: [{ name: 'N', format: 'number' }, { name: 'S', format: 'text' }] });
  const rows = Array.from({ length: 200_000 }, (_, i) => [i, `r${i}`]);
  await wb.writeRows('tbl_huge', 0, rows);
  const snapshot = wb.snapshot();
  const table = snapshot.tables[0]!;
  let touched = 0;
  // Counts row reads: gridOf must read one page of rows, not the whole table.
  const counted = new Proxy(table.rows, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) touched++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  const view = gridOf({ ...snapshot, tables: [{ ...table, rows: counted }] }, 'Sheet1', { top: 199_950 });
  expect(view.top).toBe(199_800);
  expect(view.cells.get('199999,1')).toMatchObject({ raw: 'r199998' });
  expect(view.cells.has('200000,1')).toBe(false);
  expect(touched).toBeLessThanOrEqual(200);
});

test('an empty sheet says so; a small one gives its row count', () => {
  const wb = createMemoryWorkbook();
  expect(pageCaption(gridOf(wb.snapshot(), 'Sheet1'))).toBe('Empty sheet');
});

test('arrow keys, Page keys, Home and Ctrl+End move the selection as in Excel, inside the grid', () => {
  const bounds = { lastRow: 1001, lastColumn: 7, page: 200, lastUsed: { row: 1000, col: 2 } };
  expect(nextCell('B2', { key: 'ArrowDown' }, bounds)).toBe('B3');
  expect(nextCell('B2', { key: 'ArrowRight' }, bounds)).toBe('C2');
  expect(nextCell('A1', { key: 'ArrowUp' }, bounds)).toBe('A1');
  expect(nextCell('A1', { key: 'ArrowLeft' }, bounds)).toBe('A1');
  expect(nextCell('H5', { key: 'ArrowRight' }, bounds)).toBe('H5');
  expect(nextCell('B2', { key: 'PageDown' }, bounds)).toBe('B202');
  expect(nextCell('B900', { key: 'PageDown' }, bounds)).toBe('B1002');
  expect(nextCell('C7', { key: 'Home' }, bounds)).toBe('A7');
  expect(nextCell('C7', { key: 'Home', ctrlKey: true }, bounds)).toBe('A1');
  expect(nextCell('A1', { key: 'End', ctrlKey: true }, bounds)).toBe('C1001');
  expect(nextCell('A1', { key: 'Enter' }, bounds)).toBeNull();
});

test("a post's Row key column is made hidden with a note on its header, and the grid draws it as a hidden strip", async () => {
  const { rowKeySpec } = await import('../../../src/writeback/rowkey');
  const wb = createMemoryWorkbook();
  await wb.createTable({ name: 'tbl_x', sheet: 'Sheet1', anchor: 'B2', columns: [{ name: 'Name', format: 'text' }] });
  await wb.writeRows('tbl_x', 0, [['a']]);
  await wb.addColumns('tbl_x', [rowKeySpec]);
  const spec = wb.snapshot().tables[0]!.specs[1]!;
  expect(spec).toMatchObject({ name: 'Row key', hidden: true, width: expect.any(Number) });
  expect(spec.headerNote).toMatch(/Do not edit/);
  const view = gridOf(wb.snapshot(), 'Sheet1');
  expect([...view.hiddenColumns]).toEqual([2]);
});
